// What the window shows and edits of a simulation, on the GUI thread: the scenario
// (system, parameters, initial conditions), the recorded history of the primary and the
// comparison run, and the display clock (play, pause, step, scrub, speed). Every edit is
// queued to the SimulationWorker as a restart from a recorded state; the worker is the only
// thing that changes simulation state.
//
// The parameters follow the timeline: scrubbing to a moment before an edit shows (and
// parameters() returns) the values in force then. An edit at a moment, or Play from a
// scrubbed moment, forks the history there: the later samples are replaced, and the replaced
// timeline is handed to the caller (the edit's return value, or historyForked for Play) for
// the undo stack to bring back (swapTimeline).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/nh/scenario.h"
#include "ui/sim/plan_run.h"
#include "ui/sim/run_history.h"
#include "ui/sim/simulation_worker.h"

namespace nhui {

using nh::CompareMode;  // the comparison run is set up by the core (core/nh/comparison.h)

// The integrator of a comparison run with another integrator (CompareMode::Integrator): its
// method and step (the fixed step of rk4 and nh-rattle; the first trial step otherwise); the
// tolerances are the primary run's.
struct IntegratorChoice {
  nh::Integrator method = nh::Integrator::NhRattle;
  double step = 0.01;
  bool operator==(const IntegratorChoice&) const = default;
};

class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(QObject* parent = nullptr);
  ~SimulationController() override;
  struct Timeline;  // a recorded history with its settings (below)

  // ---- Scenario ---------------------------------------------------------------------------
  // Replaces the scenario and restarts from its initial state. Throws nh::InputError.
  void loadScenario(const nh::Scenario& scenario);
  // Runs `system` (scenario.system is ignored: the object is used, not a catalogue name) and
  // restarts from the scenario's initial state. The equations are evaluated once at that
  // state first, so a system that is singular there throws nh::SingularSystemError (or
  // nh::InputError) and changes nothing: the running system goes on.
  void switchSystem(std::shared_ptr<const nh::SystemModel> system, const nh::Scenario& scenario);
  // The current settings as a scenario (parameters and initial overrides by name).
  nh::Scenario scenario() const;
  // The recorded run as a scenario, what Save writes and every export reads: scenario() with,
  // when parameters were edited during the run, the parameters it started with, its edits as
  // timed edits, its output step and t-end at least the record's end. Its run by the core
  // (`nhsim run` of the saved file) gives the recorded samples.
  nh::Scenario recordedScenario() const;
  // The parameter edits of the recorded primary run, at their times, each labelled as the
  // parameter panel names it ("Ω₀ = 3 rad/s"); none while a plan is shown.
  std::vector<nh::TimedEdit> recordedEdits() const;
  const nh::SystemModel& system() const { return *system_; }
  std::shared_ptr<const nh::SystemModel> systemPtr() const { return system_; }

  // The parameters in force at the displayed moment.
  const std::vector<double>& parameters() const { return parameters_; }
  // Whether parameter i takes another value than `value` after the displayed moment.
  bool changesLater(int i, double value) const;
  double parameter(const std::string& name) const;
  // Takes effect at once from the displayed moment: the sample there is recomputed with the
  // new value (so a paused view shows the new forces at once) and the run goes on from it;
  // later history is dropped; returned when the moment was scrubbed to (a fork), for undo,
  // else nullptr. A phase parameter (SystemInfo::continuousPhases, the table's
  // angle at t = 0) is shifted so that its quantity keeps its value at that moment, unless
  // it is the one edited. Throws nh::InputError naming the allowed range.
  std::shared_ptr<Timeline> setParameter(const std::string& name, double value);

  // Initial conditions: overrides by state name; used by the next reset().
  const std::map<std::string, double>& initialOverrides() const { return initialOverrides_; }
  // Throws nh::InputError if the completed initial state cannot be formed.
  void setInitialOverrides(const std::map<std::string, double>& overrides);
  // The completed initial state (x0, primary dynamics) and notes about changed velocities.
  const std::vector<double>& initialState() const { return x0_; }
  const std::vector<std::string>& initialNotes() const { return initialNotes_; }

