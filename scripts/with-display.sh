#!/usr/bin/env bash
# Runs a command with an X display: the current one if it answers, else a private Xvfb
# (GUI tests and benchmarks need one; VTK renders through GLX only).
set -euo pipefail
if [ -n "${DISPLAY:-}" ] && command -v xdpyinfo >/dev/null 2>&1 && xdpyinfo >/dev/null 2>&1; then
  exec "$@"
fi
if [ -n "${DISPLAY:-}" ] && ! command -v xdpyinfo >/dev/null 2>&1; then
  # Without xdpyinfo we cannot probe the display; trust it.
  exec "$@"
fi
unset DISPLAY
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
