// The small parts of the main window, each on its own: the lesson bar above the 3D view, the
// status line, the keyboard-shortcut overlay, the speed control of the tool bar, the recent
// files menu and the colours of the two themes.
#pragma once

#include <QFrame>
#include <QLabel>
#include <QObject>
#include <QPalette>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QMenu;
class QSettings;
class QSlider;
class QStatusBar;
class QToolBar;

namespace nhui {

class Session;
class SimulationController;
class SceneView;
struct PlotStyle;

// The dark theme's palette (the light theme is the platform's).
QPalette darkPalette();
// The plots' colours for a theme, and their line widths and text sizes for presentation mode.
PlotStyle plotStyleFor(bool dark, bool presentation);

// A lesson's title and "what to watch" note above the 3D view, with a button that hides it
// (it comes back with the next lesson).
class LessonBar : public QFrame {
  Q_OBJECT

 public:
  explicit LessonBar(QWidget* parent = nullptr);
  void setLesson(const QString& title, const QString& note);  // an empty note hides the bar
  // The session's lesson: its note, or, while a plan other than the lesson's is shown, what
  // that plan is (the note's numbers are about the lesson's own plan).
  void showLessonOf(const Session& session);
  void setDark(bool dark);

 private:
  QLabel* text_;
};

// The banner over the 3D view and the status bar's message: where every error reaches the
// user (MainWindow::reportError) and the run's warnings; hidden again by the next restart.
class ErrorBanner : public QLabel {
  Q_OBJECT

 public:
  ErrorBanner(QStatusBar* status, const SimulationController* controller);
  // An error; when the run has stopped on one it says that nothing recorded is lost and
  // what to do.
  void report(const QString& message);
  void warn(const QString& message);  // the run goes on
  // A lesson whose point is an integrator's energy drift (the view's energy_drift_expected):
  // the drift is then said in the status bar, kept current, instead of in the banner.
  void expectEnergyDrift(bool expected) { driftExpected_ = expected; }
  void drift(const QString& message);
  const QString& message() const { return message_; }  // the last, without decoration

 private:
  QStatusBar* status_;
  const SimulationController* controller_;
  QString message_;
  bool driftExpected_ = false;
};

// The permanent fields of the status bar: time, real-time rate, frame rate, residual.
class StatusLine : public QObject {
  Q_OBJECT

 public:
  StatusLine(QStatusBar* bar, const SimulationController* controller, const SceneView* view);
  void update();

 private:
  const SimulationController* controller_;
  const SceneView* view_;
  QLabel *time_, *rate_, *fpsLabel_, *residual_;
  long lastFrames_ = 0;
  qint64 lastFpsTime_ = 0;
  double fps_ = 0;
};

// The keyboard shortcuts over the 3D view (F1), centred and fitted inside it: its text gets
// smaller (down to 7 pt) until it fits, so no line is cut at a projector's 1024×768.
class ShortcutOverlay : public QLabel {
  Q_OBJECT

 public:
  explicit ShortcutOverlay(QWidget* view);
  void toggle();
  void place();  // after the view was resized
};

// Playback speed in the tool bar: a log slider from 0.01× to 1000× that snaps to the presets,
// and an editable box with the presets that takes typed factors. A typed factor out of range
// is refused on the session's error route; a factor taken gives the keyboard back to `view`.
class SpeedControl : public QObject {
  Q_OBJECT

 public:
  SpeedControl(Session* session, QToolBar* bar, QWidget* view);

 private:
  void setFromText(const QString& text);
  Session* session_;
  QWidget* view_;
  QSlider* slider_;
  QComboBox* box_;
};

// The recent scenario files (at most eight, newest first) and their menu.
class RecentFiles : public QObject {
  Q_OBJECT

 public:
  explicit RecentFiles(QMenu* menu);
  void add(const QString& path);
  void read(const QSettings& settings);
  void write(QSettings& settings) const;

 signals:
  void chosen(const QString& path);

 private:
  void updateMenu();
  QMenu* menu_;
  QStringList files_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
