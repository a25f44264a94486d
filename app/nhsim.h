// The nhsim command line: list, info, run (and export when built with the renderer).
#pragma once

namespace nh::cli {

// Exit codes: 0 success, 1 failure writing output, 2 bad input (usage, names, values,
// scenario files), 3 the simulation failed (blow-up, non-regular system).
enum ExitCode { kOk = 0, kOutputError = 1, kInputError = 2, kSimulationError = 3 };

int main(int argc, char** argv);

}  // namespace nh::cli
