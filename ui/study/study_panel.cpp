// The Study panel (study_panel.h): its axis and run rows, the study read from them and run on a
// background thread with progress and cancel, the equivalent `nhsim sweep` command line, a
// CSV opened instead, the PNG/SVG and CSV exports, and a clicked cell opened as a run.
#include "ui/study/study_panel.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/io/atomic_output.h"
#include "core/model/catalogue.h"
#include "core/study/study_runner.h"
#include "ui/sim/simulation_controller.h"

namespace nhui {

namespace {

QString number(double v) { return QString::fromStdString(nh::formatValue(v)); }

// A word as a shell reads it: plain, or between single quotes.
QString shellWord(const QString& word) {
  bool plain = !word.isEmpty();
  for (const QChar c : word)
    plain = plain && (c.isLetterOrNumber() || QStringLiteral("_-+=:.,/@%^").contains(c));
  if (plain) return word;
  QString quoted = word;
  quoted.replace("'", "'\\''");
  return "'" + quoted + "'";
}

// The state variables whose initial value a study can vary: the coordinates and the
// independent velocities; the others are completed from the constraints (SystemInfo::
// independentVelocities), so a value given for them would not be the run's.
std::vector<std::string> variedInitialValues(const nh::SystemModel& system,
                                             nh::DynamicsKind dynamics) {
  const nh::SystemInfo& info = system.info();
  const auto& independent = info.independentVelocities;
  std::vector<std::string> out;
  for (const std::string& name : nh::stateLayout(system, dynamics).names) {
    const bool velocity =
        std::find(info.velocities.begin(), info.velocities.end(), name) != info.velocities.end();
    if (velocity && !independent.empty() &&
        std::find(independent.begin(), independent.end(), name) == independent.end())
      continue;
    out.push_back(name);
  }
  return out;
}

// An axis's title: its name, its unit in brackets (a parameter's, unless it has none or is
// "1"), and "(initial value)" for a state variable.
QString axisLabel(const nh::SystemModel& system, const nh::study::GridAxis& axis) {
  const int p = system.parameterIndex(axis.name);
  const std::string unit = p >= 0 ? system.info().parameters[static_cast<size_t>(p)].unit : "";
  return QString::fromStdString(axis.name) +
         (unit.empty() || unit == "1" ? QString() : QString::fromStdString(" [" + unit + "]")) +
         (p >= 0 ? QString() : StudyPanel::tr(" (initial value)"));
}

// The map of a study about to run: axis values from the study itself (Study::variedValues),
// cells empty.
StudyGrid emptyGridOf(const nh::study::Study& study, const nh::study::StudySpec& spec,
                      const nh::SystemModel& system) {
  const int axisCount = static_cast<int>(spec.grid.size());
  StudyGrid grid;
  grid.xName = QString::fromStdString(spec.grid[0].name);
  grid.xLabel = axisLabel(system, spec.grid[0]);
  grid.valueName = QString::fromStdString(study.columns()[static_cast<size_t>(axisCount)]);
  const long ny = axisCount == 2 ? spec.grid[1].count : 1;
  std::vector<double> varied(static_cast<size_t>(axisCount));
  for (long ix = 0; ix < spec.grid[0].count; ++ix) {
    study.variedValues(ix * ny, varied.data());
    grid.xs.push_back(varied[0]);
  }
  if (axisCount == 2) {
    grid.yName = QString::fromStdString(spec.grid[1].name);
    grid.yLabel = axisLabel(system, spec.grid[1]);
    for (long iy = 0; iy < ny; ++iy) {
      study.variedValues(iy, varied.data());
      grid.ys.push_back(varied[1]);
    }
  }
  grid.clearCells();
  return grid;
}

// What the study varies and measures, as a session saves it.
StudySettings settingsOf(const nh::study::StudySpec& spec, const QString& measure) {
  StudySettings settings;
  for (const auto& axis : spec.grid)
    settings.axes.push_back(
        {QString::fromStdString(axis.name), axis.from, axis.to, static_cast<int>(axis.count)});
  settings.measure = measure;
  settings.tEnd = spec.base.tEnd;
  return settings;
}

QString duration(double seconds) {
  if (seconds < 60) return QString::number(std::ceil(seconds)) + " s";
  if (seconds < 3600)
    return QString("%1 min %2 s")
        .arg(std::floor(seconds / 60))
        .arg(std::fmod(seconds, 60), 0, 'f', 0);
  return QString("%1 h %2 min")
      .arg(std::floor(seconds / 3600))
      .arg(std::floor(std::fmod(seconds, 3600) / 60));
}

}  // namespace

// What the study's thread shares with the panel. Results wait in `pending` until the GUI
// thread takes them; one queued call is outstanding at a time (`posted`).
struct StudyPanel::Job {
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  std::vector<nh::study::RunResult> pending;
  bool posted = false;
};

StudyPanel::StudyPanel(SimulationController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  // The controls above the map, or beside it where the panel is much wider than high.
  box_ = new QBoxLayout(QBoxLayout::TopToBottom, this);
  controls_ = new QWidget;
  auto* layout = new QVBoxLayout(controls_);
  layout->setContentsMargins(0, 0, 0, 0);
  box_->addWidget(controls_);
  auto* form = new QGridLayout;
  layout->addLayout(form);
  addAxisRows(form);
  addRunRows(form);
  layout->addLayout(buildFileButtons());
  layout->addWidget(buildCsvColumns());
  addStatusLabels(layout);
  map_ = new StudyMap;
  layout->addStretch(0);
  box_->addWidget(map_, 1);
  connect(map_, &StudyMap::cellClicked, this, &StudyPanel::openCell);

  rebuildChoices();
  connect(controller_, &SimulationController::scenarioChanged, this, &StudyPanel::rebuildChoices);
}

void StudyPanel::addAxisRows(QGridLayout* form) {
  for (int a = 0; a < 2; ++a) {
    AxisControls& c = axes_[a];
    c.name = new QComboBox;
    c.name->setObjectName(a == 0 ? "studyAxis1" : "studyAxis2");
    c.from = new QLineEdit;
    c.to = new QLineEdit;
    c.count = new QSpinBox;
    c.count->setRange(1, 100000);
    c.count->setValue(a == 0 ? 21 : 11);
    c.from->setToolTip(tr("first value"));
    c.to->setToolTip(tr("last value (included)"));
    c.count->setToolTip(tr("number of values, evenly spaced"));
    connect(c.name, &QComboBox::activated, this, [this, a] { axisChosen(a); });
  }
  secondAxis_ = new QCheckBox(tr("and"));
  secondAxis_->setToolTip(tr("Vary a second quantity: a heat map instead of a line plot"));
  form->addWidget(new QLabel(tr("Vary")), 0, 0);
  form->addWidget(secondAxis_, 1, 0);
  for (int a = 0; a < 2; ++a) {
    form->addWidget(axes_[a].name, a, 1);
    form->addWidget(new QLabel(tr("from")), a, 2);
    form->addWidget(axes_[a].from, a, 3);
    form->addWidget(new QLabel(tr("to")), a, 4);
    form->addWidget(axes_[a].to, a, 5);
    form->addWidget(new QLabel(tr("N")), a, 6);
    form->addWidget(axes_[a].count, a, 7);
  }
  form->setColumnStretch(1, 2);
  form->setColumnStretch(3, 1);
  form->setColumnStretch(5, 1);
  auto enableSecond = [this](bool on) {
    for (QWidget* w : {static_cast<QWidget*>(axes_[1].name), static_cast<QWidget*>(axes_[1].from),
                       static_cast<QWidget*>(axes_[1].to), static_cast<QWidget*>(axes_[1].count)})
      w->setEnabled(on);
  };
  connect(secondAxis_, &QCheckBox::toggled, this, enableSecond);
  enableSecond(false);
}

void StudyPanel::addRunRows(QGridLayout* form) {
  measure_ = new QComboBox;
  measure_->setEditable(true);
  measure_->setInsertPolicy(QComboBox::NoInsert);
  measure_->setToolTip(
      tr("An expression over final(E), initial(E), min(E), max(E), mean(E) and "
         "first_crossing(E), E an expression of the output columns; as nhsim sweep --measure"));
  form->addWidget(new QLabel(tr("Measure")), 2, 0);
  form->addWidget(measure_, 2, 1, 1, 7);

  tEnd_ = new QLineEdit;
  tEnd_->setToolTip(tr("Each run integrates t = 0 … t end (the main view's output step)"));
  jobs_ = new QSpinBox;
  const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs_->setRange(1, 1024);
  jobs_->setValue(hardware);
  jobs_->setToolTip(tr("Worker threads"));
  run_ = new QPushButton(tr("Run"));
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setEnabled(false);
  form->addWidget(new QLabel(tr("t end")), 3, 0);
  form->addWidget(tEnd_, 3, 1);
  form->addWidget(new QLabel(tr("workers")), 3, 2);
  form->addWidget(jobs_, 3, 3);
  form->addWidget(run_, 3, 5);
  form->addWidget(cancel_, 3, 6, 1, 2);
  connect(run_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancel_, &QPushButton::clicked, this, &StudyPanel::cancel);
}

QHBoxLayout* StudyPanel::buildFileButtons() {
  auto* files = new QHBoxLayout;
  open_ = new QPushButton(tr("Open CSV…"));
  open_->setToolTip(tr("Show a CSV written by nhsim sweep or nhsim linearize --sweep"));
  export_ = new QToolButton;
  export_->setText(tr("Export"));
  export_->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(export_);
  auto ask = [this](const QString& title, const QString& filter) {
    return QFileDialog::getSaveFileName(this, title, QString(), filter);
  };
  exportMenu->addAction(tr("Map as PNG…"), this, [this, ask] {
    const QString path = ask(tr("Export the map"), tr("PNG image (*.png)"));
    if (!path.isEmpty()) exportImage(path);
  });
  exportMenu->addAction(tr("Map as SVG…"), this, [this, ask] {
    const QString path = ask(tr("Export the map"), tr("SVG image (*.svg)"));
    if (!path.isEmpty()) exportImage(path);
  });
  exportMenu->addAction(tr("Data as CSV (as nhsim sweep writes it)…"), this, [this, ask] {
    const QString path = ask(tr("Export the study's data"), tr("CSV (*.csv)"));
    if (!path.isEmpty()) exportCsv(path);
  });
  export_->setMenu(exportMenu);
  files->addWidget(open_);
  files->addWidget(export_);
  files->addStretch(1);
  connect(open_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a study CSV"), QString(),
                                                      tr("CSV (*.csv);;All files (*)"));
    if (!path.isEmpty()) openCsv(path);
  });
  return files;
}

