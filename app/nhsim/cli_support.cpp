// What the nhsim commands share (cli_support.h): numbers and NAME=VALUE read from words,
// loading a run target (a system's name or a scenario file), the scenario options of run and
// export, and every error turned into one escaped line on stderr and an exit code.
#include "app/nhsim/cli_support.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string_view>

#include "core/io/atomic_output.h"
#include "core/io/scenario_file.h"
#include "core/model/catalogue.h"
#include "core/model/formula_system.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"

namespace nh::cli {

namespace {
// Control characters (and DEL) as C escapes; other bytes, UTF-8 included, as they are.
void appendEscaped(std::string& out, unsigned char c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  if (c < 0x20 || c == 0x7f) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  } else {
    out.push_back(static_cast<char>(c));
  }
}

constexpr size_t kEchoedCharacters = 60;
}  // namespace

std::string oneLine(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const unsigned char c : text) appendEscaped(out, c);
  return out;
}

std::string quote(const std::string& text) {
  std::string out = "'";
  size_t characters = 0;  // UTF-8: bytes that start a character
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80 && characters++ == kEchoedCharacters) {
      out += "…";
      break;
    }
    appendEscaped(out, c);
  }
  return out + "'";
}

void rethrowQuoting(const InputError& error, const std::vector<std::string>& inputs) {
  std::string message = error.what();
  bool changed = false;
  for (const auto& input : inputs) {
    const std::string shown = quote(input);
    if (shown == "'" + input + "'") continue;
    const std::string echoed = "'" + input + "'";
    for (size_t at = message.find(echoed); at != std::string::npos;
         at = message.find(echoed, at + shown.size())) {
      message.replace(at, echoed.size(), shown);
      changed = true;
    }
  }
  if (!changed) throw;
  throw InputError(message);
}

void writeStdout(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
    throw Error(std::string("cannot write to standard output: ") + std::strerror(errno));
}

namespace {
// `text` read whole as a decimal number (an optional sign, digits with an optional point, an
// optional exponent): false for anything else, hexadecimal ("0x10") and spaces included.
// from_chars ignores the locale and takes no hexadecimal in its general format.
bool readDecimal(const std::string& text, double& value, bool& outOfRange) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') {  // "+1" as "1"; "+-1" and "++1" are refused
    ++begin;
    if (begin != end && (*begin == '-' || *begin == '+')) return false;
  }
  const auto r = std::from_chars(begin, end, value, std::chars_format::general);
  outOfRange = r.ec == std::errc::result_out_of_range;
  return begin != end && r.ptr == end && (r.ec == std::errc() || outOfRange);
}
}  // namespace

double parseNumber(const std::string& text, const std::string& what) {
  double v = 0;
  bool outOfRange = false;
  if (!readDecimal(text, v, outOfRange))
    throw InputError(what + ": " + quote(text) +
                     " is not a number (write it in decimal, like 0.5, -3 or 1e-6)");
  if (outOfRange)
    throw InputError(what + ": " + quote(text) +
                     " is out of the range of numbers (about 1e-308 to 1e308 in size)");
  if (!std::isfinite(v)) throw InputError(what + ": value must be finite, got " + quote(text));
  return v;
}

std::int64_t parseStepBudget(const std::string& text) {
  long long v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ptr != text.data() + text.size() || r.ec != std::errc() || v < 1 ||
      v > kMaxStepBudget)
    throw InputError("--max-steps: " + quote(text) + " is not a whole number in [1, 10^12]");
  return v;
}

std::pair<std::string, double> parseAssignment(const std::string& text, const std::string& option) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(option + " expects NAME=VALUE, got " + quote(text));
  const std::string name = text.substr(0, eq);
  const std::string shown = quote(name);
  return {name, parseNumber(text.substr(eq + 1), option + " " + shown.substr(1, shown.size() - 2))};
}

namespace {
// Anything on disk that is not a directory is meant as a file (a FIFO is then refused by
// readScenarioFile with a clear message instead of being taken for a system name).
bool existsAsFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}
}  // namespace

std::shared_ptr<const SystemModel> findNamedSystem(const std::string& name) {
  std::shared_ptr<const SystemModel> system;
  try {
    system = findSystem(name);
  } catch (const InputError& e) {
    rethrowQuoting(e, {name});
  }
  // What the loader kept but wants said (a structure that contradicts its anchor): once a
  // run, however often the command looks the system up.
  static std::set<std::string> warned;
  if (const model::FormulaSystem* formula = model::asFormula(*system))
    for (const std::string& warning : formula->data().loadWarnings)
      if (warned.insert(warning).second)
        std::fprintf(stderr, "nhsim: warning: %s\n", warning.c_str());
  return system;
}

