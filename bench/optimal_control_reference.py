#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reference solutions of the five bundled optimal-control problems with scipy's solve_bvp.

An independent check of `nhsim optimize` (bench/optimal_control.sh runs both side by side):
the models are written here by hand, not read from resources/systems/, and solved by
collocation instead of shooting. For each model the script

  * computes the structure functions from the anchor (the Lie brackets of its columns,
    [X_a, X_b] = C^c_ab X_c, at random points) and checks that they are the constants the
    model file states in `structure` (or derives, for the unicycle);
  * derives Pontryagin's equations (seed 000, (5.6)-(5.8)) with sympy,
        q' = rho(q) f(q, u),
        xi_j' = C^k_ij f^i xi_k + rho^a_j (dL/dq^a - xi_i df^i/dq^a),
        0 = dL/du - xi_i df^i/du,
    and eliminates u in closed form (all five costs are quadratic, all five f affine in u);
  * adds the running cost as a state, J' = L, J(0) = 0;
  * solves the boundary-value problem with scipy.integrate.solve_bvp from a guess near the
    extremal (the known one where there is a closed form, a hand-made curve otherwise), with
    the analytic Jacobians, at tol 1e-10 (the collocation residual) and bc_tol 1e-12.

Quaternion models impose the three vector components of the target attitude at T: the
fourth follows from |q| = 1, which the flow keeps.

Prints one line per model (or JSON lines with --json) and draws the extremals with --plot
FILE. Needs python3 with numpy, scipy, sympy (and matplotlib for --plot); the product never
needs Python.
"""

import argparse
import json
import math
import sys
import time

import numpy as np
import sympy as sp
from scipy.integrate import solve_bvp, solve_ivp

TOL = 1e-10
BC_TOL = 1e-12
MAX_NODES = 200000


# ---------------------------------------------------------------------------------------
# The models, by hand.


def quaternion_anchor(q, w, space_frame):
    """q' = 1/2 q (x) (0, w) (body frame) or 1/2 (0, w) (x) q (space frame), as columns."""
    qw, qx, qy, qz = q
    w1, w2, w3 = w
    if space_frame:
        rates = [
            -qx * w1 - qy * w2 - qz * w3,
            qw * w1 + qz * w2 - qy * w3,
            -qz * w1 + qw * w2 + qx * w3,
            qy * w1 - qx * w2 + qw * w3,
        ]
    else:
        rates = [
            -qx * w1 - qy * w2 - qz * w3,
            qw * w1 - qz * w2 + qy * w3,
            qz * w1 + qw * w2 - qx * w3,
            -qy * w1 + qx * w2 + qw * w3,
        ]
    return [sp.Rational(1, 2) * r for r in rates]


def anchor_matrix(rates, velocities):
    """rho^a_i: the coefficient of velocity i in q^a' (the anchor is linear in them)."""
    return sp.Matrix([[sp.diff(r, v) for v in velocities] for r in rates])


def brockett():
    x, y, z = sp.symbols("x y z")
    u1, u2 = sp.symbols("u1 u2")
    vel = sp.symbols("vx vy vz")
    return dict(
        name="brockett_integrator",
        q=[x, y, z],
        v=list(vel),
        u=[u1, u2],
        rho=sp.eye(3),
        f=[u1, u2, x * u2 - y * u1],
        L=(u1 * u1 + u2 * u2) / 2,
        params={},
        structure={},
        T=1.0,
        q0=[0, 0, 0],
        target={"x": 0, "y": 0, "z": 1},
        closed_form=math.pi,
        guess=brockett_guess,
    )


def double_integrator():
    x, v = sp.symbols("x v")
    (u,) = sp.symbols("u", seq=True)
    return dict(
        name="double_integrator",
        q=[x, v],
        v=list(sp.symbols("vx vv")),
        u=[u],
        rho=sp.eye(2),
        f=[v, u],
        L=u * u / 2,
        params={},
        structure={},
        T=1.0,
        q0=[0, 0],
        target={"x": 1, "v": 0},
        closed_form=6.0,
        guess=double_integrator_guess,
    )


