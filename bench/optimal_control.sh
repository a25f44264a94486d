#!/usr/bin/env bash
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
# starts and tolerance; set NHSIM_ARGS to add options (NHSIM_ARGS="--starts 16").
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

# One JSON line per model from each side.
"$python" "$reference" --json >"$out/scipy.jsonl" || true
while read -r -a problem; do
  # shellcheck disable=SC2086
  "$nhsim" optimize "${problem[@]}" ${NHSIM_ARGS:-} --json >"$out/${problem[0]}.json" ||
    echo "{\"system\": \"${problem[0]}\", \"failed\": true}" >"$out/${problem[0]}.json"
done < <("$python" "$reference" --problems)

"$python" - "$out" <<'TABLE'
import json, pathlib, sys

out = pathlib.Path(sys.argv[1])
scipy = {}
for line in (out / "scipy.jsonl").read_text().splitlines():
    r = json.loads(line)
    scipy[r["system"]] = r
print(f"| model | J (nhsim) | J (scipy) | closed form | \\|ΔJ\\|/J | time nhsim | time scipy"
      f" | Newton iterations (nhsim) | scipy iterations, nodes |")
print("|---|---|---|---|---|---|---|---|---|")
for name, s in scipy.items():
    n = json.loads((out / f"{name}.json").read_text())
    best = (n.get("extremals") or [None])[0]
    closed = "—" if s["closed_form"] is None else f"{s['closed_form']:.12g}"
    scipy_j = f"{s['cost']:.12g}" if s["converged"] else f"not converged ({s['message']})"
    if best is None:
        print(f"| {name} | no extremal | {scipy_j} | {closed} | — | — | {s['solve_seconds']:.3f} s"
              f" | — | {s['iterations']}, {s['nodes']} |")
        continue
    dj = abs(best["cost"] - s["cost"]) / abs(s["cost"])
    print(f"| {name} | {best['cost']:.12g} | {scipy_j} | {closed} | {dj:.1e}"
          f" | {n['solve_seconds']:.3f} s | {s['solve_seconds']:.3f} s | {best['iterations']}"
          f" | {s['iterations']}, {s['nodes']} |")
TABLE
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
