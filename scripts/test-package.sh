#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves the Debian package on a fresh system: creates a minimal Debian 12 (bookworm) root
# with debootstrap in build/package-test/root (from the Debian archive this machine's apt
# uses), installs build/release/package/nonholonomic-lab_*.deb there with apt (its Depends
# and Recommends resolved from the archive) after checking that its Depends bring no Python,
# and there runs nhsim list, nhsim run, nhsim export to a GIF (Xvfb started by nhsim itself),
# nhlab --screenshot under xvfb-run; then, when python3-nonholonomic-lab_*.deb was built, installs
# it (NumPy and Python come with it) and runs python3 -c 'import nonholonomic_lab' and a run.
# /proc and /dev/shm are mounted in the root while it runs and unmounted on exit.
# Needs root, the network to the archive, and debootstrap. Builds the package first when
# there is none (scripts/package.sh). Takes ten minutes or more; run before each release.
# Everything goes to build/package-test/test.log too; the GIF and the screenshot are copied
# beside it. Usage: scripts/test-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."

for entry in debootstrap:debootstrap chroot:coreutils mountpoint:util-linux; do
  if ! command -v "${entry%%:*}" >/dev/null 2>&1; then
    echo "test-package: ${entry%%:*} is missing; install it with: apt-get install ${entry#*:}" >&2
    exit 2
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "test-package: debootstrap and chroot need root (run it with sudo)" >&2
  exit 2
fi

# The Debian archive and its security archive, as this machine's apt reaches them.
debian_uri() {
  local suffix=$1
  grep -rhoE "https?://[^ ]+/${suffix}/?( |$)" /etc/apt/sources.list /etc/apt/sources.list.d \
    2>/dev/null | head -n 1 | tr -d ' ' || true
}
mirror=$(debian_uri debian)
security=$(debian_uri debian-security)
mirror=${mirror:-http://deb.debian.org/debian}
security=${security:-http://deb.debian.org/debian-security}

work=$PWD/build/package-test
root=$work/root
log=$work/test.log
mkdir -p "$work/cache"
: >"$log"
exec > >(tee -a "$log") 2>&1
start=$SECONDS

unmount() {
  local mount
  for mount in "$root/dev/shm" "$root/proc"; do
    if mountpoint -q "$mount"; then umount -l "$mount"; fi
  done
}
finish() {
  local status=$?
  unmount
  echo "test-package: $([ "$status" -eq 0 ] && echo passed || echo "FAILED (exit $status)")" \
    "in $((SECONDS - start)) s ($(date -u '+%Y-%m-%d %H:%M UTC'))"
  exit "$status"
}
trap finish EXIT

deb=$(ls build/release/package/nonholonomic-lab_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
  ./scripts/package.sh
  deb=$(ls build/release/package/nonholonomic-lab_*.deb | head -n 1)
fi
python_deb=$(ls build/release/package/python3-nonholonomic-lab_*.deb 2>/dev/null | head -n 1 || true)
echo "test-package: $deb on a fresh Debian 12 root from $mirror"

step() {
  echo
  echo "== $* ($((SECONDS - start)) s)"
}

step "debootstrap --variant=minbase bookworm"
unmount
rm -rf "$root"
debootstrap --variant=minbase --cache-dir="$work/cache" bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log"
  exit 1
}
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
mount -t proc proc "$root/proc"
mkdir -p "$root/dev/shm"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"

# in_root COMMAND...: runs a shell command in the root, in /tmp, as root with a clean
# environment (no DISPLAY: the programs must find their own way to a display).
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive /bin/bash -c "cd /tmp && $*"
}

step "apt-get install ./$(basename "$deb") (Depends and Recommends from the archive)"
cp "$deb" "$root/tmp/"
in_root "apt-get update -qq"
# A user of the command line and the app needs no Python: the package's Depends bring none
# (apt's simulation without Recommends; some library's Recommends may still bring python3).
in_root "if apt-get install -s --no-install-recommends /tmp/$(basename "$deb") | grep -E '^Inst (python3|libpython3)'; then echo 'nonholonomic-lab depends on Python'; exit 1; fi; echo 'Depends bring no python3'"
in_root "apt-get install -y -q /tmp/$(basename "$deb") >/tmp/apt.log 2>&1 || { tail -n 30 /tmp/apt.log; exit 1; }"
in_root "tail -n 3 /tmp/apt.log; grep -c '^Setting up' /tmp/apt.log | sed 's/^/packages set up: /'"
in_root "dpkg -s nonholonomic-lab | grep -E '^(Version|Depends|Recommends|Suggests):'"

step "what the package installed"
in_root "dpkg -L nonholonomic-lab | grep -vE '/$' | grep -E 'bin/|libexec|man1|completions|applications|metainfo|icons|doc/[^/]*/[^/]*$|examples/[a-c]'"
in_root "du -sh /usr/share/nonholonomic-lab; ls /usr/share/nonholonomic-lab/examples | wc -l"

step "nhsim list"
in_root "nhsim list"

step "nhsim run ball_on_turntable --t-end 1"
in_root "nhsim run ball_on_turntable --t-end 1 --out run.csv && head -n 3 run.csv | cut -c1-100 && wc -l run.csv"

step "nhsim export ball_on_turntable --t-end 1 --video x.gif"
in_root "nhsim export ball_on_turntable --t-end 1 --width 480 --height 320 --video x.gif && ls -l x.gif"
cp "$root/tmp/x.gif" "$work/export.gif"

step "xvfb-run -a nhlab --screenshot"
in_root "xvfb-run -a nhlab --no-settings --size 800x600 --after 2 --screenshot s.png --system ball_on_turntable && ls -l s.png"
cp "$root/tmp/s.png" "$work/screenshot.png"

if [ -n "$python_deb" ]; then
  step "apt-get install ./$(basename "$python_deb"); python3 -c 'import nonholonomic_lab'"
  cp "$python_deb" "$root/tmp/"
  in_root "apt-get install -y -q /tmp/$(basename "$python_deb") >/tmp/apt-python.log 2>&1 || { tail -n 30 /tmp/apt-python.log; exit 1; }"
  in_root "dpkg -s python3-nonholonomic-lab | grep -E '^(Version|Depends|Suggests):'"
  in_root "python3 -c 'import nonholonomic_lab as nl; print(nl.__file__); print(len(nl.load(\"chaplygin_sleigh\").run(1, dt_out=0.1)), \"rows\")'"
else
  step "no python3-nonholonomic-lab package built: import not tried"
fi

step "nhsim --version; man page and completion present"
in_root "nhsim --version && test -s /usr/share/man/man1/nhsim.1.gz && test -s /usr/share/man/man1/nhlab.1.gz && test -s /usr/share/bash-completion/completions/nhsim && echo present"
