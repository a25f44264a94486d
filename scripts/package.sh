#!/usr/bin/env bash
# Builds the Debian package nonholonomic-lab_<version>-1_<arch>.deb into build/release/package/
# with CPack, from the release build tree: the programs and what app/packaging/ adds (man pages
# from --help, nhsim's bash completion from its command table, copyright, changelog; the
# Python module too when it is built), stripped, Depends computed by dpkg-shlibdeps. Then runs
# lintian on it: any error fails (warnings are listed in docs/packaging.md).
# A missing tool is named with the command that installs it (exit 2) before anything is
# built; a failed step leaves no package behind.
# Usage: scripts/package.sh        Prints the package's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tools, each with the Debian package that has it.
tools=(cmake:cmake cpack:cmake ninja:ninja-build dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev
  help2man:help2man gzip:gzip strip:binutils lintian:lintian)
for entry in "${tools[@]}"; do
  tool=${entry%%:*}
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "package: $tool is missing; install it with: apt-get install ${entry#*:}" >&2
    exit 2
  fi
done

build=build/release
out=$build/package
rm -f "$out"/nonholonomic-lab_*.deb
deb=""
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -n "$out" ]; then rm -f "$out"/nonholonomic-lab_*.deb; fi
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
deb=$(ls "$out"/nonholonomic-lab_*.deb)
echo "package: $deb built in $((SECONDS - start)) s ($(du -h "$deb" | cut -f1))"

# lintian: errors fail; warnings and the rest are printed.
lintian --fail-on error --display-info "$deb" | tee "$build/lintian.log"
echo "package: lintian found no errors"
echo "$deb"
