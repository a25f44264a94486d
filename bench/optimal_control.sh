#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `nhsim optimize` against an independent collocation solver: for each of the five bundled
# control models, the same boundary-value problem solved by nhsim (multiple shooting with
# Newton's method) and by scipy's solve_bvp (bench/optimal_control_reference.py, the model
# written out by hand), side by side: the cost J of each, their relative difference, the
# solve times and the iterations. The problems (targets, T, parameters) come from the
# reference script, so both solve the same one. Prints the load average before and after:
# other processes take cores from both.
# Usage: bench/optimal_control.sh [NHSIM (default build/release/bin/nhsim)] [PYTHON]
# PYTHON must have numpy, scipy and sympy (Debian: python3-scipy python3-sympy); the default
# is the first of python3, /usr/bin/python3 that imports them. nhsim runs with its default
# starts and tolerance (8 starts, 1e-10); NHSIM_ARGS adds options to every run.
set -euo pipefail
here=$(dirname "$0")
nhsim=${1:-$here/../build/release/bin/nhsim}
python=${2:-}
if [ -z "$python" ]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import numpy, scipy, sympy' 2>/dev/null; then
      python=$candidate
      break
    fi
  done
fi
[ -n "$python" ] || { echo "optimal_control.sh: no python3 with numpy, scipy and sympy" >&2; exit 2; }
reference=$here/optimal_control_reference.py
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "optimal_control: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$python" -c 'import scipy, sys; print(f"scipy {scipy.__version__}, python {sys.version.split()[0]}")'

# One JSON line per model from scipy; one JSON file per model and run from nhsim. A model
# whose nhsim run (default starts) found no extremal, or not scipy's (|dJ|/J > 1e-6), is run
# again with --starts $RETRY_STARTS (default 64): both rows are shown.
retry=${RETRY_STARTS:-64}
"$python" "$reference" --json >"$out/scipy.jsonl" || true
# The cost scipy found for model $1 (empty when it did not converge).
scipy_cost() {
  "$python" -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["system"] == sys.argv[2] and r["converged"]: print(repr(r["cost"]))' "$out/scipy.jsonl" "$1"
}
# Whether nhsim's file $1 holds an extremal of cost $2 (relative 1e-6).
found() {
  "$python" -c 'import json, sys
try:
    d = json.load(open(sys.argv[1]))
    best = d["extremals"][0]["cost"]
except (ValueError, KeyError, IndexError):
    sys.exit(1)
sys.exit(0 if abs(best - float(sys.argv[2])) <= 1e-6 * abs(float(sys.argv[2])) else 1)' "$1" "$2"
}
# Runs nhsim on the problem being read (the array problem) with extra options; a run that
# finds no extremal (exit 3, no JSON) leaves its wall time instead.
run_nhsim() {  # name, output file, extra options...
  local name=$1 file=$2 start
  shift 2
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$nhsim" optimize "${problem[@]}" ${NHSIM_ARGS:-} "$@" --json --quiet >"$file" 2>/dev/null ||
    echo "{\"system\": \"$name\", \"failed\": true," \
      "\"solve_seconds\": $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')}" >"$file"
}
while read -r -a problem; do
  name=${problem[0]}
  run_nhsim "$name" "$out/$name.default.json"
  reference_cost=$(scipy_cost "$name")
  if [ -n "$reference_cost" ] && ! found "$out/$name.default.json" "$reference_cost"; then
    run_nhsim "$name" "$out/$name.retry.json" --starts "$retry"
  fi
done < <("$python" "$reference" --problems)

"$python" - "$out" "$retry" <<'TABLE'
import json, pathlib, sys

out, retry = pathlib.Path(sys.argv[1]), sys.argv[2]
scipy = {}
for line in (out / "scipy.jsonl").read_text().splitlines():
    r = json.loads(line)
    scipy[r["system"]] = r
print("| model | nhsim run | J (nhsim) | J (scipy) | closed form | \\|ΔJ\\|/J | time nhsim"
      " | time scipy | Newton iterations (nhsim) | scipy iterations, nodes |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name, s in scipy.items():
    closed = "—" if s["closed_form"] is None else f"{s['closed_form']:.12g}"
    scipy_j = f"{s['cost']:.12g}" if s["converged"] else f"not converged ({s['message']})"
    scipy_side = f"{s['solve_seconds']:.3f} s"
    scipy_work = f"{s['iterations']}, {s['nodes']}"
    for run, label in (("default", "default"), ("retry", f"--starts {retry}")):
        path = out / f"{name}.{run}.json"
        if not path.exists():
            continue
        n = json.loads(path.read_text())
        best = (n.get("extremals") or [None])[0]
        if best is None:
            print(f"| {name} | {label} | no extremal | {scipy_j} | {closed} | —"
                  f" | {n['solve_seconds']:.3f} s (wall) | {scipy_side} | — | {scipy_work} |")
            continue
        dj = abs(best["cost"] - s["cost"]) / abs(s["cost"])
        print(f"| {name} | {label} | {best['cost']:.12g} | {scipy_j} | {closed} | {dj:.1e}"
              f" | {n['solve_seconds']:.3f} s | {scipy_side} | {best['iterations']}"
              f" | {scipy_work} |")
TABLE
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
