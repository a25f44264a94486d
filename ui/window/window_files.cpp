// The main window's scenario files: open and save (with their dialogs), the question about
// unsaved changes, and a scenario dropped on the window.
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUndoStack>

#include "ui/session/undo_commands.h"
#include "ui/window/main_window.h"

namespace nhui {

bool MainWindow::openScenario(const QString& path) {
  return maybeSaveScenario() && session_->openScenario(path);
}

bool MainWindow::saveScenario(const QString& path) { return session_->saveScenario(path); }

void MainWindow::openDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"),
                                                    QFileInfo(session_->currentFile()).path(),
                                                    tr("Scenarios (*.json);;All files (*)"));
  if (!path.isEmpty()) openScenario(path);
}

bool MainWindow::saveAsDialog() {
  const QString current = session_->currentFile();
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save scenario"),
      current.isEmpty() ? QString::fromStdString(controller_->system().name()) + ".json" : current,
      tr("Scenarios (*.json)"));
  if (path.isEmpty()) return false;
  if (!path.endsWith(".json")) path += ".json";
  return saveScenario(path);
}

bool MainWindow::maybeSaveScenario() {
  if (!session_->isModified()) return true;
  QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                  tr("%1 Save the scenario first?").arg(unsavedChanges(*undoStack())),
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName("unsavedScenarioBox");
  box.setTextFormat(Qt::PlainText);
  box.setDefaultButton(QMessageBox::Save);
  const int answer = box.exec();
  if (answer == QMessageBox::Save)
    return session_->currentFile().isEmpty() ? saveAsDialog()
                                             : saveScenario(session_->currentFile());
  return answer == QMessageBox::Discard;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive)) {
      event->acceptProposedAction();
      return;
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile() && url.toLocalFile().endsWith(".json", Qt::CaseInsensitive)) {
      openScenario(url.toLocalFile());
      event->acceptProposedAction();
      return;
    }
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
