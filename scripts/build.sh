#!/usr/bin/env bash
# Installs missing Debian packages, configures the `release` preset (build/release) and
# builds the given targets (all when none are given). Used by run-app.sh and run-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake --preset release "${launcher[@]}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset release --target "$@"
else
  cmake --build --preset release
fi
