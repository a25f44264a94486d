// Linearisation on the constraint manifold (linearize.h).
#include "core/nh/linearize.h"

#include <algorithm>
#include <cmath>

#include "core/nh/errors.h"
#include "core/nh/symbolic.h"

namespace nh {

namespace {

// Values and first derivatives of v = ρy, F, M, A, b and Φ at one state, from the tape.
struct Pieces {
  int n = 0, m = 0, kt = 0;
  Eigen::VectorXd v, F, b, phi;
  Eigen::MatrixXd M, A;
  // Derivatives with respect to state variable j (q then y): the same shapes.
  std::vector<Eigen::VectorXd> dv, dF, db, dphi;
  std::vector<Eigen::MatrixXd> dM, dA;
};

Pieces evaluatePieces(const EquationsOfMotion& equations, double t, const double* x) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  const double* par = equations.parameters().data();
  Pieces out;
  out.n = n;
  out.m = m;
  out.kt = kt;
  Tape tape;
  const int nv = 1 + n + m;
  std::vector<Sym> q(n), y(m), rho(n * m), phi(kt), C(m * m * m), Q(m);
  const Sym ts = tape.variable(0);
  for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
  for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
  try {
    sys.anchor(par, q.data(), rho.data());
    const Sym L = sys.lagrangian(par, ts, q.data(), y.data());
    if (kt > 0) sys.constraints(par, ts, q.data(), y.data(), phi.data());
    if (sys.hasStructure()) sys.structure(par, q.data(), C.data());
    if (sys.hasForce()) sys.force(par, ts, q.data(), y.data(), Q.data());
    auto D = [&](Sym f, int var) { return tape.derivative(f, var); };
    std::vector<Sym> v(n, Sym(0.0));
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < m; ++a) v[i] += rho[i + n * a] * y[a];
    auto along = [&](Sym f) {  // ∂_t + (ρy)·∂_q at frozen y
      Sym r = D(f, 0);
      for (int i = 0; i < n; ++i) r += D(f, 1 + i) * v[i];
      return r;
    };
    std::vector<Sym> p(m), F(m);
    for (int a = 0; a < m; ++a) p[a] = D(L, 1 + n + a);
    for (int a = 0; a < m; ++a) {
      Sym f(0.0);
      for (int i = 0; i < n; ++i) f += rho[i + n * a] * D(L, 1 + i);
      f -= along(p[a]);
      if (sys.hasStructure())  // C^γ_{βα} y^β p_γ, as equations.cpp adds it
        for (int g = 0; g < m; ++g)
          for (int b = 0; b < m; ++b) f += C[g + m * (b + m * a)] * y[b] * p[g];
      if (sys.hasForce()) f += Q[a];
      F[a] = f;
    }
    // Base outputs: v (n), F (m), M (m·m, column-major), A (kt·m, column-major), b, Φ (kt).
    std::vector<Sym> base;
    base.insert(base.end(), v.begin(), v.end());
    base.insert(base.end(), F.begin(), F.end());
    for (int b = 0; b < m; ++b)
      for (int a = 0; a < m; ++a) base.push_back(D(p[a], 1 + n + b));
    for (int a = 0; a < m; ++a)
      for (int c = 0; c < kt; ++c) base.push_back(D(phi[c], 1 + n + a));
    for (int c = 0; c < kt; ++c) base.push_back(Sym(0.0) - along(phi[c]));
    base.insert(base.end(), phi.begin(), phi.end());
    const int nb = static_cast<int>(base.size());
    std::vector<Sym> all = base;
    for (int j = 0; j < n + m; ++j)
      for (int i = 0; i < nb; ++i) all.push_back(D(base[i], 1 + j));
    const SymProgram program(tape, nv, all, SymProgram::Execution::Interpreted);  // runs once
    std::vector<double> registers = program.makeRegisters();
    std::vector<double> vars(nv);
    vars[0] = t;
    std::copy(x, x + n + m, vars.begin() + 1);
    program.run(registers.data(), vars.data());
    auto unpack = [&](int offset, Eigen::VectorXd& vv, Eigen::VectorXd& FF, Eigen::MatrixXd& MM,
                      Eigen::MatrixXd& AA, Eigen::VectorXd& bb, Eigen::VectorXd& ph) {
      int k = offset;
      vv.resize(n);
      FF.resize(m);
      MM.resize(m, m);
      AA.resize(kt, m);
      bb.resize(kt);
      ph.resize(kt);
      for (int i = 0; i < n; ++i) vv[i] = program.output(registers.data(), k++);
      for (int a = 0; a < m; ++a) FF[a] = program.output(registers.data(), k++);
      for (int i = 0; i < m * m; ++i) MM.data()[i] = program.output(registers.data(), k++);
      for (int i = 0; i < kt * m; ++i) AA.data()[i] = program.output(registers.data(), k++);
      for (int c = 0; c < kt; ++c) bb[c] = program.output(registers.data(), k++);
      for (int c = 0; c < kt; ++c) ph[c] = program.output(registers.data(), k++);
    };
    unpack(0, out.v, out.F, out.M, out.A, out.b, out.phi);
    const int dims = n + m;
    out.dv.resize(dims);
    out.dF.resize(dims);
    out.dM.resize(dims);
    out.dA.resize(dims);
    out.db.resize(dims);
    out.dphi.resize(dims);
    for (int j = 0; j < dims; ++j)
      unpack(nb * (1 + j), out.dv[j], out.dF[j], out.dM[j], out.dA[j], out.db[j], out.dphi[j]);
  } catch (const TapeError& e) {
    throw InputError("'" + sys.name() + "' cannot be linearised: its functions cannot be " +
                     "recorded on the tape (" + e.what() + ")");
  }
  return out;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& name : names) s += (s.empty() ? "" : ", ") + name;
  return s;
}

