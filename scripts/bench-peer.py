#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Whipple bicycle against a PyDy-style peer (a benchmark helper, not used by the product
or its tests, never run by CI; Debian's python3 with python3-sympy, python3-scipy, numpy).

The peer: the nonlinear bicycle of core/systems/whipple_bicycle.cpp (same parameters, the
benchmark values of Meijaard et al. 2007; same coordinates and velocities, in nhsim's state
order) derived with sympy.physics.mechanics as a PyDy user would: KanesMethod with the four
rolling constraints and the time derivative of the front contact's height as velocity
constraints (dependent speeds vx, vy, front_wheel_rate, yaw_rate, pitch_rate), the height
itself as configuration constraint (dependent coordinate pitch), gravity on the four mass
centres. Its mass matrix and forcing (the three dynamic rows and the five acceleration
constraints) are lambdified together with common-subexpression elimination (the parameters
stay arguments, as PyDy's code generators keep them), and scipy's DOP853 integrates
q' = rho(u), M(q) u' = F(q, u) at rtol = atol = 1e-10 from nhsim's default start (upright,
v = 4.6 m/s, lean rate 0.5 rad/s; the dependent speeds from the constraints).

nhsim: `nhsim run whipple_bicycle --integrator dop853 --rtol 1e-10 --atol 1e-10 --t-end T
--dt-out T --init v=4.6 --init lean_rate=0.5 --init steer_rate=0 --quiet --out CSV`, the whole
process timed
(median of --repeat runs); the integration alone is that median minus the median of the same
command at --t-end 0 (start-up, taping, the initial state, writing the CSV), since nhsim does
not report its integration time. The final row of the CSV is compared with the peer's state.

