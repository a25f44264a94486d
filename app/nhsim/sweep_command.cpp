#include "app/nhsim/sweep_command.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string_view>
#include <thread>

#include "core/io/atomic_output.h"
#include "core/study/study_runner.h"

namespace nh::cli {

namespace {

// Set by SIGINT, SIGTERM and SIGHUP (a lock-free atomic: async-signal-safe); the workers
// take no new run and stop the runs under way at their next sample.
std::atomic<bool> stopRequested{false};
volatile sig_atomic_t stopSignal = 0;
static_assert(std::atomic<bool>::is_always_lock_free);

void recordStop(int signal) {
  stopSignal = signal;
  stopRequested.store(true);
}

void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = recordStop;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
}

// A whole number in [low, high] written in decimal, all of `text`.
template <class Integer>
Integer wholeNumber(const std::string& text, const char* option, Integer low, Integer high,
                    const char* range) {
  Integer value{};
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  if (r.ec != std::errc() || r.ptr != end || value < low || value > high)
    throw UsageError(std::string("option ") + option + " takes a whole number " + range + ", got " +
                     quote(text));
  return value;
}

std::string duration(double seconds) {
  char text[32];
  if (seconds < 60)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(text, sizeof text, "%.0f min %02.0f s", std::floor(seconds / 60),
                  std::fmod(seconds, 60));
  else
    std::snprintf(text, sizeof text, "%.0f h %02.0f min", std::floor(seconds / 3600),
                  std::floor(std::fmod(seconds, 3600) / 60));
  return text;
}

}  // namespace

study::StudySpec studySpecOf(const CommandLine& line) {
  study::StudySpec spec;
  spec.base = line.scenario;
  if (!line.vary.empty() && !line.sample.empty())
    throw UsageError("give either --vary axes or --sample axes, not both");
  if (line.vary.empty() && line.sample.empty())
    throw UsageError(
        "sweep needs --vary NAME=FROM:TO:N or --sample NAME=... (see 'nhsim sweep "
        "--help')");
  try {
    for (const auto& text : line.vary) spec.grid.push_back(study::parseGridAxis(text));
    for (const auto& text : line.sample) spec.sample.push_back(study::parseSampleAxis(text));
  } catch (const InputError& e) {
    std::vector<std::string> inputs = line.vary;
    inputs.insert(inputs.end(), line.sample.begin(), line.sample.end());
    rethrowQuoting(e, inputs);
  }
  if (!line.sample.empty()) {
    if (!line.has("--count")) throw UsageError("--sample needs --count N");
    spec.count = wholeNumber<long>(line.count, "--count", 1, 9'000'000'000'000'000'000L, ">= 1");
    if (line.has("--seed"))
      spec.seed = wholeNumber<std::uint64_t>(line.seed, "--seed", 0, UINT64_MAX, "0 … 2^64-1");
  } else if (line.has("--count") || line.has("--seed")) {
    throw UsageError("--count and --seed go with --sample, not with --vary");
  }
  spec.measures = line.measure;
  spec.force = line.force;
  return spec;
}

int sweepCommand(const CommandLine& line, const std::vector<std::string>& args) {
  const study::StudySpec spec = studySpecOf(line);
  const unsigned hardware = std::thread::hardware_concurrency();
  const int jobs = line.has("--jobs")
                       ? wholeNumber<int>(line.jobs, "--jobs", 1, 1024, "from 1 to 1024")
                       : static_cast<int>(hardware == 0 ? 1 : hardware);
  std::vector<std::string> echoed = line.vary;  // what the core's messages may repeat whole
  echoed.insert(echoed.end(), line.sample.begin(), line.sample.end());
  echoed.insert(echoed.end(), line.measure.begin(), line.measure.end());
  std::unique_ptr<study::Study> plan;
  try {
    plan = std::make_unique<study::Study>(spec);
  } catch (const InputError& e) {
    rethrowQuoting(e, echoed);
  }
  const study::Study& sweep = *plan;

  AtomicOutput out;
  try {
    out.open(line.out);
  } catch (const Error& e) {  // bad input, before anything is written: exit 2
    throw InputError(e.what());
  }
  out.write(sweep.headerText(commandEcho(args)));

  const long total = sweep.runCount();
  const bool progress = !line.quiet;
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto lastReport = start;
  // A tty gets one line rewritten 4 times a second; a log, a line every 10 s.
  const auto interval = tty ? std::chrono::milliseconds(250) : std::chrono::milliseconds(10'000);
  long done = 0, failed = 0;
  auto report = [&](bool last) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    const std::string left =
        rate > 0 && done < total
            ? ", " + duration(static_cast<double>(total - done) / rate) + " left"
            : "";
    std::fprintf(stderr, "%snhsim: sweep %ld/%ld runs, %.4g runs/s%s%s", tty ? "\r" : "", done,
                 total, rate, left.c_str(), tty ? "\033[K" : "\n");
    if (tty && last) std::fputc('\n', stderr);
    std::fflush(stderr);
  };
  auto sink = [&](const study::RunResult& result) {
    out.write(sweep.rowText(result));
    ++done;
    if (result.status != "ok") ++failed;
    if (progress) {
      const auto now = Clock::now();
      if (now - lastReport >= interval) {
        lastReport = now;
        report(false);
      }
    }
  };
  stopRequested = false;
  catchStopSignals();
  const long written = study::runStudy(sweep, 0, total, jobs, sink, &stopRequested);
  if (progress && (tty || written < total)) report(true);
  const std::string where = line.out == "-" ? "standard output" : line.out;
  if (written < total) {
    out.write(study::Study::partialText(written, total));
    out.commit();
    std::fprintf(stderr, "nhsim: interrupted: %ld of %ld runs kept in %s\n", written, total,
                 where.c_str());
    return 128 + (stopSignal != 0 ? static_cast<int>(stopSignal) : SIGINT);
  }
  out.commit();
  if (!line.quiet && line.out != "-") {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("%s: %ld runs (%ld ok, %ld not) in %s, %.4g runs/s on %d workers, written to %s\n",
                spec.base.system.c_str(), total, total - failed, failed, duration(elapsed).c_str(),
                elapsed > 0 ? static_cast<double>(total) / elapsed : 0.0,
                static_cast<int>(std::min<long>(jobs, total)), line.out.c_str());
  }
  return kOk;
}

}  // namespace nh::cli
