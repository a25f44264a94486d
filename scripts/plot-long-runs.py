#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Plots the energy error against time of bench_long_runs' runs (docs/long-runs-energy.png).

    build/release/bench/bench_long_runs --csv DIR
    scripts/plot-long-runs.py DIR [OUT.png]

Reads DIR/<system>_<integrator>.csv (columns t, energy_error: the largest relative energy
error in each window of the run) and draws one panel per system, energy error on a log scale
against time, one line per integrator. Needs matplotlib (Debian: python3-matplotlib); this is
a documentation helper, neither the programs nor the tests need it.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The order and colours of the integrators; others follow in the order found.
KNOWN = ["nh-rattle", "discrete-gradient", "rk4", "dopri5", "dop853"]
COLOURS = {"nh-rattle": "tab:blue", "discrete-gradient": "tab:cyan", "rk4": "tab:red",
           "dopri5": "tab:orange", "dop853": "tab:green"}
FLOOR = 1e-17  # errors of exactly zero drawn here (log scale)


def read_runs(folder):
    runs = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        for integrator in KNOWN + [None]:
            if integrator is None:
                system, _, integrator = name[:-4].rpartition("_")
                break
            if name[:-4].endswith("_" + integrator):
                system = name[: -4 - len(integrator) - 1]
                break
        with open(os.path.join(folder, name)) as f:
            rows = list(csv.DictReader(f))
        t = [float(r["t"]) for r in rows]
        e = [max(float(r["energy_error"]), FLOOR) for r in rows]
        runs.setdefault(system, {})[integrator] = (t, e)
    return runs


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    folder = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else "docs/long-runs-energy.png"
    runs = read_runs(folder)
    if not runs:
        sys.exit(f"no CSV files in {folder}")
    systems = sorted(runs)
    columns = 2
    rows = (len(systems) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(11, 3.6 * rows), squeeze=False)
    for ax, system in zip(axes.flat, systems):
        order = [i for i in KNOWN if i in runs[system]] + sorted(
            i for i in runs[system] if i not in KNOWN)
        for integrator in order:
            t, e = runs[system][integrator]
            ax.plot(t, e, label=integrator, color=COLOURS.get(integrator), linewidth=1)
        ax.set_yscale("log")
        ax.set_title(system)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("|E − E0| / |E0|")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="small", loc="best")
    for ax in list(axes.flat)[len(systems):]:
        ax.axis("off")
    fig.suptitle("Energy error over the long runs (bench_long_runs; zero drawn at 1e-17)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
