#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws eigenvalues against a swept quantity as a PNG with matplotlib: real parts above,
imaginary parts below (the rattleback's root locus in docs/cli.md).

    scripts/spin-root-locus.py OUT.png -- NHSIM linearize SYSTEM ... --sweep NAME=FROM:TO:N --json

Runs the given nhsim command (it must print the --sweep --json object). Where the imaginary
parts are far larger than the real ones (a spinning body's nutation), one plot would hide
the real parts; scripts/root-locus.py draws both on one axis instead. A documentation
helper (python3 with matplotlib): neither the programs nor the tests need it.
"""
import json
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    data = json.loads(subprocess.run(sys.argv[3:], check=True, capture_output=True,
                                     text=True).stdout)
    values, eig = data["values"], data["eigenvalues"]
    xs = [v for v, point in zip(values, eig) for _ in point]
    re = [e[0] for point in eig for e in point]
    im = [abs(e[1]) for point in eig for e in point]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7.6, 6.4))
    top.scatter(xs, re, s=6, color="#b03020")
    top.axhline(0, color="black", linewidth=0.6)
    top.set_ylabel("Re λ (1/s)")
    top.set_title(f"{data['system']}: eigenvalues against {data['sweep']}")
    top.grid(alpha=0.3)
    bottom.scatter(xs, im, s=6, facecolors="none", edgecolors="#2050a0")
    bottom.set_ylabel("|Im λ| (rad/s)")
    bottom.set_xlabel(data["sweep"])
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=100)


if __name__ == "__main__":
    main()
