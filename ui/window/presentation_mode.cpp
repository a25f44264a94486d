// PresentationMode (presentation_mode.h): entering (full screen, the side bar of panel buttons,
// a panel shown as a tab beside the plot) and leaving with the layout, size and place restored.
#include "ui/window/presentation_mode.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>
#include <QStyle>
#include <QToolBar>
#include <algorithm>

namespace nhui {

PresentationMode::PresentationMode(Parts parts, QObject* parent)
    : QObject(parent), parts_(std::move(parts)) {}

void PresentationMode::enter() {
  if (active_) return;
  active_ = true;
  QMainWindow* w = parts_.window;
  wasMaximized_ = w->isMaximized();
  normalDockState_ = w->saveState();
  normalGeometry_ = w->saveGeometry();
  normalFont_ = QApplication::font();
  QFont big = normalFont_;
  big.setPointSizeF(normalFont_.pointSizeF() * 1.3);
  QApplication::setFont(big);
  // The 3D view and one large plot; the other panels wait behind the side bar.
  for (const Panel& p : parts_.panels)
    if (p.dock != parts_.plot) p.dock->hide();
  for (QToolBar* t : parts_.hiddenBars) t->hide();
  for (QAction* a : parts_.hiddenActions) a->setVisible(false);
  for (QToolBar* t : parts_.largeIconBars) t->setIconSize(QSize(36, 36));
  buildSideBar();
  w->removeDockWidget(parts_.plot);
  w->addDockWidget(Qt::RightDockWidgetArea, parts_.plot);
  parts_.plot->show();
  parts_.setCompactPlot(true);
  w->showFullScreen();
  keepLayout();
}

// Short names keep the bar slim; each button brings its panel to the front (or hides the one
// in front), and the button of the panel in front is the one marked.
void PresentationMode::buildSideBar() {
  QMainWindow* w = parts_.window;
  sideBar_ = new QToolBar(tr("Panels"), w);
  sideBar_->setObjectName("presentationSideBar");
  sideBar_->setMovable(false);
  sideBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  for (const auto& [dock, name] : parts_.panels) {
    if (name.isEmpty()) continue;
    QAction* a = sideBar_->addAction(name);
    a->setCheckable(true);
    a->setChecked(dock->isVisible() || dock == parts_.plot);
    a->setToolTip(dock->windowTitle());
    connect(a, &QAction::toggled, dock, [this, a, dock = dock](bool shown) {
      if (shown && dock != parts_.plot) presentPanel(dock);
      dock->setVisible(shown);
      if (shown) dock->raise();
      {
        // Tabifying the panel reported it hidden for a moment: the button keeps the choice.
        QSignalBlocker block(a);
        a->setChecked(shown);
      }
      keepLayout();
    });
    // Marked while the panel is in front: a panel opened beside the plot puts the plot's
    // tab behind it, and the plot's button is unmarked then (one panel marked at a time).
    connect(dock, &QDockWidget::visibilityChanged, a, [a, dock = dock](bool visible) {
      QSignalBlocker block(a);
      a->setChecked(visible && !dock->isHidden());
    });
  }
  w->addToolBar(Qt::LeftToolBarArea, sideBar_);
}

void PresentationMode::leave() {
  if (!active_) return;
  active_ = false;
  QMainWindow* w = parts_.window;
  QApplication::setFont(normalFont_);
  parts_.setCompactPlot(false);
  if (sideBar_) {
    w->removeToolBar(sideBar_);
    delete sideBar_;
    sideBar_ = nullptr;
  }
  for (QToolBar* t : parts_.hiddenBars) t->show();
  for (QAction* a : parts_.hiddenActions) a->setVisible(true);
  const int icon = w->style()->pixelMetric(QStyle::PM_ToolBarIconSize);
  for (QToolBar* t : parts_.largeIconBars) t->setIconSize(QSize(icon, icon));
  w->restoreState(normalDockState_);
  if (wasMaximized_)
    w->showMaximized();
  else
    w->showNormal();
  w->restoreGeometry(normalGeometry_);
  fitToScreen();
}

// A panel opened from the side bar becomes a tab beside the plot, in the plot's third of the
// screen: it takes space from the plot, never from the 3D view.
void PresentationMode::presentPanel(QDockWidget* dock) {
  QMainWindow* w = parts_.window;
  if (w->dockWidgetArea(dock) == Qt::RightDockWidgetArea && !dock->isFloating() &&
      w->tabifiedDockWidgets(parts_.plot).contains(dock))
    return;
  w->removeDockWidget(dock);
  w->addDockWidget(Qt::RightDockWidgetArea, dock);
  w->tabifyDockWidget(parts_.plot, dock);
}

// The panels' side stays at about a third of the width, whatever the screen and whichever
// panels are open.
void PresentationMode::keepLayout() {
  if (!active_) return;
  QMainWindow* w = parts_.window;
  QList<QDockWidget*> shown;
  for (QDockWidget* d : w->findChildren<QDockWidget*>())
    if (!d->isHidden() && w->dockWidgetArea(d) == Qt::RightDockWidgetArea) shown << d;
  if (shown.isEmpty()) return;
  const int side = std::max(260, w->width() * 34 / 100);
  w->resizeDocks(shown, QList<int>(shown.size(), side), Qt::Horizontal);
}

// A window restored from full screen keeps within the screen it is on (its docks' minimum
// widths could otherwise leave it wider than a 1024 px projector).
void PresentationMode::fitToScreen() {
  QMainWindow* w = parts_.window;
  const QScreen* s = w->screen();
  if (!s || w->isMaximized() || w->isFullScreen()) return;
  const QRect available = s->availableGeometry();
  QRect g = w->frameGeometry();
  const QSize size(std::min(w->width(), available.width() - (g.width() - w->width())),
                   std::min(w->height(), available.height() - (g.height() - w->height())));
  if (size != w->size()) w->resize(size);
  g = w->frameGeometry();
  if (!available.contains(g))
    w->move(std::clamp(g.left(), available.left(),
                       std::max(available.left(), available.right() - g.width() + 1)),
            std::clamp(g.top(), available.top(),
                       std::max(available.top(), available.bottom() - g.height() + 1)));
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
