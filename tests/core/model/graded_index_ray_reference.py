#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference numbers for tests/core/model/graded_index_ray_test.cpp.

Not run by the build or the tests (they hold the printed numbers as constants): run it by
hand (python3 with numpy, scipy, sympy) to reproduce them.

The bundled model graded_index_ray (resources/systems/graded_index_ray.yaml) is the
Lagrangian L = ½(vx² + vy²) on E = TR² with the identity anchor and a bracket that is not
skew, c^l_ij = −Γ^j_il, where Γ are the Christoffel symbols of the metric e^{2Φ}(dx² + dy²),
Φ = a x + b y (the optical metric of a medium with refractive index n = e^Φ):
    [e_x, e_x] = [e_y, e_y] = −a e_x − b e_y,  [e_x, e_y] = b e_x − a e_y = −[e_y, e_x].

1. The Euler–Lagrange equations (seed 000, (3.3) / (5.11)) are derived here by hand from L,
   ρ and c with sympy:  d/dt ∂L/∂y^j = c^l_ij y^i ∂L/∂y^l + ρ^a_j ∂L/∂x^a.
2. Independently, the geodesic equations of the metric e^{2Φ}(dx² + dy²) are derived from
   its Christoffel symbols, computed by sympy from the metric itself.
Both are integrated with scipy's solve_ivp (DOP853, rtol = atol = 1e-13) and must agree;
their states at t = 1, 2, 4, the energy ½|v|² and the invariant e^{2Φ}|v|² are printed.
"""
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

A, B = 0.5, 0.0  # the model's default index gradient
X0 = [0.0, 0.0, -0.5, 1.0]  # x, y, vx, vy: the model's default start
TIMES = [1.0, 2.0, 4.0]
OPTS = dict(method="DOP853", rtol=1e-13, atol=1e-13, dense_output=True)

a, b = sp.symbols("a b")
q = sp.symbols("x y")
v = sp.symbols("vx vy")


def algebroid_rhs():
    """(5.11) by hand: M ẏ = c^l_ij y^i p_l + ρ^a_j ∂L/∂x^a − (∂p_j/∂x) ρ y."""
    L = sp.Rational(1, 2) * (v[0] ** 2 + v[1] ** 2)
    # c[l][i][j] = c^l_ij: [e_i, e_j] = c^l_ij e_l, as the model file writes them.
    c = [[[0, 0], [0, 0]], [[0, 0], [0, 0]]]
    c[0][0][0], c[1][0][0] = -a, -b  # [e_x, e_x]
    c[0][1][1], c[1][1][1] = -a, -b  # [e_y, e_y]
    c[0][0][1], c[1][0][1] = b, -a  # [e_x, e_y]
    c[0][1][0], c[1][1][0] = -b, a  # [e_y, e_x]
    p = [sp.diff(L, vj) for vj in v]
    rhs = []
    for j in range(2):
        f = sum(c[l][i][j] * v[i] * p[l] for i in range(2) for l in range(2))
        f += sp.diff(L, q[j])  # ρ = identity
        f -= sum(sp.diff(p[j], q[k]) * v[k] for k in range(2))
        rhs.append(f)
    M = sp.Matrix(2, 2, lambda i, j: sp.diff(p[i], v[j]))
    return list(M.LUsolve(sp.Matrix(rhs)))


def geodesic_rhs():
    """ẍ^k = −Γ^k_ij ẋ^i ẋ^j for g = e^{2Φ} δ, Γ from the metric."""
    phi = a * q[0] + b * q[1]
    g = sp.exp(2 * phi) * sp.eye(2)
    gi = g.inv()
    acc = []
    for k in range(2):
        s = 0
        for i in range(2):
            for j in range(2):
                gamma = sum(
                    gi[k, l]
                    * (sp.diff(g[l, i], q[j]) + sp.diff(g[l, j], q[i]) - sp.diff(g[i, j], q[l]))
                    / 2
                    for l in range(2)
                )
                s -= sp.simplify(gamma) * v[i] * v[j]
        acc.append(sp.simplify(s))
    return acc


def integrate(acc):
    f = sp.lambdify((q[0], q[1], v[0], v[1]), [e.subs({a: A, b: B}) for e in acc], "numpy")

    def rhs(t, s):
        return [s[2], s[3], *f(*s)]

    return solve_ivp(rhs, (0, max(TIMES)), X0, **OPTS)


def show(name, values):
    print(f"  {name} = {{" + ", ".join(f"{x:.17g}" for x in values) + "}")


def main():
    acc1 = algebroid_rhs()
    acc2 = geodesic_rhs()
    print("algebroid:", [sp.expand(e) for e in acc1])
    print("geodesic: ", [sp.expand(e) for e in acc2])
    assert all(sp.simplify(sp.expand(e1 - e2)) == 0 for e1, e2 in zip(acc1, acc2))
    s1, s2 = integrate(acc1), integrate(acc2)
    for t in TIMES:
        x1, x2 = s1.sol(t), s2.sol(t)
        assert np.max(np.abs(x1 - x2)) < 1e-11, (t, x1 - x2)
        energy = 0.5 * (x1[2] ** 2 + x1[3] ** 2)
        invariant = np.exp(2 * (A * x1[0] + B * x1[1])) * (x1[2] ** 2 + x1[3] ** 2)
        print(f"t = {t}")
        show("state (x, y, vx, vy)", x1)
        show("energy, e^(2 Phi)|v|^2", [energy, invariant])


if __name__ == "__main__":
    main()
