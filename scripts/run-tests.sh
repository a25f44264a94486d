#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds everything and runs every check, as CI does. Installs missing Debian packages first.
#   1. source checks: layers (core ← ui ← app), the licence line in every source
#      (scripts/check-spdx.sh), clang-format, the docs against the folders
#      (scripts/check-docs.sh) and no function over 120 lines unless listed with its reason
#      (scripts/check-function-length.sh)
#   2. release build with warnings as errors, and the web engine (wasm preset, Debian's
#      emscripten; it takes the release build's model generator; live pages carry it); all
#      release suites (GUI and export suites under a virtual X display), two at a time, then
#      the web engine's suite under node (every system's runs against the release nhsim)
#   3. the Debian package from the release build (CPack; scripts/package.sh) and lintian on it
#   4. AddressSanitizer + UndefinedBehaviorSanitizer build (clang 14) of the core, file
#      formats, nhsim and the simulation worker, with the parsers' libFuzzer targets; their
#      suites, the checked-in fuzz corpus replayed among them (tests/fuzz/)
#   5. ThreadSanitizer build of the suites that run threads (label tsan: the shared compiled
#      model on several threads, sweeps on worker threads, the app's simulation worker and the
#      export's encoding thread), and those suites
#   6. libFuzzer on the scenario, model-file and expression parsers and nhsim's command line,
#      30 s each from the checked-in corpus (scripts/fuzz.sh, with the asan build's targets)
# At the end, also when a step fails, prints how long each step took: wall seconds and the
# processor seconds of its processes (user + system).
# Usage: ./scripts/run-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."

names=()
seconds=()
cpu=()
results=()
report() {
  local status=$? i total=0 total_cpu=0
  echo
  printf '%-14s %8s %12s  %s\n' step seconds cpu-seconds result
  for i in "${!names[@]}"; do
    printf '%-14s %8d %12d  %s\n' "${names[$i]}" "${seconds[$i]}" "${cpu[$i]}" "${results[$i]}"
    total=$((total + seconds[i]))
    total_cpu=$((total_cpu + cpu[i]))
  done
  printf '%-14s %8d %12d  %s\n' total "$total" "$total_cpu" \
    "$([ "$status" -eq 0 ] && echo passed || echo failed)"
  rm -f "$times_file"
  exit "$status"
}
trap report EXIT

# children_cpu: sets cpu_now to the user + system seconds of every finished child process so
# far (the second line of this shell's `times`, "1m2.500s 0m3.250s"; `times` must run in this
# shell, not in a subshell, to count them).
times_file=$(mktemp)
children_cpu() {
  times >"$times_file"
  cpu_now=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%.0f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}

# step NAME COMMAND...: runs the command, records its wall and processor time (on a busy
# machine the wall time grows, the processor time hardly), and stops at a failure.
step() {
  local name=$1 start=$SECONDS start_cpu status=0
  children_cpu
  start_cpu=$cpu_now
  shift
  "$@" || status=$?
  children_cpu
  names+=("$name")
  seconds+=($((SECONDS - start)))
  cpu+=($((cpu_now - start_cpu)))
  results+=("$([ "$status" -eq 0 ] && echo ok || echo "FAILED (exit $status)")")
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}

step install-deps ./scripts/install-deps.sh
step check-layers ./scripts/check-layers.sh
step check-spdx ./scripts/check-spdx.sh
step check-format ./scripts/check-format.sh
step check-docs ./scripts/check-docs.sh
step check-lengths ./scripts/check-function-length.sh
step build-release ./scripts/build.sh
step build-wasm ./scripts/build.sh --preset wasm
step test-release ctest --preset release
step test-wasm ctest --preset wasm
step package ./scripts/package.sh
step build-asan ./scripts/build.sh --preset asan
step test-asan ctest --preset asan
step build-tsan ./scripts/build.sh --preset tsan
step test-tsan ctest --preset tsan
step fuzz ./scripts/fuzz.sh 30