Usage: scripts/bench-peer.py [--nhsim PATH] [--repeat N] [--peer-repeat N] [--t-end T ...]
"""
import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# The defaults of core/systems/whipple_bicycle.cpp (Meijaard et al. 2007, Table 1).
PARAMETERS = {
    "w": 1.02, "c": 0.08, "lambda": np.pi / 10, "g": 9.81,
    "rR": 0.3, "mR": 2.0, "IRxx": 0.0603, "IRyy": 0.12,
    "xB": 0.3, "zB": -0.9, "mB": 85.0,
    "IBxx": 9.2, "IByy": 11.0, "IBzz": 2.8, "IBxz": 2.4,
    "xH": 0.9, "zH": -0.7, "mH": 4.0,
    "IHxx": 0.05892, "IHyy": 0.06, "IHzz": 0.00708, "IHxz": -0.00756,
    "rF": 0.35, "mF": 3.0, "IFxx": 0.1405, "IFyy": 0.28,
}
COORDINATES = ["x", "y", "yaw", "lean", "pitch", "steer", "rear_wheel", "front_wheel"]
SPEEDS = ["v", "lean_rate", "steer_rate", "yaw_rate", "pitch_rate", "front_wheel_rate", "vx",
          "vy"]
STATE = COORDINATES + SPEEDS  # nhsim's state order
START = {"v": 4.6, "lean_rate": 0.5, "steer_rate": 0.0}  # everything else 0 or dependent


def frames_and_points(q, p):
    """Frames and points of the model, positions from the origin O of the ground frame N
    (x forward, y right, z down; z of a point is minus its height)."""
    N = me.ReferenceFrame("N")
    heading = N.orientnew("A", "Body", (q["yaw"], q["lean"], 0), "ZXY")
    B = heading.orientnew("B", "Axis", (q["pitch"], heading.y))
    axis = sm.sin(p["lambda"]) * B.x + sm.cos(p["lambda"]) * B.z
    H = B.orientnew("H", "Axis", (q["steer"], axis))
    R = B.orientnew("R", "Axis", (q["rear_wheel"], B.y))
    F = H.orientnew("F", "Axis", (q["front_wheel"], H.y))
    O = me.Point("O")
    O.set_vel(N, 0)
    rear_contact = O.locatenew("P_R", q["x"] * N.x + q["y"] * N.y)
    rear_centre = rear_contact.locatenew("C_R", -p["rR"] * heading.z)
    rear_mass = rear_centre.locatenew("G_B", p["xB"] * B.x + (p["zB"] + p["rR"]) * B.z)
    steer_point = rear_centre.locatenew("A", (p["w"] + p["c"]) * B.x + p["rR"] * B.z)
    front_centre = steer_point.locatenew("C_F", -p["c"] * H.x - p["rF"] * H.z)
    front_mass = steer_point.locatenew(
        "G_H", (p["xH"] - p["w"] - p["c"]) * H.x + p["zH"] * H.z)
    # The front wheel's lowest point: along the wheel plane's most downward unit vector,
    # proportional to N.z - nz n with n = H.y the front axle.
    nz = H.y.dot(N.z)
    down = (N.z - nz * H.y) / sm.sqrt(1 - nz**2)
    front_contact = front_centre.locatenew("P_F", p["rF"] * down)
    return N, (B, H, R, F), (O, rear_centre, rear_mass, front_centre, front_mass, front_contact)


def derive():
    """KanesMethod on the bicycle; returns the Kane object, the symbols and the constraints."""
    t = me.dynamicsymbols._t
    q = {name: me.dynamicsymbols(name) for name in COORDINATES}
    u = {name: me.dynamicsymbols(name) for name in SPEEDS}
    p = {name: sm.Symbol(name) for name in PARAMETERS}
    N, (B, H, R, F), (O, CR, GB, CF, GH, PF) = frames_and_points(q, p)
    rates = {"x": u["vx"], "y": u["vy"], "yaw": u["yaw_rate"], "lean": u["lean_rate"],
             "pitch": u["pitch_rate"], "steer": u["steer_rate"],
             "rear_wheel": -u["v"] / p["rR"] - u["pitch_rate"],
             "front_wheel": u["front_wheel_rate"]}
    kinematics = [q[name].diff(t) - rates[name] for name in COORDINATES]
    qdot_to_u = {q[name].diff(t): rates[name] for name in COORDINATES}
    for point in (CR, GB, CF, GH):
        point.set_vel(N, point.pos_from(O).dt(N).subs(qdot_to_u))
    for frame in (B, H, R, F):
        frame.set_ang_vel(N, frame.ang_vel_in(N).subs(qdot_to_u))
    # The front wheel's material point at the contact moves with the wheel.
    slip = CF.vel(N) + F.ang_vel_in(N).cross(PF.pos_from(CF))
    height = PF.pos_from(O).dot(N.z)
    velocity_constraints = [
        u["vx"] - u["v"] * sm.cos(q["yaw"]),
        u["vy"] - u["v"] * sm.sin(q["yaw"]),
        slip.dot(N.x),
        slip.dot(N.y),
        height.diff(t).subs(qdot_to_u),
    ]

    def inertia(frame, xx, yy, zz, xz):
        return me.inertia(frame, xx, yy, zz, 0, 0, xz)

    bodies = [
        me.RigidBody("B", GB, B, p["mB"],
                     (inertia(B, p["IBxx"], p["IByy"], p["IBzz"], p["IBxz"]), GB)),
        me.RigidBody("H", GH, H, p["mH"],
                     (inertia(H, p["IHxx"], p["IHyy"], p["IHzz"], p["IHxz"]), GH)),
        me.RigidBody("R", CR, R, p["mR"], (inertia(R, p["IRxx"], p["IRyy"], p["IRxx"], 0), CR)),
        me.RigidBody("F", CF, F, p["mF"], (inertia(F, p["IFxx"], p["IFyy"], p["IFxx"], 0), CF)),
    ]
    gravity = [(body.masscenter, body.mass * p["g"] * N.z) for body in bodies]
    q_ind = [q[name] for name in COORDINATES if name != "pitch"]
    u_ind = [u[name] for name in ("v", "lean_rate", "steer_rate")]
    # Ordered so that sympy's LU solve of the constraints (pivots in this order, chosen only
    # by their being zero as expressions) divides by coefficients that are not zero upright:
    # the front slip along x by the front wheel's rate, along y by the yaw rate.
    u_dep = [u[name] for name in ("vx", "vy", "front_wheel_rate", "yaw_rate", "pitch_rate")]
    kane = me.KanesMethod(N, q_ind=q_ind, u_ind=u_ind, kd_eqs=kinematics,
                          q_dependent=[q["pitch"]], configuration_constraints=[height],
                          u_dependent=u_dep, velocity_constraints=velocity_constraints)
    kane.kanes_equations(bodies, gravity)
    return kane, q, u, p, velocity_constraints


def lambdify(kane, q, u, p, velocity_constraints):
    """Numerical functions: (M, F) of the dynamic rows and acceleration constraints in kane.u's
    order, q' from u, and the velocity constraints' matrix in u (for the dependent speeds)."""
    qs = [q[name] for name in COORDINATES]
    us = [u[name] for name in SPEEDS]
    ps = [p[name] for name in PARAMETERS]
    dynamics = sm.lambdify((qs, us, ps), [kane.mass_matrix, kane.forcing], cse=True,
                           modules="numpy")
    t = me.dynamicsymbols._t
    kinematic_map = kane.kindiffdict()
    qdot = sm.lambdify((qs, us, ps), [kinematic_map[s.diff(t)] for s in qs], modules="numpy")
    constraint_matrix = sm.Matrix(velocity_constraints).jacobian(us)
    constraints = sm.lambdify((qs, ps), constraint_matrix, cse=True, modules="numpy")
    order = [SPEEDS.index(str(s).replace("(t)", "")) for s in kane.u]
    return dynamics, qdot, constraints, order


def peer_start(constraints):
    """nhsim's default start: coordinates 0, v, lean_rate, steer_rate given, the other speeds
    from the velocity constraints."""
    params = list(PARAMETERS.values())
    q0 = np.zeros(len(COORDINATES))
    A = np.asarray(constraints(q0, params), dtype=float)
    given = [SPEEDS.index(name) for name in START]
    dependent = [i for i in range(len(SPEEDS)) if i not in given]
    u0 = np.zeros(len(SPEEDS))
    u0[given] = list(START.values())
    u0[dependent] = np.linalg.solve(A[:, dependent], -A[:, given] @ u0[given])
    return np.concatenate([q0, u0])


def make_rhs(dynamics, qdot, order):
    """The peer's right-hand side in nhsim's state order: q' from the kinematic equations, u'
    from a dense solve with the mass matrix (numpy)."""
    params = list(PARAMETERS.values())
    n = len(COORDINATES)
    inverse = np.argsort(order)  # kane.u's position of each of nhsim's speeds

    def rhs(_t, state):
        q, u = state[:n], state[n:]
        M, F = dynamics(q, u, params)
        accel = np.linalg.solve(np.asarray(M, dtype=float), np.asarray(F, dtype=float).ravel())
        return np.concatenate([np.asarray(qdot(q, u, params), dtype=float), accel[inverse]])

    return rhs


def median_times(run, repeat):
    """Median wall time, median CPU time and the last result of `repeat` calls of run(), which
    returns (result, CPU seconds)."""
    walls, cpus = [], []
    for _ in range(repeat):
        begin = time.perf_counter()
        result, cpu = run()
        walls.append(time.perf_counter() - begin)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus), result


def run_peer(rhs, start, t_end, repeat):
    """scipy's DOP853 from `start` to t_end: median wall and CPU time of `repeat` runs, the final
    state, the accepted steps and the right-hand-side evaluations."""
    def once():
        begin = time.process_time()
        sol = solve_ivp(rhs, (0.0, t_end), start, method="DOP853", rtol=1e-10, atol=1e-10)
        cpu = time.process_time() - begin
        if not sol.success:
            sys.exit(f"bench-peer: scipy failed at t = {sol.t[-1]}: {sol.message}")
        return sol, cpu

    wall, cpu, sol = median_times(once, repeat)
    return wall, cpu, sol.y[:, -1], len(sol.t) - 1, sol.nfev


def nhsim_command(nhsim, t_end, out):
    return [nhsim, "run", "whipple_bicycle", "--integrator", "dop853", "--rtol", "1e-10",
            "--atol", "1e-10", "--t-end", f"{t_end:g}", "--dt-out", f"{max(t_end, 1.0):g}",
            "--init", f"v={START['v']}", "--init", f"lean_rate={START['lean_rate']}",
            "--init", f"steer_rate={START['steer_rate']}", "--quiet", "--out", out]


def run_nhsim(nhsim, t_end, repeat):
    """The whole nhsim process: median wall time (perf_counter around subprocess.run) and
    median CPU time (user + system of the child) over `repeat` runs, the final row of its CSV
    in nhsim's state order, and the command."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "run.csv")
        command = nhsim_command(nhsim, t_end, out)

        def once():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return None, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        wall, cpu, _ = median_times(once, repeat)
        with open(out, newline="") as f:
            rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    header, last = rows[0], rows[-1]
    final = np.array([float(last[header.index(name)]) for name in STATE])
    shown = " ".join(os.path.relpath(part, REPO) if part == nhsim else part
                     for part in command[:-1])
    return wall, cpu, final, shown + " CSV"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nhsim", default=os.path.join(REPO, "build/release/bin/nhsim"),
                        help="the nhsim executable (default build/release/bin/nhsim)")
    parser.add_argument("--repeat", type=int, default=11, help="nhsim runs per figure")
    parser.add_argument("--peer-repeat", type=int, default=3, help="scipy runs per figure")
    parser.add_argument("--t-end", type=float, nargs="+", default=[10.0, 100.0])
    args = parser.parse_args()
    if not (os.path.isfile(args.nhsim) and os.access(args.nhsim, os.X_OK)):
        sys.exit(f"bench-peer: no nhsim executable at {args.nhsim} "
                 "(build it: ./scripts/build.sh nhsim, or pass --nhsim PATH)")
    return args


