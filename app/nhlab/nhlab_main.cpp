// nhlab: the Nonholonomic Lab desktop app. Starts with the default scenario (a solid ball on
// a table turning at Ω = 1 rad/s) already playing, or with a scenario file.
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QRegularExpression>
#include <QScreen>
#include <QSize>
#include <QSurfaceFormat>
#include <QTimer>
#include <QUndoStack>
#include <clocale>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "app/nhsim/cli_support.h"
#include "core/model/catalogue.h"
#include "core/nh/read_file.h"
#include "core/nh/version.h"
#include "resources/app_resources.h"
#include "ui/panels/equations_panel.h"
#include "ui/scene/scene_view.h"
#include "ui/scene/vtk_view_widget.h"
#include "ui/sim/simulation_controller.h"
#include "ui/study/study_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/plan_dialog.h"
#include "ui/window/stop_signals.h"

namespace {
// Qt aborts with a long message when there is no display; say it in one line instead, but
// let --help and --version work anywhere.
bool checkDisplay(int argc, char** argv) {
  if (!qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
      !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    return true;
  for (int i = 1; i < argc; ++i) {
    const QByteArray a(argv[i]);
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") {
      qputenv("QT_QPA_PLATFORM", "offscreen");
      return true;
    }
  }
  std::fprintf(
      stderr,
      "nhlab: error: no display (DISPLAY is unset). nhlab is a desktop application: start "
      "it in a desktop session, or under xvfb-run for screenshots "
      "(xvfb-run -a nhlab --screenshot shot.png). For headless videos use nhsim export.\n");
  return false;
}

// Window sizes nhlab accepts: from a small laptop panel to an 8K screen.
constexpr int kMinWidth = 320, kMaxWidth = 7680, kMinHeight = 240, kMaxHeight = 4320;

// "WxH" with both sides in range; throws nh::cli::UsageError otherwise.
QSize parseWindowSize(const QString& text) {
  static const QRegularExpression pattern("^([0-9]{1,5})x([0-9]{1,5})$");
  const QRegularExpressionMatch m = pattern.match(text);
  const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
  const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
  if (!m.hasMatch() || w < kMinWidth || w > kMaxWidth || h < kMinHeight || h > kMaxHeight)
    throw nh::cli::UsageError("--size expects WIDTHxHEIGHT between " + std::to_string(kMinWidth) +
                              "x" + std::to_string(kMinHeight) + " and " +
                              std::to_string(kMaxWidth) + "x" + std::to_string(kMaxHeight) +
                              ", got '" + text.toStdString() + "'");
  return QSize(w, h);
}

// nhlab's options, declared once: the parser and each option it knows.
struct Options {
  QCommandLineParser parser;
  QCommandLineOption system{"system", "Start with this catalogue system.", "name"};
  QCommandLineOption screenshot{"screenshot", "Save a screenshot of the window to FILE and quit.",
                                "file"};
  QCommandLineOption viewShot{"view-screenshot", "Also save the 3D view alone to FILE.", "file"};
  QCommandLineOption planShot{"plan-screenshot",
                              "Also save the Plan dialog to FILE (with --show plan).", "file"};
  QCommandLineOption after{"after", "Seconds to run before the screenshot (default 3).", "seconds",
                           "3"};
  QCommandLineOption presentation{"presentation", "Start in presentation mode."};
  QCommandLineOption size{"size", "Window size WxH (default 1600x1000).", "WxH"};
  QCommandLineOption speed{"speed", "Playback speed (0.01 to 1000).", "factor"};
  QCommandLineOption compare{"compare", "Compare: vakonomic or PARAM=VALUE (ghost run).", "what"};
  QCommandLineOption noSettings{"no-settings", "Neither read nor write saved preferences."};
  QCommandLineOption set{"set", "Set a parameter NAME=VALUE.", "assignment"};
  QCommandLineOption show{
      "show",
      "Comma list of extras to show: angular,follow,table-frame,edit,equations,hamiltonian (the "
      "Equations dock on its Hamiltonian side),plan (the Plan dialog, solving its defaults).",
      "list"};
  QCommandLineOption edit{
      "edit", "Open the model editor on the system's model file (a copy for a built-in system)."};
  QCommandLineOption openModel{
      "open-model", "Open a model file in the editor; run it if it loads, else mark its error.",
      "file"};
  QCommandLineOption study{
      "study", "Show a CSV of nhsim sweep or nhsim linearize --sweep in the Study dock.", "file"};

