// Start-up cost of nhsim commands, as the CPU time (user + system) of the whole process against
// that of a minimal C++ program that prints a line (startup_minimal), measured side by side in
// one run: each command runs --repeat times, interleaved, and the median is taken.
//   bench_startup [--repeat N]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Command {
  const char* label;
  std::vector<std::string> words;  // the first is the program, in the build's bin folder
  double goal;                     // the ratio to the minimal program aimed at (0: none)
};

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"minimal C++ program", {"startup_minimal"}, 0},
      {"nhsim --version", {"nhsim", "--version"}, 1.5},
      {"nhsim list", {"nhsim", "list"}, 3.0},
      {"nhsim run ball_on_turntable --t-end 0.001",
       {"nhsim", "run", "ball_on_turntable", "--t-end", "0.001"},
       2.5},
      {"nhsim run whipple_bicycle --t-end 10",
       {"nhsim", "run", "whipple_bicycle", "--t-end", "10"},
       0},
  };
  return table;
}

// The CPU seconds (user + system) of one run of `words`, its output discarded; -1 if it failed.
double cpuSeconds(const std::string& folder, const std::vector<std::string>& words) {
  const std::string program = folder + "/" + words[0];
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& w : words) argv.push_back(const_cast<char*>(w.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  const auto sec = [](const timeval& t) { return t.tv_sec + 1e-6 * t.tv_usec; };
  return sec(usage.ru_utime) + sec(usage.ru_stime);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 30;
  if (argc == 3 && std::string(argv[1]) == "--repeat") repeat = std::atoi(argv[2]);
  if (repeat < 1 || (argc != 1 && argc != 3)) {
    std::fprintf(stderr, "usage: bench_startup [--repeat N]  (N ≥ 1)\n");
    return 2;
  }
  const std::string folder = NH_BENCH_BIN_DIR;
  const std::vector<Command>& table = commands();
  std::vector<std::vector<double>> times(table.size());
  for (int r = 0; r < repeat; ++r)
    for (size_t c = 0; c < table.size(); ++c) {
      const double t = cpuSeconds(folder, table[c].words);
      if (t < 0) {
        std::fprintf(stderr, "bench_startup: '%s' failed (is %s/%s built?)\n", table[c].label,
                     folder.c_str(), table[c].words[0].c_str());
        return 1;
      }
      times[c].push_back(t);
    }
  const double floor = median(times[0]);
  std::printf("CPU time (user + system) per process, median of %d interleaved runs\n", repeat);
  std::printf("%-44s %10s %8s %6s\n", "command", "CPU ms", "ratio", "goal");
  bool met = true;
  for (size_t c = 0; c < table.size(); ++c) {
    const double t = median(times[c]), ratio = t / floor;
    char goal[16] = "";
    if (table[c].goal > 0) {
      std::snprintf(goal, sizeof goal, "≤ %.1f", table[c].goal);
      met = met && ratio <= table[c].goal;
    }
    std::printf("%-44s %10.2f %8.1f %6s\n", table[c].label, 1e3 * t, ratio, goal);
  }
  std::printf("start-up goals %s\n", met ? "met" : "not met");
  return 0;
}
// SPDX-License-Identifier: GPL-3.0-or-later
