#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference eigenvalues for tests/core/nh/linearize_test.cpp: the rattleback
spinning steadily about the vertical, linearised.

Not run by the build or the tests (they hold the printed numbers as constants): run it by
hand (python3 with numpy, scipy) to reproduce them. The equations are the Newton–Euler ones
of tests/core/model/classics_reference.py (imported from there: Kane & Levinson's body, in
body axes, the contact point at rest), written on the reduced state (γ1, γ2, ω1, ω2, ω3):
γ = the space up direction in body axes, γ3 = √(1 − γ1² − γ2²), γ̇ = γ × ω, ω̇ from
Body.accel. Nothing here uses the engine's chart, tape or constraint elimination.

Steady spin ω = (0, 0, w3), γ = e3 is an equilibrium of these equations. Its Jacobian is
taken by central differences with steps h and h/2, Richardson-extrapolated
(4 D(h/2) − D(h))/3 (error O(h⁴)). The contact point moves fast with the tilt (by a²/c = 2 m
per radian of γ: its derivatives grow like (a/c)² = 100 an order), so the steps in γ are
small (h_γ = 4e-5, 2e-5); ω̇ is quadratic in ω, where h = 1e-3 is exact but for round-off.
The eigenvalues of the 5 × 5 matrix are printed for both h_γ to show the digits that are
settled (they agree to about 1e-9).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "model"))
from classics_reference import rattleback_body  # noqa: E402


def attitude_with_up(gam):
    """A unit quaternion q whose rotation R (body → space) has third row γ (R γ = e_z)."""
    axis = np.cross(gam, [0.0, 0.0, 1.0])
    s = np.linalg.norm(axis)
    if s < 1e-300:
        return np.array([1.0, 0.0, 0.0, 0.0])
    angle = np.arctan2(s, gam[2])
    return np.concatenate([[np.cos(angle/2)], np.sin(angle/2)*axis/s])


def reduced_rhs(body, z):
    g1, g2, w = z[0], z[1], z[2:5]
    gam = np.array([g1, g2, np.sqrt(1 - g1*g1 - g2*g2)])
    wdot, _ = body.accel(attitude_with_up(gam), w)
    return np.concatenate([np.cross(gam, w)[:2], wdot])


def jacobian(body, z0, h):
    """Steps h[j] per variable, Richardson-extrapolated central differences."""
    def central(steps):
        cols = []
        for j in range(len(z0)):
            e = np.zeros(len(z0))
            e[j] = steps[j]
            cols.append((reduced_rhs(body, z0 + e) - reduced_rhs(body, z0 - e))/(2*steps[j]))
        return np.array(cols).T
    h = np.asarray(h)
    return (4*central(h/2) - central(h))/3


def sorted_eigenvalues(J):
    return sorted(np.linalg.eigvals(J), key=lambda e: (round(e.real, 9), e.imag))


def main():
    body = rattleback_body()
    for w3 in [2.0, 5.0, 10.0, -2.0, -5.0, -10.0]:
        z0 = np.array([0.0, 0.0, 0.0, 0.0, w3])
        assert np.max(np.abs(reduced_rhs(body, z0))) < 1e-14
        print(f"w3 = {w3}")
        for hg in [4e-5, 2e-5]:
            values = sorted_eigenvalues(jacobian(body, z0, [hg, hg, 1e-3, 1e-3, 1e-3]))
            print(f"  h_gamma = {hg}: " +
                  ", ".join(f"{{{e.real:.17g}, {e.imag:.17g}}}" for e in values))


if __name__ == "__main__":
    main()
