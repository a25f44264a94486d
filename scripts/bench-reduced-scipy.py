#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Anchor for bench/bench_reduction (a benchmark helper, not used by the product or
its tests): scipy's DOP853 on the reduced state (x, y, vx, vy, wx, wy, wz: no attitude) of
the ball on the turntable with Omega(t) = 1 + 0.2 sin t, 200 s at rtol = atol = 1e-10, from
the catalogue's default start (x = 0.6, vy = 0.2, wz = 2, wx from the rolling constraint).
Equations: theory section 5 (the same closed form as bench_core's hand-written ball).
Prints steps (accepted), right-hand-side evaluations, wall time and x(200)."""
import math
import time

from scipy.integrate import solve_ivp

m, r, ratio, g, tilt = 1.0, 0.1, 0.4, 9.81, 0.0
W0, rate, amp, freq = 1.0, 0.0, 0.2, 1.0
kappa = ratio / (ratio + 1)
I = ratio * m * r * r


def rhs(t, s):
    x, y, vx, vy, wx, wy, wz = s
    W = W0 + rate * t + amp * math.sin(freq * t)
    Wd = rate + amp * freq * math.cos(freq * t)
    Fx = -m * g * math.sin(tilt)
    ax = (1 - kappa) * Fx / m - kappa * (Wd * y + W * vy)
    ay = kappa * (Wd * x + W * vx)
    return [vx, vy, ax, ay, r * m * ay / I, -r * (m * ax - Fx) / I, 0.0]


x0 = 0.6
vy0 = 0.2
wx0 = (vy0 - W0 * x0) / -r  # vy + r wx - Omega x = 0
start = [x0, 0.0, 0.0, vy0, wx0, 0.0, 2.0]
t0 = time.perf_counter()
sol = solve_ivp(rhs, (0, 200), start, method="DOP853", rtol=1e-10, atol=1e-10)
wall = time.perf_counter() - t0
# solve_ivp reports evaluations, not steps: DOP853 makes 12 per accepted or rejected step
# (plus 1 at the start), so steps ≈ (nfev − 1)/12; t has one entry per accepted step.
print(f"scipy DOP853 reduced: accepted steps {len(sol.t) - 1}, RHS evaluations {sol.nfev}, "
      f"wall {wall:.3f} s, x(200) = {sol.y[0, -1]:.9f}")