  // Parses the application's arguments; --help, --version and unknown options end nhlab here.
  void process(const QApplication& app) {
    parser.setApplicationDescription("Nonholonomic Lab: watch nonholonomic systems move.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("scenario", "Scenario file (JSON, as written by nhsim) to open.",
                                 "[scenario.json]");
    parser.addOptions({system, screenshot, viewShot, planShot, after, presentation, size, speed,
                       compare, noSettings, set, show, edit, openModel, study});
    parser.process(app);
  }
  bool scripted() const { return parser.isSet(screenshot) || parser.isSet(viewShot); }
};

// What the command line asks for beyond the parser's own checks, validated before any window
// exists so that a mistake costs one line on stderr.
struct Request {
  std::optional<QSize> size;
  std::vector<std::pair<std::string, double>> assignments;  // --set
  std::optional<std::pair<std::string, double>> ghost;      // --compare NAME=VALUE
  bool vakonomic = false;                                   // --compare vakonomic
};

// The request of the options; throws nh::Error (a UsageError, or an unreadable model file).
Request requestOf(const Options& o) {
  Request request;
  const QCommandLineParser& parser = o.parser;
  if (parser.isSet(o.size)) request.size = parseWindowSize(parser.value(o.size));
  for (const QString& assignment : parser.values(o.set))
    request.assignments.push_back(nh::cli::parseAssignment(assignment.toStdString(), "--set"));
  if (parser.isSet(o.compare)) {
    const QString what = parser.value(o.compare);
    if (what == "vakonomic")
      request.vakonomic = true;
    else
      request.ghost = nh::cli::parseAssignment(what.toStdString(), "--compare");
  }
  // Read here so that an unreadable file costs one line instead of a dialog.
  if (parser.isSet(o.openModel))
    nh::readRegularFile(parser.value(o.openModel).toStdString(), "model file");
  return request;
}

// The application object's names, icon and number format.
void setUpApplication() {
  // QApplication takes the locale from the environment; files written with printf/strtod
  // (CSV, JSON) keep the decimal point whatever it is.
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setOrganizationName("NonholonomicLab");
  QApplication::setApplicationName("nhlab");
  QApplication::setApplicationVersion(nh::kVersion);
  QApplication::setDesktopFileName(nhres::applicationId());
  QApplication::setWindowIcon(nhres::applicationIcon());
}

// What the window starts with: a scenario file, else a catalogue system; then the model
// editor on a model file or on the system's own. False when the scenario file could not be
// opened (the window shows why; stderr gets the same line).
bool openStart(nhui::MainWindow& window, const Options& o) {
  const QCommandLineParser& parser = o.parser;
  bool opened = true;
  if (!parser.positionalArguments().isEmpty()) {
    // The reason, as the window's banner gives it ("Could not open F: …"), in one line.
    opened = window.openScenario(parser.positionalArguments().first());
    if (!opened)
      std::fprintf(stderr, "nhlab: error: %s\n",
                   nh::cli::oneLine(window.lastErrorMessage().toStdString()).c_str());
  } else if (parser.isSet(o.system)) {
    window.chooseSystem(parser.value(o.system));
  }
  if (parser.isSet(o.openModel)) {
    window.openModelFile(parser.value(o.openModel));
  } else if (parser.isSet(o.edit)) {
    if (nh::catalogueEntry(window.controller()->system()).modelText.empty())
      std::fprintf(stderr, "nhlab: %s has no model file to edit (it is written in C++ only)\n",
                   window.controller()->system().name().c_str());
    else
      window.editSystem();
  }
  return opened;
}

// The parameter values, the playback speed and the comparison asked for. False (the error
// printed) when a value is refused.
bool applyValues(nhui::MainWindow& window, const Options& o, const Request& request) {
  nhui::SimulationController* controller = window.controller();
  for (const auto& [name, value] : request.assignments) {
    try {
      controller->setParameter(name, value);
    } catch (const nh::Error& e) {
      std::fprintf(stderr, "nhlab: error: %s\n", e.what());
      return false;
    }
  }
  if (o.parser.isSet(o.speed)) controller->setSpeed(o.parser.value(o.speed).toDouble());
  if (request.vakonomic) window.setCompare(nhui::CompareMode::Vakonomic);
  if (request.ghost)
    window.setCompare(nhui::CompareMode::Ghost, QString::fromStdString(request.ghost->first),
                      request.ghost->second);
  return true;
}

// The extras of --show that apply before the run starts (all but "edit"), and presentation
// mode.
void showExtras(nhui::MainWindow& window, const Options& o, const QStringList& extras) {
  if (extras.contains("angular")) {
    nhui::SceneDisplayOptions options = window.sceneView()->options();
    options.angularVelocityArrows = true;
    window.sceneView()->setOptions(options);
  }
  if (extras.contains("follow")) window.sceneView()->setFollow(true);
  if (extras.contains("hamiltonian")) window.equationsPanel()->setHamiltonian(true);
  if (extras.contains("equations") || extras.contains("hamiltonian")) window.showEquations();
  if (extras.contains("plan")) {
    nhui::PlanDialog* dialog = window.showPlanDialog();
    // A scenario's plan being solved shows in the dialog when done.
    if (!window.session()->planSolver()->running()) dialog->solve();
  }
  if (extras.contains("table-frame") && window.tableFrameAction()->isEnabled())
    window.tableFrameAction()->setChecked(true);
  if (o.parser.isSet(o.presentation)) window.setPresentationMode(true);
}

// --study: the Study dock shown with the CSV. False (the error printed) when it cannot be read.
bool openStudy(nhui::MainWindow& window, const QString& path) {
  window.studyDock()->show();
  window.studyDock()->raise();
  window.resizeDocks({window.studyDock()}, {window.height() / 2}, Qt::Vertical);
  if (window.studyPanel()->openCsv(path)) return true;
  std::fprintf(stderr, "nhlab: error: %s\n",
               qPrintable(window.studyPanel()->messageLabel()->text()));
  return false;
}

// --screenshot, --view-screenshot: saved after --after seconds, then nhlab quits.
void scheduleScreenshots(QApplication& app, nhui::MainWindow& window, const Options& o) {
  const int ms = static_cast<int>(1000 * o.parser.value(o.after).toDouble());
  QTimer::singleShot(ms, &app, [&app, &window, &o] {
    if (o.parser.isSet(o.screenshot)) {
      const QString path = o.parser.value(o.screenshot);
      if (!window.grab().save(path))
        std::fprintf(stderr, "nhlab: could not write %s\n", qPrintable(path));
    }
    if (o.parser.isSet(o.planShot) && window.planDialog()) {
      const QString path = o.parser.value(o.planShot);
      if (!window.planDialog()->grab().save(path))
        std::fprintf(stderr, "nhlab: could not write %s\n", qPrintable(path));
    }
    if (o.parser.isSet(o.viewShot)) {
      const QString path = o.parser.value(o.viewShot);
      if (!window.sceneView()->grabFramebuffer().save(path))
        std::fprintf(stderr, "nhlab: could not write %s\n", qPrintable(path));
    }
    app.quit();
  });
}
}  // namespace

