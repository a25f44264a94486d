// The history bar under the 3D view (ui/window/timeline_bar.h): a click on the slider's groove
// seeks to the moment under the pointer (before, it stepped a page: 0.02 s of a 3 s record),
// and the press goes on as a drag.
#include "ui/window/timeline_bar.h"

#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QtTest>
#include <cmath>

#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

class TimelineBarTest : public QObject {
  Q_OBJECT

 private slots:
  void clickOnTheGrooveSeeksThere() {
    nhui::MainWindow window(false);
    QVERIFY(nhtest::showActive(window));
    nhui::SimulationController* c = window.controller();
    c->pause();
    c->reset();
    QVERIFY(c->waitForTime(3.0, 30000));
    c->tick();
    c->seek(c->primary().lastTime());
    QSlider* slider = window.timeline();
    const double t0 = c->primary().firstTime(), t1 = c->primary().lastTime();

    // Where the groove maps values to pixels, as the style draws it.
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = option.sliderValue = slider->value();
    const QRect groove = slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                         QStyle::SC_SliderGroove, slider);
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                         QStyle::SC_SliderHandle, slider);
    for (const double fraction : {0.25, 0.6, 0.1}) {
      const int x = groove.x() + handle.width() / 2 +
                    static_cast<int>(fraction * (groove.width() - handle.width()));
      QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(x, slider->height() / 2));
      const double expected = t0 + fraction * (t1 - t0);
      QVERIFY2(std::abs(c->displayTime() - expected) < 0.02 * (t1 - t0),
               qPrintable(QString("clicked at %1 of the groove: t = %2, expected %3")
                              .arg(fraction)
                              .arg(c->displayTime())
                              .arg(expected)));
      QVERIFY(!c->playing());
    }

    // Pressed on the groove and dragged on: the seek follows the pointer.
    const int from = groove.x() + groove.width() / 5, to = groove.x() + 4 * groove.width() / 5;
    QTest::mousePress(slider, Qt::LeftButton, {}, QPoint(from, slider->height() / 2));
    QMouseEvent move(QEvent::MouseMove, QPointF(to, slider->height() / 2),
                     slider->mapToGlobal(QPointF(to, slider->height() / 2)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(slider, &move);
    QTest::mouseRelease(slider, Qt::LeftButton, {}, QPoint(to, slider->height() / 2));
    QVERIFY2(c->displayTime() > t0 + 0.7 * (t1 - t0),
             qPrintable(QString("t = %1 after the drag").arg(c->displayTime())));
  }
};

QTEST_MAIN(TimelineBarTest)
#include "timeline_bar_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
