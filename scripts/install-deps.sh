#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages Nonholonomic Lab needs; installs nothing that is present.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config clang-format git
  libeigen3-dev libboost-dev nlohmann-json3-dev libyaml-cpp-dev libginac-dev
  qt6-base-dev libqt6opengl6-dev qt6-svg-dev
  libvtk9-dev libsundials-dev libasmjit-dev libcli11-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev ffmpeg zlib1g-dev libx11-dev
  xvfb xauth libgl1-mesa-dri universal-ctags
  clang-14 libclang-rt-14-dev llvm-14
  libopenmpi-dev openmpi-bin libhdf5-dev
  help2man lintian debootstrap  # the Debian package: man pages, its check, its test root
  libjs-three chromium  # three.js inlined into interactive pages; headless Chromium tests them
  emscripten nodejs  # the web engine (the wasm preset) and its suite under node
  node-pako  # its inflate, inlined into live pages (the engine travels deflated)
  python3-dev pybind11-dev python3-numpy python3-pytest  # the Python module and its suite
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
