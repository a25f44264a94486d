// Choosing a catalogue system: the list, and each system's description, equations and
// literature source (also used by the "System" dock).
#pragma once

#include <QDialog>

#include "core/nh/system.h"

class QListWidget;
class QTextBrowser;

namespace nhui {

// Rich-text description of a system: title, description, equations, source, parameters.
QString systemHtml(const nh::SystemModel& system);

class SystemChooser : public QDialog {
  Q_OBJECT

 public:
  explicit SystemChooser(const QString& current, QWidget* parent = nullptr);
  QString chosenSystem() const;

 private:
  QListWidget* list_;
  QTextBrowser* text_;
};

}  // namespace nhui
