#!/usr/bin/env bash
# Builds everything and runs all test suites (GUI and export suites under a virtual X
# display). Installs missing Debian packages first. Usage: ./scripts/run-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake --preset release "${launcher[@]}" >/dev/null
cmake --build --preset release
ctest --preset release
