#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the parsers' libFuzzer targets in the `asan` preset (clang 14: ASan + UBSan, the
# libraries instrumented for coverage) and runs each (tests/fuzz/) for a bounded time, two at a
# time (one core each), starting from its checked-in corpus and regressions with its
# dictionary. Prints one line per target (executions, coverage) and fails on any finding: a
# crash, a sanitizer report, a timeout (10 s), more than 2 GB, or an error message that is not
# one line. Findings are kept in build/asan/findings/; add each to
# tests/fuzz/regressions/<target>/ with the fix and a unit test.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(fuzz_scenario fuzz_model_file fuzz_expression fuzz_command_line)
./scripts/build.sh --preset asan "${targets[@]}"
root=$PWD
findings=$root/build/asan/findings
mkdir -p "$findings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=abort_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
# fuzz_one TARGET: fuzzes in its own scratch folder (new inputs go there: the checked-in
# corpus is only read); the log ends in $work/TARGET.log, the exit status in TARGET.status.
fuzz_one() {
  local t=$1 status=0
  mkdir -p "$work/$t/new"
  (cd "$work/$t" && "$root/build/asan/bin/$t" "$work/$t/new" "$root/tests/fuzz/corpus/$t" \
    "$root/tests/fuzz/regressions/$t" -dict="$root/tests/fuzz/$t.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -jobs=1 \
    -artifact_prefix="$findings/$t-" >"$work/$t.out" 2>&1) || status=$?
  local log=$work/$t/fuzz-0.log  # -jobs=1: the fuzzing process writes here
  [ -f "$log" ] || log=$work/$t.out
  mv "$log" "$work/$t.log" 2>/dev/null || true
  echo "$status" >"$work/$t.status"
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  for t in "${targets[@]:i:2}"; do fuzz_one "$t" & done
  wait
done
failed=()
summary=()
for t in "${targets[@]}"; do
  status=$(cat "$work/$t.status")
  # The last status line: "#EXECS DONE cov: C ft: F corp: N/SIZE ..." (or the last pulse).
  last=$(grep -E '^#[0-9]+' "$work/$t.log" | tail -n 1 || true)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
  speed=$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$last")
  line="$t: ${execs:-?} executions in ${seconds} s (${speed:-?}/s), coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}"
  if [ "$status" -ne 0 ] || ! grep -q 'DONE' "$work/$t.log"; then
    line="$line — FINDING (exit $status)"
    failed+=("$t")
    cp "$work/$t.log" "$findings/$t.log"
    grep -E 'ERROR|SUMMARY|error message|Test unit written' "$work/$t.log" | head -n 20 >&2 || true
  fi
  summary+=("$line")
done
printf 'fuzz: %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; logs and inputs in $findings" >&2
  exit 1
fi
