#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs missing Debian packages, configures a CMake preset (default `release`, into
# build/<preset>) and builds the given targets (all when none are given).
# Usage: scripts/build.sh [--preset NAME] [TARGET]...   Used by run-app.sh and run-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
if [ "${1:-}" = "--preset" ]; then preset=$2; shift 2; fi
./scripts/install-deps.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths are hashed relative to the checkout, so a clone in another folder (CI's) hits the
  # cache that an earlier build filled; debug info then names relative paths too.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-20G}"
fi
cmake --preset "$preset" "${launcher[@]}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
