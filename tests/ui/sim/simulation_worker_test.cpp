// The simulation thread and the controller on top of it: a restart from the same state gives
// the same samples; stale records of an earlier job never reach the history; setTarget and
// halt wake a waiting thread (no lost wake-ups: the thread waits without a timeout); a job's
// parameters project the job's own start state.
#include "ui/sim/simulation_worker.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/model/catalogue.h"
#include "core/nh/errors.h"
#include "particle_model.h"
#include "ui/sim/simulation_controller.h"

using nhui::SimulationWorker;

namespace {

SimulationWorker::Job makeJob(const std::string& systemName, long epoch,
                              const std::map<std::string, double>& parameters = {},
                              std::vector<double> x0 = {}, nh::IntegratorOptions options = {},
                              nh::DynamicsKind dynamics = nh::DynamicsKind::Nonholonomic) {
  SimulationWorker::RunSetup setup;
  setup.system = nh::findSystem(systemName);
  setup.dynamics = dynamics;
  setup.parameters = nh::resolveParameters(*setup.system, parameters);
  setup.options = options;
  const nh::EquationsOfMotion equations =
      nh::EquationsOfMotion(setup.system, setup.dynamics, setup.formulation)
          .withParameters(setup.parameters);
  setup.layout = nhui::makeRecordLayout(equations);
  if (x0.empty()) x0 = nh::initialState(equations, 0, {});
  setup.x0 = std::move(x0);
  SimulationWorker::Job job;
  job.epoch = epoch;
  job.t0 = 0;
  job.dtOut = 0.01;
  job.runs.push_back(std::move(setup));
  return job;
}

bool waitUntil(const std::function<bool()>& condition, int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (!condition()) {
    if (timer.elapsed() > timeoutMs) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// The records of run 0 of job `epoch`, taken from the worker until one at time ≥ t arrived
// (or the timeout). Records of other jobs are dropped, as the controller does.
std::vector<double> collect(SimulationWorker& worker, long epoch, double t, int timeoutMs = 20000) {
  std::vector<double> records;
  bool done = false;
  waitUntil(
      [&] {
        for (auto& out : worker.take()) {
          if (!out.error.empty()) qWarning("worker error: %s", out.error.c_str());
          if (out.epoch != epoch || out.run != 0 || out.records.empty()) continue;
          records.insert(records.end(), out.records.begin(), out.records.end());
          done = done || out.records[out.records.size() - out.stride] >= t - 1e-9;
        }
        return done;
      },
      timeoutMs);
  return records;
}

// What the worker said until its run reached t (or stopped): warnings, errors, the time
// reached. Sets the target itself.
struct Said {
  std::vector<std::string> warnings, errors;
  double reached = 0;
};
Said runUntil(SimulationWorker& worker, double t, int timeoutMs = 60000) {
  worker.setTarget(t);
  Said said;
  waitUntil(
      [&] {
        for (auto& out : worker.take()) {
          if (!out.warning.empty()) said.warnings.push_back(out.warning);
          if (!out.drift.empty()) said.warnings.push_back(out.drift);
          if (!out.error.empty()) said.errors.push_back(out.error);
          if (!out.records.empty()) said.reached = out.records[out.records.size() - out.stride];
        }
        return said.reached >= t - 1e-9 || !said.errors.empty();
      },
      timeoutMs);
  return said;
}

}  // namespace

class SimulationWorkerTest : public QObject {
  Q_OBJECT

 private slots:
  // A run depends only on its start: the same job, once driven chunk by chunk and once with
  // a far target, gives bit-identical records.
  void restartFromSameStateIsDeterministic() {
    SimulationWorker worker;
    worker.submit(makeJob("chaplygin_sleigh", 1));
    for (int i = 1; i <= 20; ++i) {  // one chunk (5 samples of 0.01 s) at a time
      worker.setTarget(0.05 * i - 0.001);
      QVERIFY(waitUntil([&] { return worker.reachedTime() >= 0.05 * i - 1e-9; }, 10000));
    }
    const std::vector<double> first = collect(worker, 1, 1.0);
    worker.submit(makeJob("chaplygin_sleigh", 2));
    worker.setTarget(1.0);
    const std::vector<double> second = collect(worker, 2, 1.0);
    QCOMPARE(first.size(), second.size());
    QVERIFY(!first.empty());
    QVERIFY(first == second);  // exact: same start, same grid, same steps
  }

  // A run whose first sample cannot be computed (the sleigh with m = 1e15: its mass matrix is
  // singular to working precision, found when the multipliers of the start are computed)
  // reports the error and records nothing: a half-filled record showed in the plots as a
  // sample at (0, 0).
  void aSampleThatFailsIsNotRecorded() {
    SimulationWorker worker;
    SimulationWorker::Job job = makeJob("chaplygin_sleigh", 1);
    job.t0 = 1.0;  // a record at t = 0 can only be a zero-filled one
    job.runs[0].parameters =
        nh::resolveParameters(*job.runs[0].system, std::map<std::string, double>{{"m", 1e15}});
    worker.submit(std::move(job));
    worker.setTarget(2.0);
    std::string error;
    std::vector<double> records;
    int stride = 1;
    QVERIFY(waitUntil(
        [&] {
          for (auto& out : worker.take()) {
            if (!out.error.empty()) error = out.error;
            records.insert(records.end(), out.records.begin(), out.records.end());
            if (out.stride > 0) stride = out.stride;
          }
          return !error.empty();
        },
        20000));
    QVERIFY2(error.find("not regular") != std::string::npos, error.c_str());
    for (size_t k = 0; k < records.size(); k += stride)
      QVERIFY2(records[k] >= 1.0, qPrintable(QString("a record at t = %1").arg(records[k])));
  }

  // The Kepler orbit conserves energy: at loose tolerances (rtol 0.05, atol 0.01) an eccentric
  // one drifts past 1 % within 20 s, and the worker says so, as nhsim does, while the run goes
  // on — and says it again each time the change has grown by a tenth, so the banner is never
  // older than the plot; at the default tolerances it says nothing.
  void aDriftingConservedEnergyIsWarnedAsItGrows() {
    for (const bool loose : {true, false}) {
      SimulationWorker worker;
      nh::IntegratorOptions options;
      if (loose) {
        options.rtol = 0.05;
        options.atol = 0.01;
      }
      // An eccentric orbit (w2 = 0.3): the close approaches need small steps.
      const auto system = nh::findSystem("central_force");
      const nh::EquationsOfMotion equations =
          nh::EquationsOfMotion(system, nh::DynamicsKind::Nonholonomic,
                                nh::Formulation::Multipliers)
              .withParameters(nh::resolveParameters(*system, {}));
      worker.submit(
          makeJob("central_force", 1, {}, nh::initialState(equations, 0, {{"w2", 0.3}}), options));
      const Said said = runUntil(worker, 20.0);
      const std::vector<std::string>& warnings = said.warnings;
      QVERIFY2(said.errors.empty(), said.errors.empty() ? "" : said.errors[0].c_str());
      QVERIFY(said.reached >= 20.0 - 1e-9);
      if (loose) {
        QVERIFY2(
            !warnings.empty(),
            qPrintable(QString("%1 warnings, reached %2").arg(warnings.size()).arg(said.reached)));
        double previous = 0;
        const QRegularExpression percent("^energy changed by [+−]([0-9.]+(?:e[+-][0-9]+)?) % ");
        for (const std::string& warning : warnings) {
          const QRegularExpressionMatch m = percent.match(QString::fromStdString(warning));
          QVERIFY2(m.hasMatch(), warning.c_str());
          const double change = m.captured(1).toDouble();
          QVERIFY2(change >= 1.09 * previous, warning.c_str());  // (printed to 3 digits)
          previous = change;
        }
      } else {
        QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings[0].c_str());
      }
    }
  }

  // A vakonomic particle held to the cone vz² = vx² + vy² stalls at its apex while its
  // multipliers grow past 1e8: the worker says so once (nh::ConstraintRankWatch), as nhsim
  // does, and the run goes on.
  void aConstraintLosingRankIsWarnedOf() {
    QTemporaryDir dir;
    const QString path = dir.filePath("cone.yaml");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(nh::test::kConeModel.c_str());
    f.close();
    SimulationWorker worker;
    worker.submit(makeJob(path.toStdString(), 1, {}, {}, {}, nh::DynamicsKind::Vakonomic));
    const Said said = runUntil(worker, 3.0);
    const std::vector<std::string>&warnings = said.warnings, &errors = said.errors;
    QVERIFY2(errors.empty(), errors.empty() ? "" : errors[0].c_str());
    QVERIFY(said.reached >= 3.0 - 1e-9);
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY2(warnings[0].find("lose rank") != std::string::npos, warnings[0].c_str());
  }

  // Through the controller: records of the job before a parameter change (older epoch) are
  // dropped, so every sample after the restart obeys the new constraint (the table's Ω).
  void staleRecordsAfterARestartAreDiscarded() {
    nhui::SimulationController c;
    nh::Scenario s;
    s.system = "ball_on_turntable";
    c.loadScenario(s);
    // At this speed the worker keeps 0.3·1000 s ahead of the display: when the parameter
    // changes, chunks of the old job are in flight and in the outbox.
    c.setSpeed(1000);
    c.play();
    QVERIFY(c.waitForTime(2.0, 20000));
    c.tick();  // drains, and moves the worker's target 300 s ahead
    // 20 ms of work for the worker after that drain: whatever it produced, in the outbox or
    // in flight, belongs to the job the parameter change replaces.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const size_t restart = c.displayIndex();
    c.setParameter("Omega0", 2.0);
    QVERIFY(c.waitForTime(c.primary().time(restart) + 3.0, 20000));
    const nhui::RunHistory& run = c.primary();
    const nh::EquationsOfMotion equations =
        nh::EquationsOfMotion(c.systemPtr(), nh::DynamicsKind::Nonholonomic)
            .withParameters(c.parameters());
    // Increasing, except the edit's moment, recorded again with the new value right after.
    for (size_t k = 1; k < run.size(); ++k)
      QVERIFY(k == restart + 1 ? run.time(k) == run.time(k - 1) : run.time(k) > run.time(k - 1));
    for (size_t k = restart + 1; k < run.size(); ++k) {
      QCOMPARE(run.parametersAt(k)[c.system().parameterIndex("Omega0")], 2.0);
      const std::vector<double> x = run.state(k);
      // Consistent under Ω = 2 to the projection's accuracy; a record made under Ω = 1
      // would be off by |ΔΩ|·|(x, y)| ≈ 0.6 m/s.
      QVERIFY2(equations.residual(run.time(k), x.data()) < 1e-8,
               qPrintable(QString("sample %1 at t = %2").arg(k).arg(run.time(k))));
    }
  }

  // The thread checks its predicate and then waits; a target set between the two must still
  // wake it. The hook holds the worker's mutex in exactly that gap while the target moves.
  void setTargetWakesAWaitingWorker() {
    SimulationWorker worker;
    worker.submit(makeJob("nh_particle", 1));
    worker.setTarget(0.05);
    QVERIFY(waitUntil([&] { return worker.reachedTime() >= 0.05 - 1e-9; }, 10000));
    std::atomic<int> state{0};  // 0 armed, 1 inside the gap, 2 done
    worker.setBeforeWaitHook([&] {
      if (state.load() != 0) return;
      state.store(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      state.store(2);
    });
    worker.setTarget(0.05);  // nothing to do: the thread wakes, finds that, enters the gap
    QVERIFY(waitUntil([&] { return state.load() >= 1; }, 5000));
    worker.setTarget(0.10);
    const bool reached = waitUntil([&] { return worker.reachedTime() >= 0.10 - 1e-9; }, 3000);
    worker.setBeforeWaitHook({});
    if (!reached) worker.setTarget(0.15);  // wake it, so the worker can shut down
    QVERIFY2(reached, "the target set while the worker was about to wait was lost");
  }

  // halt() wakes the waiting thread and returns when it has let go of the job; nothing of
  // the job arrives afterwards, even with a far target.
  void haltWakesTheThreadAndStopsTheJob() {
    SimulationWorker worker;
    worker.submit(makeJob("nh_particle", 1));
    worker.setTarget(0.05);
    QVERIFY(waitUntil([&] { return worker.reachedTime() >= 0.05 - 1e-9; }, 10000));
    std::atomic<bool> returned{false};
    std::thread halter([&] {
      worker.halt();
      returned.store(true);
    });
    const bool prompt = waitUntil([&] { return returned.load(); }, 2000);
    if (!prompt) worker.setTarget(0.06);  // wakes the thread, so halt() can return
    halter.join();
    QVERIFY2(prompt, "halt() did not return while the worker was waiting");

    // A halt in the middle of a long run: after it returns, the outbox stays empty.
    worker.submit(makeJob("nh_particle", 2));
    worker.setTarget(1000);
    QVERIFY(waitUntil([&] { return worker.reachedTime() > 0.2; }, 10000));
    worker.halt();
    worker.take();
    const double reached = worker.reachedTime();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    QVERIFY(worker.take().empty());
    QCOMPARE(worker.reachedTime(), reached);
  }

  // A job's parameters project the job's start state onto the constraints as they read with
  // those parameters (velocities jump as under an impulse), not some earlier state. With
  // projection after steps switched off, the first record is exactly that start state.
  void parametersProjectTheJobsStartState() {
    nh::IntegratorOptions options;
    options.projection = false;
    const auto system = nh::findSystem("ball_on_turntable");
    const nh::EquationsOfMotion old = nh::EquationsOfMotion(system, nh::DynamicsKind::Nonholonomic)
                                          .withParameters(system->defaultParameters());  // Ω = 1
    const std::vector<double> x0 = nh::initialState(old, 0, {});
    SimulationWorker worker;
    worker.submit(makeJob("ball_on_turntable", 1, {{"Omega0", 3.0}}, x0, options));
    worker.setTarget(0.05);
    const std::vector<double> records = collect(worker, 1, 0.05);
    const nhui::RecordLayout layout =
        nhui::makeRecordLayout(nh::EquationsOfMotion(system, nh::DynamicsKind::Nonholonomic));
    QVERIFY(static_cast<int>(records.size()) >= layout.stride());
    // Under Ω = 3 the default start (x = 0.6) violates the rolling constraint by
    // |ΔΩ|·x = 1.2 m/s until it is projected.
    QVERIFY2(
        records[layout.residualColumn] < 1e-10,
        qPrintable(QString("residual of the first record %1").arg(records[layout.residualColumn])));
    // The positions are the job's: the projection moves velocities only.
    QCOMPARE(records[layout.firstState + layout.state.find("x")], x0[0]);
  }
};

QTEST_GUILESS_MAIN(SimulationWorkerTest)
#include "simulation_worker_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
