// WindowActions (window_actions.h): each action made with its text, icon, shortcut and tool
// tip, and the tool bars with the system box and speed control.
#include "ui/window/window_actions.h"

#include <QAction>
#include <QComboBox>
#include <QMainWindow>
#include <QToolBar>
#include <QUndoStack>

#include "core/model/catalogue.h"
#include "resources/app_resources.h"
#include "ui/panels/system_chooser.h"
#include "ui/window/window_parts.h"

namespace nhui {

namespace {
QAction* makeAction(QObject* owner, const QString& text, const QKeySequence& key = {},
                    const QString& tip = {}, const nhres::ThemedIcon* icon = nullptr) {
  auto* a = icon ? new QAction(nhres::themedIcon(*icon), text, owner) : new QAction(text, owner);
  if (!key.isEmpty()) a->setShortcut(key);
  if (!tip.isEmpty()) a->setToolTip(tip);
  return a;
}

QAction* checkable(QAction* a) {
  a->setCheckable(true);
  return a;
}
}  // namespace

WindowActions::WindowActions(QMainWindow* window, QUndoStack* undoStack) : QObject(window) {
  namespace icons = nhres::icons;
  play = makeAction(window, tr("Play"), Qt::Key_Space, tr("Play / pause (Space)"), &icons::play);
  step = makeAction(window, tr("Step"), Qt::Key_Right, tr("One output step forward (→)"),
                    &icons::stepForward);
  stepBack = makeAction(window, tr("Step back"), Qt::Key_Left,
                        tr("One output step back through the history (←)"), &icons::stepBack);
  reset = makeAction(window, tr("Reset"), Qt::Key_R, tr("Restart from the initial conditions (R)"),
                     &icons::reset);
  open = makeAction(window, tr("&Open scenario…"), QKeySequence::Open,
                    tr("Open a scenario file (Ctrl+O)"), &icons::open);
  save = makeAction(window, tr("&Save scenario"), QKeySequence::Save,
                    tr("Save the scenario (Ctrl+S)"), &icons::save);
  // QKeySequence::SaveAs is empty under Qt's plain X11 key scheme (no desktop theme).
  saveAs = makeAction(window, tr("Save scenario &as…"), Qt::CTRL | Qt::SHIFT | Qt::Key_S);
  exportAnimation =
      makeAction(window, tr("&Animation (MP4, GIF, WebM, PNG frames)…"), QKeySequence(tr("Ctrl+E")),
                 tr("Export an animation (Ctrl+E)"), &icons::exportAnimation);
  undo = undoStack->createUndoAction(window, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  redo = undoStack->createRedoAction(window, tr("&Redo"));
  redo->setShortcuts(
      {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  presentation = checkable(makeAction(
      window, tr("&Presentation mode"), Qt::Key_F11,
      tr("Full screen for a projector: large text, the 3D view with one large plot, the other "
         "panels behind a side bar (F11)"),
      &icons::presentation));
  shortcuts = makeAction(window, tr("&Keyboard shortcuts"), Qt::Key_F1);
  follow = checkable(makeAction(window, tr("Follow"), {}, tr("Keep the camera on the moving body"),
                                &icons::follow));
  tableFrame =
      checkable(makeAction(window, tr("Table frame"), {},
                           tr("View from the rotating table's frame"), &icons::tableFrame));
  resetCamera = makeAction(window, tr("Reset camera"), Qt::Key_C, tr("Reset the camera (C)"),
                           &icons::resetCamera);
  editInitial = checkable(makeAction(
      window, tr("Edit start"), {},
      tr("Set the initial position and velocity by dragging the body and its velocity arrow "
         "(Ctrl+drag from the body pulls out a new velocity)"),
      &icons::editStart));
  chooseSystem = makeAction(window, tr("&Choose system…"), QKeySequence::New);
  planMotion = makeAction(window, tr("&Plan a motion…"), Qt::CTRL | Qt::SHIFT | Qt::Key_P,
                          tr("The motion of least cost from the start to targets at a time T "
                             "(Ctrl+Shift+P)"));
  for (QAction* a : {play, step, stepBack, reset, presentation, shortcuts, resetCamera})
    a->setShortcutContext(Qt::WindowShortcut);
  window->addActions(
      {play, step, stepBack, reset, presentation, shortcuts, resetCamera, undo, redo, planMotion});
}

void WindowActions::createToolBars(QMainWindow* window, Session* session, QWidget* view) {
  fileBar = window->addToolBar(tr("File"));
  fileBar->setObjectName("fileToolBar");
  fileBar->addActions({open, save, exportAnimation});
  simulationBar = window->addToolBar(tr("Simulation"));
  simulationBar->setObjectName("simulationToolBar");
  systemBox = new QComboBox;
  systemBox->setObjectName("systemBox");
  // As wide as a usual title; a longer one elides instead of widening the tool bar.
  systemBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  systemBox->setMinimumContentsLength(26);
  systemBox->setToolTip(tr("The system to simulate (File › Choose system… shows the details)"));
  systemBoxAction = simulationBar->addWidget(systemBox);
  simulationBar->addSeparator();
  simulationBar->addActions({reset, stepBack, play, step});
  simulationBar->addSeparator();
  new SpeedControl(session, simulationBar, view);
  viewBar = window->addToolBar(tr("View"));
  viewBar->setObjectName("viewToolBar");
  viewBar->addActions({resetCamera, follow, tableFrame, editInitial});
  viewBar->addSeparator();
  viewBar->addAction(presentation);
}

void WindowActions::refreshSystemBox(const QString& current) {
  QSignalBlocker block(systemBox);
  systemBox->clear();
  for (const nh::CatalogueEntry& e : nh::catalogueEntries()) {
    const QString name = QString::fromStdString(e.system->name());
    systemBox->addItem(QString::fromStdString(e.system->info().title), name);
    systemBox->setItemData(systemBox->count() - 1, tr("%1 — %2").arg(name, originText(e.origin)),
                           Qt::ToolTipRole);
  }
  systemBox->setCurrentIndex(systemBox->findData(current));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