  void setFormulation(nh::Formulation formulation);
  void setIntegrator(const nh::IntegratorOptions& options);

  // ---- Comparison -------------------------------------------------------------------------
  // Vakonomic: the other dynamics from the same initial state. Ghost: a second run with one
  // parameter changed. Integrator: the same run stepped by another integrator (setCompareIntegrator
  // chooses which). All restart from the initial state.
  void setCompare(CompareMode mode, const std::string& ghostParameter = {}, double ghostValue = 0);
  // The comparison with another integrator: the second run is stepped by `other` (the
  // primary's tolerances). Throws nh::InputError, changing nothing, when the scenario would
  // refuse that integrator or step (a fixed step above the output step, say).
  void setCompareIntegrator(const IntegratorChoice& other);
  CompareMode compareMode() const { return compareMode_; }
  // Whether that comparison is in force (the ghost's parameter and value count in Ghost mode,
  // the other integrator in Integrator mode).
  bool comparing(CompareMode mode, const std::string& ghostParameter, double ghostValue,
                 const IntegratorChoice& other = {}) const {
    return mode == compareMode_ &&
           (mode != CompareMode::Ghost ||
            (ghostParameter == ghostParameter_ && ghostValue == ghostValue_)) &&
           (mode != CompareMode::Integrator || other == otherIntegrator_);
  }
  const std::string& ghostParameter() const { return ghostParameter_; }
  double ghostValue() const { return ghostValue_; }
  // The comparison run's integrator in Integrator mode (the last one chosen otherwise).
  const IntegratorChoice& otherIntegrator() const { return otherIntegrator_; }
  // The options each run is stepped with (run 1: the comparison's).
  nh::IntegratorOptions runIntegrator(size_t run) const;

  // ---- Time -------------------------------------------------------------------------------
  void play();
  void pause();
  void togglePlay() { playing_ ? pause() : play(); }
  bool playing() const { return playing_; }
  void stepForward();
  void stepBack();
  void reset();            // restart from the initial conditions
  void seek(double time);  // pauses; play() then resumes from there
  // Takes back the edit of parameter `name` from `before` to `value` made at moment t (undo
  // seen from an earlier moment): the edit's recomputed sample and all after it are dropped
  // (returned, for redo) and the run goes on, paused, from the sample before it with the
  // parameters recorded there. Unset, changing nothing, if the history shown has no such edit
  // at t.
  std::optional<std::shared_ptr<Timeline>> takeBackEdit(const std::string& name, double t,
                                                        double value, double before);
  void setSpeed(double factor);  // 0.01 … 1000 × real time
  double speed() const { return speed_; }
  double displayTime() const { return displayTime_; }
  double realTimeFactor() const { return realTimeFactor_; }
  double dtOut() const { return dtOut_; }
  // The output step (the spacing of recorded samples, Step's increment): kMinStepSize …
  // kMaxStepSize seconds. Takes effect from the displayed moment. Throws nh::InputError.
  void setStepSize(double dt);
  static constexpr double kMinStepSize = 1e-4, kMaxStepSize = 1.0;

  // ---- Timelines (forks) ------------------------------------------------------------------
  // The settings a recorded history was computed with; they come back with it.
  struct RunSettings {
    nh::Formulation formulation = nh::Formulation::Multipliers;
    nh::IntegratorOptions integrator;
    double dtOut = 0.01;
    CompareMode compare = CompareMode::None;
    std::string ghostParameter;
    double ghostValue = 0;
    IntegratorChoice otherIntegrator;
  };
  // A recorded history with what it needs to be shown again: the runs, the settings they
  // were computed with (comparison, formulation, integrator, step), the parameters at its
  // displayed moment and that moment.
  struct Timeline {
    std::vector<std::unique_ptr<RunHistory>> runs;
    RunSettings settings;
    std::vector<bool> runFailed;
    std::vector<double> parameters;
    double displayTime = 0;
    QString lastError;
    // A planned motion (plan_run.h): the runs are complete, played but never extended; `plan`
    // is what was asked for (null: a control model's body at its start).
    bool fixed = false;
    std::shared_ptr<const PlanSettings> plan;
  };
  // A copy of the shown timeline (to undo a restart that discards it: Edit start); nullptr
  // while nothing is recorded (there is nothing to go on from).
  std::shared_ptr<Timeline> copyTimeline() const {
    return primary().empty() ? nullptr : snapshot();
  }
  // Shows `other` (paused at its displayed moment, the worker going on from its last
  // sample) with the settings it was computed with, and returns the timeline it replaces.
  // Throws nh::InputError if `other` belongs to another system or primary dynamics.
  std::shared_ptr<Timeline> swapTimeline(std::shared_ptr<Timeline> other);

