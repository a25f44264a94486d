#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command with an X display: the current one if it answers, else a private Xvfb
# (GUI tests and benchmarks need one; VTK renders through GLX only). The private server
# picks a free display number itself (-displayfd), so parallel runs never race for one, and
# does not reset when its last client leaves (-noreset): a reset drops new connections, which
# made suites that open and close VTK windows one after another fail at random.
set -euo pipefail
if [ -n "${DISPLAY:-}" ] && command -v xdpyinfo >/dev/null 2>&1 && xdpyinfo >/dev/null 2>&1; then
  exec "$@"
fi
if [ -n "${DISPLAY:-}" ] && ! command -v xdpyinfo >/dev/null 2>&1; then
  # Without xdpyinfo we cannot probe the display; trust it.
  exec "$@"
fi
work=$(mktemp -d)
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3>"$work/display" 2>"$work/log" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 200); do
  [ -s "$work/display" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
if [ ! -s "$work/display" ]; then
  echo "with-display: Xvfb did not start:" >&2
  cat "$work/log" >&2
  exit 1
fi
export DISPLAY=":$(head -n1 "$work/display")"
set +e
"$@"
status=$?
exit $status
