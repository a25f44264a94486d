// The web engine against the desktop, run under node (the wasm preset's suite): every system
// with dynamics is run through the engine's C entry points, as the page runs it, at its
// defaults and with a parameter edited at t = 2 s; its rows are written beside the scenario
// the engine says it ran, for engine_agrees.cmake to run natively with nhsim and compare.
// Then the refusals the page shows: each one line, the run kept; a comparison's too.
//   engine_test run DIR       the engine's runs: DIR/NAME.json and DIR/NAME.web.csv
//   engine_test compare DIR   each DIR/NAME.web.csv against DIR/NAME.native.csv
//   engine_test refusals      bad input and stopped runs
//   engine_test bench SYSTEM T   seconds to integrate SYSTEM for T s (dop853; bench/web_engine.sh)
#include "app/web/engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"

namespace {

namespace fs = std::filesystem;

int failures = 0;

void fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  ++failures;
}

void writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// The engine's rows as nhsim writes its CSV: the header, then each row's values.
std::string csvOf(int run) {
  const int columns = nhweb_column_count(run), rows = nhweb_row_count(run);
  std::string text;
  for (int c = 0; c < columns; ++c) text += (c ? "," : "") + std::string(nhweb_column(run, c));
  text += "\n";
  const double* data = nhweb_rows(run);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c)
      text += (c ? "," : "") + nh::formatValue(data[static_cast<size_t>(r * columns + c)]);
    text += "\n";
  }
  return text;
}

// Each system for 10 s with dop853 at rtol 1e-12: the two builds round some operations
// differently (Eigen's vectorised sums on x86-64, the C libraries' sin, cos, atan2 in the last
// bit), and where that moves a step's acceptance the runs part by the order of the tolerance
// (2e-10 for the bicycle at the default 1e-10); at 1e-12 every system agrees to 1e-10.
std::string scenarioJson(const std::string& system) {
  return R"({"format": "nonholonomic-lab-scenario", "version": 1, "system": ")" + system +
         R"(", "t_end": 10, "dt_out": 0.01,
             "integrator": {"method": "dop853", "rtol": 1e-12, "atol": 1e-14}})";
}

// A value of the first parameter that its bounds allow, other than the default; NaN if none.
double editedValue(const nh::ParameterInfo& p) {
  for (const double v : {p.defaultValue * 1.1, p.defaultValue * 0.9, p.defaultValue + 0.1})
    if (v != p.defaultValue && p.allows(v)) return v;
  return std::nan("");
}

// One case: the engine's run (edited at t = 2 when `edit`), its scenario and rows written.
void runCase(const fs::path& dir, const nh::SystemModel& system, bool edit) {
  const std::string name = system.name() + (edit ? "-edit" : "");
  const int run = nhweb_open(scenarioJson(system.name()).c_str());
  if (!run) return fail(name + ": refused: " + nhweb_error());
  if (edit) {
    const auto& parameters = system.info().parameters;
    const double v = parameters.empty() ? std::nan("") : editedValue(parameters.front());
    if (std::isnan(v)) {
      nhweb_close(run);
      return;  // nothing to edit
    }
    if (nhweb_advance(run, 2) < 0)
      return fail(name + ": stopped before the edit: " + nhweb_error());
    if (!nhweb_edit(run, parameters.front().name.c_str(), v))
      return fail(name + ": edit refused: " + nhweb_error());
  }
  if (nhweb_advance(run, 10) < 0) return fail(name + ": stopped: " + nhweb_error());
  writeText(dir / (name + ".json"), nhweb_scenario(run));
  writeText(dir / (name + ".web.csv"), csvOf(run));
  nhweb_close(run);
}

std::vector<std::vector<double>> readCsv(const fs::path& path, std::string& header) {
  std::ifstream in(path);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, header);
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(std::move(row));
  }
  return rows;
}