QWidget* StudyPanel::buildCsvColumns() {
  csvColumns_ = new QWidget;
  auto* columns = new QHBoxLayout(csvColumns_);
  columns->setContentsMargins(0, 0, 0, 0);
  csvX_ = new QComboBox;
  csvY_ = new QComboBox;
  csvValue_ = new QComboBox;
  columns->addWidget(new QLabel(tr("x")));
  columns->addWidget(csvX_, 1);
  columns->addWidget(new QLabel(tr("y")));
  columns->addWidget(csvY_, 1);
  columns->addWidget(new QLabel(tr("value")));
  columns->addWidget(csvValue_, 1);
  csvColumns_->hide();
  for (QComboBox* box : {csvX_, csvY_, csvValue_})
    connect(box, &QComboBox::activated, this, &StudyPanel::chooseCsvColumns);
  return csvColumns_;
}

void StudyPanel::addStatusLabels(QVBoxLayout* layout) {
  progress_ = new QLabel;
  message_ = new QLabel;
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  failures_ = new QLabel;
  layout->addWidget(progress_);
  layout->addWidget(failures_);
  layout->addWidget(message_);
  message_->hide();
  failures_->hide();
}

void StudyPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Beside: when the room the panel has (its scroll area's view, when in one) is much wider
  // than high and leaves the map 360 pixels of width.
  const QSize room = parentWidget() ? parentWidget()->size() : size();
  const bool beside =
      room.width() >= 2 * room.height() && room.width() - controls_->sizeHint().width() >= 360;
  box_->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
  controls_->setMaximumWidth(beside ? controls_->sizeHint().width() : QWIDGETSIZE_MAX);
}

void StudyPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (fitted_) return;
  fitted_ = true;
  // Shown the first time in a dock of a main window: the dock gets the height the controls
  // and the map need (at most half the window's), so that the map is not cut off below them.
  QWidget* w = parentWidget();
  while (w && !qobject_cast<QDockWidget*>(w)) w = w->parentWidget();
  auto* dock = qobject_cast<QDockWidget*>(w);
  auto* window = dock ? qobject_cast<QMainWindow*>(dock->parentWidget()) : nullptr;
  if (!window || dock->isFloating()) return;
  // After the dock's layout has settled (a resize asked for while it is shown is lost).
  QTimer::singleShot(0, dock, [this, dock, window] {
    const int needed =
        controls_->sizeHint().height() + map_->sizeHint().height() + (dock->height() - height());
    const int wanted = std::min(needed, window->height() / 2);
    if (dock->isVisible() && !dock->isFloating() && dock->height() < wanted)
      window->resizeDocks({dock}, {wanted}, Qt::Vertical);
  });
}

StudyPanel::~StudyPanel() {
  if (job_) job_->cancel = true;
  if (thread_.joinable()) thread_.join();
}

void StudyPanel::rebuildChoices() {
  const nh::SystemModel& system = controller_->system();
  // Another system: the last study was of the one before (its names may not exist here).
  if (system.name() != systemName_ && lastSettings_) {
    lastSettings_.reset();
    emit settingsChanged(lastSettings_);
  }
  systemName_ = system.name();
  const nh::Scenario scenario = controller_->scenario();
  for (int a = 0; a < 2; ++a) {
    QComboBox* box = axes_[a].name;
    const QString kept = box->currentText();
    box->clear();
    for (const nh::ParameterInfo& p : system.info().parameters)
      box->addItem(QString::fromStdString(p.name), QString::fromStdString(p.unit));
    box->insertSeparator(box->count());
    for (const std::string& s : variedInitialValues(system, scenario.dynamics))
      box->addItem(QString::fromStdString(s), QStringLiteral("initial value"));
    int index = kept.isEmpty() ? -1 : box->findText(kept);  // "" would find the separator
    if (index < 0)
      index = std::min(a == 0 ? 0 : 1, static_cast<int>(system.info().parameters.size()) - 1);
    box->setCurrentIndex(std::max(0, index));
    axisChosen(a);
  }
  measure_->clear();
  // A state variable's final value first (final(t) is the end time, the same in every run).
  QStringList suggestions;
  const auto names = nh::stateLayout(system, scenario.dynamics).names;
  for (size_t i = 0; i < std::min<size_t>(names.size(), 3); ++i) {
    const QString q = QString::fromStdString(names[i]);
    suggestions << "final(" + q + ")"
                << "max(abs(" + q + "))"
                << "first_crossing(" + q + ")";
  }
  suggestions << "max(energy) - min(energy)";
  measure_->addItems(suggestions);
  measure_->setCurrentText(suggestions.front());
  tEnd_->setText(number(scenario.tEnd));
}

