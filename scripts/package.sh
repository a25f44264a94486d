#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian packages into build/release/package/ with CPack, from the release build
# tree, one per install component as Debian splits a program and its Python module:
# nonholonomic-lab_<version>-1_<arch>.deb (the programs and what app/packaging/ adds: man pages
# from --help, nhsim's bash completion from its command table, the documentation, copyright,
# changelog; no Python) and, when the build has the Python module,
# python3-nonholonomic-lab_<version>-1_<arch>.deb (the module; Depends on python3-numpy and the
# python3 it was built for). Stripped, Depends computed by dpkg-shlibdeps. Checks that
# nonholonomic-lab depends on no Python and the module's package on NumPy and its Python, then
# runs lintian on each: any error fails (warnings are listed in docs/packaging.md).
# A missing tool is named with the command that installs it (exit 2) before anything is
# built; a failed step leaves no package behind.
# Usage: scripts/package.sh        Prints the packages' paths last.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tools, each with the Debian package that has it.
tools=(cmake:cmake cpack:cmake ninja:ninja-build dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev
  help2man:help2man gzip:gzip strip:binutils objcopy:binutils lintian:lintian)
for entry in "${tools[@]}"; do
  tool=${entry%%:*}
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "package: $tool is missing; install it with: apt-get install ${entry#*:}" >&2
    exit 2
  fi
done

build=build/release
out=$build/package
rm -f "$out"/nonholonomic-lab_*.deb "$out"/python3-nonholonomic-lab_*.deb
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -n "$out" ]; then
    rm -f "$out"/nonholonomic-lab_*.deb "$out"/python3-nonholonomic-lab_*.deb
  fi
  exit "$status"
}
trap cleanup EXIT

# The package's Python module goes where Debian's python3 looks (/usr/lib/python3/dist-packages):
# the release tree is configured for it (a cache value, kept by later builds of the tree).
cmake --preset release -DNH_PYTHON_INSTALL_DIR=lib/python3/dist-packages >/dev/null
./scripts/build.sh nhsim nhsim-export nhsim-sweep nhlab nh_package_files
# The Python module, when this build has it (its own install() rule puts it in the package).
if ninja -C "$build" -t targets all | grep -q '^nonholonomic_lab:'; then
  cmake --build --preset release --target nonholonomic_lab
fi

start=$SECONDS
(cd "$build" && cpack -G DEB --config CPackConfig.cmake) >"$build/cpack.log" 2>&1 || {
  tail -n 30 "$build/cpack.log" >&2
  echo "package: cpack failed (log: $build/cpack.log)" >&2
  exit 1
}
mapfile -t debs < <(ls "$out"/nonholonomic-lab_*.deb "$out"/python3-nonholonomic-lab_*.deb 2>/dev/null)
echo "package: ${#debs[@]} package(s) built in $((SECONDS - start)) s"

# What each package depends on: the programs on no Python (a user of the command line or the
# app needs none); the module on NumPy and on the python3 it was built for.
fail() {
  echo "package: $*" >&2
  exit 1
}
for deb in "${debs[@]}"; do
  name=$(dpkg-deb -f "$deb" Package)
  depends=$(dpkg-deb -f "$deb" Depends)
  contents=$(dpkg-deb -c "$deb")
  echo "package: $deb ($(du -h "$deb" | cut -f1)): Depends: $depends"
  case "$name" in
    nonholonomic-lab)
      if grep -qiE '(^|[ ,])(python3?|libpython)[^,]*' <<<"$depends"; then
        fail "nonholonomic-lab depends on Python ($depends); only python3-nonholonomic-lab may"
      fi
      grep -q 'nonholonomic_lab' <<<"$contents" &&
        fail "nonholonomic-lab holds the Python module; it belongs in python3-nonholonomic-lab"
      grep -q '/usr/share/doc/nonholonomic-lab/model-format.md' <<<"$contents" ||
        fail "nonholonomic-lab holds no documentation in /usr/share/doc/nonholonomic-lab"
      ;;
    python3-nonholonomic-lab)
      grep -qE '(^|, )python3-numpy(,|$| )' <<<"$depends" ||
        fail "python3-nonholonomic-lab does not depend on python3-numpy ($depends)"
      grep -qE 'python3 \(>= [0-9]+\.[0-9]+~\), python3 \(<< [0-9]+\.[0-9]+\)' <<<"$depends" ||
        fail "python3-nonholonomic-lab does not depend on the python3 it was built for ($depends)"
      ;;
  esac
done

# lintian: errors fail; warnings and the rest are printed.
lintian --fail-on error --display-info "${debs[@]}" | tee "$build/lintian.log"
# The informational tags fixed once stay fixed: programs linked without -z now, sections
# dh_strip would have removed.
if grep -E 'hardening-no-bindnow|binary-has-unneeded-section' "$build/lintian.log" >&2; then
  fail "lintian: the tags above were fixed once (-z now; strip-sections.cmake) and are back"
fi
echo "package: lintian found no errors"
printf '%s\n' "${debs[@]}"