def rigid_body_control():
    q = sp.symbols("qw qx qy qz")
    w = sp.symbols("w1 w2 w3")
    u = sp.symbols("u1 u2 u3")
    i1, i2, i3 = sp.symbols("I1 I2 I3")
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    half = 0.5
    return dict(
        name="rigid_body_control",
        q=list(q),
        v=list(w),
        u=list(u),
        rho=anchor_matrix(quaternion_anchor(q, w, space_frame=False), w),
        f=list(u),
        L=(i1 * u[0] ** 2 + i2 * u[1] ** 2 + i3 * u[2] ** 2) / 2,
        params={i1: 1.0, i2: 1.0, i3: 1.0},
        # body frame: [e_i, e_j] = eps_ijk e_k
        structure={("w1", "w2"): {"w3": 1}, ("w2", "w3"): {"w1": 1}, ("w1", "w3"): {"w2": -1}},
        T=1.0,
        q0=[1, 0, 0, 0],
        target={
            "qx": math.sin(half) * axis[0],
            "qy": math.sin(half) * axis[1],
            "qz": math.sin(half) * axis[2],
        },
        target_shown={"qw": math.cos(half)},
        closed_form=0.5,
        guess=rigid_body_guess,
    )


def unicycle():
    x, y, th = sp.symbols("x y theta")
    v1, v2, w = sp.symbols("v1 v2 w")
    u1, u2 = sp.symbols("u1 u2")
    c = sp.symbols("c")
    rates = [sp.cos(th) * v1 - sp.sin(th) * v2, sp.sin(th) * v1 + sp.cos(th) * v2, w]
    return dict(
        name="unicycle",
        q=[x, y, th],
        v=[v1, v2, w],
        u=[u1, u2],
        rho=anchor_matrix(rates, [v1, v2, w]),
        f=[u1, sp.Integer(0), u2],
        L=(u1 * u1 + c * u2 * u2) / 2,
        params={c: 0.1},
        # the Hamel symbols of the anchor (the file leaves them to be derived)
        structure={("w", "v1"): {"v2": 1}, ("w", "v2"): {"v1": -1}},
        T=1.0,
        q0=[0, 0, 0],
        target={"x": 0, "y": 1, "theta": 0},
        closed_form=None,
        guess=unicycle_guess,
    )


def plate_ball():
    x, y = sp.symbols("x y")
    q = sp.symbols("qw qx qy qz")
    vx, vy = sp.symbols("vx vy")
    w = sp.symbols("w1 w2 w3")
    u1, u2 = sp.symbols("u1 u2")
    r = sp.symbols("r")
    rates = [vx, vy] + quaternion_anchor(q, w, space_frame=True)
    phi = math.pi / 2
    return dict(
        name="plate_ball",
        q=[x, y] + list(q),
        v=[vx, vy] + list(w),
        u=[u1, u2],
        rho=anchor_matrix(rates, [vx, vy] + list(w)),
        f=[u1, u2, -u2 / r, u1 / r, sp.Integer(0)],
        L=(u1 * u1 + u2 * u2) / 2,
        params={r: PLATE_BALL_RADIUS},
        # space frame: [e_a, e_b] = -eps_abc e_c
        structure={("w1", "w2"): {"w3": -1}, ("w2", "w3"): {"w1": -1}, ("w1", "w3"): {"w2": 1}},
        T=1.0,
        q0=[0, 0, 1, 0, 0, 0],
        target={"x": 0, "y": 0, "qx": 0, "qy": 0, "qz": math.sin(phi / 2)},
        target_shown={"qw": math.cos(phi / 2)},
        closed_form=None,
        guess=plate_ball_guess,
    )


PLATE_BALL_RADIUS = 0.25


# ---------------------------------------------------------------------------------------
# Structure functions from the anchor.


def bracket_of_columns(rho, q):
    """[X_a, X_b]^k = X_a^j d_j X_b^k - X_b^j d_j X_a^k for the columns X of rho."""
    m = rho.shape[1]
    cols = [rho[:, a] for a in range(m)]
    jac = [c.jacobian(q) for c in cols]
    return {(a, b): jac[b] * cols[a] - jac[a] * cols[b] for a in range(m) for b in range(a + 1, m)}


def random_point(model, rng):
    values = rng.normal(size=len(model["q"]))
    names = [str(s) for s in model["q"]]
    if "qw" in names:  # a unit quaternion
        k = names.index("qw")
        values[k : k + 4] /= np.linalg.norm(values[k : k + 4])
    return dict(zip(model["q"], values))


