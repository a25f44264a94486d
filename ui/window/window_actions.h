// The main window's actions (play, step, files, camera, presentation …) with their texts,
// icons, shortcuts and tool tips, and the three tool bars that show them (the simulation bar
// with the system box and the speed control). The window connects them; menus reuse them.
#pragma once

#include <QObject>

class QAction;
class QComboBox;
class QMainWindow;
class QToolBar;
class QUndoStack;
class QWidget;

namespace nhui {

class Session;

class WindowActions : public QObject {
  Q_OBJECT

 public:
  WindowActions(QMainWindow* window, QUndoStack* undo);
  // The File, Simulation (system box, play controls, speed) and View tool bars.
  void createToolBars(QMainWindow* window, Session* session, QWidget* view);
  // The system box lists the catalogue (titles; names and origins as tool tips) and shows
  // the running system `current`.
  void refreshSystemBox(const QString& current);

  QAction *play, *step, *stepBack, *reset, *open, *save, *saveAs, *exportAnimation, *undo, *redo,
      *presentation, *shortcuts, *follow, *tableFrame, *resetCamera, *editInitial, *chooseSystem,
      *planMotion;
  QComboBox* systemBox = nullptr;
  QAction* systemBoxAction = nullptr;  // the box's place in its tool bar
  QToolBar *fileBar = nullptr, *simulationBar = nullptr, *viewBar = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
