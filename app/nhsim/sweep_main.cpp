// nhsim-sweep: the `nhsim sweep` command as its own executable, so that nhsim's other commands
// load neither MPI nor HDF5 (nor, through them, curl, OpenSSL, Kerberos …). nhsim runs it with
// the words after "nhsim"; under mpirun every rank does.
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "app/nhsim/command_line.h"
#include "app/nhsim/sweep_command.h"
#include "core/io/atomic_output.h"
#ifdef NH_HAVE_MPI
#include "app/nhsim/sweep_mpi.h"
#endif

int main(int argc, char** argv) {
  using namespace nh::cli;
  // A signal that ends the sweep (SIGUSR1, SIGPIPE...) leaves no hidden temporary behind.
  nh::removeTemporariesOnFatalSignals();
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (isMpiSweep(args)) {  // every rank parses the same words: one message, from rank 0
#ifdef NH_HAVE_MPI
    return sweepMpiCommand(argc, argv);
#else
    if (launcherRank() <= 0) std::fprintf(stderr, "nhsim: error: %s\n", kNoMpiSupport);
    return kInputError;
#endif
  }
  return reportErrors([&]() -> int {
    CommandLine words = parseArguments(args);
    if (const auto* help = std::get_if<HelpRequest>(&words)) {
      std::fputs(help->text.c_str(), stdout);
      return kOk;
    }
    checkCommandLine(words);
    if (const auto* sweep = std::get_if<SweepOptions>(&words)) return sweepCommand(*sweep, args);
    throw UsageError("nhsim-sweep runs only 'nhsim sweep'; run the other commands with nhsim");
  });
}
// SPDX-License-Identifier: GPL-3.0-or-later
