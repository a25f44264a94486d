# SPDX-License-Identifier: GPL-3.0-or-later
# Independent reference for tests/core/model/hamiltonian_equations_test.cpp: the nonholonomic
# bracket of the particle with ż = y ẋ (nh_particle) and of the Chaplygin sleigh, and their
# Jacobiators, computed with sympy straight from the definitions. Run once by hand
# (python3 hamiltonian_equations_reference.py); its printed expressions are written into the
# test. The tests never run it.
#
#   X_a: basis of D = ker A, 1 in the a-th independent velocity; π_a = ⟨p, X_a⟩;
#   {q^i, π_a} = (ρ X_a)^i, {π_a, π_b} = −⟨p(q, π), [X_a, X_b]⟩,
#   [X, Y]^γ = ρ(X)(Y^γ) − ρ(Y)(X^γ) + C^γ_αβ X^α Y^β;
#   J(f, g, h) = {{f, g}, h} + cyclic, with {F, G} = ∂F/∂z^I Λ^IJ ∂G/∂z^J.
import itertools

import sympy as sp


def bracket_and_jacobiator(q, rho, C, M, A, independent, pi):
    n, m = len(q), M.shape[0]
    dependent = [a for a in range(m) if a not in independent]
    # X_a: 1 in its independent slot, the dependent velocities from A X_a = 0.
    X = []
    for a in independent:
        x = sp.zeros(m, 1)
        x[a] = 1
        unknowns = sp.symbols("u0:%d" % len(dependent))
        for j, d in enumerate(dependent):
            x[d] = unknowns[j]
        solution = sp.solve(list(A * x), unknowns, dict=True)[0]
        X.append(x.subs(solution))
    Xm = sp.Matrix.hstack(*X)
    # p on M*: y = X v, π = Xᵀ M X v, p = M X v.
    v = (Xm.T * M * Xm).inv() * sp.Matrix(pi)
    p = M * Xm * v
    d = len(independent)
    anchor = [rho * X[a] for a in range(d)]

    def lie(a, b):
        out = sp.zeros(m, 1)
        for g in range(m):
            out[g] = sum(anchor[a][i] * sp.diff(X[b][g], q[i]) - anchor[b][i] * sp.diff(X[a][g], q[i])
                         for i in range(n))
            out[g] += sum(C(g, al, be) * X[a][al] * X[b][be] for al in range(m) for be in range(m))
        return out

    z = list(q) + list(pi)
    N = n + d
    L = sp.zeros(N, N)
    for a in range(d):
        for i in range(n):
            L[i, n + a] = anchor[a][i]
            L[n + a, i] = -anchor[a][i]
        for b in range(d):
            L[n + a, n + b] = sp.simplify(-(p.T * lie(a, b))[0])

    def br(F, G):
        return sum(sp.diff(F, z[I]) * L[I, J] * sp.diff(G, z[J]) for I in range(N) for J in range(N))

    brackets = {(z[I], z[J]): sp.simplify(L[I, J]) for I in range(N) for J in range(I + 1, N) if L[I, J] != 0}
    jac = {}
    for I, J, K in itertools.combinations(range(N), 3):
        f, g, h = z[I], z[J], z[K]
        value = sp.simplify(br(br(f, g), h) + br(br(g, h), f) + br(br(h, f), g))
        if value != 0:
            jac[(f, g, h)] = value
    return brackets, jac


def nh_particle():
    x, y, z, m = sp.symbols("x y z m", positive=True)
    pi = sp.symbols("pi_vx pi_vy")
    return bracket_and_jacobiator([x, y, z], sp.eye(3), lambda g, a, b: 0, m * sp.eye(3),
                                  sp.Matrix([[-y, 0, 1]]), [0, 1], pi)


def chaplygin_sleigh():
    x, y, th, m, I, a = sp.symbols("x y theta m I a")
    pi = sp.symbols("pi_v pi_omega")
    rho = sp.Matrix([[sp.cos(th), -sp.sin(th), 0], [sp.sin(th), sp.cos(th), 0], [0, 0, 1]])
    # velocities (v, u, omega): [e_omega, e_v] = e_u, [e_omega, e_u] = −e_v.
    table = {(1, 2, 0): 1, (1, 0, 2): -1, (0, 2, 1): -1, (0, 1, 2): 1}
    M = sp.Matrix([[m, 0, 0], [0, m, m * a], [0, m * a, I + m * a * a]])
    return bracket_and_jacobiator([x, y, th], rho, lambda g, al, be: table.get((g, al, be), 0), M,
                                  sp.Matrix([[0, 1, 0]]), [0, 2], pi)


for name, (brackets, jac) in [("nh_particle", nh_particle()), ("chaplygin_sleigh", chaplygin_sleigh())]:
    print(name)
    for (f, g), value in brackets.items():
        print("  {%s, %s} = %s" % (f, g, value))
    for (f, g, h), value in jac.items():
        print("  J(%s, %s, %s) = %s" % (f, g, h, value))
