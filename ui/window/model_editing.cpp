// ModelEditing (model_editing.h): the File › System model menu's commands (new, open, edit the
// running system or a copy, save, apply), each asking first about unsaved edits.
#include "ui/window/model_editing.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTextEdit>
#include <algorithm>
#include <functional>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "core/nh/read_file.h"
#include "ui/panels/model_editor.h"
#include "ui/session/session.h"

namespace nhui {

ModelEditing::ModelEditing(Session* session, ModelEditor* editor, QDockWidget* dock,
                           QMainWindow* window)
    : QObject(window), session_(session), editor_(editor), dock_(dock), window_(window) {
  connect(editor_, &ModelEditor::applyRequested, this, &ModelEditing::apply);
  connect(editor_, &ModelEditor::saved, this, &ModelEditing::onSaved);
  connect(editor_, &ModelEditor::documentChanged, this, &ModelEditing::updateTitle);
  connect(dock_->toggleViewAction(), &QAction::toggled, this, &ModelEditing::onShown);
  // From the View menu, in front of the docks it shares a place with.
  connect(dock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) dock_->raise();
  });
}

// Shown empty (View menu, or a layout restored with it open): the running system's model.
void ModelEditing::onShown(bool on) {
  if (!on || !editor_->text().isEmpty() || !editor_->path().isEmpty()) return;
  const nh::SystemModel& running = session_->controller()->system();
  if (nh::catalogueEntry(running).modelText.empty())
    editor_->showNote(tr("%1 is written in C++ and has no model file; File › System model › New "
                         "system starts from a template.")
                          .arg(QString::fromStdString(running.info().title)));
  else
    editSystem();
}

void ModelEditing::show() {
  dock_->show();
  dock_->raise();
  // Wide enough for a model's lines next to the 3D view.
  window_->resizeDocks({dock_}, {std::clamp(window_->width() * 2 / 5, 380, 640)}, Qt::Horizontal);
  editor_->textEdit()->setFocus();
}