def check_structure(model, rng):
    """The anchor's brackets, in its columns, are the stated constants (max deviation)."""
    q, rho, names = model["q"], model["rho"], [str(v) for v in model["v"]]
    brackets = bracket_of_columns(rho, q)
    stated = structure_tensor(model)
    worst = 0.0
    for _ in range(5):
        at = random_point(model, rng)
        r = np.array(rho.subs(at).evalf(), dtype=float)
        for (a, b), br in brackets.items():
            value = np.array(br.subs(at).evalf(), dtype=float).ravel()
            coeffs, *_ = np.linalg.lstsq(r, value, rcond=None)
            worst = max(worst, np.max(np.abs(r @ coeffs - value)))  # in the span
            worst = max(worst, np.max(np.abs(coeffs - stated[:, a, b])))
    if worst > 1e-12:
        raise SystemExit(f"{model['name']}: the anchor's brackets differ from the structure "
                         f"by {worst:g} ({names})")
    return worst


def structure_tensor(model):
    """C[k, i, j] with [e_i, e_j] = C^k_ij e_k from the model's bracket table."""
    names = [str(v) for v in model["v"]]
    m = len(names)
    c = np.zeros((m, m, m))
    for (a, b), result in model["structure"].items():
        i, j = names.index(a), names.index(b)
        for name, value in result.items():
            k = names.index(name)
            c[k, i, j] = value
            c[k, j, i] = -value
    return c


# ---------------------------------------------------------------------------------------
# Pontryagin's equations.


def pontryagin(model):
    """The right-hand side of (q, xi, J)' with u eliminated, its Jacobian, u(q, xi), L."""
    q, u, rho = model["q"], model["u"], model["rho"]
    f = sp.Matrix(model["f"])
    L = model["L"]
    m = len(model["v"])
    xi = sp.Matrix(sp.symbols(" ".join(f"xi_{v}" for v in model["v"]), seq=True))
    stationary = [sp.diff(L, uk) - (xi.T * f.diff(uk))[0] for uk in u]
    solved = sp.solve(stationary, u, dict=True)
    if len(solved) != 1:
        raise SystemExit(f"{model['name']}: dH/du = 0 has no unique solution")
    u_of = {uk: sp.simplify(solved[0][uk]) for uk in u}
    C = structure_tensor(model)
    qdot = rho * f
    xidot = []
    for j in range(m):
        lie = sum(C[k, i, j] * f[i] * xi[k] for i in range(m) for k in range(m))
        force = sum(rho[a, j] * (sp.diff(L, q[a]) - (xi.T * f.diff(q[a]))[0])
                    for a in range(len(q)))
        xidot.append(lie + force)
    state = list(q) + list(xi)
    rhs = sp.Matrix(list(qdot) + xidot + [L]).subs(u_of).subs(model["params"])
    state_j = state + [sp.Symbol("J")]
    jac = rhs.jacobian(state_j)
    u_expr = sp.Matrix([u_of[uk] for uk in u]).subs(model["params"])
    L_expr = sp.sympify(L).subs(u_of).subs(model["params"])
    return state_j, rhs, jac, u_expr, L_expr


def vectorised(expressions, symbols):
    """A function of (n, k) columns giving an array of the expressions' shape by k."""
    flat = list(expressions)
    shape = (len(flat),)
    if hasattr(expressions, "shape") and expressions.shape[1] > 1:
        shape = expressions.shape
    fn = sp.lambdify(symbols, flat, modules="numpy", cse=True)

    def evaluate(y):
        k = y.shape[1]
        values = fn(*y)
        out = np.empty((len(flat), k))
        for row, value in enumerate(values):
            out[row] = np.broadcast_to(value, (k,))
        return out.reshape(tuple(shape) + (k,))

    return evaluate


# ---------------------------------------------------------------------------------------
# Guesses near the extremals.


def brockett_guess(model, t):
    T = model["T"]
    omega = 2 * math.pi / T
    R = math.sqrt(model["target"]["z"] / (2 * math.pi))  # a circle of area z/2
    x, y = R * np.sin(omega * t), R * (1 - np.cos(omega * t))
    z = R * R * (omega * t - np.sin(omega * t))
    u1, u2 = R * omega * np.cos(omega * t), R * omega * np.sin(omega * t)
    lam = omega / 2  # xi_vz
    return [x, y, z, u1 + lam * y, u2 - lam * x, np.full_like(t, lam)]