  // ---- Planned motions (plan_run.h) -------------------------------------------------------
  // A control model moves only along a plan: it is shown at rest at its start until one is
  // played. A planned motion is played like a run (play, scrub, step) but ends at T; an edit
  // of a parameter, the start or a setting leaves it (a control model: for its start).
  bool isControlModel() const { return system_->info().isControlModel(); }
  bool showingPlan() const { return fixed_; }
  const PlanSettings* plan() const { return plan_.get(); }  // null: no plan shown
  // A timeline showing `runs` (the extremal, then its nonholonomic companion if any) of the
  // running system with its parameters, for swapTimeline.
  std::shared_ptr<Timeline> planTimeline(std::vector<std::unique_ptr<RunHistory>> runs,
                                         const PlanSettings& plan) const;

  // ---- Data -------------------------------------------------------------------------------
  const RunHistory& primary() const { return *runs_[0]; }
  // nullptr without a comparison run.
  const RunHistory* comparison() const { return runs_.size() > 1 ? runs_[1].get() : nullptr; }
  size_t displayIndex() const;  // sample at or before displayTime() (primary)
  // Scene at the display time; false if there is nothing recorded yet.
  bool displayedScene(int run, nh::SceneFrame& frame) const;
  double displayedResidual() const;
  const QString& lastError() const { return lastError_; }
  long epoch() const { return epoch_; }

  // Drains the worker and advances the display clock; the controller's own timer calls it
  // at the screen rate. Public for tests and benchmarks.
  void tick();
  // Blocks (processing nothing else) until the primary run has reached time t or failed.
  bool waitForTime(double t, int timeoutMs);

  static constexpr size_t kMaxSamples = 400000;  // per run; the oldest are dropped beyond

 signals:
  void scenarioChanged();    // system or everything else replaced
  void comparisonChanged();  // setCompare, or a restored history's comparison
  void parametersChanged();
  void initialChanged();
  void playingChanged(bool playing);
  void historyReset();  // histories cleared or truncated
  // A plan is shown or left (Play, its undo, an edit that leaves it): the recorded columns
  // may be the plan's (controls, costates or multipliers, cost) or a run's again.
  void planChanged();
  void ticked();
  void errorOccurred(const QString& message);
  // The run goes on but its numbers deserve a look (a conserved energy drifting numerically):
  // once per run and restart.
  void warningOccurred(const QString& message);
  // A conserved energy drifting numerically (nh::EnergyDriftWatch): said again, current, each
  // time the change has grown by a tenth. The run goes on.
  void energyDrifted(const QString& message);
  void speedChanged(double speed);
  void stepSizeChanged(double dt);
  // Play from a scrubbed moment replaced the history after time t: `replaced` is what the
  // user had seen after it, for the undo stack. (An edit there returns its fork instead.)
  void historyForked(double t, std::shared_ptr<SimulationController::Timeline> replaced);

