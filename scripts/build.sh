#!/usr/bin/env bash
# Installs missing Debian packages, configures a CMake preset (default `release`, into
# build/<preset>) and builds the given targets (all when none are given).
# Usage: scripts/build.sh [--preset NAME] [TARGET]...   Used by run-app.sh and run-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
if [ "${1:-}" = "--preset" ]; then preset=$2; shift 2; fi
./scripts/install-deps.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake --preset "$preset" "${launcher[@]}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