def double_integrator_guess(model, t):
    T, d = model["T"], model["target"]["x"]
    s = t / T
    x = d * (3 * s**2 - 2 * s**3)
    v = 6 * d / T * (s - s**2)
    u = 6 * d / T**2 * (1 - 2 * s)
    return [x, v, np.full_like(t, 12 * d / T**3), u]


def rigid_body_guess(model, t):
    T = model["T"]
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    theta = 1.0
    half = theta * t / (2 * T)
    omega = theta / T * axis
    return [np.cos(half)] + [a * np.sin(half) for a in axis] + [np.full_like(t, w) for w in omega]


def unicycle_guess(model, t):
    # Two mirror-image S-turns are the candidates: forward while turning left then right
    # (theta = A sin(2 pi s)) with the speed reversed halfway would return x to 0; here a
    # loop, theta = A sin(pi s) with A the first zero of J0 (x returns to 0 at constant speed).
    T = model["T"]
    s = t / T
    A = 2.404825557695773
    c = model["params"][sp.Symbol("c")]
    theta = A * np.sin(math.pi * s)
    w = A * math.pi / T * np.cos(math.pi * s)
    speed = model["target"]["y"] / (T * 0.9712)  # the Struve integral of sin(A sin(pi s))
    x = np.concatenate([[0.0], np.cumsum(np.diff(t) * speed * np.cos(theta[:-1]))])
    y = np.concatenate([[0.0], np.cumsum(np.diff(t) * speed * np.sin(theta[:-1]))])
    return [x, y, theta, np.full_like(t, speed), np.zeros_like(t), c * w]


def plate_ball_guess(model, t):
    # A circle of radius 0.8 r traversed once clockwise at constant speed: rolling around it
    # turns the ball by about pi/2 about the vertical (and a little about a horizontal axis,
    # which the solve removes). The attitude is carried along the circle; the costates are
    # those of a ball without rotational cost (xi_v = u, xi_w = 0).
    T = model["T"]
    r = model["params"][sp.Symbol("r")]
    R, omega = 0.8 * r, 2 * math.pi / T
    x, y = R * np.sin(omega * t), -R * (1 - np.cos(omega * t))
    u1, u2 = R * omega * np.cos(omega * t), -R * omega * np.sin(omega * t)

    def attitude_rate(time_, q):
        w = (R * omega * math.sin(omega * time_) / r, R * omega * math.cos(omega * time_) / r, 0)
        return [float(e) for e in quaternion_anchor(q, w, space_frame=True)]

    q = solve_ivp(attitude_rate, (0, T), [1, 0, 0, 0], t_eval=t, rtol=1e-10, atol=1e-12).y
    zero = np.zeros_like(t)
    return [x, y] + list(q) + [u1, u2, zero, zero, zero]


# ---------------------------------------------------------------------------------------
# The boundary-value problem.


def solve(model, nodes=101, guess=None):
    state, rhs, jac, u_expr, L_expr = pontryagin(model)
    n = len(model["q"])
    names = [str(s) for s in model["q"]]
    rhs_of, jac_of = vectorised(rhs, state), vectorised(jac, state)

    def fun(_, y):
        return rhs_of(y)

    def fun_jac(_, y):
        return jac_of(y)
    targets = [(names.index(name), value) for name, value in model["target"].items()]
    q0 = np.array(model["q0"], dtype=float)

    def bc(ya, yb):
        start = np.concatenate([ya[:n] - q0, [ya[-1]]])
        end = np.array([yb[k] - value for k, value in targets])
        return np.concatenate([start, end])

    def bc_jac(ya, yb):
        size = len(ya)
        da, db = np.zeros((size, size)), np.zeros((size, size))
        for k in range(n):
            da[k, k] = 1.0
        da[n, size - 1] = 1.0
        for row, (k, _) in enumerate(targets):
            db[n + 1 + row, k] = 1.0
        return da, db

    t = np.linspace(0.0, model["T"], nodes)
    y = guess if guess is not None else np.array(model["guess"](model, t) + [np.zeros_like(t)])
    if y.shape[1] != nodes:
        t = np.linspace(0.0, model["T"], y.shape[1])
    y[-1] = cumulative_cost(model, t, y, L_expr, state)
    start = time.perf_counter()
    sol = solve_bvp(fun, bc, t, y, fun_jac=fun_jac, bc_jac=bc_jac, tol=TOL,
                    max_nodes=MAX_NODES, bc_tol=BC_TOL)
    seconds = time.perf_counter() - start
    return sol, seconds, state, u_expr


