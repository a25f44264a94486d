#include "app/nhsim/cli_support.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/model_file.h"

namespace nh::cli {

double parseNumber(const std::string& text, const std::string& what) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size())
    throw InputError(what + ": '" + text + "' is not a number");
  if (!std::isfinite(v)) throw InputError(what + ": value must be finite, got '" + text + "'");
  return v;
}

long parseStepBudget(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(begin, &end, 10);
  if (text.empty() || end != begin + text.size() || errno == ERANGE || v < 1 ||
      v > 1'000'000'000'000)
    throw InputError("--max-steps: '" + text + "' is not a whole number in [1, 10^12]");
  return static_cast<long>(v);
}

std::pair<std::string, double> parseAssignment(const std::string& text, const std::string& option) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(option + " expects NAME=VALUE, got '" + text + "'");
  const std::string name = text.substr(0, eq);
  return {name, parseNumber(text.substr(eq + 1), option + " " + name)};
}

namespace {
// Anything on disk that is not a directory is meant as a file (a FIFO is then refused by
// readScenarioFile with a clear message instead of being taken for a system name).
bool existsAsFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}
}  // namespace

Scenario loadTarget(const std::string& target, bool* fromFile) {
  if (model::isModelFilePath(target)) {
    // A model file: loaded (and checked) here; the scenario holds its absolute path.
    if (fromFile) *fromFile = false;
    findSystem(target);
    Scenario s;
    s.system = std::filesystem::absolute(target).lexically_normal().string();
    return s;
  }
  const bool isFile =
      (target.size() > 5 && target.substr(target.size() - 5) == ".json") || existsAsFile(target);
  if (fromFile) *fromFile = isFile;
  if (isFile) return readScenarioFile(target);
  findSystem(target);  // unknown names fail here, listing the known ones
  Scenario s;
  s.system = target;
  return s;
}

const std::string& optionValue(const std::vector<std::string>& args, size_t& i) {
  if (i + 1 >= args.size()) throw UsageError("option " + args[i] + " needs a value");
  return args[++i];
}

bool parseScenarioOption(const std::vector<std::string>& args, size_t& i, Scenario& s) {
  const std::string& option = args[i];
  if (option != "--set" && option != "--init" && option != "--dynamics" &&
      option != "--formulation")
    return false;
  const std::string& value = optionValue(args, i);
  if (option == "--set") {
    const auto [name, v] = parseAssignment(value, option);
    s.parameters[name] = v;
  } else if (option == "--init") {
    const auto [name, v] = parseAssignment(value, option);
    s.initial[name] = v;
  } else if (option == "--dynamics") {
    s.dynamics = parseDynamics(value);
  } else {
    s.formulation = parseFormulation(value);
  }
  return true;
}

int reportErrors(const std::function<int()>& command) {
  auto report = [](const char* kind, const std::exception& e, int code) {
    std::fprintf(stderr, "nhsim: %s: %s\n", kind, e.what());
    return code;
  };
  try {
    return command();
  } catch (const SingularSystemError& e) {
    return report("error", e, kSimulationError);
  } catch (const IntegrationError& e) {
    return report("error", e, kSimulationError);
  } catch (const InputError& e) {
    return report("error", e, kInputError);
  } catch (const Error& e) {
    return report("error", e, kOutputError);
  } catch (const std::exception& e) {
    return report("internal error", e, kOutputError);
  }
}

}  // namespace nh::cli
