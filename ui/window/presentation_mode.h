// Presentation mode for a projector: full screen, larger text, the 3D view with one large
// plot, the other panels behind a slim side bar whose buttons show them on demand — each as a
// tab beside the plot, in the plot's third of the screen, never taking space from the 3D view.
// Leaving it restores the window's layout, size and place (within the screen it is on).
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;
class QToolBar;

namespace nhui {

class PresentationMode : public QObject {
  Q_OBJECT

 public:
  struct Panel {
    QDockWidget* dock;
    QString sideBarName;  // empty: no button on the side bar
  };
  struct Parts {
    QMainWindow* window = nullptr;
    QDockWidget* plot = nullptr;  // the one panel shown beside the 3D view
    std::vector<Panel> panels;    // every dock (the plot among them)
    std::vector<QToolBar*> hiddenBars;
    std::vector<QAction*> hiddenActions;
    std::vector<QToolBar*> largeIconBars;
    std::function<void(bool)> setCompactPlot;
  };
  explicit PresentationMode(Parts parts, QObject* parent = nullptr);

  bool active() const { return active_; }
  void enter();
  void leave();
  // Keeps the panels' side at about a third of the width (after a resize, a panel shown).
  void keepLayout();

 private:
  void buildSideBar();
  void presentPanel(QDockWidget* dock);
  void fitToScreen();

  Parts parts_;
  bool active_ = false;
  bool wasMaximized_ = false;
  QByteArray normalDockState_, normalGeometry_;
  QFont normalFont_;
  QToolBar* sideBar_ = nullptr;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