void StudyPanel::axisChosen(int axis) {
  AxisControls& c = axes_[axis];
  const std::string name = c.name->currentText().toStdString();
  const nh::SystemModel& system = controller_->system();
  double lo = 0, hi = 1;
  const int p = system.parameterIndex(name);
  if (p >= 0) {
    const nh::ParameterInfo& info = system.info().parameters[static_cast<size_t>(p)];
    const double v = controller_->parameters()[static_cast<size_t>(p)];
    // The parameter's range where it is finite, else half to one and a half times its value;
    // ends that the range excludes are moved 5 % inwards.
    lo = std::isfinite(info.min) ? info.min : (v == 0 ? -1 : v - 0.5 * std::abs(v));
    hi = std::isfinite(info.max) ? info.max : (v == 0 ? 1 : v + 0.5 * std::abs(v));
    if (!std::isfinite(info.max) && lo >= hi) hi = lo + std::max(1.0, std::abs(lo));
    if (!std::isfinite(info.min) && lo >= hi) lo = hi - std::max(1.0, std::abs(hi));
    const double span = hi - lo;
    if (info.minExclusive || !info.allows(lo)) lo += 0.05 * span;
    if (info.maxExclusive || !info.allows(hi)) hi -= 0.05 * span;
  } else {
    const nh::StateLayout layout = nh::stateLayout(system, controller_->scenario().dynamics);
    const int s = layout.find(name);
    const auto& x0 = controller_->initialState();
    const double v = s >= 0 && static_cast<size_t>(layout.index[static_cast<size_t>(s)]) < x0.size()
                         ? x0[static_cast<size_t>(layout.index[static_cast<size_t>(s)])]
                         : 0.0;
    lo = v == 0 ? -1 : v - 0.5 * std::abs(v);
    hi = v == 0 ? 1 : v + 0.5 * std::abs(v);
  }
  // Six digits: a default is a suggestion, not a value to carry to the last bit.
  c.from->setText(QString::number(lo, 'g', 6));
  c.to->setText(QString::number(hi, 'g', 6));
}

