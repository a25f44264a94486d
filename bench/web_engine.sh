#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The web engine's speed, side by side in one run: the ball on the turntable and the bicycle
# integrated with dop853 (a) by nhsim with native code off (NH_JIT=0: the tape interpreted, as
# in WebAssembly; its start-up, a run of 0 s, taken off), (b) by the engine in node (the
# integration alone), (c) by a live page in headless Chromium (its
# #livebench computes T s from t = 0 at once). Prints seconds, the engine's ratio to nhsim's,
# and the page's speed as simulated seconds per second (goals: ball ≥ 100, bicycle ≥ 20).
# Needs the release and wasm presets built. Usage: bench/web_engine.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
test=build/wasm/tests/app/web/web_engine_test.js
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NODE_PATH=/usr/share/nodejs NH_WEB_ENGINE_DIR=$PWD/build/wasm/bin

now() { date +%s.%N; }
printf '%-20s %6s %12s %12s %8s %14s\n' system T nhsim-interp wasm-node ratio page-sim-s/s
for case in "ball_on_turntable 100" "whipple_bicycle 50"; do
  set -- $case
  system=$1 t=$2
  native=1e9 wasm=1e9 page=1e9
  for attempt in 1 2 3; do  # the best of three: the machine is shared
    # nhsim's integration alone: the run of T s less a run of none (its start-up)
    start=$(now)
    NH_JIT=0 "$bin/nhsim" run "$system" --t-end 0 --integrator dop853 --quiet --out /dev/null
    middle=$(now)
    NH_JIT=0 "$bin/nhsim" run "$system" --t-end "$t" --integrator dop853 --quiet --out /dev/null
    native=$(awk -v best="$native" -v a="$start" -v m="$middle" -v b="$(now)" \
      'BEGIN { d = (b - m) - (m - a); print (d < best) ? d : best }')
    w=$(node --no-experimental-fetch "$test" bench "$system" "$t" | head -1)
    wasm=$(echo "$wasm $w" | awk '{print ($2 < $1) ? $2 : $1}')
  done
  "$bin/nhsim" export "$system" --html "$work/$system.html" --live --t-end 2 --no-scenario --quiet
  for attempt in 1 2; do
    dom=$(chromium --headless=new --no-sandbox --disable-gpu --use-angle=swiftshader \
      --enable-unsafe-swiftshader --virtual-time-budget=120000 \
      --user-data-dir="$work/profile-$attempt" --dump-dom \
      "file://$work/$system.html#livebench=$t" 2>/dev/null)
    p=$(sed -n 's/.*<pre id="livebench">\([0-9.e-]*\)<\/pre>.*/\1/p' <<<"$dom")
    [ -n "$p" ] && page=$(echo "$page $p" | awk '{print ($2 < $1) ? $2 : $1}')
  done
  awk -v s="$system" -v t="$t" -v n="$native" -v w="$wasm" -v p="$page" \
    'BEGIN { printf "%-20s %6s %12.3f %12.3f %8.2f %14.0f\n", s, t, n, w, w / n, t / p }'
done
