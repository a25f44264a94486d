#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds nhsim and the start-up benchmark (release preset), then prints each command's CPU time
# as a ratio to a minimal C++ program's. Arguments go to bench_startup (--repeat N).
set -e
cd "$(dirname "$0")/.."
./scripts/build.sh bench_startup >/dev/null
exec build/release/bench/bench_startup "$@"
