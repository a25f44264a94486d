#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reference numbers for the Whipple benchmark bicycle.

Derivation record only (the C++ tests do not run this script).

Source: J. P. Meijaard, J. M. Papadopoulos, A. Ruina, A. L. Schwab (2007),
"Linearized dynamics equations for the balance and steer of a bicycle:
a benchmark and review", Proc. R. Soc. A 463:1955-1982,
doi:10.1098/rspa.2007.1857 ("MPRS").  Parameters: Table 1.  Formulas:
Appendix A, eqs (A1)-(A26).  Published numbers: section A.3 (M, C1, K0, K2)
and Table 2 (characteristic speeds, eigenvalues at v = 0..10 m/s).

Linearized equations, q = (lean phi, steer delta):

    M q'' + v C1 q' + (g K0 + v^2 K2) q = f.

Everything is evaluated with mpmath at 40 decimal digits; the parameters are
entered as exact decimal strings, lambda = pi/10.  Eigenvalues are the roots of
the quartic det(M s^2 + v C1 s + g K0 + v^2 K2) = 0, which are the eigenvalues of
the 4x4 first-order system.  The capsize speed is where det(g K0 + v^2 K2) = 0
(a real root through the origin), solved in closed form (linear in v^2); the weave speed is
where the third Hurwitz determinant vanishes (an imaginary pair +-i w), found
with a high-precision Newton/secant root finder and cross-checked by bisection.