bool ModelEditing::maybeSave() {
  if (!editor_->isModified()) return true;
  show();
  const auto answer = QMessageBox::warning(
      window_, tr("Unsaved model"),
      tr("The model in the editor has changes that are not saved. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return editor_->save();
  return answer == QMessageBox::Discard;
}

void ModelEditing::save() {
  show();
  editor_->save();
}

void ModelEditing::saveAs() {
  show();
  editor_->saveAs();
}

bool ModelEditing::newSystem() {
  if (!maybeSave()) return false;
  editor_->setDocument(ModelEditor::templateText(), QString());
  show();
  return true;
}

void ModelEditing::openDialog() {
  if (!maybeSave()) return;
  const QString folder = QString::fromStdString(nh::userModelFolder());
  const QString path = QFileDialog::getOpenFileName(
      window_, tr("Open system"), QFileInfo::exists(folder) ? folder : QString(),
      tr("Model files (*.yaml *.yml *.json);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

bool ModelEditing::openFile(const QString& path) {
  std::string text;
  try {
    text = nh::readRegularFile(path.toStdString(), "model file");
  } catch (const nh::Error& e) {
    // The editor keeps what it holds.
    session_->reportError(tr("Could not open %1: %2").arg(path, QString::fromUtf8(e.what())));
    return false;
  }
  editor_->setDocument(QString::fromStdString(text), QFileInfo(path).absoluteFilePath());
  show();
  // A file that loads runs at once (undoably); one with an error stays in the editor, marked.
  if (auto system = editor_->system()) return apply(system);
  return false;
}

bool ModelEditing::duplicateAndEdit() {
  const nh::SystemModel& running = session_->controller()->system();
  const nh::CatalogueEntry entry = nh::catalogueEntry(running);
  const QString name = QString::fromStdString(running.name());
  if (entry.modelText.empty()) {
    session_->reportError(
        tr("%1 has no model file: it is written in C++ only, so there is nothing to copy. "
           "File › System model › New system starts from a template.")
            .arg(name));
    return false;
  }
  if (!maybeSave()) return false;
  QString text = QString::fromStdString(entry.modelText);
  static const QRegularExpression nameLine("^name:[ \t]*[\"']?[A-Za-z0-9_]*[\"']?",
                                           QRegularExpression::MultilineOption);
  text.replace(nameLine, QStringLiteral("name: %1_copy").arg(name));
  editor_->setDocument(text, QString());
  show();
  return true;
}

bool ModelEditing::editSystem() {
  const nh::CatalogueEntry entry = nh::catalogueEntry(session_->controller()->system());
  if (entry.path.empty() || entry.modelText.empty()) return duplicateAndEdit();
  if (!maybeSave()) return false;
  editor_->setDocument(QString::fromStdString(entry.modelText), QString::fromStdString(entry.path));
  show();
  return true;
}

bool ModelEditing::apply(std::shared_ptr<const nh::model::FormulaSystem> system) {
  if (!system) return false;
  QString error;
  if (!session_->applyModel(system, error)) {
    editor_->showRunError(error);
    session_->reportError(tr("The model was not applied: %1").arg(error));
    if (system->info().isControlModel()) emit controlModelRefused(system);
    return false;
  }
  nh::registerSessionSystem(system);
  emit catalogueChanged();
  editor_->setRunningText(QString::fromStdString(system->text()));
  return true;
}

void ModelEditing::fillMenu(QMenu* menu) {
  menu->setObjectName("systemModelMenu");
  menu->setToolTipsVisible(true);
  const struct {
    QString text, tip;
    std::function<void()> run;
  } items[] = {
      {tr("&New system"), tr("Write a system as a model file, starting from a template"),
       [this] { newSystem(); }},
      {tr("Open s&ystem…"), tr("Open a model file (YAML or JSON) in the editor and run it"),
       [this] { openDialog(); }},
      {tr("&Edit system"),
       tr("The running system's model file in the editor (a copy for a built-in system)"),
       [this] { editSystem(); }},
      {tr("&Duplicate and edit"),
       tr("The running system's model file, renamed <name>_copy, in the editor"),
       [this] { duplicateAndEdit(); }},
      {tr("Save s&ystem"), tr("Save the model file in the editor"), [this] { save(); }},
      {tr("Save system as…"),
       tr("Save the model file in the editor to a new file (your model folder by default)"),
       [this] { saveAs(); }},
  };
  for (const auto& item : items) menu->addAction(item.text, this, item.run)->setToolTip(item.tip);
}

void ModelEditing::systemChanged() {
  const nh::CatalogueEntry entry = nh::catalogueEntry(session_->controller()->system());
  editor_->setRunningText(QString::fromStdString(entry.modelText));
}

void ModelEditing::onSaved(const QString& path) {
  const QString folder = QString::fromStdString(nh::userModelFolder());
  if (QFileInfo(path).absoluteDir() == QDir(folder)) {
    nh::reloadUserModels();
    // A file the catalogue skips (its name taken by another system, say) is said so at once.
    for (const std::string& problem : nh::catalogueProblems())
      if (QString::fromStdString(problem).startsWith(path)) {
        editor_->showNote(tr("Saved, but not listed: %1").arg(QString::fromStdString(problem)));
        session_->reportError(QString::fromStdString(problem));
        emit catalogueChanged();
        return;
      }
  }
  emit catalogueChanged();
  emit session_->notice(tr("Saved %1").arg(path), 4000);
}

void ModelEditing::updateTitle() {
  const QString state = editor_->path().isEmpty() ? tr(" (not saved yet)")
                        : editor_->isModified()   ? QStringLiteral(" *")
                                                  : QString();
  dock_->setWindowTitle(tr("Model editor — %1%2").arg(editor_->documentName(), state));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
