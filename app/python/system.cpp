// The Python module's classes (system.h): System's methods (info, run, equations, linearize,
// sweep) checked as nhsim's words, run without the GIL, and their results as NumPy
// arrays, with warnings raised as Python UserWarnings.
#include "app/python/system.h"

#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <complex>
#include <filesystem>
#include <future>
#include <thread>
#include <utility>

#include "app/nhsim/command_line.h"
#include "app/nhsim/equations_command.h"
#include "app/nhsim/linearize_point.h"
#include "app/nhsim/sweep_spec.h"
#include "app/nhsim/system_facts.h"
#include "app/python/run_rows.h"
#include "app/python/words.h"
#include "core/model/catalogue.h"
#include "core/model/formula_system.h"
#include "core/study/study_runner.h"

namespace nh::python {

namespace {

// `text` as a Python UserWarning (an exception when warnings are errors), attributed to the
// Python line that called the module (stack level 1: the innermost Python frame; the C++
// function has none of its own).
void warn(const std::string& text) {
  if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) < 0) throw py::error_already_set();
}

// `plain` for \text{…}: the characters TeX and KaTeX read as commands there written as
// themselves (a system's name such as chaplygin_sleigh: "_" alone is a math-mode error).
std::string textEscaped(const std::string& plain) {
  std::string out;
  for (const char c : plain) {
    if (c == '^') {
      out += "\\textasciicircum{}";
    } else if (c == '~') {
      out += "\\textasciitilde{}";
    } else {
      if (c == '_' || c == '&' || c == '%' || c == '#' || c == '$' || c == '{' || c == '}')
        out += '\\';
      out += c;
    }
  }
  return out;
}

// The words checked as nhsim checks its command line: the options of the command, or the
// exception nhsim reports.
template <class Options>
Options checked(const Words& words) {
  cli::CommandLine line = cli::parseCommandLine(words.list());
  return std::get<Options>(std::move(line));
}

// Runs `work` on a thread of its own while the caller waits without the GIL, taking it back
// every 50 ms to let Python handle signals: Ctrl+C in a notebook sets `cancel`, waits for the
// work to stop and raises KeyboardInterrupt. Returns what `work` returns, or rethrows its
// exception.
template <class Work>
auto withoutGil(Work work, std::atomic<bool>& cancel) -> decltype(work()) {
  auto done = std::async(std::launch::async, std::move(work));
  for (;;) {
    {
      py::gil_scoped_release release;
      if (done.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() != 0) {
      cancel = true;
      {
        py::gil_scoped_release release;
        done.wait();
      }
      throw py::error_already_set();
    }
  }
  return done.get();
}

Trajectory trajectoryOf(const std::string& system, RunRows rows) {
  Trajectory t{
      system, std::move(rows.columns), {}, std::move(rows.notes), std::move(rows.warnings)};
  const auto columns = static_cast<py::ssize_t>(t.columns.size());
  t.data = py::array_t<double>({columns, static_cast<py::ssize_t>(rows.rows)});
  auto out = t.data.mutable_unchecked<2>();
  for (py::ssize_t r = 0; r < rows.rows; ++r)
    for (py::ssize_t c = 0; c < columns; ++c) out(c, r) = rows.values[r * columns + c];
  return t;
}

py::array_t<double> matrixOf(const Eigen::MatrixXd& m) {
  py::array_t<double> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  auto o = out.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) o(i, j) = m(i, j);
  return out;
}

LinearizationResult linearizationOf(const SystemModel& system, const cli::Point& p) {
  LinearizationResult r;
  r.system = system.name();
  r.variables = p.lin.variables;
  py::array_t<std::complex<double>> eigenvalues(static_cast<py::ssize_t>(p.lin.eigenvalues.size()));
  std::copy(p.lin.eigenvalues.begin(), p.lin.eigenvalues.end(), eigenvalues.mutable_data());
  r.eigenvalues = eigenvalues;
  r.jacobian = matrixOf(p.lin.jacobian);
  py::array_t<double> rates(static_cast<py::ssize_t>(p.lin.reducedRhs.size()));
  std::copy(p.lin.reducedRhs.begin(), p.lin.reducedRhs.end(), rates.mutable_data());
  r.rates = rates;
  const StateLayout layout = stateLayout(system, DynamicsKind::Nonholonomic);
  for (size_t i = 0; i < layout.names.size(); ++i)
    r.point[py::str(layout.names[i])] = p.x[layout.index[i]];
  r.equilibrium = p.lin.equilibrium;
  return r;
}

