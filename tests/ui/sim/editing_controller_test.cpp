// Edits during a run, on the controller (no window): the table's angle (the moving frame)
// and the table-frame trail go on continuously through an edit of Ω; a paused edit records
// the displayed moment again with the new values at once; the parameters follow the
// timeline when scrubbing; the output step is configurable. (Forks at a scrubbed moment and
// their undo: tests/ui/session/session_test.cpp.)
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "controller_fixture.h"
#include "core/nh/errors.h"
#include "ui/session/undo_commands.h"
#include "ui/sim/simulation_controller.h"

using nhui::ReplaceTimelineCommand;
using nhui::RunHistory;
using nhui::SetParameterCommand;
using nhui::SimulationController;

namespace {

// The scene of recorded sample k, drawn with the parameters recorded for it.
nh::SceneFrame frameAt(const RunHistory& run, size_t k) {
  const std::vector<double> x = run.state(k);
  std::vector<double> lambda(std::max(1, run.layout().lambdaCount));
  for (int c = 0; c < run.layout().lambdaCount; ++c)
    lambda[c] = run.column(run.layout().firstLambda + c)[k];
  nh::SceneFrame frame;
  run.system().scene(run.parametersAt(k).data(), run.time(k), x.data(), x.data() + run.system().n(),
                     lambda.data(), frame);
  return frame;
}

Eigen::Vector3d trailPoint(const RunHistory& run, const std::string& name, size_t k) {
  const int c = run.columnIndex(name + ".x");
  return {run.column(c)[k], run.column(c + 1)[k], run.column(c + 2)[k]};
}

double parameterAt(const RunHistory& run, size_t k, const std::string& name) {
  return run.parametersAt(k)[run.system().parameterIndex(name)];
}

}  // namespace

class EditingControllerTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { controller_ = nhtest::startController(); }
  void cleanup() { controller_.reset(); }

  // The start Reset goes back to depends on Ω₀ through the rolling constraint (wx follows
  // vy and Ω): an edit that moves it says so, naming the velocity with its old and new
  // value; an edit that leaves the start alone (the mass) says nothing. Typed
  // start values the constraints change are said too.
  void aStartMovedByTheConstraintsIsSaid() {
    SimulationController& c = *controller_;
    QSignalSpy warned(&c, &SimulationController::warningOccurred);
    const double wx = c.initialState()[c.system().n() + 2];
    c.setParameter("Omega0", 3);
    QCOMPARE(warned.size(), 1);
    const QString said = warned.takeFirst().at(0).toString();
    QVERIFY2(said.contains("start for Reset") && said.contains("wx") &&
                 said.contains(QString::number(wx, 'g', 4)),
             qPrintable(said));
    c.setParameter("m", 1.5);
    QCOMPARE(warned.size(), 0);
    c.setInitialOverrides({{"vy", 0.3}, {"wx", 0.0}});
    QCOMPARE(warned.size(), 1);
    QVERIFY2(warned.takeFirst().at(0).toString().contains("wx 0 → "), "typed wx not named");
  }

  // Ω0 1 → 1.1 at t = 25.6 s turned the table by 0.1·25.6 rad ≈ 147°.
  void tableTurnsOnContinuouslyThroughAnOmegaEdit() {
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(25.6, 60000));
    c.seek(25.6);
    const double t1 = c.primary().time(c.displayIndex());
    QVERIFY(std::abs(t1 - 25.6) < 1e-6);
    c.setParameter("Omega0", 1.1);
    QVERIFY(c.waitForTime(25.7, 30000));
    const RunHistory& run = c.primary();
    // The last sample recorded with the old Ω0 and the first with the new one.
    size_t last = 0;
    while (last + 1 < run.size() && parameterAt(run, last + 1, "Omega0") == 1.0) ++last;
    QVERIFY(last + 2 < run.size());
    QCOMPARE(parameterAt(run, last + 1, "Omega0"), 1.1);
    QVERIFY(std::abs(run.time(last) - t1) < 1e-9);
    // Across the edit the table turns by at most Ω·Δt (Δt: the samples' spacing, 0 for the
    // edit's own recomputed sample, where the tolerance is round-off), as at any other step.
    for (size_t k = last - 1; k <= last + 1; ++k) {
      const double dt = run.time(k + 1) - run.time(k);
      const double turned =
          frameAt(run, k).movingFrame.angularDistance(frameAt(run, k + 1).movingFrame);
      QVERIFY2(turned <= 1.1 * dt * (1 + 1e-6) + 1e-9,
               qPrintable(QString("the table turned %1 rad between t = %2 and %3")
                              .arg(turned)
                              .arg(run.time(k))
                              .arg(run.time(k + 1))));
      // The contact point seen from the table moves by (Ω + the ball's speed) Δt at most:
      // the point is 0.6 m out, so 0.6·Ω + 0.5 m/s bounds its speed (a jump of the table by
      // 147° would move it by about 1.1 m).
      const double moved = (trailPoint(run, "contact (table frame)", k + 1) -
                            trailPoint(run, "contact (table frame)", k))
                               .norm();
      QVERIFY2(moved <= (0.6 * 1.1 + 0.5) * dt + 1e-9,
               qPrintable(QString("the table-frame trail jumped %1 m at t = %2")
                              .arg(moved)
                              .arg(run.time(k + 1))));
    }
    // The phase moved so that table_angle0 + Ω0' t1 = 0 + Ω0 t1 (Omega_rate and the
    // oscillation are 0): table_angle0 = −0.1 t1.
    QVERIFY(std::abs(c.parameter("table_angle0") + 0.1 * t1) < 1e-9);
  }

  // The shifted phase is an angle: shown in (−π, π] however far the table turned (an edit of
  // Ω0 from 1 to 5 at t = 25.6 s needs −102.4 rad, which is −102.4 + 16·2π ≈ 0.13 rad), and
  // the table's angle stays continuous up to whole turns.
  void shiftedPhaseIsWrappedToOneTurn() {
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(25.6, 60000));
    c.seek(25.6);
    const double t1 = c.primary().time(c.displayIndex());
    c.setParameter("Omega0", 5.0);
    const double phase = c.parameter("table_angle0");
    QVERIFY2(phase > -M_PI && phase <= M_PI, qPrintable(QString::number(phase)));
    const double turns = (phase - (-4.0 * t1)) / (2 * M_PI);
    QVERIFY2(std::abs(turns - std::round(turns)) < 1e-9, qPrintable(QString::number(turns)));
  }

  // A value in range that makes the system non-regular (the sleigh's mass 1e15 against its
  // moment of inertia 0.1: M is singular to working precision) is refused at once with the
  // reason, like a value out of range, and the run goes on; it used to be accepted and then
  // fail the run.
  void aValueThatMakesTheSystemSingularIsRefused() {
    controller_ = nhtest::startController("chaplygin_sleigh");
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(0.5, 30000));
    const double m = c.parameter("m");
    bool refused = false;
    try {
      c.setParameter("m", 1e15);
    } catch (const nh::InputError& e) {
      refused = true;
      QVERIFY2(std::string(e.what()).find("'m' = 1e+15 is not allowed") != std::string::npos &&
                   std::string(e.what()).find("not regular") != std::string::npos,
               e.what());
    }
    QVERIFY(refused);
    QCOMPARE(c.parameter("m"), m);
    c.play();
    QVERIFY(c.waitForTime(1.0, 30000));
    QVERIFY(c.lastError().isEmpty());
  }

  // An edited phase is not shifted back: the user turns the table on purpose.
  void editingThePhaseTurnsTheTable() {
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(1.0, 30000));
    c.seek(1.0);
    c.setParameter("table_angle0", 0.5);
    QCOMPARE(c.parameter("table_angle0"), 0.5);
    QCOMPARE(c.parameter("Omega0"), 1.0);
  }

  // An edit while paused showed nothing until Step or Play.
  void pausedEditShowsAtOnce() {
    SimulationController& c = *controller_;
    c.play();
    QTRY_VERIFY_WITH_TIMEOUT(c.displayTime() > 0.3, 10000);
    c.pause();
    // An edit goes on from the recorded sample at or before the displayed moment.
    const double t = c.primary().time(c.displayIndex());
    nh::SceneFrame before;
    QVERIFY(c.displayedScene(0, before));
    c.setParameter("m", 2.0);
    // The worker computes a little ahead of a paused display (as it always does); then a
    // screen refresh, not a step, shows the moment.
    QVERIFY(c.waitForTime(t + c.dtOut(), 10000));
    c.tick();
    QVERIFY(!c.playing());
    QCOMPARE(c.displayTime(), t);
    nh::SceneFrame after;
    QVERIFY(c.displayedScene(0, after));
    auto normal = [](const nh::SceneFrame& f) {
      for (const auto& a : f.arrows)
        if (a.name == "normal force") return a.vector.z();
      return std::nan("");
    };
    // m g cos²(tilt) with tilt 0: 9.81 N before, 19.62 N after (exact up to round-off).
    QVERIFY(std::abs(normal(before) - 9.81) < 1e-9);
    QVERIFY2(std::abs(normal(after) - 2 * 9.81) < 1e-9,
             qPrintable(QString("normal force %1 N").arg(normal(after))));
    // The sample shown was recorded with the new mass: its energy is the new ½ m v² + ….
    const RunHistory& run = c.primary();
    const size_t k = c.displayIndex();
    QCOMPARE(parameterAt(run, k, "m"), 2.0);
    const double energy = run.column(run.columnIndex("energy"))[k];
    QVERIFY(energy > 0);
    // The sample before (same time, old mass) keeps the old record: plots show the step.
    QVERIFY(k > 0 && run.time(k - 1) == run.time(k));
    QCOMPARE(parameterAt(run, k - 1, "m"), 1.0);
    QVERIFY(std::abs(run.column(run.columnIndex("energy"))[k - 1] - energy) > 1e-6);
  }

  // A restart right after an edit, before the edit's recomputed sample arrived (the soak,
  // seed 8080: an edit, then the formulation), kept the sample before the edit as the last at
  // that moment: the paused view showed the old value there and the edit took effect only
  // from the next sample.
  void restartRightAfterAnEditKeepsItsMoment() {
    SimulationController& c = *controller_;
    c.play();
    QTRY_VERIFY_WITH_TIMEOUT(c.displayTime() > 0.3, 10000);
    c.pause();
    const double t = c.primary().time(c.displayIndex());
    c.setParameter("m", 2.0);
    c.setFormulation(nh::Formulation::GibbsAppell);  // no drain in between
    QVERIFY(c.waitForTime(t + 3 * c.dtOut(), 10000));
    c.tick();
    QCOMPARE(c.displayTime(), t);
    QCOMPARE(c.parameter("m"), 2.0);
    const RunHistory& run = c.primary();
    const size_t k = c.displayIndex();
    QCOMPARE(run.time(k), t);
    QCOMPARE(parameterAt(run, k, "m"), 2.0);
  }

  // Scrubbing back before an edit shows the values in force then.
  void parametersFollowTheTimeline() {
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(2.0, 30000));
    c.seek(1.0);
    c.setParameter("Omega0", 2.0);
    QVERIFY(c.waitForTime(2.0, 30000));
    QSignalSpy changed(&c, &SimulationController::parametersChanged);
    c.seek(0.5);
    QCOMPARE(c.parameter("Omega0"), 1.0);
    QCOMPARE(changed.count(), 1);
    c.seek(1.5);
    QCOMPARE(c.parameter("Omega0"), 2.0);
    c.stepBack();
    QCOMPARE(c.parameter("Omega0"), 2.0);
    // Resuming at 0.5 s goes on with the values in force there.
    c.seek(0.5);
    c.play();
    QCOMPARE(c.parameter("Omega0"), 1.0);
    QVERIFY(c.waitForTime(0.8, 30000));
    const RunHistory& run = c.primary();
    QCOMPARE(parameterAt(run, run.size() - 1, "Omega0"), 1.0);
  }

  // The output step was fixed at 0.01 s.
  void stepSizeIsConfigurable() {
    SimulationController& c = *controller_;
    QVERIFY(c.waitForTime(0.5, 30000));
    c.seek(0.5);
    c.setStepSize(0.05);
    QCOMPARE(c.dtOut(), 0.05);
    QCOMPARE(c.scenario().dtOut, 0.05);
    QVERIFY(c.waitForTime(1.0, 30000));
    const RunHistory& run = c.primary();
    const size_t k = run.indexAtOrAfter(0.6);
    QVERIFY(std::abs(run.time(k + 1) - run.time(k) - 0.05) < 1e-9);
    c.stepForward();
    c.tick();
    QVERIFY(std::abs(c.displayTime() - 0.55) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(nh::InputError, c.setStepSize(0));
    QVERIFY_THROWS_EXCEPTION(nh::InputError, c.setStepSize(std::nan("")));
    QCOMPARE(c.dtOut(), 0.05);
  }

  // A comparison switch keeps the edited parameters.
  void compareSwitchKeepsParameters() {
    SimulationController& c = *controller_;
    c.setParameter("m", 2.0);
    c.setCompare(nhui::CompareMode::Vakonomic);
    QCOMPARE(c.parameter("m"), 2.0);
    c.setCompare(nhui::CompareMode::None);
    QCOMPARE(c.parameter("m"), 2.0);
  }

  // The hamiltonian formulation beside a vakonomic comparison: the primary run steps (q, p) and
  // records the momenta, the vakonomic run (which that formulation refuses) goes on with the
  // multipliers, and both advance.
  void hamiltonianFormulationBesideAVakonomicComparison() {
    SimulationController& c = *controller_;
    c.setCompare(nhui::CompareMode::Vakonomic);
    c.setFormulation(nh::Formulation::Hamiltonian);
    QVERIFY(c.scenario().formulation == nh::Formulation::Hamiltonian);
    c.play();
    QVERIFY(c.waitForTime(0.5, 30000));
    c.tick();
    QVERIFY(c.primary().columnIndex("p_" + c.system().info().velocities[0]) >= 0);
    QVERIFY(c.comparison() != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(c.comparison()->size() > 10, 30000);
  }

 private:
  std::unique_ptr<SimulationController> controller_;
};

QTEST_GUILESS_MAIN(EditingControllerTest)
#include "editing_controller_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