// Each column compared relative to its largest magnitude over the run (a column that passes
// through zero is compared at its own scale): at most 1e-10. Columns that are round-off by
// construction (the constraint residuals phi_i and g_i, ~1e-14 in both builds) are compared
// absolutely, to 1e-12.
void compareCase(const fs::path& web) {
  const std::string stem = web.filename().string().substr(0, web.filename().string().size() - 8);
  const fs::path native = web.parent_path() / (stem + ".native.csv");
  std::string headerWeb, headerNative;
  const auto a = readCsv(web, headerWeb), b = readCsv(native, headerNative);
  if (headerWeb != headerNative) return fail(stem + ": the columns differ from nhsim's");
  if (a.size() != b.size())
    return fail(stem + ": " + std::to_string(a.size()) + " rows, nhsim wrote " +
                std::to_string(b.size()));
  const size_t columns = a.empty() ? 0 : a[0].size();
  std::vector<double> scale(columns, 1e-300);
  for (const auto& row : b)
    for (size_t c = 0; c < columns && c < row.size(); ++c)
      scale[c] = std::max(scale[c], std::abs(row[c]));
  for (double& s : scale)
    if (s < 1e-12) s = 1e-2;  // round-off of zero: |a − b| ≤ 1e-12 passes
  double worst = 0;
  bool identical = true;
  for (size_t r = 0; r < a.size(); ++r)
    for (size_t c = 0; c < columns; ++c) {
      identical = identical && (a[r][c] == b[r][c] || (std::isnan(a[r][c]) && std::isnan(b[r][c])));
      if (!std::isnan(a[r][c]) || !std::isnan(b[r][c]))
        worst = std::max(worst, std::abs(a[r][c] - b[r][c]) / scale[c]);
    }
  std::printf(
      "%-34s %5zu rows  %s\n", stem.c_str(), a.size(),
      identical ? "bit for bit" : ("max relative difference " + nh::formatValue(worst)).c_str());
  if (!(worst <= 1e-10)) fail(stem + ": differs from nhsim by " + nh::formatValue(worst));
}

// A refusal: the call fails with one line that says `expected`.
void expectRefusal(bool failed, const std::string& what, const std::string& expected) {
  const std::string error = nhweb_error();
  if (!failed) return fail(what + ": not refused");
  if (error.find(expected) == std::string::npos || error.find('\n') != std::string::npos)
    fail(what + ": the message is not one line saying '" + expected + "': " + error);
}