void StudyPanel::setAxis(int axis, const QString& name, double from, double to, int count) {
  AxisControls& c = axes_[axis];
  c.name->setCurrentText(name);
  c.from->setText(number(from));
  c.to->setText(number(to));
  c.count->setValue(count);
}

void StudyPanel::applySettings(const StudySettings& settings) {
  for (size_t a = 0; a < settings.axes.size() && a < 2; ++a) {
    const StudySettings::Axis& axis = settings.axes[a];
    if (axes_[a].name->findText(axis.name) < 0) continue;
    setAxis(static_cast<int>(a), axis.name, axis.from, axis.to, axis.count);
  }
  setSecondAxisEnabled(settings.axes.size() >= 2);
  if (!settings.measure.isEmpty()) setMeasure(settings.measure);
  setEndTime(settings.tEnd);
  lastSettings_ = settings;  // saved again with the session until another study runs
}

void StudyPanel::setSecondAxisEnabled(bool on) { secondAxis_->setChecked(on); }
void StudyPanel::setMeasure(const QString& measure) { measure_->setCurrentText(measure); }
void StudyPanel::setEndTime(double tEnd) { tEnd_->setText(number(tEnd)); }
void StudyPanel::setJobs(int jobs) { jobs_->setValue(jobs); }

void StudyPanel::showError(const QString& text) {
  message_->setStyleSheet("color: #b00020;");
  message_->setText(text);
  message_->show();
}

