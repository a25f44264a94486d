#!/usr/bin/env bash
# Builds everything and runs all test suites (GUI and export suites under a virtual X
# display). Installs missing Debian packages first. Usage: ./scripts/run-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
ctest --preset release
