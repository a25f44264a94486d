// GUI soak: a scripted session on the real MainWindow that, from a
// fixed seed, does random things a user does for a bounded wall time: parameter edits through
// the panel's widgets (valid and refused values), initial-value edits, undo and redo,
// play/pause, stepping, timeline scrubbing, system switches (C++ systems, bundled model files
// and a model file opened from disk), formulation and dynamics switches, comparison on and
// off, theme and presentation toggles, plot and data exports and scenario saves. After every
// action it checks that the panel shows the parameters the controller has for the displayed
// moment, that those are the ones the history records for that moment, that the undo stack is
// sane (and undoing everything then redoing up to where it was returns to the same system,
// parameters and initial conditions), that
// the title's modified mark matches the stack's clean state, and that no recorded value is
// NaN or infinite unless the run stopped with a message.
//
// NH_SOAK_SECONDS sets the wall time (default 60 s), NH_SOAK_SEED the seed (default
// 20261123). Any inconsistency fails it; on a failure (or a crash) the seed and the last
// actions are printed, and for undo all / redo all each step's command, moment and parameters.
#include <unistd.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <cstring>
#include <deque>
#include <map>
#include <memory>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "spin_box_typing.h"
#include "ui/export/stills.h"
#include "ui/panels/equations_panel.h"
#include "ui/panels/parameter_panel.h"
#include "ui/plot/plot_panels.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;
using nhui::SimulationController;