Run:  /usr/bin/python3 tests/core/nh/mprs_reference.py
"""

import sys

import mpmath
from mpmath import mp, mpf, mpc

mp.dps = 40

# --------------------------------------------------------------------------
# Table 1: benchmark parameters (exact decimals)
# --------------------------------------------------------------------------
P = {k: mpf(v) for k, v in dict(
    w="1.02", c="0.08", g="9.81",
    rR="0.3", mR="2", IRxx="0.0603", IRyy="0.12",
    xB="0.3", zB="-0.9", mB="85",
    IBxx="9.2", IByy="11", IBzz="2.8", IBxz="2.4",
    xH="0.9", zH="-0.7", mH="4",
    IHxx="0.05892", IHyy="0.06", IHzz="0.00708", IHxz="-0.00756",
    rF="0.35", mF="3", IFxx="0.1405", IFyy="0.28",
).items()}
P["lam"] = mp.pi / 10


def canonical_matrices(p):
    """MPRS Appendix A: returns M, C1, K0, K2 as 2x2 lists of mpf."""
    w, c, lam = p["w"], p["c"], p["lam"]
    rR, mR, IRxx, IRyy = p["rR"], p["mR"], p["IRxx"], p["IRyy"]
    xB, zB, mB = p["xB"], p["zB"], p["mB"]
    IBxx, IBzz, IBxz = p["IBxx"], p["IBzz"], p["IBxz"]
    xH, zH, mH = p["xH"], p["zH"], p["mH"]
    IHxx, IHzz, IHxz = p["IHxx"], p["IHzz"], p["IHxz"]
    rF, mF, IFxx, IFyy = p["rF"], p["mF"], p["IFxx"], p["IFyy"]
    # Wheels are axisymmetric: Izz = Ixx (in-plane diameters).
    IRzz, IFzz = IRxx, IFxx
    sl, cl = mp.sin(lam), mp.cos(lam)

    # (A1)-(A3) total mass and mass centre (rear contact point origin,
    # x forward, z down; wheel centres at z = -r).
    mT = mR + mB + mH + mF
    xT = (xB * mB + xH * mH + w * mF) / mT
    zT = (-rR * mR + zB * mB + zH * mH - rF * mF) / mT
    # (A4)-(A6) total inertia about the rear contact point.
    ITxx = IRxx + IBxx + IHxx + IFxx + mR * rR**2 + mB * zB**2 + mH * zH**2 + mF * rF**2
    ITxz = IBxz + IHxz - mB * xB * zB - mH * xH * zH + mF * w * rF
    ITzz = IRzz + IBzz + IHzz + IFzz + mB * xB**2 + mH * xH**2 + mF * w**2
    # (A7)-(A9) front assembly A = H + F.
    mA = mH + mF
    xA = (xH * mH + w * mF) / mA
    zA = (zH * mH - rF * mF) / mA
    # (A10)-(A12) front assembly inertia about its own mass centre.
    IAxx = IHxx + IFxx + mH * (zH - zA)**2 + mF * (rF + zA)**2
    IAxz = IHxz - mH * (xH - xA) * (zH - zA) + mF * (w - xA) * (rF + zA)
    IAzz = IHzz + IFzz + mH * (xH - xA)**2 + mF * (w - xA)**2
    # (A13) perpendicular distance of A's mass centre ahead of the steer axis.
    uA = (xA - w - c) * cl - zA * sl
    # (A14)-(A16) front inertias about / coupled with the steer axis.
    IAll = mA * uA**2 + IAxx * sl**2 + 2 * IAxz * sl * cl + IAzz * cl**2
    IAlx = -mA * uA * zA + IAxx * sl + IAxz * cl
    IAlz = mA * uA * xA + IAxz * sl + IAzz * cl
    # (A17) steer-axis trail ratio.
    mu = c / w * cl
    # (A18)-(A21) gyrostatic coefficients and static moment.
    SR = IRyy / rR
    SF = IFyy / rF
    ST = SR + SF
    SA = mA * uA + mu * mT * xT

    # (A22) mass matrix
    Mpp = ITxx
    Mpd = IAlx + mu * ITxz
    Mdd = IAll + 2 * mu * IAlz + mu**2 * ITzz
    M = [[Mpp, Mpd], [Mpd, Mdd]]
    # (A23) gravity stiffness
    K0 = [[mT * zT, -SA], [-SA, -SA * sl]]
    # (A24) velocity-squared stiffness
    K2 = [[mpf(0), (ST - mT * zT) / w * cl],
          [mpf(0), (SA + SF * sl) / w * cl]]
    # (A25)-(A26) velocity "damping"
    C1 = [[mpf(0), mu * ST + SF * cl + ITxz / w * cl - mu * mT * zT],
          [-(mu * ST + SF * cl), IAlz / w * cl + mu * (SA + ITzz / w * cl)]]
    return M, C1, K0, K2


M, C1, K0, K2 = canonical_matrices(P)
G = P["g"]


# --------------------------------------------------------------------------
# characteristic polynomial, eigenvalues
# --------------------------------------------------------------------------
def _pmul(a, b):
    out = [mpf(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _psub(a, b):
    n = max(len(a), len(b))
    a = a + [mpf(0)] * (n - len(a))
    b = b + [mpf(0)] * (n - len(b))
    return [x - y for x, y in zip(a, b)]


def char_poly(v):
    """Coefficients [a0, a1, a2, a3, a4] of det(M s^2 + v C1 s + g K0 + v^2 K2)."""
    v = mpf(v)
    e = [[[G * K0[i][j] + v**2 * K2[i][j], v * C1[i][j], M[i][j]]
          for j in range(2)] for i in range(2)]
    return _psub(_pmul(e[0][0], e[1][1]), _pmul(e[0][1], e[1][0]))


def eigenvalues(v):
    """The four eigenvalues at speed v, sorted by real part then imaginary part."""
    a = char_poly(v)
    roots = mpmath.polyroots(a[::-1], maxsteps=400, extraprec=400)
    roots = [mpc(r) for r in roots]
    # Clean tiny imaginary parts of real roots (polyroots noise ~1e-40).
    roots = [mpc(r.real, 0) if abs(r.imag) < mpf("1e-30") else r for r in roots]
    # Sort: real part (rounded to make conjugate pairs tie), then imaginary part.
    return sorted(roots, key=lambda r: (float(mpmath.nstr(r.real, 25)), r.imag))


def first_order_eigs_check(v):
    """Cross-check: eigenvalues of the 4x4 first-order matrix via mpmath.eig."""
    Mi = mpmath.inverse(mpmath.matrix(M))
    K = mpmath.matrix([[G * K0[i][j] + v**2 * K2[i][j] for j in range(2)] for i in range(2)])
    C = mpmath.matrix([[v * C1[i][j] for j in range(2)] for i in range(2)])
    A = mpmath.zeros(4, 4)
    A[0, 2] = A[1, 3] = 1
    MK, MC = Mi * K, Mi * C
    for i in range(2):
        for j in range(2):
            A[2 + i, j] = -MK[i, j]
            A[2 + i, 2 + j] = -MC[i, j]
    ev = mpmath.eig(A, left=False, right=False)
    return sorted(ev, key=lambda r: (float(mpmath.nstr(r.real, 25)), float(mpmath.nstr(r.imag, 25))))


# --------------------------------------------------------------------------
# characteristic speeds
# --------------------------------------------------------------------------
def hurwitz3(v):
    """Delta_3 = a3 a2 a1 - a4 a1^2 - a3^2 a0; zero when roots +-i*w exist."""
    a0, a1, a2, a3, a4 = char_poly(v)
    return a3 * a2 * a1 - a4 * a1**2 - a3**2 * a0


def capsize_speed():
    """det(g K0 + v^2 K2) = 0; linear in u = v^2 because K2pp = K2dp = 0."""
    # det = (gK0pp)(gK0dd + u K2dd) - (gK0pd + u K2pd)(gK0dp)   (K2pp = K2dp = 0)
    # linear in u:  A + B u = 0
    A = G * K0[0][0] * G * K0[1][1] - G * K0[0][1] * G * K0[1][0]
    B = G * K0[0][0] * K2[1][1] - K2[0][1] * G * K0[1][0]
    u = -A / B
    return mp.sqrt(u)


def bisect(f, lo, hi, tol=mpf("1e-35")):
    flo = f(lo)
    while hi - lo > tol:
        mid = (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


def weave_speed():
    vw = mpmath.findroot(hurwitz3, (mpf(4), mpf(5)), solver="secant", tol=mpf("1e-70"))
    vb = bisect(hurwitz3, mpf(4), mpf(5))
    assert abs(vw - vb) < mpf("1e-30"), (vw, vb)
    return vw


def bifurcation_speed():
    """Speed where the two positive real roots (v=0) merge into the weave pair:
    discriminant of the quartic vanishes (bisection on its sign change)."""
    # discriminant of the quartic changes sign: use mpmath's polynomial discriminant
    def disc(v):
        a0, a1, a2, a3, a4 = char_poly(v)
        # discriminant of a4 x^4 + a3 x^3 + a2 x^2 + a1 x + a0
        a, b, c, d, e = a4, a3, a2, a1, a0
        return (256 * a**3 * e**3 - 192 * a**2 * b * d * e**2 - 128 * a**2 * c**2 * e**2
                + 144 * a**2 * c * d**2 * e - 27 * a**2 * d**4 + 144 * a * b**2 * c * e**2
                - 6 * a * b**2 * d**2 * e - 80 * a * b * c**2 * d * e + 18 * a * b * c * d**3
                + 16 * a * c**4 * e - 4 * a * c**3 * d**2 - 27 * b**4 * e**2
                + 18 * b**3 * c * d * e - 4 * b**3 * d**3 - 4 * b**2 * c**3 * e
                + b**2 * c**2 * d**2)
    return bisect(disc, mpf("0.5"), mpf("0.9"))


# --------------------------------------------------------------------------
# published values (MPRS 2007 section A.3 and Table 2).
# Appendix A formulas cross-read against bicycleparameters'
# benchmark_par_to_canonical (moorepants/BicycleParameters, bicycleparameters/
# bicycle.py) -- code written independently here.
# --------------------------------------------------------------------------
# Matrix digits as printed in MPRS section A.3; identical transcription in
# moorepants/DynamicistToolKit dtk/bicycle.py benchmark_matrices().
PUB_M = [["80.81722", "2.31941332208709"], ["2.31941332208709", "0.29784188199686"]]
PUB_C1 = [["0", "33.86641391492494"], ["-0.85035641456978", "1.68540397397560"]]
PUB_K0 = [["-80.95", "-2.59951685249872"], ["-2.59951685249872", "-0.80329488458618"]]
PUB_K2 = [["0", "76.59734589573222"], ["0", "2.65431523794604"]]

# Table 2(a): characteristic speeds (and eigenvalue there)
PUB_SPEEDS = {
    "bifurcation speed v_d": "0.68428307889246",
    "weave speed v_w": "4.29238253634111",
    "capsize speed v_c": "6.02426201538837",
}
PUB_AT_VD = "3.78290405129320"     # double real root at v_d
PUB_WEAVE_FREQ = "3.43503384866144"  # imaginary part at v_w

# Table 2(b): eigenvalues for v = 0..10 as printed in the paper
# (transcription by D. L. Peterson, github.com/hazelnusse/OBD,
# whipple/tests/whipple-eigs-unittest.cpp, "hand coded as written in that
# paper"; agrees with the 15-digit copy in src/whippleeig.cpp of the same repo.
# Entries: (weave Re, weave |Im|), capsize real root, castor real root.)
# Note: the paper's eigenvalues were computed in double precision; the last
# printed digit is noisy at ~1e-14 (see Checker).  v = 7 castor differs from the
# 40-digit value by 6e-13 (-18.15788466125262 vs -18.15788466125202...); the
# OBD test itself needed a 1e-12 tolerance for this column.
# For v = 0 all four are real: +-3.13164324790656, +-5.53094371765393.
PUB_TABLE2 = {
    0: ["5.53094371765393", "3.13164324790656", "-3.13164324790656", "-5.53094371765393"],
    1: [("3.52696170990070", "0.80774027519930"), "-3.13423125066578", "-7.11008014637442"],
    2: [("2.68234517512745", "1.68066296590675"), "-3.07158645641514", "-8.67387984831735"],
    3: [("1.70675605663975", "2.31582447384325"), "-2.63366137253667", "-10.35101467245920"],
    4: [("0.41325331521125", "3.07910818603206"), "-1.42944427361326", "-12.15861426576450"],
    5: [("-0.77534188219585", "4.46486771378823"), "-0.32286642900409", "-14.07838969279820"],
    6: [("-1.52644486584142", "5.87673060598709"), "-0.00406690076970", "-16.08537123098030"],
    7: [("-2.13875644258362", "7.19525913329805"), "0.10268170574766", "-18.15788466125262"],
    8: [("-2.69348683581097", "8.46037971396931"), "0.14327879765713", "-20.27940894394569"],
    9: [("-3.21675402252485", "9.69377351531791"), "0.15790184030917", "-22.43788559040858"],
    10: [("-3.72016840437287", "10.90681139476287"), "0.16105338653172", "-24.62459635017404"],
}


TOL = mpf("1e-13")   # tolerance for Table 2 numbers (double-precision results)


def _decimals(s):
    return len(s.split(".")[1]) if "." in s else 0


class Checker:
    """Compare a computed value with a published one.

    "exact"  : the quoted digits are the correct rounding of the true value.
    "~tol"   : not the correct rounding, but |computed - quoted| <= tol.  MPRS
               computed Table 2 in IEEE double precision, so its last printed
               digit (1e-14) carries ~1e-14 of floating-point noise.
    "MISMATCH": |computed - quoted| > tol.
    """

    def __init__(self):
        self.max_diff = mpf(0)
        self.inexact = []
        self.failures = []
        self.count = 0

    def check(self, label, computed, quoted, tol=None):
        self.count += 1
        q = mpf(quoted)
        d = abs(computed - q)
        self.max_diff = max(self.max_diff, d)
        half_ulp = mpf(10) ** (-_decimals(quoted)) / 2
        if d <= half_ulp * (1 + mpf("1e-20")):
            status = "exact"
        elif tol is not None and d <= tol:
            status = "~tol"
            self.inexact.append((label, computed, quoted, d))
        else:
            status = "MISMATCH"
            self.failures.append((label, computed, quoted, d))
        print(f"  {label:26s} quoted {quoted:>19s}  computed {mpmath.nstr(computed, 22):>26s}"
              f"  diff {mpmath.nstr(d, 3):>9s}  {status}")
        return status


def main():
    ck = Checker()
    print("MPRS 2007 Whipple benchmark bicycle, mpmath dps =", mp.dps)
    print()
    print("Canonical matrices (Appendix A), 20 significant digits:")
    for name, mat in (("M", M), ("C1", C1), ("K0", K0), ("K2", K2)):
        for i in range(2):
            print(f"  {name}[{i}] = [{mpmath.nstr(mat[i][0], 20):>26s}, {mpmath.nstr(mat[i][1], 20):>26s}]")
    print()
    print("Check vs published matrices (section A.3 / text):")
    for name, mat, pub in (("M", M, PUB_M), ("C1", C1, PUB_C1), ("K0", K0, PUB_K0), ("K2", K2, PUB_K2)):
        for i in range(2):
            for j in range(2):
                ck.check(f"{name}[{i}][{j}]", mat[i][j], pub[i][j])
    print()

    vd, vw, vc = bifurcation_speed(), weave_speed(), capsize_speed()
    print("Characteristic speeds (Table 2a):")
    ck.check("bifurcation speed v_d", vd, PUB_SPEEDS["bifurcation speed v_d"], TOL)
    ck.check("weave speed v_w", vw, PUB_SPEEDS["weave speed v_w"], TOL)
    ck.check("capsize speed v_c", vc, PUB_SPEEDS["capsize speed v_c"], TOL)
    ev_d = eigenvalues(vd)
    dbl = max(ev_d, key=lambda z: z.real)
    ck.check("double root at v_d", dbl.real, PUB_AT_VD, TOL)
    ev_w = eigenvalues(vw)
    pair = [z for z in ev_w if abs(z.imag) > 0]
    ck.check("weave |Im| at v_w", abs(pair[0].imag), PUB_WEAVE_FREQ, TOL)
    print(f"  |Re| of weave pair at v_w: {mpmath.nstr(abs(pair[0].real), 3)};"
          f" smallest |real root| at v_c: {mpmath.nstr(min(abs(z) for z in eigenvalues(vc)), 3)}")
    print()

    print("Check vs Table 2(b) eigenvalues:")
    for v in range(11):
        ev = eigenvalues(v)
        pub = PUB_TABLE2[v]
        if v == 0:
            reals = sorted([z.real for z in ev], reverse=True)
            for k, q in enumerate(pub):
                ck.check(f"v={v} real root {k}", reals[k], q, TOL)
            continue
        cplx = [z for z in ev if z.imag != 0]
        reals = sorted([z.real for z in ev if z.imag == 0], reverse=True)
        assert len(cplx) == 2 and len(reals) == 2, (v, ev)
        ck.check(f"v={v} weave Re", cplx[0].real, pub[0][0], TOL)
        ck.check(f"v={v} weave |Im|", abs(cplx[0].imag), pub[0][1], TOL)
        ck.check(f"v={v} capsize", reals[0], pub[1], TOL)
        ck.check(f"v={v} castor", reals[1], pub[2], TOL)
    print()

    # cross-check polynomial roots against the 4x4 first-order matrix
    worst = mpf(0)
    for v in range(11):
        a = eigenvalues(v)
        b = first_order_eigs_check(mpf(v))
        worst = max(worst, max(abs(x - y) for x, y in zip(a, b)))
    print(f"Quartic roots vs mpmath.eig of 4x4 A(v): max |diff| = {mpmath.nstr(worst, 3)}")
    print()

    print("Eigenvalues, sorted by real part then imaginary part (15 significant digits):")
    print(f"  {'v':>3s}  " + "  ".join(f"{'re':>19s} {'im':>19s}" for _ in range(4)))
    for v in range(11):
        ev = eigenvalues(v)
        cells = [f"{mpmath.nstr(z.real, 15, min_fixed=-5, max_fixed=5):>19s} "
                 f"{mpmath.nstr(z.imag, 15, min_fixed=-5, max_fixed=5) if z.imag != 0 else '0':>19s}"
                 for z in ev]
        print(f"  {v:3d}  " + "  ".join(cells))
    print()

    print("C++ initializer text (shortest round-trip repr of the correctly rounded double):")

    def d(x):
        return repr(float(x)) if x != 0 else "0"

    for v in range(11):
        ev = eigenvalues(v)
        body = ", ".join(f"{{{d(z.real)}, {d(z.imag)}}}" for z in ev)
        print(f"    {{{v}.0, {{{body}}}}},")
    print()
    print("Characteristic speeds as C++ doubles:")
    print(f"    weave   v_w = {d(vw)};   // {mpmath.nstr(vw, 25)}")
    print(f"    capsize v_c = {d(vc)};   // {mpmath.nstr(vc, 25)}")
    print(f"    bifurc. v_d = {d(vd)};   // {mpmath.nstr(vd, 25)}")
    print(f"    weave frequency at v_w = {d(abs(pair[0].imag))}")
    print()

    print(f"{ck.count} published numbers checked; max |computed - quoted| = {mpmath.nstr(ck.max_diff, 3)}")
    if ck.inexact:
        print(f"Quoted digits not the correct rounding but within {mpmath.nstr(TOL, 1)} ({len(ck.inexact)}):")
        for label, comp, quoted, dd in ck.inexact:
            print(f"  {label}: quoted {quoted}, computed {mpmath.nstr(comp, 22)}, diff {mpmath.nstr(dd, 3)}")
    if ck.failures:
        print(f"MISMATCHES beyond {mpmath.nstr(TOL, 1)} ({len(ck.failures)}):")
        for label, comp, quoted, dd in ck.failures:
            print(f"  {label}: quoted {quoted}, computed {mpmath.nstr(comp, 22)}, diff {mpmath.nstr(dd, 3)}")
    # The Appendix A matrices must reproduce every quoted digit.
    assert all(not lab.startswith(("M[", "C1[", "K0[", "K2[")) for lab, *_ in ck.inexact + ck.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
