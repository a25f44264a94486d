// The simulation thread under a burst of calls in random order (submit with one or two runs,
// setTarget, halt, take), with a second thread reading reachedTime() throughout. Built in
// every preset (ui/sim needs Qt Core only) and meant for the tsan preset, where
// ThreadSanitizer checks that everything the two threads share is synchronised: the worker
// uses std::thread, std::mutex and std::condition_variable only, which TSan instruments.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <random>
#include <set>
#include <thread>

#include "core/model/catalogue.h"
#include "ui/sim/simulation_worker.h"

using nhui::SimulationWorker;

namespace {

SimulationWorker::RunSetup runOf(const std::string& systemName) {
  SimulationWorker::RunSetup setup;
  setup.system = nh::findSystem(systemName);
  setup.parameters = setup.system->defaultParameters();
  const nh::EquationsOfMotion equations =
      nh::EquationsOfMotion(setup.system, setup.dynamics, setup.formulation)
          .withParameters(setup.parameters);
  setup.layout = nhui::makeRecordLayout(equations);
  setup.x0 = nh::initialState(equations, 0, {});
  return setup;
}

}  // namespace

class SimulationWorkerRaceTest : public QObject {
  Q_OBJECT

 private slots:
  // Every output belongs to a submitted job, with its runs' stride; nothing of a job arrives
  // after halt() has returned and the outbox was emptied.
  void randomCallsFromTwoThreads() {
    const SimulationWorker::RunSetup sleigh = runOf("chaplygin_sleigh");
    const SimulationWorker::RunSetup particle = runOf("nh_particle");
    SimulationWorker worker;
    std::atomic<bool> done{false};
    std::atomic<int> reads{0};
    std::thread reader([&] {
      while (!done.load()) {
        if (std::isfinite(worker.reachedTime())) ++reads;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
    std::mt19937 random(20261123);
    std::set<long> submitted, halted;
    long epoch = 0;
    double target = 0;
    int outputs = 0;
    for (int step = 0; step < 400; ++step) {
      switch (random() % 4) {
        case 0: {
          SimulationWorker::Job job;
          job.epoch = ++epoch;
          job.runs.push_back(sleigh);
          if (random() % 2) job.runs.push_back(sleigh);  // a comparison run beside it
          worker.submit(job);
          submitted.insert(epoch);
          target = 0;
          break;
        }
        case 1:
          target += 0.01 * static_cast<double>(random() % 20);
          worker.setTarget(target);
          break;
        case 2:
          worker.halt();
          for (const auto& out : worker.take()) QVERIFY(submitted.count(out.epoch));
          halted.insert(submitted.begin(), submitted.end());
          break;
        default:
          for (const auto& out : worker.take()) {
            QVERIFY2(submitted.count(out.epoch), "an output of a job never submitted");
            QVERIFY2(!halted.count(out.epoch), "an output of a job after its halt");
            QVERIFY2(out.error.empty(), out.error.c_str());
            QCOMPARE(out.stride, sleigh.layout.stride());
            QCOMPARE(out.records.size() % static_cast<size_t>(out.stride), size_t{0});
            ++outputs;
          }
      }
      if (step % 50 == 0) {  // a different system's job now and then: another layout
        SimulationWorker::Job job;
        job.epoch = ++epoch;
        job.runs.push_back(particle);
        worker.submit(job);
        worker.halt();
        worker.take();
        submitted.insert(epoch);
        halted.insert(epoch);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(random() % 500));
    }
    // Under load the random calls may leave the worker no time to deliver anything: a last
    // job, waited for (bounded), checks that it still works after them and that its outputs
    // are whole.
    done.store(true);
    reader.join();
    QVERIFY(reads.load() > 0);
    worker.halt();
    worker.take();
    SimulationWorker::Job last;
    last.epoch = ++epoch;
    last.runs.push_back(sleigh);
    worker.submit(last);
    worker.setTarget(0.2);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    int lastOutputs = 0;
    while (lastOutputs == 0 && std::chrono::steady_clock::now() < deadline) {
      for (const auto& out : worker.take()) {
        QCOMPARE(out.epoch, last.epoch);
        QVERIFY2(out.error.empty(), out.error.c_str());
        QCOMPARE(out.stride, sleigh.layout.stride());
        QCOMPARE(out.records.size() % static_cast<size_t>(out.stride), size_t{0});
        ++lastOutputs;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    QVERIFY2(lastOutputs > 0, "the worker produced nothing after the random calls");
    qInfo("%d outputs checked during the random calls", outputs);
  }
};

QTEST_GUILESS_MAIN(SimulationWorkerRaceTest)
#include "simulation_worker_race_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