def cumulative_cost(model, t, y, L_expr, state):
    """The running integral of L along a guess (trapezoidal), to start J(t) near its value."""
    L = vectorised(sp.Matrix([L_expr]), state)(y)[0]
    return np.concatenate([[0.0], np.cumsum(np.diff(t) * (L[1:] + L[:-1]) / 2)])


MODELS = [brockett, double_integrator, rigid_body_control, unicycle, plate_ball]


def shooting_check(model, sol, state):
    """Integrates (q, xi, J) from the solution's start with DOP853 at rtol 1e-13: the cost
    and the largest miss of the targets at T, an initial-value check of the collocation."""
    rhs_of = vectorised(pontryagin(model)[1], state)
    flow = solve_ivp(lambda _, y: rhs_of(y[:, None])[:, 0], (0.0, model["T"]), sol.y[:, 0],
                     method="DOP853", rtol=1e-13, atol=1e-14)
    end = flow.y[:, -1]
    names = [str(s) for s in state]
    wanted = {**model["target"], **model.get("target_shown", {})}
    return float(end[-1]), max(abs(end[names.index(k)] - v) for k, v in wanted.items())


def report(model, sol, seconds, state, structure_error):
    names = [str(s) for s in state]
    ivp_cost, ivp_miss = shooting_check(model, sol, state)
    n = len(model["q"])
    costate0 = {names[k]: float(sol.y[k, 0]) for k in range(n, len(names) - 1)}
    final = {names[k]: float(sol.y[k, -1]) for k in range(n)}
    return {
        "system": model["name"],
        "t_end": model["T"],
        "targets": {**model["target"], **model.get("target_shown", {})},
        "converged": bool(sol.success),
        "message": sol.message,
        "cost": float(sol.y[-1, -1]),
        "closed_form": model["closed_form"],
        "solve_seconds": seconds,
        "iterations": int(sol.niter),
        "nodes": int(sol.x.size),
        "max_residual": float(np.max(sol.rms_residuals)),
        "costate0": costate0,
        "final": final,
        "structure_error": structure_error,
        "ivp_cost": ivp_cost,
        "ivp_miss": ivp_miss,
    }


def print_line(r):
    targets = ", ".join(f"{k}={v:.6g}" for k, v in r["targets"].items())
    closed = "" if r["closed_form"] is None else f"  closed form {r['closed_form']:.15g}" \
        f" (|dJ|/J {abs(r['cost'] - r['closed_form']) / r['closed_form']:.1e})"
    print(f"{r['system']:20s} T={r['t_end']:g}  target {targets}")
    print(f"{'':20s} J = {r['cost']:.15g}{closed}")
    print(f"{'':20s} {'converged' if r['converged'] else 'NOT converged: ' + r['message']}"
          f" in {r['solve_seconds']:.3f} s, {r['iterations']} iterations, {r['nodes']} nodes,"
          f" max rms residual {r['max_residual']:.1e}")
    print(f"{'':20s} from its costate0 by DOP853: J = {r['ivp_cost']:.15g}, target missed by"
          f" {r['ivp_miss']:.1e}; anchor brackets = structure to {r['structure_error']:.0e}")


