// The system chooser (system_chooser.h): the catalogue's list with each system's origin, and
// the HTML description of the selected one (also the System dock's text).
#include "ui/panels/system_chooser.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QListWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/model/structure_kind.h"

namespace nhui {

QString systemHtml(const nh::SystemModel& system, bool* structurePending) {
  const nh::SystemInfo& info = system.info();
  auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
  QString html = QStringLiteral("<h2>%1</h2><p><i>%2</i></p><p>%3</p>")
                     .arg(esc(info.title), esc(info.name), esc(info.description));
  html += QStringLiteral("<h3>Equations</h3><pre style='font-size: 10pt'>%1</pre>")
              .arg(esc(info.equations));
  html += QStringLiteral("<h3>Source</h3><p>%1</p>").arg(esc(info.source));
  html += "<h3>Parameters</h3><table cellspacing='4'>";
  for (const auto& p : info.parameters)
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                .arg(esc(p.name), esc(p.unit), esc(p.rangeText()), esc(p.description));
  html += "</table>";
  html += QStringLiteral("<h3>Initial velocities</h3><p>%1</p>").arg(esc(info.initialization));
  html += QStringLiteral("<p>Constraints: %1 nonholonomic, %2 holonomic.</p>")
              .arg(system.k())
              .arg(system.h());
  // The kind of algebroid the bracket makes (skew? Jacobi?), as `nhsim info` says it.
  const auto structure = nh::model::classifyStructureIfFree(system);
  if (structurePending) *structurePending = !structure;
  html += structure
              ? QStringLiteral("<p>Structure: %1.</p>").arg(esc(nh::model::describe(*structure)))
              : QObject::tr(
                    "<p>Structure: not determined yet (the symbolic engine is deriving "
                    "equations).</p>");
  return html;
}

QString originText(nh::SystemOrigin origin) {
  switch (origin) {
    case nh::SystemOrigin::BuiltIn:
      return QObject::tr("built in");
    case nh::SystemOrigin::BuiltInModel:
      return QObject::tr("model file");
    case nh::SystemOrigin::UserModel:
      return QObject::tr("your folder");
    case nh::SystemOrigin::Session:
      return QObject::tr("this session");
    case nh::SystemOrigin::File:
      return QObject::tr("file");
  }
  return {};
}

SystemChooser::SystemChooser(const QString& current, QWidget* parent)
    : QDialog(parent), entries_(nh::catalogueEntries()) {
  setWindowTitle(tr("Choose a system"));
  resize(900, 560);
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  list_ = new QListWidget;
  list_->setMaximumWidth(320);
  text_ = new QTextBrowser;
  text_->setOpenExternalLinks(true);
  row->addWidget(list_);
  row->addWidget(text_, 1);
  layout->addLayout(row, 1);
  for (const nh::CatalogueEntry& e : entries_) {
    const nh::SystemModel& s = *e.system;
    auto* item =
        new QListWidgetItem(QStringLiteral("%1  (%2)")
                                .arg(QString::fromStdString(s.info().title), originText(e.origin)),
                            list_);
    item->setData(Qt::UserRole, QString::fromStdString(s.name()));
    item->setToolTip(e.path.empty() ? QString::fromStdString(s.name())
                                    : QString::fromStdString(e.path));
    if (s.name() == current.toStdString()) list_->setCurrentItem(item);
  }
  connect(list_, &QListWidget::currentRowChanged, this, &SystemChooser::showEntry);
  connect(list_, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
  if (!list_->currentItem()) list_->setCurrentRow(0);
  showEntry(list_->currentRow());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

void SystemChooser::showEntry(int row) {
  if (row < 0 || row >= static_cast<int>(entries_.size())) return;
  const nh::CatalogueEntry& e = entries_[row];
  QString origin = originText(e.origin);
  if (!e.path.empty())
    origin += QStringLiteral(": ") + QString::fromStdString(e.path).toHtmlEscaped();
  text_->setHtml(systemHtml(*e.system) +
                 QStringLiteral("<p><i>%1</i></p>").arg(tr("From: %1").arg(origin)));
}

QString SystemChooser::chosenSystem() const {
  return list_->currentItem() ? list_->currentItem()->data(Qt::UserRole).toString() : QString();
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
