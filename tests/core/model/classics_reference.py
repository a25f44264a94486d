#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference numbers for tests/core/model/classics_test.cpp (rattleback,
chaplygin_sphere).

Not run by the build or the tests (they hold the printed numbers as constants): run it by
hand (python3 with numpy, scipy) to reproduce them. Both bodies are written here as the
classical Newton–Euler equations of a rigid body with a contact force F at a contact point
that is at rest (Kane & Levinson 1982; Garcia & Hubbard 1988), in body axes, without the
engine's Lagrangian/algebroid formalism, and integrated with scipy's solve_ivp (DOP853,
rtol = atol = 1e-12 or tighter).

Body axes, γ = the space up direction e_z seen in the body (third row of R, R body → space),
r = contact point − mass centre G (body axes), v_G = −ω × r (the contact point is at rest):
    m a_G = F − m g γ,            a_G = d/dt(v_G) + ω × v_G   (body components)
    I ω̇ + ω × I ω = r × F
Eliminating F: (I + m (|r|² 1 − r rᵀ)) ω̇ = −ω × Iω + m r × (−ω × ṙ − ω × (ω × r) + g γ),
with ṙ the rate of r in body axes (ṗ for the rattleback, 0 for the sphere). The attitude
q̇ = ½ q ⊗ (0, ω), the position ẋ, ẏ = horizontal components of R v_G.
"""
import numpy as np
from scipy.integrate import solve_ivp

OPTS = dict(method="DOP853", rtol=1e-13, atol=1e-13, dense_output=True)


def show(name, values):
    print(f"  {name} = {{" + ", ".join(f"{v:.17g}" for v in values) + "}")


def rot(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[w*w + x*x - y*y - z*z, 2*(x*y - w*z), 2*(x*z + w*y)],
                     [2*(x*y + w*z), w*w - x*x + y*y - z*z, 2*(y*z - w*x)],
                     [2*(x*z - w*y), 2*(y*z + w*x), w*w - x*x - y*y + z*z]])


def qdot(q, w):
    qw, qx, qy, qz = q
    return 0.5*np.array([-qx*w[0] - qy*w[1] - qz*w[2],
                         qw*w[0] - qz*w[1] + qy*w[2],
                         qz*w[0] + qw*w[1] - qx*w[2],
                         -qy*w[0] + qx*w[1] + qw*w[2]])


class Body:
    """A rigid body on z = 0 with contact point p(γ) (body axes), mass centre G."""

    def __init__(self, m, g, inertia, contact, contact_rate):
        self.m, self.g, self.I = m, g, inertia
        self.contact, self.contact_rate = contact, contact_rate  # r(γ), ṙ(γ, γ̇)

    def accel(self, q, w):
        """ω̇ and the contact force F on the body (body axes)."""
        m, g, I = self.m, self.g, self.I
        gam = rot(q)[2]
        r = self.contact(gam)
        rdot = self.contact_rate(gam, np.cross(gam, w))  # γ̇ = γ × ω (γ fixed in space)
        M = I + m*(r @ r*np.eye(3) - np.outer(r, r))
        rest = -np.cross(w, rdot) - np.cross(w, np.cross(w, r)) + g*gam
        wdot = np.linalg.solve(M, -np.cross(w, I @ w) + m*np.cross(r, rest))
        # F = m (a_G + g γ), a_G = d/dt(−ω × r) + ω × (−ω × r)
        aG = -np.cross(wdot, r) - np.cross(w, rdot) - np.cross(w, np.cross(w, r))
        return wdot, m*(aG + g*gam)

    def rhs(self, t, s):
        q, w = s[2:6], s[6:9]
        R = rot(q)
        vG = R @ (-np.cross(w, self.contact(R[2])))
        wdot, _ = self.accel(q, w)
        return np.concatenate([vG[:2], qdot(q, w), wdot])

    def state(self, s):
        """x, y, qw, qx, qy, qz, vx, vy, w1, w2, w3 and the force F in space axes."""
        q, w = s[2:6], s[6:9]
        R = rot(q)
        vG = R @ (-np.cross(w, self.contact(R[2])))
        _, F = self.accel(q, w)
        return np.concatenate([s[:6], vG[:2], w]), R @ F

    def energy(self, s):
        q, w = s[2:6], s[6:9]
        R = rot(q)
        r = self.contact(R[2])
        vG = -np.cross(w, r)
        return 0.5*self.m*vG @ vG + 0.5*w @ self.I @ w - self.m*self.g*(r @ R[2])


# ---- rattleback: Kane & Levinson's body --------------------------------------------------
# Shape axes: ellipsoid x²/a² + y²/b² + z²/c² = 1, G = (0, 0, −h). The contact point is the
# point with outward normal −γ: p = −Aγ/√(γᵀAγ), A = diag(a², b², c²); r = p + (0, 0, h);
# ṗ = −Aγ̇/s + Aγ (γᵀAγ̇)/s³, s = √(γᵀAγ). I = Rz(δ) diag(I1, I2, I3) Rz(δ)ᵀ.
def rattleback_body(delta=-0.5*np.arctan(0.4/14)):
    m, g, a, b, c, h = 1.0, 9.81, 0.20, 0.03, 0.02, 0.01
    I1, I2, I3 = 9e-4 - np.sqrt(49.04)*1e-4, 9e-4 + np.sqrt(49.04)*1e-4, 17e-4
    cd, sd = np.cos(delta), np.sin(delta)
    Rz = np.array([[cd, -sd, 0], [sd, cd, 0], [0, 0, 1]])
    I = Rz @ np.diag([I1, I2, I3]) @ Rz.T
    A = np.diag([a*a, b*b, c*c])

    def contact(gam):
        return -A @ gam/np.sqrt(gam @ A @ gam) + np.array([0, 0, h])

    def contact_rate(gam, gdot):
        s = np.sqrt(gam @ A @ gam)
        return -A @ gdot/s + A @ gam*(gam @ A @ gdot)/s**3

    return Body(m, g, I, contact, contact_rate)


def rattleback_start(w3):
    s = np.zeros(9)
    s[2:6] = [np.cos(0.005), np.sin(0.005), 0, 0]
    s[6:9] = [0, 0, w3]
    return s


def first_reversal(body, s0, t_end):
    """First time the vertical angular velocity ω·γ changes sign (None if not by t_end)."""
    def spin(t, s):
        return s[6:9] @ rot(s[2:6])[2]
    spin.terminal = True
    sol = solve_ivp(body.rhs, (0, t_end), s0, events=spin, **OPTS)
    return sol.t_events[0][0] if len(sol.t_events[0]) else None


def rattleback():
    print("rattleback")
    body = rattleback_body()
    s0 = rattleback_start(3.0)
    sol = solve_ivp(body.rhs, (0, 3), s0, **OPTS)
    e0 = body.energy(s0)
    for t in [1.0, 3.0]:
        st, F = body.state(sol.sol(t))
        show(f"t = {t}: x, y, qw, qx, qy, qz, vx, vy, w1, w2, w3", st)
        show(f"t = {t}: contact force (space)", F)
        assert abs(body.energy(sol.sol(t)) - e0) < 1e-11
    print("  energy", f"{e0:.17g}")
    print("  reversal, defaults, w3 = 3:", first_reversal(body, s0, 40))
    print("  reversal, defaults, w3 = -3:", first_reversal(body, rattleback_start(-3.0), 40))
    mirror = rattleback_body(+0.5*np.arctan(0.4/14))
    print("  reversal, -delta, w3 = 3:", first_reversal(mirror, s0, 40))
    print("  reversal, -delta, w3 = -3:", first_reversal(mirror, rattleback_start(-3.0), 40))


# ---- chaplygin_sphere: balanced ball, unequal moments ------------------------------------
# r = (0, 0, 0) − … : the contact point is −ρ γ from the centre (ρ the radius), ṙ = −ρ γ̇.
def chaplygin_sphere():
    print("chaplygin_sphere")
    m, g, rho = 1.0, 9.81, 0.1
    body = Body(m, g, np.diag([0.003, 0.004, 0.005]),
                lambda gam: -rho*gam, lambda gam, gdot: -rho*gdot)
    s0 = np.zeros(9)
    s0[2] = 1
    s0[6:9] = [0.5, 1.0, 8.0]
    sol = solve_ivp(body.rhs, (0, 3), s0, **OPTS)
    for t in [1.0, 3.0]:
        st, F = body.state(sol.sol(t))
        show(f"t = {t}: x, y, qw, qx, qy, qz, vx, vy, w1, w2, w3", st)
        show(f"t = {t}: contact force (space)", F)
    print("  energy", f"{body.energy(s0):.17g}")  # includes m g r (height of the centre)


if __name__ == "__main__":
    rattleback()
    chaplygin_sphere()