namespace {

// The last actions, also in a fixed buffer that a fatal signal handler can print.
constexpr int kLogSize = 30;
constexpr int kLineSize = 240;
char gCrashLog[kLogSize][kLineSize];
int gCrashNext = 0;
quint32 gSeed = 0;

void writeRaw(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void onFatalSignal(int sig) {
  char head[96];
  std::snprintf(head, sizeof head, "\nSOAK CRASH (signal %d), seed %u; last actions:\n", sig,
                gSeed);
  writeRaw(head);
  for (int i = 0; i < kLogSize; ++i) {
    const char* line = gCrashLog[(gCrashNext + i) % kLogSize];
    if (!line[0]) continue;
    writeRaw("  ");
    writeRaw(line);
    writeRaw("\n");
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

bool close(double a, double b) {
  return a == b || std::abs(a - b) <= 1e-11 * std::max(1.0, std::abs(b));
}

}  // namespace

class SoakTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // Model files the session saves go to a private folder (catalogue.h: NH_SYSTEMS_PATH).
    qputenv("NH_SYSTEMS_PATH", dir_.filePath("systems").toLocal8Bit());
  }

  // Soak finding: with the Equations dock shown, choosing the Whipple bicycle, and then each
  // edit of its parameters, derived its equations (GiNaC, 10-30 s here) on the GUI thread: the
  // window froze. They are derived off it now, the latest edit's values shown when done.
  void equationsAreDerivedOffTheGuiThread() {
    MainWindow window(false);
    QVERIFY(nhtest::showActive(window));
    window.showEquations();
    QVERIFY(window.equationsDock()->isVisible());
    QElapsedTimer took;
    took.start();
    window.chooseSystem("whipple_bicycle");
    QVERIFY2(took.elapsed() < 3000,
             qPrintable(QStringLiteral("choosing the bicycle took %1 ms").arg(took.elapsed())));
    took.restart();
    nhtest::typeInto(window.parameterPanel()->spinBox("mB"), "80");
    QCOMPARE(window.controller()->parameter("mB"), 80.0);
    QVERIFY2(took.elapsed() < 3000,
             qPrintable(QStringLiteral("an edit took %1 ms").arg(took.elapsed())));
    // A small C++ system's equations arrive, with the values of the last edit (a C++ system's
    // parameters are numbers in them): k = 2.5 makes the potential term 5/(2r), then 7/(2r).
    window.chooseSystem("central_force");
    nhtest::typeInto(window.parameterPanel()->spinBox("k"), "2.5");
    nhtest::typeInto(window.parameterPanel()->spinBox("k"), "3.5");
    QTRY_VERIFY_WITH_TIMEOUT(window.equationsPanel()->plainText().contains("7/(2*r)"), 60000);
  }

  void soak();

 private:
  // ---- The session ------------------------------------------------------------------------
  void log(const QString& action);
  QString failureReport(const QString& problem) const;
  QString check();                // "" when consistent
  QString checkUndoAllRedoAll();  // "" when undoing and redoing everything changes nothing
  QAction* action(const QString& text) const;
  void act();

  void editParameter(bool refused);
  void slideParameter();
  void editInitial();
  void switchSystem();
  void openModelFile();
  void switchDynamics();
  void switchCompare();
  void exportFiles();
  void saveScenario();

  // Answers message boxes that open during the session: the unsaved-scenario box with
  // Discard, any other with its escape button (and notes it).
  void answerMessageBoxes();

  std::unique_ptr<MainWindow> window_;
  QRandomGenerator random_;
  QTemporaryDir dir_;
  std::deque<QString> actions_;
  int actionCount_ = 0;
  int exports_ = 0;
  QStringList unexpectedBoxes_;
  // Samples already checked for NaN, per run history object.
  std::map<const nhui::RunHistory*, size_t> scanned_;
  QTimer boxTimer_;
};

void SoakTest::log(const QString& action) {
  const QString line =
      QStringLiteral("#%1 t=%2 %3 | %4")
          .arg(actionCount_)
          .arg(window_->controller()->displayTime(), 0, 'f', 2)
          .arg(QString::fromStdString(window_->controller()->system().name()), action);
  actions_.push_back(line);
  while (actions_.size() > kLogSize) actions_.pop_front();
  const QByteArray bytes = line.toUtf8().left(kLineSize - 1);
  std::memcpy(gCrashLog[gCrashNext], bytes.constData(), bytes.size());
  gCrashLog[gCrashNext][bytes.size()] = '\0';
  gCrashNext = (gCrashNext + 1) % kLogSize;
}

QString SoakTest::failureReport(const QString& problem) const {
  QString report = QStringLiteral("%1\nseed %2 (NH_SOAK_SEED=%2 repeats it), last actions:\n")
                       .arg(problem)
                       .arg(gSeed);
  for (const QString& a : actions_) report += "  " + a + "\n";
  return report;
}

QAction* SoakTest::action(const QString& text) const {
  for (QAction* a : window_->findChildren<QAction*>())
    if (a->text() == text) return a;
  return nullptr;
}

QString SoakTest::check() {
  SimulationController* c = window_->controller();
  const nh::SystemModel& system = c->system();
  // The panel shows the controller's parameters, which are those of the displayed moment.
  for (const nh::ParameterInfo& info : system.info().parameters) {
    const QString name = QString::fromStdString(info.name);
    nhui::CheckedSpinBox* spin = window_->parameterPanel()->spinBox(name);
    if (!spin) return QStringLiteral("the parameter panel has no field for %1").arg(name);
    const double value = c->parameter(info.name);
    if (!close(spin->value(), value))
      return QStringLiteral("the panel shows %1 = %2, the controller has %3")
          .arg(name)
          .arg(spin->value(), 0, 'g', 17)
          .arg(value, 0, 'g', 17);
  }
  const nhui::RunHistory& run = c->primary();
  if (!run.empty()) {
    const size_t k = c->displayIndex() + 1 == run.size() ? run.size() : c->displayIndex();
    if (run.parametersAt(k) != c->parameters())
      return QStringLiteral("the controller's parameters differ from those recorded at t = %1")
          .arg(c->displayTime());
  }
  QUndoStack* undo = window_->undoStack();
  if (undo->index() < 0 || undo->index() > undo->count())
    return QStringLiteral("undo index %1 of %2").arg(undo->index()).arg(undo->count());
  if (!window_->windowTitle().contains("[*]"))
    return QStringLiteral("the title has no modified placeholder: %1").arg(window_->windowTitle());
  if (window_->isWindowModified() == undo->isClean())
    return QStringLiteral("the title says %1 but the undo stack is %2")
        .arg(window_->isWindowModified() ? "modified" : "unmodified",
             undo->isClean() ? "clean" : "not clean");
  // No NaN or infinity in what was recorded, unless the run stopped with a message.
  if (c->lastError().isEmpty()) {
    for (const nhui::RunHistory* r : {&c->primary(), c->comparison()}) {
      if (!r) continue;
      size_t& from = scanned_[r];
      if (from > r->size()) from = 0;  // truncated (an edit or a restart)
      const int columns = r->layout().stride();
      for (int col = 0; col < columns; ++col) {
        const std::vector<double>& values = r->column(col);
        for (size_t i = from; i < values.size(); ++i)
          if (!std::isfinite(values[i]))
            return QStringLiteral("%1 = %2 recorded at t = %3 without an error message")
                .arg(QString::fromStdString(r->layout().columns[col]))
                .arg(values[i])
                .arg(r->time(i));
      }
      from = r->size();
    }
  }
  return {};
}

QString SoakTest::checkUndoAllRedoAll() {
  SimulationController* c = window_->controller();
  QUndoStack* undo = window_->undoStack();
  c->pause();
  c->tick();
  const std::string system = c->system().name();
  const std::vector<double> parameters = c->parameters();
  const std::map<std::string, double> initial = c->initialOverrides();
  const int index = undo->index();
  const int count = undo->count();
  log(QStringLiteral("undo all (%1 of %2), redo to %1").arg(index).arg(count));
  // Each step's command, displayed moment and parameters, for the report.
  QStringList trace;
  auto step = [&](const char* what) {
    QString values;
    for (const double v : c->parameters()) values += QStringLiteral(" %1").arg(v, 0, 'g', 6);
    trace << QStringLiteral("    %1 -> %2 \"%3\" t=%4:%5")
                 .arg(QString::fromLatin1(what))
                 .arg(undo->index())
                 .arg(undo->text(what[0] == 'u' ? undo->index() : undo->index() - 1))
                 .arg(c->displayTime(), 0, 'f', 3)
                 .arg(values);
  };
  step("start");
  while (undo->canUndo()) {
    undo->undo();
    step("undo");
  }
  // A command refused on the way would be dropped (undo_commands.h), losing that edit.
  if (undo->count() != count)
    return QStringLiteral("undo all dropped %1 commands: %2")
        .arg(count - undo->count())
        .arg(window_->errorBanner()->text());
  while (undo->index() < index) {
    undo->redo();
    step("redo");
  }
  c->tick();
  if (undo->count() != count)
    return QStringLiteral("redo dropped %1 commands: %2")
        .arg(count - undo->count())
        .arg(window_->errorBanner()->text());
  if (c->system().name() != system)
    return QStringLiteral("undo all, redo all: system %1, was %2")
        .arg(QString::fromStdString(c->system().name()), QString::fromStdString(system));
  if (c->initialOverrides() != initial)
    return QStringLiteral("undo all, redo all changed the initial conditions");
  // A continuous phase (the table's angle at t = 0) is re-derived whenever an edit is applied,
  // so that the quantity stays continuous at that moment (SimulationController::setParameter);
  // an edit redone at another moment (after a redone switch restarted the run) rightly gets
  // another phase. Every other parameter must come back exactly.
  std::vector<bool> phase(parameters.size(), false);
  for (const auto& p : c->system().info().continuousPhases)
    if (const int j = c->system().parameterIndex(p.parameter); j >= 0 && size_t(j) < phase.size())
      phase[j] = true;
  bool same = c->parameters().size() == parameters.size();
  for (size_t i = 0; same && i < parameters.size(); ++i)
    same = phase[i] || c->parameters()[i] == parameters[i];
  if (!same) {
    QString diff;
    const auto& infos = c->system().info().parameters;
    for (size_t i = 0; i < infos.size() && i < parameters.size(); ++i)
      if (!phase[i] && c->parameters()[i] != parameters[i])
        diff += QStringLiteral(" %1: %2 → %3")
                    .arg(QString::fromStdString(infos[i].name))
                    .arg(parameters[i], 0, 'g', 17)
                    .arg(c->parameters()[i], 0, 'g', 17);
    return QStringLiteral("undo all, redo all changed the parameters:%1\n%2")
        .arg(diff, trace.join('\n'));
  }
  return {};
}

void SoakTest::answerMessageBoxes() {
  for (QWidget* w : QApplication::topLevelWidgets()) {
    auto* box = qobject_cast<QMessageBox*>(w);
    if (!box || !box->isVisible()) continue;
    if (box->objectName() == "unsavedScenarioBox") {
      log("  unsaved-scenario box: Discard");
      box->button(QMessageBox::Discard)->click();
    } else {
      unexpectedBoxes_ << box->text();
      log("  message box: " + box->text().left(120));
      if (QAbstractButton* escape = box->escapeButton())
        escape->click();
      else
        box->reject();
    }
  }
}

void SoakTest::editParameter(bool refused) {
  SimulationController* c = window_->controller();
  const auto& infos = c->system().info().parameters;
  if (infos.empty()) return;
  const nh::ParameterInfo& info = infos[random_.bounded(int(infos.size()))];
  const QString name = QString::fromStdString(info.name);
  nhui::CheckedSpinBox* spin = window_->parameterPanel()->spinBox(name);
  const double before = c->parameter(info.name);
  QString text;
  if (refused) {
    const int kind = random_.bounded(4);
    // All digits: six would round min − 1.3 back onto a bound of −10⁶, an allowed value.
    if (kind == 0 && std::isfinite(info.min))
      text = QString::number(info.min - 1 - random_.bounded(5.0), 'g', 17);
    else if (kind == 1 && std::isfinite(info.max))
      text = QString::number(info.max + 1 + random_.bounded(5.0), 'g', 17);
    else if (kind == 2)
      text = "1e999";
    else
      text = "abc";
  } else {
    const double scale = info.defaultValue != 0 ? std::abs(info.defaultValue) : 1.0;
    double v = info.defaultValue + scale * (random_.generateDouble() - 0.5);
    if (!info.allows(v)) v = info.defaultValue;
    text = QString::number(v, 'g', 6);
  }
  log(QStringLiteral("type %1 = %2").arg(name, text));
  nhtest::typeInto(spin, text);
  QCoreApplication::processEvents();
  // A refused value is never applied. The value may still change meanwhile by itself: a
  // scenario just opened carries the record's timed edits, which the run applies as it
  // passes their moments.
  bool number = false;
  const double typed = text.toDouble(&number);
  const double now = c->parameter(info.name);
  if (refused && ((number && now == typed) || !info.allows(now)))
    QFAIL(qPrintable(failureReport(QStringLiteral("refused %1 = %2 was applied: %3 (before: %4)")
                                       .arg(name, text)
                                       .arg(now)
                                       .arg(before))));
  // The spin box may hold the widget that the next edit replaces; leave it unfocused.
  window_->setFocus();
}

void SoakTest::slideParameter() {
  const auto& infos = window_->controller()->system().info().parameters;
  if (infos.empty()) return;
  const QString name = QString::fromStdString(infos[random_.bounded(int(infos.size()))].name);
  QSlider* slider = window_->parameterPanel()->slider(name);
  const int steps = 1 + random_.bounded(4);
  log(QStringLiteral("drag %1's slider (%2 moves)").arg(name).arg(steps));
  slider->setSliderDown(true);
  for (int i = 0; i < steps; ++i) slider->setValue(random_.bounded(slider->maximum() + 1));
  slider->setSliderDown(false);
}

void SoakTest::editInitial() {
  SimulationController* c = window_->controller();
  const auto& names = c->primary().layout().state.names;
  if (names.empty()) return;
  const QString name = QString::fromStdString(names[random_.bounded(int(names.size()))]);
  nhui::CheckedSpinBox* spin = window_->initialPanel()->spinBox(name);
  if (!spin) QFAIL(qPrintable(failureReport("no initial field for " + name)));
  const QString text = random_.bounded(8) == 0
                           ? QString("nan")
                           : QString::number(spin->value() + random_.bounded(1.0) - 0.5, 'g', 6);
  log(QStringLiteral("type initial %1 = %2").arg(name, text));
  nhtest::typeInto(spin, text);
  window_->setFocus();
}

void SoakTest::switchSystem() {
  auto* box = window_->findChild<QComboBox*>("systemBox");
  const int i = random_.bounded(box->count());
  log("choose system " + box->itemData(i).toString());
  box->setCurrentIndex(i);
  emit box->activated(i);
}

void SoakTest::openModelFile() {
  // A model file from disk: a bundled one under another name.
  const auto& files = nh::bundledModelFiles();
  const auto& [fileName, text] = files[random_.bounded(int(files.size()))];
  const QString base = QFileInfo(QString::fromStdString(fileName)).completeBaseName();
  QString model = QString::fromStdString(text);
  model.replace(QRegularExpression("^name: .*$", QRegularExpression::MultilineOption),
                "name: soak_" + base);
  const QString path = dir_.filePath("soak_" + base + ".yaml");
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(model.toUtf8());
  f.close();
  log("open model file " + path);
  window_->openModelFile(path);
}

void SoakTest::switchDynamics() {
  // The dynamics of the primary run come from a scenario: saved, changed, opened again.
  const QString saved = dir_.filePath("dynamics_saved.json");
  const QString changed = dir_.filePath("dynamics.json");
  const char* dynamics = random_.bounded(2) ? "vakonomic" : "nonholonomic";
  log(QStringLiteral("open the scenario with dynamics %1").arg(dynamics));
  if (!window_->saveScenario(saved)) return;  // said in the banner
  QFile in(saved);
  QVERIFY(in.open(QIODevice::ReadOnly));
  QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
  json["dynamics"] = dynamics;
  QFile out(changed);
  QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
  out.write(QJsonDocument(json).toJson());
  out.close();
  window_->openScenario(changed);
}

void SoakTest::switchCompare() {
  SimulationController* c = window_->controller();
  const int mode = random_.bounded(3);
  if (mode == 2 && !c->system().info().parameters.empty()) {
    const auto& infos = c->system().info().parameters;
    const nh::ParameterInfo& info = infos[random_.bounded(int(infos.size()))];
    double v = info.defaultValue * (1 + 0.2 * random_.generateDouble());
    if (!info.allows(v)) v = info.defaultValue;
    log(QStringLiteral("compare ghost %1 = %2").arg(QString::fromStdString(info.name)).arg(v));
    window_->session()->setComparison(nhui::CompareMode::Ghost, info.name, v);
  } else {
    auto* box = window_->findChild<QComboBox*>("compareMode");
    const int i = mode == 2 ? 0 : mode;
    log(QStringLiteral("compare mode %1").arg(box->itemText(i)));
    box->setCurrentIndex(i);
    emit box->activated(i);
  }
}

void SoakTest::exportFiles() {
  SimulationController* c = window_->controller();
  const int n = exports_++;
  try {
    switch (random_.bounded(3)) {
      case 0: {
        const QString path = dir_.filePath(QStringLiteral("phase%1.png").arg(n % 4));
        log("export the phase portrait as PNG");
        nhui::savePlotImage(path,
                            nhui::plotSnapshot(*window_->phasePanel()->plot(),
                                               window_->phasePanel()->plot()->xLabel()),
                            QSize(480, 320));
        QVERIFY2(QFileInfo(path).size() > 0, qPrintable(failureReport("empty " + path)));
        break;
      }
      case 1: {
        const QString path = dir_.filePath(QStringLiteral("series%1.svg").arg(n % 4));
        log("export the time series as SVG");
        nhui::savePlotImage(path, nhui::plotSnapshot(*window_->timeSeriesPanel()->plot(), "t [s]"),
                            QSize(480, 320));
        QVERIFY2(QFileInfo(path).size() > 0, qPrintable(failureReport("empty " + path)));
        break;
      }
      default: {
        const QString path = dir_.filePath(QStringLiteral("data%1.csv").arg(n % 4));
        log("export the trajectory as CSV");
        if (c->primary().empty()) return;
        nhui::saveTrajectory(path, c->primary(), c->scenario());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const qsizetype rows = f.readAll().count('\n');
        QVERIFY2(rows == qsizetype(c->primary().size()) + 1,
                 qPrintable(failureReport(
                     QStringLiteral("%1 rows for %2 samples").arg(rows).arg(c->primary().size()))));
      }
    }
  } catch (const nh::Error& e) {
    QFAIL(qPrintable(failureReport(QStringLiteral("export failed: %1").arg(e.what()))));
  }
}

void SoakTest::saveScenario() {
  const QString path = dir_.filePath("saved.json");
  log("save the scenario");
  QVERIFY2(window_->saveScenario(path),
           qPrintable(failureReport("saving failed: " + window_->errorBanner()->text())));
  QVERIFY2(window_->undoStack()->isClean() && !window_->isWindowModified(),
           qPrintable(failureReport("saved, yet still marked modified")));
}

void SoakTest::act() {
  SimulationController* c = window_->controller();
  QUndoStack* undo = window_->undoStack();
  ++actionCount_;
  // Weights: edits and undo/redo often, heavy switches and files now and then.
  const int r = random_.bounded(100);
  if (r < 16) {
    editParameter(false);
  } else if (r < 22) {
    editParameter(true);
  } else if (r < 28) {
    slideParameter();
  } else if (r < 34) {
    editInitial();
  } else if (r < 44) {
    log(QStringLiteral("undo (%1 of %2)").arg(undo->index()).arg(undo->count()));
    undo->undo();
  } else if (r < 51) {
    log(QStringLiteral("redo (%1 of %2)").arg(undo->index()).arg(undo->count()));
    if (random_.bounded(2))
      QTest::keyClick(window_.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    else
      undo->redo();
  } else if (r < 58) {
    log(c->playing() ? "pause" : "play");
    action(c->playing() ? "Pause" : "Play")->trigger();
  } else if (r < 65) {
    QSlider* timeline = window_->timeline();
    const int to = random_.bounded(timeline->maximum() + 1);
    log(QStringLiteral("scrub to %1 of %2").arg(to).arg(timeline->maximum()));
    timeline->setSliderDown(true);
    timeline->setValue(to);
    timeline->setSliderDown(false);
  } else if (r < 69) {
    const bool back = random_.bounded(2);
    log(back ? "step back" : "step");
    action(back ? "Step back" : "Step")->trigger();
  } else if (r < 71) {
    log("reset");
    action("Reset")->trigger();
  } else if (r < 75) {
    switchSystem();
  } else if (r < 76) {
    openModelFile();
  } else if (r < 79) {
    const bool gibbs = random_.bounded(2);
    log(gibbs ? "formulation Gibbs–Appell" : "formulation multipliers");
    action(gibbs ? QStringLiteral("Gibbs–Appell") : QStringLiteral("Multipliers (KKT)"))->trigger();
  } else if (r < 80) {
    switchDynamics();
  } else if (r < 84) {
    switchCompare();
  } else if (r < 86) {
    const bool dark = window_->theme() == MainWindow::Theme::Light;
    log(dark ? "theme dark" : "theme light");
    action(dark ? "&Dark" : "&Light")->trigger();
  } else if (r < 87) {
    log(window_->presentationMode() ? "presentation off" : "presentation on");
    action("&Presentation mode")->trigger();
  } else if (r < 90) {
    exportFiles();
  } else if (r < 92) {
    saveScenario();
  } else if (r < 94) {
    QSlider* speed = window_->findChild<QSlider*>("speedSlider");
    const int to = random_.bounded(301);  // 0.01× … 10×
    log(QStringLiteral("speed slider %1").arg(to));
    speed->setValue(to);
  } else {
    const int ms = 20 + random_.bounded(400);
    log(QStringLiteral("wait %1 ms").arg(ms));
    QTest::qWait(ms);
  }
}

// An inconsistency fails the suite, with the seed and the last actions: the panel, the undo
// stack and the simulation must agree. Crashes, sanitizer reports and hangs fail it too.
#define FAIL_INCONSISTENT(problem) QFAIL(qPrintable(failureReport(problem)))
void SoakTest::soak() {
  bool ok = false;
  const quint32 seed = qEnvironmentVariableIntValue("NH_SOAK_SEED", &ok);
  gSeed = ok ? seed : 20261123u;
  const int seconds = qEnvironmentVariableIsSet("NH_SOAK_SECONDS")
                          ? qEnvironmentVariableIntValue("NH_SOAK_SECONDS")
                          : 60;
  random_.seed(gSeed);
  qInfo("soak: seed %u, %d s", gSeed, seconds);
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, onFatalSignal);

  window_ = std::make_unique<MainWindow>(false);
  QVERIFY(nhtest::showActive(*window_));
  connect(&boxTimer_, &QTimer::timeout, this, &SoakTest::answerMessageBoxes);
  boxTimer_.start(50);

  QElapsedTimer wall;
  wall.start();
  while (wall.elapsed() < seconds * 1000LL) {
    QElapsedTimer took;
    took.start();
    act();
    if (QTest::currentTestFailed()) return;
    if (took.elapsed() > 2000)
      qInfo("soak: slow action (%lld ms): %s", took.elapsed(), qPrintable(actions_.back()));
    QTest::qWait(15);  // a frame: the controller's tick follows the timeline
    if (const QString problem = check(); !problem.isEmpty()) FAIL_INCONSISTENT(problem);
    if (actionCount_ % 40 == 0) {
      took.start();
      if (const QString problem = checkUndoAllRedoAll(); !problem.isEmpty())
        FAIL_INCONSISTENT(problem);
      if (took.elapsed() > 2000)
        qInfo("soak: slow undo all, redo (%lld ms): %s", took.elapsed(),
              qPrintable(actions_.back()));
      window_->controller()->play();
    }
  }
  if (const QString problem = checkUndoAllRedoAll(); !problem.isEmpty()) FAIL_INCONSISTENT(problem);
  scanned_.clear();
  if (const QString problem = check(); !problem.isEmpty()) FAIL_INCONSISTENT(problem);
  qInfo("soak: %d actions in %lld s, %d exports, undo stack %d", actionCount_,
        wall.elapsed() / 1000, exports_, window_->undoStack()->count());
  QVERIFY2(unexpectedBoxes_.isEmpty(),
           qPrintable(failureReport("message boxes: " + unexpectedBoxes_.join(" | "))));
  boxTimer_.stop();
  window_.reset();
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NonholonomicLabTests");
  SoakTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "soak_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
