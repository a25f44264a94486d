// Choosing a catalogue system: the list (with where each system comes from: built in, a
// bundled model file, the user's folder, this session's editor), and each system's
// description, equations and literature source (also used by the "System" dock).
#pragma once

#include <QDialog>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/system.h"

class QListWidget;
class QTextBrowser;

namespace nhui {

// Rich-text description of a system: title, description, equations, source, parameters and
// the kind of algebroid its structure makes. The last is not waited for while another thread
// derives equations with GiNaC: then the text says so and *structurePending (if given) is set,
// for the caller to ask again later.
QString systemHtml(const nh::SystemModel& system, bool* structurePending = nullptr);
// Where a catalogue system comes from, in a few words ("built in", "your folder", …).
QString originText(nh::SystemOrigin origin);

class SystemChooser : public QDialog {
  Q_OBJECT

 public:
  explicit SystemChooser(const QString& current, QWidget* parent = nullptr);
  QString chosenSystem() const;

 private:
  void showEntry(int row);

  std::vector<nh::CatalogueEntry> entries_;
  QListWidget* list_;
  QTextBrowser* text_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