def plot(solutions, path):
    """One panel per model: the extremal scipy found (paths in the plane, or components)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(13, 8.2))
    panels = {
        "brockett_integrator": plot_brockett,
        "double_integrator": plot_double_integrator,
        "rigid_body_control": plot_rigid_body,
        "unicycle": plot_unicycle,
        "plate_ball": plot_plate_ball,
    }
    for ax, (model, sol, state, u_expr) in zip(axes.flat, solutions):
        t = np.linspace(0.0, model["T"], 401)
        y = sol.sol(t)
        u = vectorised(u_expr, state)(y)
        panels[model["name"]](ax, model, t, y, u)
        ax.set_title(f"{model['name']}: J = {sol.y[-1, -1]:.6g}", fontsize=10)
        ax.grid(alpha=0.3)
    plot_plate_ball_attitude(axes.flat[5], solutions)
    fig.suptitle("Extremals by scipy.integrate.solve_bvp (bench/optimal_control_reference.py)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def plot_brockett(ax, model, t, y, u):
    ax.plot(y[0], y[1])
    ax.plot(y[0, :1], y[1, :1], "o")
    ax.set_aspect("equal")
    ax.set_xlabel("x [m] (z = twice the area swept: 1 at the end)")
    ax.set_ylabel("y [m]")


def plot_double_integrator(ax, model, t, y, u):
    d, T = model["target"]["x"], model["T"]
    ax.plot(t, u[0], label="u (solve_bvp)")
    ax.plot(t, 6 * d / T**2 * (1 - 2 * t / T), ":", lw=3, label="u = (6d/T²)(1 − 2t/T)")
    ax.plot(t, y[0], label="x [m]")
    ax.plot(t, y[1], label="v [m/s]")
    ax.set_xlabel("t [s]")
    ax.legend(fontsize=8)


def plot_rigid_body(ax, model, t, y, u):
    for k, name in enumerate(["qw", "qx", "qy", "qz"]):
        ax.plot(t, y[k], label=name)
    for k in range(3):
        ax.plot(t, u[k], "--", label=f"u{k + 1} [rad/s]")
    ax.set_xlabel("t [s]")
    ax.legend(fontsize=8, ncol=2)


def plot_unicycle(ax, model, t, y, u):
    ax.plot(y[0], y[1])
    for k in range(0, len(t), 50):
        ax.arrow(y[0, k], y[1, k], 0.08 * math.cos(y[2, k]), 0.08 * math.sin(y[2, k]),
                 head_width=0.03, color="C1")
    ax.set_aspect("equal")
    ax.set_xlim(-0.45, 0.45)
    ax.set_xlabel("x [m] (arrows: heading every 0.125 s)")
    ax.set_ylabel("y [m]")


def plot_plate_ball(ax, model, t, y, u):
    ax.plot(y[0], y[1])
    ax.plot(y[0, :1], y[1, :1], "o")
    ax.set_aspect("equal")
    ax.set_xlabel("centre x [m]")
    ax.set_ylabel("centre y [m]")


def plot_plate_ball_attitude(ax, solutions):
    for model, sol, _, _ in solutions:
        if model["name"] != "plate_ball":
            continue
        t = np.linspace(0.0, model["T"], 401)
        y = sol.sol(t)
        for k, name in enumerate(["qw", "qx", "qy", "qz"]):
            ax.plot(t, y[2 + k], label=name)
        ax.set_title("plate_ball: attitude", fontsize=10)
        ax.set_xlabel("t [s]")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)


def nhsim_arguments(model):
    """The model's problem for `nhsim optimize`: name, --t-end, the targets (a quaternion with
    all four components), the parameters."""
    targets = {**model["target"], **model.get("target_shown", {})}
    words = [model["name"], "--t-end", repr(model["T"])]
    for name in [str(q) for q in model["q"]]:
        if name in targets:
            words += ["--target", f"{name}={targets[name]!r}"]
    for symbol, value in model["params"].items():
        words += ["--set", f"{symbol}={value!r}"]
    return " ".join(words)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="*", help="model names (default: all five)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--plot", metavar="FILE", help="draw the extremals into FILE")
    parser.add_argument("--problems", action="store_true",
                        help="print each problem as `nhsim optimize` arguments and stop")
    args = parser.parse_args()
    if args.problems:
        for make in MODELS:
            print(nhsim_arguments(make()))
        return 0
    rng = np.random.default_rng(1)
    results, solutions = [], []
    for make in MODELS:
        model = make()
        if args.models and model["name"] not in args.models:
            continue
        structure_error = check_structure(model, rng)
        sol, seconds, state, u_expr = solve(model)
        r = report(model, sol, seconds, state, structure_error)
        results.append(r)
        solutions.append((model, sol, state, u_expr))
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            print_line(r)
    if args.plot:
        plot(solutions, args.plot)
    return 0 if all(r["converged"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