// Columns of `matrix` (restricted to `candidates`) that make it full row rank, by column
// pivoting; empty when the rank is short.
std::vector<int> pivotColumns(const Eigen::MatrixXd& matrix, const std::vector<int>& candidates) {
  const int rows = static_cast<int>(matrix.rows());
  if (rows == 0) return {};
  if (static_cast<int>(candidates.size()) < rows) return {};
  Eigen::MatrixXd sub(rows, candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) sub.col(c) = matrix.col(candidates[c]);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(sub);
  if (qr.rank() < rows) return {};
  std::vector<int> chosen;
  for (int i = 0; i < rows; ++i) chosen.push_back(candidates[qr.colsPermutation().indices()[i]]);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

namespace {
// ∂f/∂x; the accelerations ẏ it solves for on the way go to *ydotOut when given.
Eigen::MatrixXd jacobianOf(const EquationsOfMotion& equations, const Pieces& P,
                           Eigen::VectorXd* ydotOut = nullptr) {
  const int n = P.n, m = P.m, kt = P.kt;
  // The saddle-point system K (ẏ, λ) = (F, b), K = [M −Aᵀ; A 0].
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(m + kt, m + kt);
  K.topLeftCorner(m, m) = P.M;
  K.topRightCorner(m, kt) = -P.A.transpose();
  K.bottomLeftCorner(kt, m) = P.A;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
  if (!lu.isInvertible())
    throw InputError("the equations of '" + equations.system().name() +
                     "' are singular at this state (M or A M⁻¹ Aᵀ): no linearisation there");
  Eigen::VectorXd rhs(m + kt);
  rhs << P.F, P.b;
  const Eigen::VectorXd sol = lu.solve(rhs);
  const Eigen::VectorXd ydot = sol.head(m), lambda = sol.tail(kt);
  if (ydotOut) *ydotOut = ydot;
  Eigen::MatrixXd J(n + m, n + m);
  for (int j = 0; j < n + m; ++j) {
    Eigen::VectorXd r(m + kt);
    r.head(m) = P.dF[j] - P.dM[j] * ydot + P.dA[j].transpose() * lambda;
    r.tail(kt) = P.db[j] - P.dA[j] * ydot;
    const Eigen::VectorXd d = lu.solve(r);
    J.col(j).head(n) = P.dv[j];
    J.col(j).tail(m) = d.head(m);
  }
  return J;
}
}  // namespace

Eigen::MatrixXd stateJacobian(const EquationsOfMotion& equations, double t, const double* x) {
  if (equations.dynamics() != DynamicsKind::Nonholonomic)
    throw InputError("linearisation is available for nonholonomic dynamics only");
  return jacobianOf(equations, evaluatePieces(equations, t, x));
}

namespace {

// Which coordinates are cyclic; throws when an attitude quaternion is not (the equations
// read it).
std::vector<bool> cyclicCoordinates(const SystemModel& sys) {
  const SystemInfo& info = sys.info();
  std::vector<bool> cyclic(sys.n(), false);
  for (int i : sys.cyclicIndices()) cyclic[i] = true;
  for (const QuaternionSlot& qs : info.quaternions)
    for (int i = qs.first; i < qs.first + 4; ++i)
      if (!cyclic[i])
        throw InputError("the dynamics of '" + sys.name() + "' depends on its attitude (" +
                         info.coordinates[qs.first] + " " + info.coordinates[qs.first + 1] + " " +
                         info.coordinates[qs.first + 2] + " " + info.coordinates[qs.first + 3] +
                         "), a unit quaternion: linearize reduces only systems whose attitude "
                         "is cyclic");
  return cyclic;
}

// Where the equations are not defined (the system's singular points) there is nothing to
// linearise.
void refuseSingularPoint(const EquationsOfMotion& equations, double t,
                         const std::vector<double>& x) {
  const SystemModel& sys = equations.system();
  const SystemInfo& info = sys.info();
  const int count = static_cast<int>(info.singularities.size());
  if (count == 0) return;
  std::vector<double> s(count);
  sys.singularities(equations.parameters().data(), t, x.data(), x.data() + sys.n(), s.data());
  for (int i = 0; i < count; ++i)
    if (!(s[i] > 0))
      throw InputError("'" + sys.name() +
                       "' is at a singular point here: " + info.singularities[i]);
}

// The coordinates fixed by the holonomic constraints (G = ∂g/∂q, h rows): the declared ones,
// or chosen among the non-cyclic ones by pivoting.
std::vector<int> dependentCoordinates(const SystemModel& sys, const Eigen::MatrixXd& G,
                                      const std::vector<bool>& cyclic) {
  std::vector<int> dependent = sys.dependentIndices();
  if (sys.h() == 0 || !dependent.empty()) return dependent;
  std::vector<int> candidates;
  for (int i = 0; i < sys.n(); ++i)
    if (!cyclic[i]) candidates.push_back(i);
  dependent = pivotColumns(G, candidates);
  if (dependent.empty())
    throw InputError("the holonomic constraints of '" + sys.name() +
                     "' cannot be solved for coordinates at this state");
  return dependent;
}

// The velocities solved for by the constraints: kt of the dependent ones (by pivoting on A);
// the independent ones, and any dependent ones left over, are kept.
std::vector<int> dependentVelocities(const SystemModel& sys, const Eigen::MatrixXd& A) {
  const SystemInfo& info = sys.info();
  const int m = sys.m();
  if (sys.constraintsTotal() == 0) return {};
  std::vector<bool> independent(m, false);
  for (const std::string& name : info.independentVelocities)
    for (int a = 0; a < m; ++a)
      if (info.velocities[a] == name) independent[a] = true;
  std::vector<int> others;
  for (int a = 0; a < m; ++a)
    if (!independent[a]) others.push_back(a);
  std::vector<int> dependent = pivotColumns(A, others);
  if (dependent.empty()) {
    std::vector<std::string> names;
    for (int a : others) names.push_back(info.velocities[a]);
    throw InputError("the constraints of '" + sys.name() +
                     "' cannot be solved for its dependent velocities (" +
                     (names.empty() ? std::string("none") : joinNames(names)) + ") at this state");
  }
  return dependent;
}

// 0 … count − 1 without the entries `skip` marks.
std::vector<int> keptIndices(int count, const std::vector<bool>& skip) {
  std::vector<int> kept;
  for (int i = 0; i < count; ++i)
    if (!skip[i]) kept.push_back(i);
  return kept;
}

// Tangent vectors of the constraint manifold: moving coordinates `qs` and kept velocities
// `ys` one at a time, the dependent coordinates and velocities following through the
// linearised constraints G δq = 0 and Φ_q δq + A δy = 0.
class Tangents {
 public:
  Tangents(const SystemModel& sys, const Pieces& P, const Eigen::MatrixXd& G,
           const std::vector<int>& dependentQ, const std::vector<int>& dependentY)
      : n_(sys.n()),
        m_(sys.m()),
        h_(sys.h()),
        kt_(P.kt),
        P_(P),
        G_(G),
        dependentQ_(dependentQ),
        dependentY_(dependentY),
        phiQ_(kt_, n_) {
    if (h_ > 0) {
      Eigen::MatrixXd Gd(h_, h_);
      for (int c = 0; c < h_; ++c) Gd.col(c) = G.col(dependentQ[c]);
      luG_.compute(Gd);
      if (!luG_.isInvertible())
        throw InputError("the holonomic constraints of '" + sys.name() +
                         "' cannot be solved for their dependent coordinates at this state");
    }
    if (kt_ > 0) {
      Eigen::MatrixXd Ad(kt_, kt_);
      for (int c = 0; c < kt_; ++c) Ad.col(c) = P.A.col(dependentY[c]);
      luA_.compute(Ad);
    }
    for (int i = 0; i < n_; ++i) phiQ_.col(i) = P.dphi[i];
  }

  Eigen::MatrixXd operator()(const std::vector<int>& qs, const std::vector<int>& ys) const {
    const int nqs = static_cast<int>(qs.size()), nys = static_cast<int>(ys.size());
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(n_ + m_, nqs + nys);
    for (int c = 0; c < nqs; ++c) T(qs[c], c) = 1;
    if (h_ > 0 && nqs > 0) {  // G_d δq_d = −G_k δq_k
      Eigen::MatrixXd Gk(h_, nqs);
      for (int c = 0; c < nqs; ++c) Gk.col(c) = G_.col(qs[c]);
      const Eigen::MatrixXd dq = -luG_.solve(Gk);
      for (int c = 0; c < h_; ++c) T.row(dependentQ_[c]).head(nqs) = dq.row(c);
    }
    for (int c = 0; c < nys; ++c) T(n_ + ys[c], nqs + c) = 1;
    if (kt_ > 0) {  // A_d δy_d = −(Φ_q δq + A_k δy_k)
      Eigen::MatrixXd rhs = phiQ_ * T.topRows(n_);
      for (int c = 0; c < nys; ++c) rhs.col(nqs + c) += P_.A.col(ys[c]);
      const Eigen::MatrixXd dy = -luA_.solve(rhs);
      for (int c = 0; c < kt_; ++c) T.row(n_ + dependentY_[c]) = dy.row(c);
    }
    return T;
  }

 private:
  const int n_, m_, h_, kt_;
  const Pieces& P_;
  const Eigen::MatrixXd& G_;
  const std::vector<int>&dependentQ_, &dependentY_;
  Eigen::MatrixXd phiQ_;  // Φ_q, kt × n
  Eigen::FullPivLU<Eigen::MatrixXd> luG_, luA_;
};

// How much the kept rows move when a declared cyclic coordinate moves along the manifold,
// relative to the Jacobian's entries (the declaration of the cyclic coordinates, checked).
double cyclicCouplingOf(const SystemModel& sys, const Eigen::MatrixXd& S, const Eigen::MatrixXd& J,
                        const Tangents& tangents, const std::vector<int>& rows) {
  if (sys.cyclicIndices().empty()) return 0;
  double coupling = 0;
  const Eigen::MatrixXd moved = S * J * tangents(sys.cyclicIndices(), {});
  for (int c = 0; c < moved.rows(); ++c) {
    double terms = 1;
    for (int j = 0; j < J.cols(); ++j) terms = std::max(terms, std::abs(J(rows[c], j)));
    coupling = std::max(coupling, moved.row(c).cwiseAbs().maxCoeff() / terms);
  }
  return coupling;
}

// The reduced right-hand side (q̇ of the kept coordinates, ẏ of the kept velocities) and
// whether it is small against the terms of f (|J||x|).
void setReducedRhs(Linearization& out, const Pieces& P, const Eigen::VectorXd& ydot,
                   const Eigen::MatrixXd& J, const std::vector<int>& rows,
                   const std::vector<double>& x) {
  const int n = P.n, r = static_cast<int>(rows.size());
  out.reducedRhs.resize(r);
  double scale = 1;
  for (int c = 0; c < r; ++c) {
    out.reducedRhs[c] = rows[c] < n ? P.v[rows[c]] : ydot[rows[c] - n];
    double terms = 0;
    for (int j = 0; j < J.cols(); ++j) terms += std::abs(J(rows[c], j) * x[j]);
    scale = std::max(scale, terms);
  }
  out.equilibrium =
      out.reducedRhs.size() == 0 || out.reducedRhs.cwiseAbs().maxCoeff() <= 1e-9 * scale;
}

// The eigenvalues of the reduced Jacobian, sorted by real part, then imaginary.
std::vector<std::complex<double>> sortedEigenvalues(const SystemModel& sys,
                                                    const Eigen::MatrixXd& jacobian) {
  std::vector<std::complex<double>> values;
  if (jacobian.rows() == 0) return values;
  const Eigen::EigenSolver<Eigen::MatrixXd> es(jacobian, false);
  if (es.info() != Eigen::Success)
    throw InputError("the eigenvalues of the linearised equations of '" + sys.name() +
                     "' did not converge");
  for (int i = 0; i < jacobian.rows(); ++i) values.push_back(es.eigenvalues()[i]);
  std::sort(values.begin(), values.end(),
            [](const std::complex<double>& a, const std::complex<double>& b) {
              return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag();
            });
  return values;
}

}  // namespace

Linearization linearize(const EquationsOfMotion& equations, double t,
                        const std::vector<double>& x) {
  const SystemModel& sys = equations.system();
  const SystemInfo& info = sys.info();
  const int n = sys.n(), m = sys.m(), h = sys.h();
  if (equations.dynamics() != DynamicsKind::Nonholonomic)
    throw InputError(
        "linearize works on the nonholonomic equations; the vakonomic ones are not "
        "supported");
  if (static_cast<int>(x.size()) < n + m) throw InputError("linearize: state too short");
  const std::vector<bool> cyclic = cyclicCoordinates(sys);
  refuseSingularPoint(equations, t, x);

  Eigen::MatrixXd G(h, n);
  if (h > 0) sys.holonomicJacobian(equations.parameters().data(), t, x.data(), G.data());
  const std::vector<int> dependentQ = dependentCoordinates(sys, G, cyclic);
  std::vector<bool> skipQ = cyclic;
  for (int i : dependentQ) skipQ[i] = true;
  const std::vector<int> keptQ = keptIndices(n, skipQ);

  const Pieces P = evaluatePieces(equations, t, x.data());
  Eigen::VectorXd ydot;
  const Eigen::MatrixXd J = jacobianOf(equations, P, &ydot);
  const std::vector<int> dependentY = dependentVelocities(sys, P.A);
  std::vector<bool> skipY(m, false);
  for (int a : dependentY) skipY[a] = true;
  const std::vector<int> keptY = keptIndices(m, skipY);

  const Tangents tangents(sys, P, G, dependentQ, dependentY);
  const Eigen::MatrixXd T = tangents(keptQ, keptY);
  Linearization out;
  std::vector<int> rows;
  for (int i : keptQ) {
    rows.push_back(i);
    out.variables.push_back(info.coordinates[i]);
  }
  for (int a : keptY) {
    rows.push_back(n + a);
    out.variables.push_back(info.velocities[a]);
  }
  out.stateIndex = rows;
  const int r = static_cast<int>(rows.size());
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(r, n + m);
  for (int c = 0; c < r; ++c) S(c, rows[c]) = 1;
  out.jacobian = S * J * T;
  out.cyclicCoupling = cyclicCouplingOf(sys, S, J, tangents, rows);
  setReducedRhs(out, P, ydot, J, rows, x);
  out.eigenvalues = sortedEigenvalues(sys, out.jacobian);
  return out;
}

}  // namespace nh