Scenario loadTarget(const std::string& target, bool* fromFile) {
  if (model::isModelFilePath(target)) {
    // A model file: loaded (and checked) here; the scenario holds its absolute path.
    if (fromFile) *fromFile = false;
    findNamedSystem(target);
    Scenario s;
    s.system = std::filesystem::absolute(target).lexically_normal().string();
    return s;
  }
  const bool isFile =
      (target.size() > 5 && target.substr(target.size() - 5) == ".json") || existsAsFile(target);
  if (fromFile) *fromFile = isFile;
  if (isFile) {
    try {
      return readScenarioFile(target);
    } catch (const InputError& e) {
      rethrowQuoting(e, {target});
    }
  }
  findNamedSystem(target);  // unknown names fail here, listing the known ones
  Scenario s;
  s.system = target;
  return s;
}

void applyScenarioOptions(const std::vector<std::string>& set, const std::vector<std::string>& init,
                          const std::string& dynamics, const std::string& formulation,
                          Scenario& s) {
  for (const auto& text : set) {
    const auto [name, v] = parseAssignment(text, "--set");
    s.parameters[name] = v;
  }
  for (const auto& text : init) {
    const auto [name, v] = parseAssignment(text, "--init");
    s.initial[name] = v;
  }
  try {
    if (!dynamics.empty()) s.dynamics = parseDynamics(dynamics);
    if (!formulation.empty()) s.formulation = parseFormulation(formulation);
  } catch (const InputError& e) {
    rethrowQuoting(e, {dynamics, formulation});
  }
}

namespace {
// `message` with every quoted part longer than 200 bytes ('…' around a 5,000-character
// system name that a core message echoed whole) shown by quote(): no message floods the
// terminal, whatever it repeats.
std::string shortenQuoted(const std::string& message) {
  std::string out;
  size_t at = 0;
  while (at < message.size()) {
    const size_t open = message.find('\'', at);
    const size_t close = open == std::string::npos ? open : message.find('\'', open + 1);
    if (close == std::string::npos) break;
    const std::string inside = message.substr(open + 1, close - open - 1);
    out += message.substr(at, open - at);
    out += inside.size() > 200 ? quote(inside) : "'" + inside + "'";
    at = close + 1;
  }
  return out + (at < message.size() ? message.substr(at) : std::string());
}

}  // namespace

std::string errorLine(const std::string& message) { return shortenQuoted(oneLine(message)); }

namespace {
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr const char* kStopSignalNames[] = {"SIGINT", "SIGTERM", "SIGHUP"};
// The line each stop signal prints, composed before the handler is installed (the handler
// only calls async-signal-safe functions: unlink, write, _exit).
char stopLines[3][512];
size_t stopLineSizes[3];

void endOnSignal(int signal) {
  nh::removeLiveTemporaries();
  for (int i = 0; i < 3; ++i)
    if (kStopSignals[i] == signal) {
      [[maybe_unused]] const ssize_t written =
          ::write(STDERR_FILENO, stopLines[i], stopLineSizes[i]);
    }
  ::_exit(128 + signal);
}
}  // namespace

void endOnStopSignals(const std::string& output) {
  const bool file = !output.empty() && output != "-" && output != "/dev/stdout";
  const std::string named = file ? "; " + quote(output) + " was not written" : std::string();
  for (int i = 0; i < 3; ++i) {
    const int n =
        std::snprintf(stopLines[i], sizeof stopLines[i], "nhsim: interrupted by signal %d (%s)%s\n",
                      kStopSignals[i], kStopSignalNames[i], named.c_str());
    stopLineSizes[i] = std::min(static_cast<size_t>(std::max(n, 0)), sizeof stopLines[i] - 1);
  }
  struct sigaction action {};
  action.sa_handler = endOnSignal;
  sigemptyset(&action.sa_mask);
  for (const int signal : kStopSignals) ::sigaction(signal, &action, nullptr);
}

namespace {
int runCommand(const std::function<int()>& command) {
  auto report = [](const char* kind, const std::exception& e, int code) {
    std::fprintf(stderr, "nhsim: %s: %s\n", kind, errorLine(e.what()).c_str());
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
}  // namespace

int reportErrors(const std::function<int()>& command) {
  const int code = runCommand(command);
  // Output printed with printf reaches the file only here, or failed earlier (ferror).
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (code == kOk && (!flushed || std::ferror(stdout))) {
    std::fprintf(stderr, "nhsim: error: cannot write to standard output: %s\n",
                 std::strerror(errno != 0 ? errno : EIO));
    return kOutputError;
  }
  return code;
}

namespace {
// A word as a shell would need it: plain, or between single quotes.
std::string shellWord(const std::string& word) {
  bool plain = !word.empty();
  for (const char c : word)
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("_-+=:.,/@%^").find(c) != std::string_view::npos);
  if (plain) return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
}  // namespace

std::string commandEcho(const std::vector<std::string>& args) {
  std::string echo = "nhsim";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--quiet" || word == "--mpi") continue;
    if (word == "--out" || word == "--jobs" || word == "--format") {
      ++i;
      continue;
    }
    if (word.rfind("--out=", 0) == 0 || word.rfind("--jobs=", 0) == 0 ||
        word.rfind("--format=", 0) == 0)
      continue;
    echo += ' ';  // appends: GCC 12's -Wrestrict misfires on " " + std::string
    echo += shellWord(word);
  }
  return oneLine(echo);
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