def main():
    args = parse_arguments()
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {os.cpu_count()} CPUs")
    begin = time.perf_counter()
    kane, q, u, p, velocity_constraints = derive()
    derivation = time.perf_counter() - begin
    begin = time.perf_counter()
    dynamics, qdot, constraints, order = lambdify(kane, q, u, p, velocity_constraints)
    lambdification = time.perf_counter() - begin
    rhs = make_rhs(dynamics, qdot, order)
    start = peer_start(constraints)
    print(f"peer: sympy derivation (KanesMethod) {derivation:.2f} s, "
          f"lambdify (cse=True) {lambdification:.2f} s")
    base = run_nhsim(args.nhsim, 0.0, args.repeat)
    print(f"nhsim at --t-end 0 (start-up, taping, initial state, CSV): wall {base[0] * 1e3:.1f} ms, "
          f"CPU {base[1] * 1e3:.1f} ms (medians of {args.repeat})")
    for t_end in args.t_end:
        report(args, rhs, start, t_end, base, derivation + lambdification)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


def ratio(peer, nhsim):
    return f"{peer / nhsim:.0f}x" if nhsim > 0 else "n/a (below the noise)"


def report(args, rhs, start, t_end, base, preparation):
    peer_wall, peer_cpu, peer_final, steps, evaluations = run_peer(
        rhs, start, t_end, args.peer_repeat)
    wall, cpu, final, command = run_nhsim(args.nhsim, t_end, args.repeat)
    alone_wall, alone_cpu = wall - base[0], cpu - base[1]
    difference = np.abs(final - peer_final)
    worst = int(np.argmax(difference))
    print(f"\nT = {t_end:g} s: {command}")
    print(f"  peer integration: wall {peer_wall:.3f} s, CPU {peer_cpu:.3f} s ({steps} accepted "
          f"steps, {evaluations} RHS evaluations); end to end with derivation and lambdify "
          f"{peer_wall + preparation:.2f} s")
    print(f"  nhsim end to end: wall {wall * 1e3:.1f} ms, CPU {cpu * 1e3:.1f} ms; integration "
          f"alone (end to end minus --t-end 0): wall {alone_wall * 1e3:.1f} ms, "
          f"CPU {alone_cpu * 1e3:.1f} ms")
    print(f"  ratio peer / nhsim, integration alone: wall {ratio(peer_wall, alone_wall)}, CPU "
          f"{ratio(peer_cpu, alone_cpu)}; end to end incl. derivation: "
          f"wall {ratio(peer_wall + preparation, wall)}")
    print(f"  final state, max |nhsim - peer| = {difference[worst]:.2e} ({STATE[worst]}); "
          + ", ".join(f"{name} {d:.1e}" for name, d in zip(STATE, difference)))


if __name__ == "__main__":
    main()
