// nhlab: the Nonholonomic Lab desktop app. Starts with the default scenario (a solid ball on
// a table turning at Ω = 1 rad/s) already playing, or with a scenario file.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QImage>
#include <QRegularExpression>
#include <QScreen>
#include <QSize>
#include <QSurfaceFormat>
#include <QTimer>
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
#include "ui/scene/vtk_view_widget.h"
#include "ui/session/session.h"
#include "ui/window/main_window.h"
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

// The session's last error, for a line on stderr (the banner shows the same message).
struct LastError {
  QString message;
  explicit LastError(nhui::Session* session) {
    QObject::connect(session, &nhui::Session::errorOccurred,
                     [this](const QString& m) { message = m; });
  }
  // Prints "nhlab: error: …" when an error came since the last call; true then.
  bool print() {
    if (message.isEmpty()) return false;
    std::fprintf(stderr, "nhlab: error: %s\n", nh::cli::oneLine(message.toStdString()).c_str());
    message.clear();
    return true;
  }
};

// What the session starts with: a scenario file, else a catalogue system; then the model
// editor on a model file or on the system's own. False when the scenario file could not be
// opened (the window shows why; stderr gets the same line).
bool openStart(nhui::MainWindow& window, const Options& o, LastError& error) {
  nhui::Session* session = window.session();
  const QCommandLineParser& parser = o.parser;
  bool opened = true;
  if (!parser.positionalArguments().isEmpty()) {
    // The reason, as the window's banner gives it ("Could not open F: …"), in one line.
    opened = session->openScenario(parser.positionalArguments().first());
    if (!opened) error.print();
  } else if (parser.isSet(o.system)) {
    session->chooseSystem(parser.value(o.system));
  }
  if (parser.isSet(o.openModel)) {
    window.openModelFile(parser.value(o.openModel));
  } else if (parser.isSet(o.edit)) {
    const nh::SystemModel& system = session->controller()->system();
    if (nh::catalogueEntry(system).modelText.empty())
      std::fprintf(stderr, "nhlab: %s has no model file to edit (it is written in C++ only)\n",
                   system.name().c_str());
    else
      window.editSystem();
  }
  return opened;
}

// The parameter values, the playback speed and the comparison asked for, through the
// session. False (the error printed) when a value is refused.
bool applyValues(nhui::Session* session, const Options& o, const Request& request,
                 LastError& error) {
  error.message.clear();
  for (const auto& [name, value] : request.assignments) {
    session->setParameter(name, value);
    if (error.print()) return false;
  }
  nhui::ViewState view = session->view();
  if (o.parser.isSet(o.speed)) {
    view.speed = o.parser.value(o.speed).toDouble();
    session->setView(view, nhui::kViewSpeed);
  }
  if (request.vakonomic) session->setComparison(nhui::CompareMode::Vakonomic);
  if (request.ghost)
    session->setComparison(nhui::CompareMode::Ghost, request.ghost->first, request.ghost->second);
  return true;
}

// The extras of --show that apply before the run starts (all but "edit"), and presentation
// mode: the view's through the session, the docks and dialogs through the window.
void showExtras(nhui::MainWindow& window, const Options& o, const QStringList& extras) {
  nhui::Session* session = window.session();
  nhui::ViewState view = session->view();
  if (extras.contains("angular")) view.display.angularVelocityArrows = true;
  if (extras.contains("follow")) view.follow = true;
  // The session keeps the moving frame off for a scene without one.
  if (extras.contains("table-frame")) view.tableFrame = true;
  session->setView(view, nhui::kViewDisplay | nhui::kViewCamera);
  if (extras.contains("equations") || extras.contains("hamiltonian"))
    window.showEquations(extras.contains("hamiltonian"));
  // A scenario's plan being solved shows in the dialog when done.
  if (extras.contains("plan")) window.showPlan(!session->planSolver()->running());
  if (o.parser.isSet(o.presentation)) window.setPresentationMode(true);
}

// --screenshot, --view-screenshot, --plan-screenshot: saved after --after seconds, then nhlab
// quits.
void scheduleScreenshots(QApplication& app, nhui::MainWindow& window, const Options& o) {
  const int ms = static_cast<int>(1000 * o.parser.value(o.after).toDouble());
  QTimer::singleShot(ms, &app, [&app, &window, &o] {
    const auto save = [](const QImage& image, const QString& path) {
      if (!image.save(path)) std::fprintf(stderr, "nhlab: could not write %s\n", qPrintable(path));
    };
    using Shot = nhui::MainWindow::Shot;
    if (o.parser.isSet(o.screenshot))
      save(window.screenshot(Shot::Window), o.parser.value(o.screenshot));
    const QImage plan = window.screenshot(Shot::PlanDialog);
    if (o.parser.isSet(o.planShot) && !plan.isNull()) save(plan, o.parser.value(o.planShot));
    if (o.parser.isSet(o.viewShot))
      save(window.screenshot(Shot::SceneView), o.parser.value(o.viewShot));
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
  nhui::Session* session = window.session();
  LastError error(session);
  if (request.size) window.resize(*request.size);
  window.show();
  // A scripted run (a screenshot) of a file that cannot be opened fails rather than showing
  // the previous system as if it were the file's.
  if (!openStart(window, options, error) && options.scripted()) return nh::cli::kInputError;
  if (!applyValues(session, options, request, error)) return nh::cli::kInputError;
  const QStringList extras = options.parser.value(options.show).split(',', Qt::SkipEmptyParts);
  showExtras(window, options, extras);
  if (options.parser.isSet(options.study)) {
    QString message;
    if (!window.openStudy(options.parser.value(options.study), &message)) {
      std::fprintf(stderr, "nhlab: error: %s\n", qPrintable(message));
      return nh::cli::kInputError;
    }
  }
  // What the command line asked for (system, values, comparison) is where the session starts:
  // nothing to undo and nothing unsaved, so quitting does not ask to save it.
  session->startHere();
  session->controller()->play();
  // Editing the start pauses at t = 0, so it comes after play().
  if (extras.contains("edit")) window.setEditStart(true);
  if (options.scripted()) scheduleScreenshots(app, window, options);
  // Ctrl+C, SIGTERM or SIGHUP: the window is closed as by its close button (unsaved changes
  // are asked about; a running export is cancelled and its temporary removed), then nhlab
  // exits with 128 + the signal (130, 143, 129), as nhsim does.
  nhui::quitOnStopSignals(app, [&window] { return window.close(); });
  return app.exec();
}
// SPDX-License-Identifier: GPL-3.0-or-later
