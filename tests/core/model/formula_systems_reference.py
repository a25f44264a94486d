#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference numbers for tests/core/model/formula_systems_test.cpp.

Not run by the build or the tests (they hold the printed numbers as constants): run it by
hand (python3 with numpy, scipy, sympy) to reproduce them. Every system is derived here in
classical coordinates, by hand or with sympy, without the engine's algebroid formalism, and
integrated with scipy's solve_ivp (DOP853, rtol = atol = 1e-12) or evaluated in closed form.
"""
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

TIMES = [1.0, 2.0, 3.0]
OPTS = dict(method="DOP853", rtol=1e-12, atol=1e-12, dense_output=True)


def show(name, values):
    print(f"  {name} = {{" + ", ".join(f"{v:.17g}" for v in values) + "}")


# ---- 1. constant_speed_particle: |v| = v0 under gravity (nonlinear, Chetaev rule) ---------
# m v̇ = −m g e_z + λ ∂Φ/∂v = −m g e_z + 2 λ v with Φ = |v|² − v0². d/dt |v|² = 0 gives
# λ = m g vz / (2 v0²). The direction u = v/v0 obeys u̇ = −(g/v0)(e_z − u_z u): its horizontal
# direction is fixed and u_z = −tanh(τ), τ = g t / v0 + τ0, τ0 = −atanh(u_z(0)); so
#   z = z0 − (v0²/g) (ln cosh τ − ln cosh τ0),  s = (v0²/g) (gd τ − gd τ0),  gd τ = atan(sinh τ)
# with s the horizontal distance along the initial horizontal direction.
def constant_speed():
    print("constant_speed_particle")
    times = [0.2, 0.5, 1.0]  # after 1 s the velocity points down to 1e-3
    m, g, v0 = 1.0, 9.81, 2.5
    x0 = np.array([0.0, 0.0, 0.0])
    v = np.array([1.2, 0.9, 2.0])
    assert abs(np.linalg.norm(v) - v0) < 1e-15

    def rhs(t, s):
        vel = s[3:]
        lam = m * g * vel[2] / (2 * v0 * v0)
        return np.concatenate([vel, (np.array([0, 0, -m * g]) + 2 * lam * vel) / m])

    sol = solve_ivp(rhs, (0, 3), np.concatenate([x0, v]), **OPTS)
    h = v[:2] / np.linalg.norm(v[:2])
    tau0 = -np.arctanh(v[2] / v0)
    for t in times:
        tau = g * t / v0 + tau0
        z = x0[2] - v0 * v0 / g * (np.log(np.cosh(tau)) - np.log(np.cosh(tau0)))
        s = v0 * v0 / g * (np.arctan(np.sinh(tau)) - np.arctan(np.sinh(tau0)))
        vz = -v0 * np.tanh(tau)
        vh = v0 / np.cosh(tau)
        closed = [x0[0] + s * h[0], x0[1] + s * h[1], z, vh * h[0], vh * h[1], vz]
        assert np.max(np.abs(np.array(closed) - sol.sol(t))) < 1e-10
        show(f"t = {t}: x, y, z, vx, vy, vz", closed)
        show(f"t = {t}: lambda", [m * g * vz / (2 * v0 * v0)])


# ---- 2. ball_on_conveyor: rolling on a belt with velocity u(t) (time-dependent, affine) -----
# L = ½ m |v|² + ½ I |ω|² − m g sin(slope) x, I = inertia_ratio m r²; rolling on the belt:
# vx − r ωy = u(t), vy + r ωx = 0, u = U0 + A sin(f t). Newton–Euler with the friction
# force (λ1, λ2): m ẍ = −m g sin(slope) + λ1, I ω̇y = −r λ1, m ÿ = λ2, I ω̇x = r λ2. The
# derivative of the first constraint gives λ1 = m κ (u̇ + g sin(slope)), κ = I/(I + m r²),
# hence ẍ = κ u̇ − (1 − κ) g sin(slope), and λ2 = 0: closed form
#   vx = vx0 + κ (u − u(0)) − (1 − κ) g sin(slope) t,
#   x = x0 + vx0 t + κ (U0 t + A (1 − cos f t)/f − u(0) t) − ½ (1 − κ) g sin(slope) t².
def conveyor():
    print("ball_on_conveyor")
    m, r, ratio, U0, A, f, slope, g = 1.0, 0.1, 0.4, 0.5, 0.3, 2.0, 0.1, 9.81
    I = ratio * m * r * r
    kappa = I / (I + m * r * r)
    x0, y0, vx0, vy0, wz0 = 0.0, 0.0, 0.5, 0.2, 1.0
    u = lambda t: U0 + A * np.sin(f * t)
    du = lambda t: A * f * np.cos(f * t)

    # Check against the Newton–Euler equations integrated with the multiplier eliminated
    # by sympy from the differentiated constraint.
    t_, lam = sp.symbols("t lambda")
    xdd = (-m * g * sp.sin(slope) + lam) / m
    wydd = -r * lam / I
    lam_sol = sp.solve(sp.Eq(xdd - r * wydd, sp.diff(U0 + A * sp.sin(f * t_), t_)), lam)[0]
    lam_fn = sp.lambdify(t_, lam_sol, "numpy")

    def rhs(t, s):  # s = (x, vx, wy)
        l1 = lam_fn(t)
        return [s[1], (-m * g * np.sin(slope) + l1) / m, -r * l1 / I]

    sol = solve_ivp(rhs, (0, 3), [x0, vx0, (vx0 - u(0)) / r], **OPTS)
    for t in TIMES:
        vx = vx0 + kappa * (u(t) - u(0)) - (1 - kappa) * g * np.sin(slope) * t
        x = (x0 + vx0 * t + kappa * (U0 * t + A * (1 - np.cos(f * t)) / f - u(0) * t)
             - 0.5 * (1 - kappa) * g * np.sin(slope) * t * t)
        wy = (vx - u(t)) / r
        assert np.max(np.abs(np.array([x, vx, wy]) - sol.sol(t))) < 1e-10
        show(f"t = {t}: x, y, vx, vy, wx, wy, wz", [x, y0 + vy0 * t, vx, vy0, -vy0 / r, wy, wz0])
        show(f"t = {t}: lambda", [m * kappa * (du(t) + g * np.sin(slope)), 0.0])


# ---- 3. suslov: a rigid body on so(3) with ω3 = 0, its attitude carried along -----------
# Euler's equations with the constraint torque λ e3: I ω̇ = (I ω) × ω + λ e3, ω3 = 0, with a
# full inertia tensor I (body axes not principal). sympy solves the three rows for ω̇1, ω̇2
# and λ. The attitude (body → space) follows q̇ = ½ q ⊗ (0, ω), integrated here as the
# rotation matrix, Ṙ = R [ω]×, and converted to a quaternion (qw > 0 near the identity).
def suslov():
    print("suslov")
    vals = dict(I11=2.0, I22=3.0, I33=4.0, I12=0.0, I13=0.5, I23=0.3)
    I11, I22, I33, I12, I13, I23 = sp.symbols("I11 I22 I33 I12 I13 I23")
    w1, w2, d1, d2, lam = sp.symbols("w1 w2 d1 d2 lambda")
    In = sp.Matrix([[I11, I12, I13], [I12, I22, I23], [I13, I23, I33]])
    w = sp.Matrix([w1, w2, 0])
    eqs = In * sp.Matrix([d1, d2, 0]) - (In * w).cross(w) - sp.Matrix([0, 0, lam])
    sol = sp.solve(list(eqs), [d1, d2, lam], dict=True)[0]
    f = sp.lambdify((w1, w2), [sol[d1].subs(vals), sol[d2].subs(vals)], "numpy")
    flam = sp.lambdify((w1, w2), sol[lam].subs(vals), "numpy")
    energy = sp.lambdify((w1, w2), (w.T * In * w)[0].subs(vals) / 2, "numpy")
    w0 = [1.0, 0.0]

    def rhs(t, s):  # s = (ω1, ω2, R row-major)
        R = s[2:].reshape(3, 3)
        W = np.array([[0, 0, s[1]], [0, 0, -s[0]], [-s[1], s[0], 0]])  # [ω]×, ω3 = 0
        return np.concatenate([f(s[0], s[1]), (R @ W).ravel()])

    def quaternion(R):
        qw = 0.5 * np.sqrt(1 + np.trace(R))
        return [qw, (R[2, 1] - R[1, 2]) / (4 * qw), (R[0, 2] - R[2, 0]) / (4 * qw),
                (R[1, 0] - R[0, 1]) / (4 * qw)]

    ivp = solve_ivp(rhs, (0, 3), w0 + list(np.eye(3).ravel()), **OPTS)
    print("  energy:", f"{energy(*w0):.17g}")
    for t in TIMES:
        s = ivp.sol(t)
        assert abs(energy(s[0], s[1]) - energy(*w0)) < 1e-11
        show(f"t = {t}: w1, w2, w3, qw, qx, qy, qz",
             [s[0], s[1], 0.0] + quaternion(s[2:].reshape(3, 3)))
        show(f"t = {t}: lambda", [flam(s[0], s[1])])
    # the long run: ω settles where I13 ω1 + I23 ω2 = 0
    far = solve_ivp(lambda t, s: f(*s), (0, 40), w0, **OPTS).y[:, -1]
    show("t = 40: w1, w2, I13 w1 + I23 w2", list(far) + [0.5 * far[0] + 0.3 * far[1]])


# ---- 4. knife_edge_on_incline: body-frame velocities, Hamel symbols from the anchor --------
# A knife edge (centre of mass over the contact point) on a plane inclined by alpha, x
# downhill: m ẍ = m g sin(alpha) + λ (−sin θ), m ÿ = λ cos θ, I θ̈ = 0 with the knife-edge
# constraint −ẋ sin θ + ẏ cos θ = 0. With θ = ω t and v = ẋ cos θ + ẏ sin θ: v̇ = g sin(alpha)
# cos θ and, from the sideways balance, λ = m g sin(alpha) sin θ + m ω v. For x = y = θ = 0,
# v = 0 at t = 0 (Bloch, Nonholonomic Mechanics and Control, §1.6):
#   x = g sin(alpha)/(2 ω²) sin²(ω t),  y = g sin(alpha)/(2 ω²) (ω t − ½ sin 2ω t),
#   v = g sin(alpha)/ω sin(ω t),  λ = 2 m g sin(alpha) sin(ω t).
# The Hamel symbols of X_v = cos θ ∂x + sin θ ∂y, X_u = −sin θ ∂x + cos θ ∂y, X_ω = ∂θ by sympy.
def knife_edge():
    print("knife_edge_on_incline")
    th, X, Y = sp.symbols("theta x y")
    cols = [sp.Matrix([sp.cos(th), sp.sin(th), 0]), sp.Matrix([-sp.sin(th), sp.cos(th), 0]),
            sp.Matrix([0, 0, 1])]
    q = sp.Matrix([X, Y, th])
    rho = sp.Matrix.hstack(*cols)
    for a in range(3):
        for b in range(a + 1, 3):
            br = cols[b].jacobian(q) * cols[a] - cols[a].jacobian(q) * cols[b]
            coeff = sp.simplify(rho.solve(br))
            print(f"  [X_{a}, X_{b}] = {list(coeff)} in (X_v, X_u, X_omega)")
    m, alpha, g, omega = 1.0, 0.3, 9.81, 2.0
    ga = g * np.sin(alpha)

    def rhs(t, s):  # classical coordinates x, y, θ with the multiplier eliminated
        x, y, t_, vx, vy, w = s
        v = vx * np.cos(t_) + vy * np.sin(t_)
        lam = m * ga * np.sin(t_) + m * w * v
        return [vx, vy, w, ga - lam * np.sin(t_) / m, lam * np.cos(t_) / m, 0.0]

    sol = solve_ivp(rhs, (0, 3), [0, 0, 0, 0, 0, omega], **OPTS)
    for t in TIMES:
        x = ga / (2 * omega**2) * np.sin(omega * t) ** 2
        y = ga / (2 * omega**2) * (omega * t - 0.5 * np.sin(2 * omega * t))
        v = ga / omega * np.sin(omega * t)
        s = sol.sol(t)
        assert np.max(np.abs(np.array([x, y, omega * t]) - s[:3])) < 1e-10
        show(f"t = {t}: x, y, theta, v", [x, y, omega * t, v])
        show(f"t = {t}: lambda", [2 * m * ga * np.sin(omega * t)])


# ---- 5. spherical_pendulum: Cartesian with g = |x|² − l² (holonomic) -----------------------
# Reference in spherical coordinates (x = l sin θ cos φ, y = l sin θ sin φ, z = −l cos θ):
# L = ½ m l² (θ̇² + sin²θ φ̇²) + m g l cos θ, Euler–Lagrange by sympy.
def pendulum():
    print("spherical_pendulum")
    m, l, g = 1.0, 1.0, 9.81
    t = sp.symbols("t")
    th, ph = sp.Function("theta")(t), sp.Function("phi")(t)
    L = m * l**2 / 2 * (th.diff(t) ** 2 + sp.sin(th) ** 2 * ph.diff(t) ** 2) + m * g * l * sp.cos(th)
    eqs = [sp.diff(L.diff(c.diff(t)), t) - L.diff(c) for c in (th, ph)]
    acc = sp.solve(eqs, [th.diff(t, 2), ph.diff(t, 2)], dict=True)[0]
    a, b, da, db = sp.symbols("a b da db")
    sub = {th.diff(t): da, ph.diff(t): db}
    sub2 = {th: a, ph: b}
    fa = sp.lambdify((a, b, da, db), acc[th.diff(t, 2)].subs(sub).subs(sub2), "numpy")
    fb = sp.lambdify((a, b, da, db), acc[ph.diff(t, 2)].subs(sub).subs(sub2), "numpy")
    # start: (0.6, 0, −0.8), velocity (0, 1, 0): θ = asin(0.6), φ = 0, θ̇ = 0, φ̇ = 1/(l sin θ)
    th0 = np.arcsin(0.6)
    ivp = solve_ivp(lambda t, s: [s[2], s[3], fa(*s), fb(*s)], (0, 3),
                    [th0, 0.0, 0.0, 1.0 / (l * np.sin(th0))], **OPTS)
    for tt in TIMES:
        A, B, dA, dB = ivp.sol(tt)
        pos = l * np.array([np.sin(A) * np.cos(B), np.sin(A) * np.sin(B), -np.cos(A)])
        vel = l * np.array([np.cos(A) * np.cos(B) * dA - np.sin(A) * np.sin(B) * dB,
                            np.cos(A) * np.sin(B) * dA + np.sin(A) * np.cos(B) * dB,
                            np.sin(A) * dA])
        show(f"t = {tt}: x, y, z, vx, vy, vz", list(pos) + list(vel))
        # tension: m v̇ = −m g e_z + 2 λ x and d/dt (x·v) = 0 give λ = m (g z − |v|²)/(2 l²)
        show(f"t = {tt}: lambda", [m * (g * pos[2] - vel @ vel) / (2 * l * l)])


if __name__ == "__main__":
    constant_speed()
    conveyor()
    suslov()
    knife_edge()
    pendulum()