 private:
  // loadScenario and switchSystem: the system, its parameters and start, and a run from it;
  // checkStart: evaluate the equations at x0 before the switch. A control model is shown at
  // rest at the scenario's start coordinates, with no worker job (showControlStart).
  void install(std::shared_ptr<const nh::SystemModel> system, const nh::Scenario& scenario,
               bool checkStart);
  // A control model's runs: its start alone, shown as a plan.
  void showControlStart();
  // A setting that needs a simulation (a comparison, the start, the formulation, the step).
  void refuseForControlModel(const char* what) const;
  // The shown plan is replaced: a control model by its start, another system by a run from
  // its initial state (with the current comparison off).
  void leavePlan();
  // setParameter while a plan is shown: the values change and the plan is left (returned).
  std::shared_ptr<Timeline> setPlanParameter(const std::string& name,
                                             const std::vector<double>& candidate);
  void playPlan();  // play() of a plan: from the start again when at its end
  void rebuildRuns();
  void computeInitialState(const std::map<std::string, double>& overrides, std::vector<double>& x0,
                           std::vector<std::string>& notes) const;
  // Emits warningOccurred for notes of the start's completion other than the ones shown.
  void reportNewNotes(const std::vector<std::string>& notes);
  // Emits warningOccurred naming the velocities of the start an edit of `parameter` moved.
  void reportMovedStart(const std::vector<double>& before, const std::string& parameter);
  std::vector<double> comparisonParameters() const;
  nh::Comparison comparisonChoice() const;  // the comparison chosen, as the core sets it up
  // Restarts both runs from the initial state under the comparison just set.
  void startComparison();
  nh::DynamicsKind comparisonDynamics() const;
  std::vector<double> comparisonState(const std::vector<double>& primaryState) const;
  // Restarts both runs from recorded sample k (dropping later samples), or from x0 at t = 0.
  // recompute: the sample at k is recorded again with the current parameters (an edit), as a
  // second sample at the same time, so plots show the change at that moment. Returns what
  // the user had seen after k when the display was scrubbed back to it (else nullptr).
  std::shared_ptr<Timeline> restartFrom(size_t k, bool recompute = false);
  void restartFromInitial();
  // A setting changed (formulation, integrator, step): the runs go on from the displayed
  // moment under it; the replaced history is not kept (the undo command took a copy).
  void restartAtDisplay();
  // parameters: per run (empty: the current ones).
  void submit(double t0, bool emitInitial, const std::vector<std::vector<double>>& states,
              const std::vector<std::vector<double>>& parameters = {});
  // The worker goes on from the last sample of each live run, with the parameters there.
  void continueFromEnd();
  std::shared_ptr<Timeline> snapshot() const;
  RunSettings settings() const;
  // Shifts the phase parameters in `candidate` so their quantities at sample k of the
  // primary run keep the values they have with the parameters recorded there.
  void keepContinuous(std::vector<double>& candidate, size_t k, int edited) const;
  // The parameters the primary history records for the displayed moment (parameters_ when
  // nothing is recorded).
  const std::vector<double>& recordedParameters() const;
  // parameters_ ← those in force at the displayed moment (emits parametersChanged).
  void followTimeline();
  void updateTarget();
  void drain();

  std::shared_ptr<const nh::SystemModel> system_;
  nh::Scenario scenario_;  // integrator, dynamics, formulation, dtOut as loaded
  std::vector<double> parameters_;
  std::map<std::string, double> initialOverrides_;
  std::vector<double> x0_;
  std::vector<std::string> initialNotes_;
  CompareMode compareMode_ = CompareMode::None;
  std::string ghostParameter_;
  double ghostValue_ = 0;
  IntegratorChoice otherIntegrator_;
  double dtOut_ = 0.01;

  // A loaded scenario's timed edits (the worker applies them as the runs reach them) and, per
  // run, the next one whose second sample starts a parameter segment of the history.
  std::vector<nh::TimedEdit> scheduled_;
  std::vector<size_t> nextScheduled_;
  // Appends run i's records, starting a segment with the edited values at each scheduled edit.
  void appendRecords(size_t i, const std::vector<double>& records, int stride);
  std::vector<std::unique_ptr<RunHistory>> runs_;
  std::vector<bool> runFailed_;
  bool fixed_ = false;                        // runs_ hold a plan (Timeline::fixed)
  std::shared_ptr<const PlanSettings> plan_;  // Timeline::plan
  std::unique_ptr<SimulationWorker> worker_;
  long epoch_ = 0;

  bool playing_ = false;
  bool scrubbed_ = false;
  double speed_ = 1;
  double clock_ = 0;        // requested display time
  double displayTime_ = 0;  // min(clock, last recorded)
  QElapsedTimer wall_;
  qint64 lastWallNs_ = 0;
  std::deque<std::pair<qint64, double>> rateWindow_;
  double realTimeFactor_ = 0;
  QString lastError_;
  QTimer timer_;
};

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
