// The plot panels in the window: the choosers and axis titles show the system's labels and
// units ("friction force x [N]" for lambda_1) while scenarios keep the column names, and
// the derived energy error can be chosen in the time series and the phase portrait.
#include "ui/plot/plot_panels.h"

#include <QComboBox>
#include <QListWidget>
#include <QtTest>
#include <cmath>

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
};

QTEST_MAIN(PlotPanelsTest)
#include "plot_panels_test.moc"
