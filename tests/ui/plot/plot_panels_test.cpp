// The plot panels in the window: the choosers and axis titles show the system's labels and
// units ("friction force x [N]" for lambda_1) while scenarios keep the column names, and
// the derived energy error and the energy in the constraints' frame can be chosen in the time
// series and the phase portrait; every
// quantity is offered once (a scene point that is a state is not offered twice); paused and
// scrubbed back, the plots draw the whole record and mark the displayed moment.
#include "ui/plot/plot_panels.h"

#include <QComboBox>
#include <QListWidget>
#include <QSet>
#include <QtTest>
#include <cmath>

#include "ui/sim/run_style.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"

class PlotPanelsTest : public QObject {
  Q_OBJECT

 private slots:
  void choosersShowLabelsAndTheEnergyError() {
    nhui::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(QString::fromStdString(window.controller()->system().name()),
             QString("ball_on_turntable"));

    auto* list = window.findChild<QListWidget*>("timeSeriesVariables");
    QVERIFY(list);
    auto item = [&](const QString& name) -> QListWidgetItem* {
      for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == name) return list->item(i);
      return nullptr;
    };
    QVERIFY(item("lambda_1"));
    QCOMPARE(item("lambda_1")->text(), QString("friction force x [N]"));
    QCOMPARE(item("vx")->text(), QString("velocity x [m/s]"));
    QVERIFY(item("energy_error"));
    QVERIFY2(item("energy_error")->text().startsWith("energy error"),
             qPrintable(item("energy_error")->text()));
    // The energy relative to the constraints' frame (an output column) with the model's label.
    QVERIFY(item("energy_frame"));
    QCOMPARE(item("energy_frame")->text(), QString("energy in table frame [J]"));

    // Chosen by name (as a scenario's view does): titled by label, in the list's order.
    nhui::TimeSeriesPanel* series = window.timeSeriesPanel();
    series->setVariables({"energy_error", "lambda_1"});
    QCOMPARE(series->variables(), QStringList({"lambda_1", "energy_error"}));
    QTRY_COMPARE(series->plot()->panes().size(), size_t(2));
    QCOMPARE(series->plot()->panes()[0].yLabel, QString("friction force x [N]"));
    QVERIFY(series->plot()->panes()[1].yLabel.startsWith("energy error"));
    // The energy error is recorded: 0 at the first sample, a finite number after it.
    QTRY_VERIFY(!series->plot()->panes()[1].curves.empty() &&
                series->plot()->panes()[1].curves[0].count > 2);
    const nhui::PlotCurve& c = series->plot()->panes()[1].curves[0];
    QCOMPARE(c.y[0], 0.0);
    QVERIFY(std::isfinite(c.y[c.count - 1]));

