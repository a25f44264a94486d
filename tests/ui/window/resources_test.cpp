// What nhlab bundles (resources/): every icon the code names is in the resource and draws
// something, every tool bar action shows an icon, the F1 help lists exactly the shortcuts
// the window binds, and every demonstration scenario in the index parses, runs to its t_end
// through the core (a control model's lesson: its plan solves), and opens from File › Open
// example.
#include <QApplication>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QSet>
#include <QToolBar>
#include <QWidgetAction>
#include <QtTest>

#include "core/model/catalogue.h"
#include "core/nh/optimal_control.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "resources/app_resources.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/session/scenario_view.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"

namespace {

// Pixels of the icon drawn at size×size that are not fully transparent.
int paintedPixels(const QIcon& icon, int size) {
  const QImage image = icon.pixmap(size, size).toImage().convertToFormat(QImage::Format_ARGB32);
  int painted = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (qAlpha(image.pixel(x, y)) > 0) ++painted;
  return painted;
}

// The keys the help page writes in <kbd>…</kbd>, in Qt's portable notation.
QSet<QString> helpKeys() {
  QSet<QString> keys;
  static const QRegularExpression kbd("<kbd>([^<]+)</kbd>");
  for (auto match = kbd.globalMatch(nhres::shortcutHelpHtml()); match.hasNext();)
    keys.insert(match.next().captured(1).trimmed());
  return keys;
}

// What keeps the run nhsim makes of a scenario (parameters, initial state, integration to
// t_end) from reaching t_end with a sample every dt_out; empty when it does.
QString runFailure(const nh::Scenario& s) {
  try {
    const auto system = nh::findSystem(s.system);
    nh::Simulation simulation(system, s.dynamics, s.formulation, s.integrator);
    simulation.setParameters(nh::resolveParameters(*system, s.parameters));
    std::vector<std::string> notes;
    simulation.setState(0.0, nh::initialState(simulation.equations(), 0.0, s.initial, &notes));
    // The files hold resolved scenarios: no velocity needs completing.
    if (!notes.empty()) return QString::fromStdString(notes[0]);
    long samples = 0;
    simulation.advance(s.tEnd, s.dtOut, [&](double, const double*) { ++samples; });
    if (simulation.time() != s.tEnd) return QStringLiteral("the run stopped before t_end");
    if (samples < static_cast<long>(s.tEnd / s.dtOut) - 1)
      return QStringLiteral("%1 samples only").arg(samples);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

// What keeps the plan of a control model's lesson (its view's "plan", from the scenario's
// start and parameters) from solving to an extremal that ends at the plan's T and the
// scenario's t_end; empty when it solves.
QString planFailure(const nh::Scenario& s) {
  try {
    const auto system = nh::findSystem(s.system);
    const nhui::ScenarioView view = nhui::parseScenarioView(s.view);
    if (!view.plan) return QStringLiteral("a control model's lesson needs a plan");
    nh::OptimalControlOptions options;
    nh::startFromScenario(system, s, options);
    options.tEnd = view.plan->tEnd;
    options.targets = view.plan->targets;
    options.starts = view.plan->starts;
    const nh::OptimalControlResult result = nh::solveOptimalControl(system, options);
    if (result.extremals.empty()) return QString::fromStdString(result.failure);
    if (result.extremals.front().times.back() != s.tEnd)
      return QStringLiteral("the plan ends at %1 s, t_end is %2 s")
          .arg(result.extremals.front().times.back())
          .arg(s.tEnd);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class ResourcesTest : public QObject {
  Q_OBJECT

 private slots:
  void iconsOfTheCodeAreBundledAndDraw() {
    // At 16 px a 24 px stroke icon still covers well over 10 % of the square.
    const int sizes[] = {16, 24, 32, 48};
    for (const nhres::ThemedIcon& icon : nhres::icons::all) {
      QVERIFY2(QFile::exists(icon.file), icon.file);
      const QIcon bundled(QString::fromUtf8(icon.file));
      for (int size : sizes)
        QVERIFY2(paintedPixels(bundled, size) > size * size / 10,
                 qPrintable(QStringLiteral("%1 at %2 px").arg(icon.file).arg(size)));
    }
    const QIcon application = nhres::applicationIcon();
    for (int size : {16, 32, 48, 256})
      QVERIFY2(paintedPixels(application, size) > size * size / 2,
               qPrintable(QStringLiteral("application icon at %1 px").arg(size)));
  }

  void everyBundledIconIsUsed() {
    QSet<QString> named{QStringLiteral(":/icons/%1.svg").arg(nhres::applicationId())};
    for (const nhres::ThemedIcon& icon : nhres::icons::all) named.insert(icon.file);
    for (QDirIterator it(":/icons"); it.hasNext();) {
      const QString file = it.next();
      QVERIFY2(named.contains(file), qPrintable(file + " is bundled but nothing names it"));
    }
  }

  void toolBarActionsShowIcons() {
    nhui::MainWindow window(false);
    const QList<QToolBar*> bars = window.findChildren<QToolBar*>();
    QVERIFY(!bars.isEmpty());
    for (QToolBar* bar : bars)
      for (QAction* action : bar->actions()) {
        if (action->isSeparator() || qobject_cast<QWidgetAction*>(action)) continue;
        QVERIFY2(paintedPixels(action->icon(), 24) > 0,
                 qPrintable(bar->objectName() + ": " + action->text()));
      }
  }

  void helpListsExactlyTheBoundShortcuts() {
    nhui::MainWindow window(false);
    const QSet<QString> written = helpKeys();
    QSet<QString> bound;
    for (QAction* action : window.findChildren<QAction*>())
      for (const QKeySequence& key : action->shortcuts())
        bound.insert(key.toString(QKeySequence::PortableText));
    QVERIFY(bound.contains("Space"));  // the window's own actions were found
    for (const QString& key : bound)
      QVERIFY2(written.contains(key), qPrintable("the help does not mention " + key));
    for (const QString& key : written)
      QVERIFY2(bound.contains(key), qPrintable("the help lists " + key + ", which nothing binds"));
    // The F1 overlay shows the page itself.
    bool shown = false;
    for (QLabel* label : window.findChildren<QLabel*>())
      shown = shown || label->text() == nhres::shortcutHelpHtml();
    QVERIFY(shown);
  }

  void everyExampleParsesAndRuns() {
    const std::vector<nhres::Example> examples = nhres::examples();
    QVERIFY(examples.size() >= 8);
    QSet<QString> indexed;
    for (const nhres::Example& example : examples) {
      indexed.insert(example.resourcePath());
      QVERIFY2(!example.note.isEmpty(), qPrintable(example.file));
      nh::Scenario s;
      try {
        s = nhres::readResourceScenario(example.resourcePath());
      } catch (const std::exception& e) {
        QFAIL(e.what());
      }
      // A control model has no dynamics of its own: its lesson moves along its plan.
      const QString failure =
          nh::findSystem(s.system)->info().isControlModel() ? planFailure(s) : runFailure(s);
      QVERIFY2(failure.isEmpty(), qPrintable(example.file + ": " + failure));
    }
    // Nothing bundled is missing from the index.
    for (QDirIterator it(":/examples", {"*.json"}); it.hasNext();) {
      const QString file = it.next();
      if (file.endsWith("/examples.json")) continue;
      QVERIFY2(indexed.contains(file), qPrintable(file + " is not in examples.json"));
    }
  }

  void openExampleMenuLoadsEachExample() {
    nhui::MainWindow window(false);
    auto* menu = window.findChild<QMenu*>("examplesMenu");
    QVERIFY(menu);
    const std::vector<nhres::Example> examples = nhres::examples();
    QCOMPARE(menu->actions().size(), static_cast<qsizetype>(examples.size()));
    for (size_t i = 0; i < examples.size(); ++i) {
      QAction* action = menu->actions()[static_cast<int>(i)];
      QCOMPARE(action->text(), examples[i].title);
      QCOMPARE(action->toolTip(), examples[i].note);
      action->trigger();
      const nh::Scenario expected = nhres::readResourceScenario(examples[i].resourcePath());
      // No error; a control model's lesson says in the banner that it moves along a plan.
      const QString banner = window.errorBanner()->text();
      QVERIFY2(window.errorBanner()->isHidden() ||
                   (nh::findSystem(expected.system)->info().isControlModel() &&
                    banner.contains("moves along a plan")),
               qPrintable(banner));
      const nh::Scenario loaded = window.controller()->scenario();
      QCOMPARE(loaded.system, expected.system);
      QVERIFY(loaded.dynamics == expected.dynamics);
      QCOMPARE(loaded.tEnd, expected.tEnd);
      QVERIFY(window.windowTitle().startsWith(examples[i].title));
    }
  }
};

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName("NonholonomicLabTests");
  ResourcesTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "resources_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
