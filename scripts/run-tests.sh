#!/usr/bin/env bash
# Builds everything and runs every check, as CI does. Installs missing Debian packages first.
#   1. source checks: layers (core ← ui ← app) and clang-format
#   2. release build with warnings as errors; all suites (GUI and export suites under a
#      virtual X display)
#   3. AddressSanitizer + UndefinedBehaviorSanitizer build of the core, file formats and
#      nhsim, and their suites
#   4. ThreadSanitizer build of the same, and their suites (the shared compiled model on
#      several threads; the app's simulation worker thread, ui/sim, which needs Qt Core only)
#   5. libFuzzer (clang 14, ASan + UBSan) on the scenario, model-file and expression parsers,
#      60 s each from the checked-in corpus (scripts/fuzz.sh); the corpus itself is replayed
#      by every suite run above (tests/fuzz/)
# Usage: ./scripts/run-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/check-layers.sh
./scripts/check-format.sh
./scripts/build.sh
ctest --preset release
./scripts/build.sh --preset asan
ctest --preset asan
./scripts/build.sh --preset tsan
ctest --preset tsan
./scripts/fuzz.sh 60
