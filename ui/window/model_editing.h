// The model editor's dock as the File › System model menu drives it: a new system from the
// template, a model file opened, the running system's file or a renamed copy of it, saving,
// and applying what the editor holds to the session (one undoable switch). Each that replaces
// the editor's text first asks about unsaved edits (Save/Discard/Cancel).
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "core/model/model_file.h"

class QDockWidget;
class QMainWindow;
class QMenu;

namespace nhui {

class ModelEditor;
class Session;

class ModelEditing : public QObject {
  Q_OBJECT

 public:
  ModelEditing(Session* session, ModelEditor* editor, QDockWidget* dock, QMainWindow* window);

  bool newSystem();                    // a small valid template, name my_system
  void openDialog();                   // asks for a model file, then openFile
  bool openFile(const QString& path);  // into the editor; run it if it loads
  bool duplicateAndEdit();             // the running system's model file, as <name>_copy
  bool editSystem();  // the running system's own model file, else duplicateAndEdit()
  // Registers `system` for this session and runs it, keeping the start and parameters by
  // name; one undoable command. False (the message in the editor, the running system
  // unchanged) if it cannot start.
  bool apply(std::shared_ptr<const nh::model::FormulaSystem> system);
  bool maybeSave();  // unsaved edits: Save/Discard/Cancel; false: cancelled
  void save();
  void saveAs();
  // The running system changed: the editor's "running" text follows.
  void systemChanged();
  // File › System model: new, open, edit, duplicate, save, save as.
  void fillMenu(QMenu* menu);

 signals:
  // The catalogue changed (a system applied or a model saved into the model folder).
  void catalogueChanged();
  // A control model was to be applied: it cannot run (it moves only along an optimal plan),
  // but its equations can be shown.
  void controlModelRefused(std::shared_ptr<const nh::SystemModel> system);

 private:
  void show();
  void onSaved(const QString& path);
  void updateTitle();
  void onShown(bool on);

  Session* session_;
  ModelEditor* editor_;
  QDockWidget* dock_;
  QMainWindow* window_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