int main(int argc, char** argv) {
  if (!checkDisplay(argc, argv)) return 1;
  // VTK needs an OpenGL 3.2 core context; set it before any GL widget exists.
  QSurfaceFormat::setDefaultFormat(nhui::VtkViewWidget::vtkSurfaceFormat());
  QApplication app(argc, argv);
  setUpApplication();
  Options options;
  options.process(app);
  Request request;
  try {
    request = requestOf(options);
  } catch (const nh::Error& e) {
    std::fprintf(stderr, "nhlab: error: %s\n", e.what());
    return nh::cli::kInputError;
  }

  nhui::MainWindow window(!options.parser.isSet(options.noSettings) && !options.scripted());
  if (request.size) window.resize(*request.size);
  window.show();
  // A scripted run (a screenshot) of a file that cannot be opened fails rather than showing
  // the previous system as if it were the file's.
  if (!openStart(window, options) && options.scripted()) return nh::cli::kInputError;
  if (!applyValues(window, options, request)) return nh::cli::kInputError;
  const QStringList extras = options.parser.value(options.show).split(',', Qt::SkipEmptyParts);
  showExtras(window, options, extras);
  if (options.parser.isSet(options.study) &&
      !openStudy(window, options.parser.value(options.study)))
    return nh::cli::kInputError;
  // What the command line asked for (system, values, comparison) is where the session starts:
  // nothing to undo and nothing unsaved, so quitting does not ask to save it.
  window.undoStack()->clear();
  window.controller()->play();
  // Editing the start pauses at t = 0, so it comes after play().
  if (extras.contains("edit")) window.editInitialAction()->setChecked(true);
  if (options.scripted()) scheduleScreenshots(app, window, options);
  // Ctrl+C, SIGTERM or SIGHUP: the window is closed as by its close button (unsaved changes
  // are asked about; a running export is cancelled and its temporary removed), then nhlab
  // exits with 128 + the signal (130, 143, 129), as nhsim does.
  nhui::quitOnStopSignals(app, [&window] { return window.close(); });
  return app.exec();
}
// SPDX-License-Identifier: GPL-3.0-or-later
