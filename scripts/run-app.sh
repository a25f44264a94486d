#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and launches the nhlab desktop app with the default scenario (a solid ball on a
# table turning at 1 rad/s), already playing. Installs missing Debian packages first.
# Extra arguments go to nhlab (see ./build/release/bin/nhlab --help).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh nhlab nhsim
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run-app: no display found (DISPLAY is unset). nhlab is a desktop application;" >&2
  echo "run-app: on a machine without a screen try: xvfb-run -a ./scripts/run-app.sh --screenshot shot.png" >&2
  exit 1
fi
exec ./build/release/bin/nhlab "$@"
