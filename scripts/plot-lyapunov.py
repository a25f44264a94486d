#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws the largest finite-time Lyapunov exponent against the length of the run, log-log, one
line per system (docs/lyapunov-convergence.png): a regular motion's estimate falls like 1/T, a
chaotic one's levels off at its exponent.

    for s in chaplygin_sphere rattleback; do for T in 25 50 100 200 400 800; do
      echo "$s,$T,$(nhsim lyapunov $s --t-end $T --count 1 --json | jq '.exponents[0]')"
    done; done > lyapunov.csv
    scripts/plot-lyapunov.py lyapunov.csv [OUT.png]

Needs matplotlib (Debian: python3-matplotlib); a documentation helper, neither the programs nor
the tests need it.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/lyapunov-convergence.png"
    systems = {}
    for system, t_end, exponent in rows:
        systems.setdefault(system, []).append((float(t_end), float(exponent)))
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    for system, points in systems.items():
        points.sort()
        ax.loglog([p[0] for p in points], [p[1] for p in points], "o-", label=system)
    t = [min(p[0] for ps in systems.values() for p in ps), max(p[0] for ps in systems.values()
                                                              for p in ps)]
    first = sorted(systems[next(iter(systems))])[0]
    ax.loglog(t, [first[1] * first[0] / x for x in t], "k:", label="1/T")
    ax.set_xlabel("length of the run T [s]")
    ax.set_ylabel("largest finite-time exponent [1/s]")
    ax.set_title("Regular against chaotic: the largest Lyapunov exponent")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
