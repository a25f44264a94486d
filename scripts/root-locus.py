#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws eigenvalues against a swept quantity as an SVG (the README's root-locus plot).

    scripts/root-locus.py OUT.svg -- NHSIM linearize SYSTEM ... --sweep NAME=FROM:TO:N --json

Runs the given nhsim command (it must print the --sweep --json object), then plots the real
parts (solid dots) and imaginary parts (open circles) of every eigenvalue against the swept
value, with the speeds where a real part changes sign marked. Python's standard library only:
this is a documentation helper; neither the programs nor the tests need it.
"""
import json
import math
import subprocess
import sys


def nice_ticks(lo, hi, count=6):
    span = hi - lo
    raw = span / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw))
    first = math.ceil(lo / step) * step
    ticks = []
    t = first
    while t <= hi + 1e-9 * step:
        ticks.append(round(t, 10))
        t += step
    return ticks


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    out = sys.argv[1]
    data = json.loads(subprocess.run(sys.argv[3:], check=True, capture_output=True,
                                     text=True).stdout)
    values = data["values"]
    eig = data["eigenvalues"]
    ylo, yhi = -10.0, 10.0
    width, height = 760, 480
    left, right, top, bottom = 70, 20, 40, 55
    pw, ph = width - left - right, height - top - bottom
    xlo, xhi = min(values), max(values)

    def X(v):
        return left + (v - xlo) / (xhi - xlo) * pw

    def Y(v):
        return top + (yhi - v) / (yhi - ylo) * ph

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for t in nice_ticks(ylo, yhi, 9):
        svg.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(t):.1f}" y2="{Y(t):.1f}" '
                   f'stroke="#e4e4e4"/>')
        svg.append(f'<text x="{left - 8}" y="{Y(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    for t in nice_ticks(xlo, xhi, 11):
        svg.append(f'<line x1="{X(t):.1f}" x2="{X(t):.1f}" y1="{top}" y2="{top + ph}" '
                   f'stroke="#e4e4e4"/>')
        svg.append(f'<text x="{X(t):.1f}" y="{top + ph + 18}" text-anchor="middle">{t:g}</text>')
    svg.append(f'<line x1="{left}" x2="{left + pw}" y1="{Y(0):.1f}" y2="{Y(0):.1f}" '
               f'stroke="#888"/>')
    svg.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
               f'stroke="#444"/>')
    # Where a real part changes sign (interpolated between sweep points): tracked separately
    # for the oscillatory eigenvalues (largest real part of a complex pair) and the real ones
    # (largest real eigenvalue, zeros left out), since sorting reorders them.
    def series(ev, complex_pairs):
        parts = [re for re, im in ev
                 if (abs(im) > 1e-9) == complex_pairs and (complex_pairs or abs(re) > 1e-9)]
        return max(parts) if parts else None

    marks = []
    for complex_pairs in (True, False):
        for i in range(1, len(values)):
            ra, rb = series(eig[i - 1], complex_pairs), series(eig[i], complex_pairs)
            if ra is None or rb is None or (ra < 0) == (rb < 0) or abs(ra - rb) > 1:
                continue
            v = values[i - 1] + (values[i] - values[i - 1]) * ra / (ra - rb)
            if all(abs(v - m) > 1e-6 for m in marks):
                marks.append(v)
    for v in marks:
        svg.append(f'<line x1="{X(v):.1f}" x2="{X(v):.1f}" y1="{top}" y2="{top + ph}" '
                   f'stroke="#2a7" stroke-dasharray="5 4"/>')
        svg.append(f'<text x="{X(v) + 4:.1f}" y="{top + 14}" fill="#2a7">{v:.3f}</text>')
    for v, ev in zip(values, eig):
        for re, im in ev:
            if ylo <= re <= yhi:
                svg.append(f'<circle cx="{X(v):.1f}" cy="{Y(re):.1f}" r="2.2" fill="#1f5fbf"/>')
            if abs(im) > 1e-12 and ylo <= abs(im) <= yhi:
                svg.append(f'<circle cx="{X(v):.1f}" cy="{Y(abs(im)):.1f}" r="2.2" '
                           f'fill="none" stroke="#d04030"/>')
    title = f'{data["system"]}: eigenvalues against {data["sweep"]}'
    svg.append(f'<text x="{left}" y="{top - 14}" font-size="15">{title}</text>')
    svg.append(f'<text x="{left + pw / 2:.1f}" y="{height - 12}" text-anchor="middle">'
               f'{data["sweep"]}</text>')
    svg.append(f'<text transform="translate(18 {top + ph / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">eigenvalue (1/s)</text>')
    lx = left + pw - 190
    svg.append(f'<circle cx="{lx}" cy="{top + ph - 40}" r="3" fill="#1f5fbf"/>'
               f'<text x="{lx + 10}" y="{top + ph - 36}">real part</text>')
    svg.append(f'<circle cx="{lx}" cy="{top + ph - 20}" r="3" fill="none" stroke="#d04030"/>'
               f'<text x="{lx + 10}" y="{top + ph - 16}">|imaginary part|</text>')
    svg.append('</svg>')
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(svg) + "\n")
    import os
    os.replace(out + ".tmp", out)
    print(f"{out}: {len(values)} values; real parts change sign at "
          + ", ".join(f"{m:.6f}" for m in marks))


if __name__ == "__main__":
    main()