// The rows of a sweep as a NumPy structured array: a float field for each varied value and
// measure, and "status".
py::object sweepArray(const study::Study& study, const std::vector<study::RunResult>& results) {
  const std::vector<std::string> columns = study.columns();
  const size_t numeric = columns.size() - 1;  // the last is the status
  size_t width = 1;
  for (const auto& r : results) width = std::max(width, r.status.size());
  py::list fields;
  for (size_t c = 0; c < numeric; ++c) fields.append(py::make_tuple(columns[c], "f8"));
  fields.append(py::make_tuple(columns.back(), "U" + std::to_string(width)));
  const py::module_ np = py::module_::import("numpy");
  py::object array = np.attr("zeros")(results.size(), np.attr("dtype")(fields));
  const size_t varied = static_cast<size_t>(study.variedCount());
  for (size_t c = 0; c < numeric; ++c) {
    py::array_t<double> values(static_cast<py::ssize_t>(results.size()));
    double* v = values.mutable_data();
    for (size_t i = 0; i < results.size(); ++i)
      v[i] = c < varied ? results[i].varied[c] : results[i].measures[c - varied];
    array.attr("__setitem__")(columns[c], values);
  }
  py::list statuses;
  for (const auto& r : results) statuses.append(r.status);
  array.attr("__setitem__")(columns.back(), statuses);
  return array;
}

// Runs `study` on `jobs` threads, the rows in run order.
std::vector<study::RunResult> runRows(const study::Study& study, int jobs) {
  std::vector<study::RunResult> results;
  results.reserve(static_cast<size_t>(std::min<long>(study.runCount(), 1 << 20)));
  std::atomic<bool> cancel{false};
  withoutGil(
      [&] {
        return study::runStudy(
            study, 0, study.runCount(), jobs,
            [&results](const study::RunResult& r) { results.push_back(r); }, &cancel);
      },
      cancel);
  return results;
}

}  // namespace

long Trajectory::rows() const { return static_cast<long>(data.shape(1)); }

py::array Trajectory::column(const std::string& name) const {
  const auto at = std::find(columns.begin(), columns.end(), name);
  if (at == columns.end())
    throw py::key_error("no column '" + name + "' (columns: " + joined(columns) + ")");
  const py::object view = data[py::int_(at - columns.begin())];
  return py::array(view);
}

py::object EquationsText::reprLatex() const {
  if (!latex) return py::none();
  // One display block: "% heading" lines as text, the gather* blocks' lines as rows.
  std::vector<std::string> rows;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.rfind("\\begin{gather", 0) == 0 || line.rfind("\\end{gather", 0) == 0) continue;
    if (line.rfind("% ", 0) == 0) {
      if (line.find('\\') == std::string::npos)
        rows.push_back("\\text{" + textEscaped(line.substr(2)) + "}");
      continue;
    }
    if (line.size() >= 3 && line.compare(line.size() - 3, 3, " \\\\") == 0)
      line.resize(line.size() - 3);
    if (!line.empty()) rows.push_back(line);
  }
  std::string block = "$$\\begin{gathered}\n";
  for (size_t i = 0; i < rows.size(); ++i)
    block += rows[i] + (i + 1 < rows.size() ? " \\\\\n" : "\n");
  return py::str(block + "\\end{gathered}$$");
}