void refusals() {
  expectRefusal(nhweb_open("{") == 0, "broken JSON", "the scenario");
  expectRefusal(nhweb_open(R"({"format": "nonholonomic-lab-scenario", "version": 1,
                              "system": "no_such_system"})") == 0,
                "an unknown system", "unknown system 'no_such_system'");
  const std::string bdf = R"({"format": "nonholonomic-lab-scenario", "version": 1,
      "system": "ball_on_turntable", "integrator": {"method": "bdf"}})";
  expectRefusal(nhweb_open(bdf.c_str()) == 0, "bdf", "choose dop853");
  const fs::path model = fs::absolute("web_engine_test_model.yaml");
  writeText(model, "format: nonholonomic-lab-system\nname: typed_in\n");
  const std::string byPath = R"({"format": "nonholonomic-lab-scenario", "version": 1,
      "system": ")" + model.string() +
                             R"("})";
  expectRefusal(nhweb_open(byPath.c_str()) == 0, "a model file by path", "web engine");
  fs::remove(model);
  // A refused edit keeps the run: the same rows as an unedited one.
  const int run = nhweb_open(scenarioJson("ball_on_turntable").c_str());
  const int other = nhweb_open(scenarioJson("ball_on_turntable").c_str());
  if (!run || !other) return fail(std::string("ball_on_turntable refused: ") + nhweb_error());
  nhweb_advance(run, 2);
  expectRefusal(nhweb_edit(run, "no_such_parameter", 1) == 0, "an unknown parameter",
                "no_such_parameter");
  expectRefusal(nhweb_edit(run, "r", -1) == 0, "a radius below its bound", "r");
  if (nhweb_advance(run, 4) < 0 || nhweb_advance(other, 4) < 0 || csvOf(run) != csvOf(other))
    fail("a refused edit changed the run");
  if (nhweb_advance(run, 20) != 1001) fail("the run went past its t-end");
  // A run that stops stays stopped and keeps saying why (the bicycle, its first parameter
  // raised by a quarter at t = 2 s, falls over).
  const nh::ParameterInfo& first = nh::findSystem("whipple_bicycle")->info().parameters.front();
  const int falling = nhweb_open(scenarioJson("whipple_bicycle").c_str());
  nhweb_advance(falling, 2);
  if (!nhweb_edit(falling, first.name.c_str(), first.defaultValue * 1.25))
    fail(std::string("the bicycle's edit refused: ") + nhweb_error());
  expectRefusal(nhweb_advance(falling, 10) < 0, "the bicycle falling over", "fallen over");
  expectRefusal(nhweb_advance(falling, 10) < 0, "a stopped run", "fallen over");
  nhweb_close(falling);
  // A comparison the app would refuse is refused; closing a run closes its comparison.
  expectRefusal(nhweb_open_comparison(run, R"({"mode": "sideways"})") == 0, "an unknown mode",
                "\"vakonomic\", \"ghost\" or \"integrator\", got 'sideways'");
  expectRefusal(nhweb_open_comparison(run, R"({"mode": "ghost", "parameter": "r"})") == 0,
                "a ghost without its value", "'value' (a number)");
  expectRefusal(
      nhweb_open_comparison(run, R"({"mode": "ghost", "parameter": "r", "value": -1})") == 0,
      "a ghost outside the bounds", "r");
  const int ghost =
      nhweb_open_comparison(run, R"({"mode": "ghost", "parameter": "r", "value": 0.2})");
  if (!ghost) fail(std::string("a ghost comparison refused: ") + nhweb_error());
  nhweb_close(run);
  expectRefusal(nhweb_advance(ghost, 1) < 0, "a closed run's comparison", "no open run");
  nhweb_close(other);
  expectRefusal(nhweb_advance(run, 1) < 0, "a closed run", "no open run");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "run" && argc == 3) {
    const fs::path dir = argv[2];
    fs::create_directories(dir);
    for (const auto& system : nh::catalogue()) {
      if (system->info().isControlModel()) continue;
      runCase(dir, *system, false);
      runCase(dir, *system, true);
    }
  } else if (mode == "compare" && argc == 3) {
    std::vector<fs::path> webFiles;
    for (const auto& entry : fs::directory_iterator(argv[2]))
      if (entry.path().string().ends_with(".web.csv")) webFiles.push_back(entry.path());
    std::sort(webFiles.begin(), webFiles.end());
    if (webFiles.empty()) fail("no runs to compare");
    for (const auto& web : webFiles) compareCase(web);
  } else if (mode == "refusals") {
    refusals();
  } else if (mode == "bench" && argc == 4) {
    const std::string json =
        R"({"format": "nonholonomic-lab-scenario", "version": 1, "system": ")" +
        std::string(argv[2]) + R"(", "t_end": )" + argv[3] +
        R"(, "dt_out": 0.01, "integrator": {"method": "dop853"}})";
    const int run = nhweb_open(json.c_str());  // the system loaded, its tape recorded
    const auto start = std::chrono::steady_clock::now();
    if (!run || nhweb_advance(run, std::strtod(argv[3], nullptr)) < 0) fail(nhweb_error());
    std::printf("%.4f\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return failures ? 1 : 0;
  } else {
    std::fprintf(stderr, "usage: engine_test run DIR | compare DIR | refusals\n");
    return 2;
  }
  std::printf("%s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