void StudyPanel::showNote(const QString& text) {
  message_->setStyleSheet(QString());
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

void StudyPanel::setRunning(bool on) {
  run_->setEnabled(!on);
  open_->setEnabled(!on);
  export_->setEnabled(!on);
  cancel_->setEnabled(on);
}

QString StudyPanel::sweepCommandLine(const nh::study::StudySpec& spec) const {
  const nh::Scenario& s = spec.base;
  const nh::SystemModel& system = controller_->system();
  // A model file by its path (one saved outside the model folder has no name nhsim knows),
  // a built-in system by its name.
  const std::string path = nh::catalogueEntry(system).path;
  const QString model = path.empty() ? QString::fromStdString(s.system)
                                     : QFileInfo(QString::fromStdString(path)).absoluteFilePath();
  QStringList words{"nhsim", "sweep", model};
  words << "--t-end" << number(s.tEnd) << "--dt-out" << number(s.dtOut);
  words << "--integrator" << QString::fromStdString(nh::toString(s.integrator.method)) << "--rtol"
        << number(s.integrator.rtol) << "--atol" << number(s.integrator.atol);
  if (nh::isFixedStep(s.integrator.method)) words << "--step" << number(s.integrator.step);
  if (s.dynamics != nh::DynamicsKind::Nonholonomic)
    words << "--dynamics" << QString::fromStdString(nh::toString(s.dynamics));
  if (s.formulation != nh::Formulation::Multipliers)
    words << "--formulation" << QString::fromStdString(nh::toString(s.formulation));
  for (const nh::ParameterInfo& p : system.info().parameters) {
    const auto it = s.parameters.find(p.name);
    if (it != s.parameters.end() && it->second != p.defaultValue)
      words << "--set" << QString::fromStdString(p.name + "=" + nh::formatValue(it->second));
  }
  for (const auto& [name, value] : s.initial)
    words << "--init" << QString::fromStdString(name + "=" + nh::formatValue(value));
  for (const auto& axis : spec.grid)
    words << "--vary" << QString::fromStdString(nh::study::toString(axis));
  for (const auto& m : spec.measures) words << "--measure" << QString::fromStdString(m);
  for (QString& w : words) w = shellWord(w);
  return words.join(' ');
}

bool StudyPanel::readSpec(nh::study::StudySpec& spec, QString& measure) {
  spec.base = controller_->scenario();
  spec.base.view.clear();
  // A model file opened from outside the catalogue's folders is found by its path only.
  if (const nh::CatalogueEntry entry = nh::catalogueEntry(controller_->system());
      entry.origin == nh::SystemOrigin::File && !entry.path.empty())
    spec.base.system =
        QFileInfo(QString::fromStdString(entry.path)).absoluteFilePath().toStdString();
  bool ok = false;
  spec.base.tEnd = tEnd_->text().toDouble(&ok);
  if (!ok || !(spec.base.tEnd > 0)) {
    showError(tr("t end must be a positive number of seconds, got '%1'").arg(tEnd_->text()));
    return false;
  }
  const int axisCount = secondAxis_->isChecked() ? 2 : 1;
  for (int a = 0; a < axisCount; ++a) {
    nh::study::GridAxis axis;
    axis.name = axes_[a].name->currentText().toStdString();
    bool okFrom = false, okTo = false;
    axis.from = axes_[a].from->text().toDouble(&okFrom);
    axis.to = axes_[a].to->text().toDouble(&okTo);
    axis.count = axes_[a].count->value();
    if (!okFrom || !okTo) {
      showError(tr("%1: 'from' and 'to' must be numbers").arg(axes_[a].name->currentText()));
      return false;
    }
    spec.grid.push_back(axis);
  }
  measure = measure_->currentText().trimmed();
  if (measure.isEmpty()) {
    showError(tr("Give a measure, e.g. final(x) or max(abs(x)) for a state variable x"));
    return false;
  }
  spec.measures = {measure.toStdString()};
  return true;
}

bool StudyPanel::run() {
  if (running()) return false;
  nh::study::StudySpec spec;
  QString measure;
  if (!readSpec(spec, measure)) return false;
  std::shared_ptr<const nh::study::Study> study;
  try {
    study = std::make_shared<const nh::study::Study>(spec);
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
    return false;
  }
  if (study->runCount() > 4'000'000) {
    showError(tr("%1 runs are more than the panel draws (4 000 000); use nhsim sweep")
                  .arg(study->runCount()));
    return false;
  }

  map_->setGrid(emptyGridOf(*study, spec, controller_->system()));
  table_ = StudyTable();
  csvColumns_->hide();
  showNote(QString());

  study_ = study;
  command_ = sweepCommandLine(spec);
  lastSettings_ = settingsOf(spec, measure);
  emit settingsChanged(lastSettings_);
  results_.clear();
  results_.reserve(static_cast<size_t>(study->runCount()));
  partial_ = false;
  total_ = study->runCount();
  launch(study);
  return true;
}

void StudyPanel::launch(const std::shared_ptr<const nh::study::Study>& study) {
  ++generation_;
  job_ = std::make_shared<Job>();
  finished_ = false;
  setRunning(true);
  clock_.start();
  updateProgress();
  const long generation = generation_;
  const int jobs = jobs_->value();
  std::shared_ptr<Job> job = job_;
  StudyPanel* panel = this;
  thread_ = std::thread([panel, job, study, jobs, generation] {
    long delivered = 0;
    QString error;
    try {
      nh::study::runStudy(
          *study, 0, study->runCount(), jobs,
          [&](const nh::study::RunResult& result) {
            ++delivered;
            const std::lock_guard<std::mutex> lock(job->mutex);
            job->pending.push_back(result);
            if (!job->posted) {
              job->posted = true;
              QMetaObject::invokeMethod(
                  panel, [panel, generation] { panel->drain(generation); }, Qt::QueuedConnection);
            }
          },
          &job->cancel);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    QMetaObject::invokeMethod(
        panel,
        [panel, generation, delivered, error] { panel->finish(generation, delivered, error); },
        Qt::QueuedConnection);
  });
}

void StudyPanel::drain(long generation) {
  if (generation != generation_ || !job_) return;
  std::vector<nh::study::RunResult> batch;
  {
    const std::lock_guard<std::mutex> lock(job_->mutex);
    batch.swap(job_->pending);
    job_->posted = false;
  }
  if (batch.empty()) return;
  StudyGrid& grid = map_->grid();
  for (auto& result : batch) {
    const size_t cell = static_cast<size_t>(result.index);
    if (cell < grid.values.size()) {
      grid.values[cell] =
          result.measures.empty() ? std::numeric_limits<double>::quiet_NaN() : result.measures[0];
      grid.statuses[cell] = QString::fromStdString(result.status);
    }
    results_.push_back(std::move(result));
  }
  map_->cellsChanged();
  updateProgress();
}

void StudyPanel::finish(long generation, long written, const QString& error) {
  if (generation != generation_) return;
  drain(generation);
  if (thread_.joinable()) thread_.join();
  finished_ = true;
  partial_ = written < total_;
  setRunning(false);
  updateProgress();
  if (!error.isEmpty())
    showError(tr("The study stopped: %1").arg(error));
  else if (partial_)
    showNote(tr("Cancelled: %1 of %2 runs kept").arg(written).arg(total_));
  emit studyFinished();
}

void StudyPanel::cancel() {
  if (!running()) return;
  job_->cancel = true;
  showNote(tr("Cancelling…"));
}

void StudyPanel::updateProgress() {
  const long done = static_cast<long>(results_.size());
  const double seconds = clock_.isValid() ? clock_.elapsed() / 1000.0 : 0;
  const double rate = seconds > 0 ? done / seconds : 0;
  QString text = tr("%1 / %2 runs").arg(done).arg(total_);
  if (rate > 0) text += tr(", %1 runs/s").arg(rate, 0, 'g', 3);
  if (!finished_ && rate > 0 && done < total_)
    text += tr(", %1 left").arg(duration(static_cast<double>(total_ - done) / rate));
  if (finished_)
    text += tr(", %1").arg(partial_ ? tr("cancelled") : tr("done in %1").arg(duration(seconds)));
  progress_->setText(text);
  const StudyGrid& grid = map_->grid();
  const int failed = grid.failed();
  failures_->setVisible(failed > 0);
  if (failed > 0) {
    failures_->setText(
        tr("%n run(s) without a value (hatched grey); hover here for the list", "", failed));
    QStringList lines;
    for (int c = 0; c < grid.cellCount() && lines.size() < 40; ++c) {
      const QString& s = grid.statuses[static_cast<size_t>(c)];
      if (!s.isEmpty() && (s != "ok" || !std::isfinite(grid.values[static_cast<size_t>(c)])))
        lines << map_->describe(c).replace('\n', "; ");
    }
    if (failed > lines.size()) lines << tr("… and %1 more").arg(failed - lines.size());
    failures_->setToolTip(lines.join('\n'));
  }
}

bool StudyPanel::openCsv(const QString& path) {
  if (running()) {
    showError(tr("A study is running: cancel it before opening a file"));
    return false;
  }
  StudyTable table;
  QString error;
  if (!readStudyCsv(path, table, error)) {
    showError(error);
    return false;
  }
  // Default columns: the varied ones, then the linearisation's max_re or the first measure.
  const int x = 0, y = table.variedCount >= 2 ? 1 : -1;
  int value = static_cast<int>(table.columns.indexOf("max_re"));
  if (value < 0)
    value = table.variedCount == table.statusColumn ? table.variedCount + 1 : table.variedCount;
  StudyGrid grid;
  if (!gridFromTable(table, x, y, value, grid, error)) {
    showError(error);
    return false;
  }
  table_ = std::move(table);
  study_.reset();
  results_.clear();
  total_ = 0;
  csvX_->clear();
  csvY_->clear();
  csvValue_->clear();
  csvY_->addItem(tr("(none)"), -1);
  for (int c = 0; c < table_.columns.size(); ++c) {
    if (c == table_.statusColumn) continue;
    csvX_->addItem(table_.columns[c], c);
    csvY_->addItem(table_.columns[c], c);
    csvValue_->addItem(table_.columns[c], c);
  }
  csvX_->setCurrentIndex(csvX_->findData(x));
  csvY_->setCurrentIndex(csvY_->findData(y));
  csvValue_->setCurrentIndex(csvValue_->findData(value));
  csvColumns_->show();
  map_->setGrid(grid);
  progress_->setText(tr("%1: %2 rows").arg(QFileInfo(path).fileName()).arg(table_.numbers.size()));
  showNote(QString());
  updateProgress();
  progress_->setText(tr("%1: %2 rows").arg(QFileInfo(path).fileName()).arg(table_.numbers.size()));
  return true;
}

void StudyPanel::chooseCsvColumns() {
  if (table_.columns.isEmpty()) return;
  StudyGrid grid;
  QString error;
  if (!gridFromTable(table_, csvX_->currentData().toInt(), csvY_->currentData().toInt(),
                     csvValue_->currentData().toInt(), grid, error)) {
    showError(error);
    return;
  }
  showNote(QString());
  map_->setGrid(grid);
}

bool StudyPanel::exportImage(const QString& path) {
  const bool svg = path.endsWith(".svg", Qt::CaseInsensitive);
  const QSize size = map_->width() >= 600 && map_->height() >= 400 ? map_->size() : QSize(900, 600);
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    showError(tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  if (svg) {
    QSvgGenerator generator;
    generator.setOutputDevice(&file);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(map_->grid().valueName);
    generator.setDescription(command_);
    QPainter painter(&generator);
    map_->render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
  } else {
    QImage image(size * 2, QImage::Format_RGB32);
    image.setDevicePixelRatio(2);
    QPainter painter(&image);
    map_->render(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    if (!image.save(&file, "PNG")) {
      showError(tr("Cannot write the PNG image %1").arg(path));
      return false;
    }
  }
  if (!file.commit()) {
    showError(tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  showNote(tr("Map written to %1").arg(path));
  return true;
}

bool StudyPanel::exportCsv(const QString& path) {
  if (running()) {
    showError(tr("The study is still running: wait for it or cancel it first"));
    return false;
  }
  if (!study_) {
    showError(tr("Run a study first: the data of an opened CSV is that file"));
    return false;
  }
  try {
    nh::AtomicOutput out(path.toStdString());
    out.write(study_->headerText(command_.toStdString()));
    for (const auto& result : results_) out.write(study_->rowText(result));
    if (partial_)
      out.write(nh::study::Study::partialText(static_cast<long>(results_.size()), total_));
    out.commit();
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
    return false;
  }
  showNote(tr("Data written to %1").arg(path));
  return true;
}

void StudyPanel::openCell(int cell) {
  const StudyGrid& grid = map_->grid();
  if (cell < 0 || cell >= grid.cellCount()) return;
  map_->setSelectedCell(cell);
  QStringList names{grid.xName};
  QVector<double> values{grid.xs[static_cast<size_t>(cell / grid.ny())]};
  if (grid.twoDimensional()) {
    names << grid.yName;
    values << grid.ys[static_cast<size_t>(cell % grid.ny())];
  }
  emit runChosen(names, values);
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
