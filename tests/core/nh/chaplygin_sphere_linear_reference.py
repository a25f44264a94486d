#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Closed form for tests/core/nh/linearize_test.cpp: Chaplygin's ball spinning about a
vertical principal axis, linearised.

Not run by the build or the tests: run it by hand (python3 with sympy) to reproduce the
characteristic polynomial the test's closed form comes from. The ball's reduced equations
in body (principal) axes, without the engine's formalism (Chaplygin 1903; Borisov & Mamaev
2002): K = (I + D) ω − D (ω·γ) γ, D = m r², the angular momentum about the contact point,
is constant in space, K̇ = K × ω; γ̇ = γ × ω (γ the space up direction, γ3 = √(1 − γ1² − γ2²)).
About γ = e3, ω = (0, 0, w) the Jacobian in (γ1, γ2, ω1, ω2, ω3) has the characteristic
polynomial
    −λ (λ² + w²) ((I1 + D)(I2 + D) λ² + (I3 − I1)(I3 − I2) w²) / ((I1 + D)(I2 + D)),
so λ = 0, ±i w and λ² = −w² (I3 − I1)(I3 − I2) / ((I1 + D)(I2 + D)): stable (imaginary) when
I3 is the largest or the smallest moment, a real pair when it is the middle one. Spin about
axis 1 or 2 vertical: the same with the indices permuted.
"""
import sympy as sp


def main():
    I1, I2, I3, D, w, lam = sp.symbols("I1 I2 I3 D w lam")
    g1, g2, o1, o2, o3 = sp.symbols("g1 g2 o1 o2 o3")
    g = sp.Matrix([g1, g2, sp.sqrt(1 - g1**2 - g2**2)])
    o = sp.Matrix([o1, o2, o3])
    inertia = sp.diag(I1, I2, I3)
    gdot = g.cross(o)
    K = (inertia + D*sp.eye(3) - D*g*g.T)*o
    # K̇ = (I + D − D γγᵀ) ω̇ − D (ω·γ̇) γ − D (ω·γ) γ̇ = K × ω, solved for ω̇.
    odot = (inertia + D*sp.eye(3) - D*g*g.T).LUsolve(
        K.cross(o) + D*o.dot(gdot)*g + D*o.dot(g)*gdot)
    f = sp.Matrix([gdot[0], gdot[1], odot[0], odot[1], odot[2]])
    J = f.jacobian([g1, g2, o1, o2, o3]).subs({g1: 0, g2: 0, o1: 0, o2: 0, o3: w})
    print(sp.simplify(J))
    print(sp.factor(sp.simplify((J - lam*sp.eye(5)).det())))


if __name__ == "__main__":
    main()