System::System(const std::string& nameOrPath) {
  const cli::RunOptions o = checked<cli::RunOptions>(Words(cli::RunOptions::kRow.name, nameOrPath));
  scenario_ = o.scenario.resolved;
  model_ = cli::findNamedSystem(scenario_.system);
  // What the loader kept but wants said (a structure its anchor contradicts, kept under
  // structure_checked: false): a Python warning at every load.
  if (const model::FormulaSystem* formula = model::asFormula(*model_))
    for (const std::string& warning : formula->data().loadWarnings) warn(warning);
  std::error_code ec;
  const bool file = std::filesystem::exists(nameOrPath, ec) && !ec;
  target_ = file ? std::filesystem::absolute(nameOrPath).lexically_normal().string() : nameOrPath;
}

std::string System::name() const { return model_->name(); }
std::string System::title() const { return model_->info().title; }

py::dict System::parameters() const {
  const std::vector<double> values = resolveParameters(*model_, scenario_.parameters);
  py::dict out;
  for (size_t i = 0; i < values.size(); ++i)
    out[py::str(model_->info().parameters[i].name)] = values[i];
  return out;
}

std::vector<std::string> System::stateNames() const {
  return stateLayout(*model_, scenario_.dynamics).names;
}

py::object System::info(bool constraints) const {
  nlohmann::json out = cli::infoJson(model_->info(), cli::factsOf(model_));
  if (constraints) out["constraint_algebroid"] = cli::constraintAlgebroidJson(*model_);
  return py::module_::import("json").attr("loads")(out.dump());
}

std::string System::repr() const {
  return "<nonholonomic_lab.System '" + name() + "': " + title() + ">";
}

Trajectory System::run(const py::args& args, const py::kwargs& kwargs) const {
  Words words(cli::RunOptions::kRow.name, target_);
  words.arguments(args, kwargs, kRunPositional);
  const cli::RunOptions o = checked<cli::RunOptions>(words);
  RowRun job(o.scenario.resolved, o.sensitivityNames);  // compiles and checks the start
  std::atomic<bool> cancel{false};
  RunRows rows = withoutGil([&] { return job.integrate(cancel); }, cancel);
  for (const auto& note : rows.notes) warn(note);
  for (const auto& warning : rows.warnings) warn(warning);
  return trajectoryOf(name(), std::move(rows));
}

LinearizationResult System::linearize(const py::args& args, const py::kwargs& kwargs) const {
  Words words(cli::LinearizeOptions::kRow.name, target_);
  words.arguments(args, kwargs);
  const cli::LinearizeOptions o = checked<cli::LinearizeOptions>(words);
  const Scenario& scenario = o.scenario.resolved;
  cli::requireNonholonomic(scenario);
  const auto system = findSystem(scenario.system);
  std::vector<std::string> messages;
  cli::Point point;
  {
    py::gil_scoped_release release;
    point = cli::linearizeAt(
        system, scenario,
        [&messages](const std::string&, const std::string& text) { messages.push_back(text); });
  }
  for (const auto& message : messages) warn(message);
  return linearizationOf(*system, point);
}

py::object System::sweep(const py::args& args, const py::kwargs& kwargs) const {
  Words words(cli::SweepOptions::kRow.name, target_);
  words.arguments(args, kwargs);
  const cli::SweepOptions o = checked<cli::SweepOptions>(words);
  const std::unique_ptr<study::Study> study = cli::studyOf(o);
  const unsigned hardware = std::thread::hardware_concurrency();
  const int workers = cli::jobsOf(o, static_cast<int>(hardware == 0 ? 1 : hardware));
  return sweepArray(*study, runRows(*study, workers));
}

EquationsText System::equations(const py::args& args, const py::kwargs& kwargs) const {
  Words words(cli::EquationsOptions::kRow.name, scenario_.system);
  words.arguments(args, kwargs);
  const cli::EquationsOptions o = checked<cli::EquationsOptions>(words);
  return {cli::equationsText(o), o.latex};
}

std::vector<std::string> systemNames() {
  std::vector<std::string> names;
  for (const auto& line : catalogueListing()) names.push_back(line.name);
  for (const auto& problem : catalogueProblems()) warn(problem);
  return names;
}

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