    nhui::PhasePortraitPanel* phase = window.phasePanel();
    auto* x = window.findChild<QComboBox*>("phaseX");
    QVERIFY(x && x->findData("energy_error") >= 0);
    phase->setVariables("t", "lambda_2");
    QCOMPARE(phase->yVariable(), QString("lambda_2"));
    QTRY_COMPARE(phase->plot()->panes().size(), size_t(1));
    QCOMPARE(phase->plot()->panes()[0].yLabel, QString("t [s] – friction force y [N]"));
    QCOMPARE(phase->plot()->xLabel(), QString("t [s]"));
  }

  // The sleigh's contact point is its state (x, y): the lists offered both "contact point x
  // [m]" (the state) and "contact point.x" (the scene point's column). One entry each now;
  // a scenario naming the point's column gets the state.
  void everyQuantityIsOfferedOnce() {
    nhui::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.chooseSystem("chaplygin_sleigh");
    auto* list = window.findChild<QListWidget*>("timeSeriesVariables");
    auto* x = window.findChild<QComboBox*>("phaseX");
    QVERIFY(list && x);
    QStringList texts, columns;
    for (int i = 0; i < list->count(); ++i) {
      texts << list->item(i)->text();
      columns << list->item(i)->data(Qt::UserRole).toString();
    }
    QVERIFY2(QSet<QString>(texts.begin(), texts.end()).size() == texts.size(),
             qPrintable(texts.join(" | ")));
    QVERIFY2(texts.contains("contact point x [m]"), qPrintable(texts.join(" | ")));
    // A model that does not label energy_frame: its words, in the unit of the energy.
    QVERIFY2(texts.contains("energy in the constraint's frame [J]"), qPrintable(texts.join(" | ")));
    QVERIFY2(!columns.contains("contact point.x") && !texts.contains("contact point.x"),
             qPrintable(texts.join(" | ")));
    QVERIFY(columns.contains("x"));
    QStringList boxTexts;
    for (int i = 0; i < x->count(); ++i) boxTexts << x->itemText(i);
    QVERIFY2(QSet<QString>(boxTexts.begin(), boxTexts.end()).size() == boxTexts.size(),
             qPrintable(boxTexts.join(" | ")));
    QVERIFY(x->findData("contact point.x") < 0);
    window.timeSeriesPanel()->setVariables({"contact point.y"});
    QCOMPARE(window.timeSeriesPanel()->variables(), QStringList({"y"}));
    window.phasePanel()->setVariables("contact point.x", "contact point.y");
    QCOMPARE(window.phasePanel()->xVariable(), QString("x"));
    QCOMPARE(window.phasePanel()->yVariable(), QString("y"));
  }

  // Scrubbed back, the curves hold every recorded sample and mark the displayed one (the
  // time series with a time cursor, see plot_widget_test); before, they stopped there.
  // Playing, they end at the displayed moment (the worker runs ahead of the display).
  void scrubbedBackTheWholeRecordIsDrawn() {
    nhui::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    nhui::SimulationController* c = window.controller();
    c->pause();
    c->reset();
    QVERIFY(c->waitForTime(2.0, 30000));
    c->tick();
    c->seek(1.0);
    const size_t recorded = c->primary().size();
    QVERIFY(recorded > 150);
    nhui::TimeSeriesPanel* series = window.timeSeriesPanel();
    nhui::PhasePortraitPanel* phase = window.phasePanel();
    series->refresh();
    phase->refresh();
    for (const nhui::PlotWidget* plot : {series->plot(), phase->plot()}) {
      QVERIFY(!plot->panes().empty() && !plot->panes()[0].curves.empty());
      const nhui::PlotCurve& curve = plot->panes()[0].curves[0];
      QCOMPARE(curve.count, recorded);
      QVERIFY(curve.current < curve.count);
      QVERIFY2(std::abs(c->primary().time(curve.current) - 1.0) < 1e-6,
               qPrintable(QString::number(c->primary().time(curve.current))));
    }
    c->play();
    c->tick();
    series->refresh();
    const nhui::PlotCurve& playing = series->plot()->panes()[0].curves[0];
    QCOMPARE(playing.count, c->primary().indexAtOrBefore(c->displayTime() + 1e-9) + 1);
  }

  // The legend names each run by what tells it apart: the dynamics when comparing dynamics,
  // the parameter's value when comparing with a ghost (the primary run was labelled
  // "nonholonomic" beside the ghost's "ghost: Omega0 = 2"), by the parameter's display name; the
  // curves take the runs' colours from the one table (ui/sim/run_style.h) the scene and the notes
  // use.
  void legendsNameWhatTellsTheRunsApart() {
    nhui::MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    nhui::SimulationController* c = window.controller();
    window.session()->setComparison(nhui::CompareMode::Ghost, "Omega0", 2.0);
    // Before the run's first sample the comparison waits for it (without blocking).
    QTRY_COMPARE_WITH_TIMEOUT(c->compareMode(), nhui::CompareMode::Ghost, 20000);
    QVERIFY(c->waitForTime(0.5, 30000));
    c->tick();
    nhui::TimeSeriesPanel* series = window.timeSeriesPanel();
    series->refresh();
    const auto& curves = series->plot()->panes()[0].curves;
    QCOMPARE(curves.size(), size_t(2));
    // The model's label for Omega0, with its unit, as the Parameters panel names it.
    QCOMPARE(curves[0].name, QStringLiteral("Ω₀ = 1 rad/s"));
    QCOMPARE(curves[1].name, QStringLiteral("Ω₀ = 2 rad/s"));
    const nhui::Rgb8 blue = nhui::kRunStyles[0].onDark, orange = nhui::kRunStyles[1].onDark;
    QCOMPARE(curves[0].colour, QColor(blue.r, blue.g, blue.b));
    QCOMPARE(curves[1].colour, QColor(orange.r, orange.g, orange.b));
    window.session()->setComparison(nhui::CompareMode::Vakonomic);
    QTRY_COMPARE_WITH_TIMEOUT(c->compareMode(), nhui::CompareMode::Vakonomic, 20000);
    QVERIFY(c->waitForTime(0.5, 30000));
    c->tick();
    series->refresh();
    QCOMPARE(series->plot()->panes()[0].curves[0].name, QStringLiteral("nonholonomic"));
    QCOMPARE(series->plot()->panes()[0].curves[1].name, QStringLiteral("vakonomic"));
  }
};

QTEST_MAIN(PlotPanelsTest)
#include "plot_panels_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
