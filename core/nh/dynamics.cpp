// Equations of motion: theory §2 (Lagrange–d'Alembert) and §3 (vakonomic).
#include "core/nh/dynamics.h"

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <cstdio>

#include "core/nh/errors.h"
#include "core/nh/small_lu.h"

namespace nh {

namespace {
constexpr double kMinReciprocalCondition = 1e-13;  // below: treated as singular

// LU's rcond() estimate can miss an exactly singular matrix (it divides by a zero
// pivot); the ratio of the smallest to the largest pivot catches that case too.
template <class LU>
double reciprocalCondition(const LU& lu) {
  const auto diag = lu.matrixLU().diagonal().cwiseAbs();
  const double maxPivot = diag.maxCoeff();
  const double pivotRatio = maxPivot > 0 ? diag.minCoeff() / maxPivot : 0.0;
  const double rc = lu.rcond();
  return std::isfinite(rc) ? std::min(rc, pivotRatio) : 0.0;
}

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

std::string toString(DynamicsKind kind) {
  return kind == DynamicsKind::Vakonomic ? "vakonomic" : "nonholonomic";
}
std::string toString(Formulation f) {
  return f == Formulation::GibbsAppell ? "gibbs-appell" : "multipliers";
}
DynamicsKind parseDynamics(const std::string& text) {
  if (text == "nonholonomic") return DynamicsKind::Nonholonomic;
  if (text == "vakonomic") return DynamicsKind::Vakonomic;
  throw InputError("unknown dynamics '" + text + "' (allowed: nonholonomic, vakonomic)");
}
Formulation parseFormulation(const std::string& text) {
  if (text == "multipliers") return Formulation::Multipliers;
  if (text == "gibbs-appell") return Formulation::GibbsAppell;
  throw InputError("unknown formulation '" + text + "' (allowed: multipliers, gibbs-appell)");
}

// Preallocated scratch space: the integration hot path allocates nothing.
struct EquationsWorkspace {
  MatQY rho;
  VecQ v;  // ρ y
  std::vector<double> C;
  struct StructureEntry {
    int gamma, beta, alpha;
    double value;
  };
  std::vector<StructureEntry> structure;  // nonzero C^γ_{βα}
  bool structureValid = false;
  // Taped backend: one program computing v, p, F (without C-term and Q), M, A, b, Φ, L.
  bool taped = false;
  SymProgram program;
  int outV = 0, outP = 0, outF = 0, outM = 0, outA = 0, outB = 0, outPhi = 0, outL = 0;
  bool constantMatrices = false;  // M and A constant: factorisations computed once
  bool structureInTape = false;   // constant C-term already part of F on the tape
  bool direct = false;            // directProgram gives v, ẏ and λ in one run
  bool directGuarded = false;     // ... followed by det(A M⁻¹ Aᵀ) and its scale, to check
  double minvNorm = 1;            // max |M⁻¹| entry, for the 1×1 check
  SymProgram directProgram;
  bool factorsValid = false;
  std::vector<double> variables;
  Jet2 t2, q2[kMaxCoordinates], y2[kMaxVelocities], phi2[kMaxConstraints];
  Jet1 t1, q1[kMaxCoordinates], y1[kMaxVelocities], phi1[kMaxConstraints];
  MatY M, K;
  VecY F, p, Q, ydot, ydotParticular, rhs;
  MatKY A;
  MatYK MinvAt;
  MatK S;
  VecK b, lambda, phiV;
  SmallLU<kMaxVelocities> luM;
  SmallLU<kMaxConstraints> luS;
  Eigen::PartialPivLU<MatY> luK;
  Eigen::HouseholderQR<MatYK> qr;
  MatY Qfull;
  double lagrangian = 0;
};

EquationsOfMotion::EquationsOfMotion(std::shared_ptr<const SystemModel> system,
                                     DynamicsKind dynamics, Formulation formulation)
    : system_(std::move(system)),
      dynamics_(dynamics),
      formulation_(formulation),
      parameters_(system_->defaultParameters()),
      ws_(std::make_unique<EquationsWorkspace>()) {
  const int n = system_->n(), m = system_->m(), kt = system_->constraintsTotal();
  if (n > kMaxCoordinates || m > kMaxVelocities || kt > kMaxConstraints || kt > m)
    throw InputError("system '" + system_->name() + "' is too large for the engine (n ≤ " +
                     std::to_string(kMaxCoordinates) + ", m ≤ " + std::to_string(kMaxVelocities) +
                     ", constraints ≤ min(m, " + std::to_string(kMaxConstraints) + "))");
  ws_->C.assign(static_cast<size_t>(m) * m * m, 0.0);
  ws_->structure.reserve(static_cast<size_t>(m) * m * m);  // no allocation in the hot path
  buildTape();
}

EquationsOfMotion::~EquationsOfMotion() = default;
EquationsOfMotion::EquationsOfMotion(const EquationsOfMotion& o)
    : system_(o.system_),
      dynamics_(o.dynamics_),
      formulation_(o.formulation_),
      parameters_(o.parameters_),
      ws_(std::make_unique<EquationsWorkspace>(*o.ws_)) {}
EquationsOfMotion& EquationsOfMotion::operator=(const EquationsOfMotion& o) {
  if (this != &o) {
    system_ = o.system_;
    dynamics_ = o.dynamics_;
    formulation_ = o.formulation_;
    parameters_ = o.parameters_;
    ws_ = std::make_unique<EquationsWorkspace>(*o.ws_);
  }
  return *this;
}

int EquationsOfMotion::stateSize() const {
  const int base = system_->n() + system_->m();
  return dynamics_ == DynamicsKind::Vakonomic ? base + system_->constraintsTotal() : base;
}

void EquationsOfMotion::setParameters(const std::vector<double>& values) {
  if (values.size() != system_->info().parameters.size())
    throw InputError("system '" + system_->name() + "' takes " +
                     std::to_string(system_->info().parameters.size()) + " parameters, got " +
                     std::to_string(values.size()));
  parameters_ = values;
  ws_->structureValid = false;  // structure functions may depend on parameters
  buildTape();                  // parameters are constants of the tape
}

void EquationsOfMotion::setFormulation(Formulation f) {
  formulation_ = f;
  ws_->factorsValid = false;
}

bool EquationsOfMotion::isTaped() const { return ws_->taped; }

std::string EquationsOfMotion::compiledListing() const {
  if (!ws_->taped) return {};
  return ws_->direct ? ws_->directProgram.listing() : ws_->program.listing();
}

void EquationsOfMotion::setBackend(Backend backend) {
  backend_ = backend;
  buildTape();
}

// Records the system's functions once on a tape and compiles what theory §2–3 needs:
//   p = ∂L̃/∂y, M = ∂p/∂y, F = ρᵀ∂L̃/∂q − (∂p/∂t + ∂p/∂q ρy), A = ∂Φ/∂y,
//   b = −(∂Φ/∂t + ∂Φ/∂q ρy), with L̃ = L + μ·Φ for vakonomic dynamics.
void EquationsOfMotion::buildTape() {
  EquationsWorkspace& w = *ws_;
  w.taped = false;
  w.factorsValid = false;
  if (backend_ != Backend::Taped) return;
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  const bool vakonomic = dynamics_ == DynamicsKind::Vakonomic;
  const int nv = 1 + n + m + (vakonomic ? kt : 0);
  const double* par = parameters_.data();
  try {
    Tape tape;
    const Sym t = tape.variable(0);
    std::vector<Sym> q(n), y(m), mu(kt), rho(n * m), phi(kt);
    for (int i = 0; i < n; ++i) q[i] = tape.variable(1 + i);
    for (int a = 0; a < m; ++a) y[a] = tape.variable(1 + n + a);
    if (vakonomic)
      for (int c = 0; c < kt; ++c) mu[c] = tape.variable(1 + n + m + c);
    sys.anchor(par, q.data(), rho.data());
    std::vector<Sym> v(n, Sym(0.0));
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < m; ++a) v[i] += rho[i + n * a] * y[a];
    const Sym L = sys.lagrangian(par, t, q.data(), y.data());
    if (kt > 0) sys.constraints(par, t, q.data(), y.data(), phi.data());
    Sym Lt = L;
    if (vakonomic)
      for (int c = 0; c < kt; ++c) Lt += mu[c] * phi[c];
    auto D = [&](Sym f, int var) { return tape.derivative(f, var); };
    // Total derivative at frozen y along the motion: ∂_t + (ρy)·∂_q.
    auto along = [&](Sym f) {
      Sym r = D(f, 0);
      for (int i = 0; i < n; ++i) r += D(f, 1 + i) * v[i];
      return r;
    };
    std::vector<Sym> out;
    w.outV = 0;
    out.insert(out.end(), v.begin(), v.end());
    w.outP = static_cast<int>(out.size());
    std::vector<Sym> p(m);
    for (int a = 0; a < m; ++a) out.push_back(p[a] = D(Lt, 1 + n + a));
    w.outF = static_cast<int>(out.size());
    std::vector<Sym> F(m);
    for (int a = 0; a < m; ++a) {
      Sym rhoTLq(0.0);
      for (int i = 0; i < n; ++i) rhoTLq += rho[i + n * a] * D(Lt, 1 + i);
      F[a] = rhoTLq - along(p[a]);
    }
    // Constant structure functions go onto the tape: F_α += C^γ_{βα} y^β p_γ.
    w.structureInTape = sys.hasStructure() && sys.info().constantStructure;
    if (w.structureInTape) {
      std::vector<double> zeroQ(n, 0.0);
      sys.structure(par, zeroQ.data(), w.C.data());
      for (int g = 0; g < m; ++g)
        for (int b = 0; b < m; ++b)
          for (int a = 0; a < m; ++a)
            if (const double c = w.C[g + m * (b + m * a)]; c != 0) F[a] += c * y[b] * p[g];
    }
    out.insert(out.end(), F.begin(), F.end());
    w.outM = static_cast<int>(out.size());
    for (int b = 0; b < m; ++b)
      for (int a = 0; a < m; ++a) out.push_back(D(p[a], 1 + n + b));  // column-major
    w.outA = static_cast<int>(out.size());
    for (int a = 0; a < m; ++a)
      for (int c = 0; c < kt; ++c) out.push_back(D(phi[c], 1 + n + a));  // column-major
    w.outB = static_cast<int>(out.size());
    for (int c = 0; c < kt; ++c) out.push_back(-along(phi[c]));
    w.outPhi = static_cast<int>(out.size());
    out.insert(out.end(), phi.begin(), phi.end());
    w.outL = static_cast<int>(out.size());
    out.push_back(L);
    w.program = SymProgram(tape, nv, out);
    w.constantMatrices = true;
    for (int i = w.outM; i < w.outB; ++i) w.constantMatrices &= w.program.outputIsConstant(i);
    w.variables.assign(nv, 0.0);
    w.taped = true;

    // With M and A constant the multipliers solution is linear in (F, b) with constant
    // coefficients: ẏ = P F + Q b, λ = R F + S⁻¹ b (P = M⁻¹ − M⁻¹AᵀS⁻¹AM⁻¹, Q = M⁻¹AᵀS⁻¹,
    // R = −S⁻¹AM⁻¹). Folding them into the tape leaves one straight-line program for the
    // whole right-hand side; zero coefficients disappear.
    w.direct = false;
    if (w.constantMatrices && (!sys.hasStructure() || w.structureInTape) && !sys.hasForce()) {
      Eigen::MatrixXd M(m, m), A(kt, m);
      for (int i = 0; i < m * m; ++i) M.data()[i] = w.program.output(w.outM + i);
      for (int i = 0; i < kt * m; ++i) A.data()[i] = w.program.output(w.outA + i);
      const Eigen::FullPivLU<Eigen::MatrixXd> luM(M);
      if (luM.isInvertible()) {
        const Eigen::MatrixXd Minv = luM.inverse();
        Eigen::MatrixXd P = Minv, Q = Eigen::MatrixXd::Zero(m, kt), R = Eigen::MatrixXd::Zero(kt, m),
                        Sinv = Eigen::MatrixXd::Zero(kt, kt);
        bool regular = true;
        if (kt > 0) {
          const Eigen::FullPivLU<Eigen::MatrixXd> luS(A * Minv * A.transpose());
          regular = luS.isInvertible();
          if (regular) {
            Sinv = luS.inverse();
            Q = Minv * A.transpose() * Sinv;
            R = -Sinv * A * Minv;
            P = Minv + Q * A * Minv * -1.0;
          }
        }
        if (regular) {
          std::vector<Sym> direct(v.begin(), v.end());
          const auto bSym = std::vector<Sym>(out.begin() + w.outB, out.begin() + w.outB + kt);
          for (int a = 0; a < m; ++a) {
            Sym acc(0.0);
            for (int b = 0; b < m; ++b) acc += P(a, b) * F[b];
            for (int c = 0; c < kt; ++c) acc += Q(a, c) * bSym[c];
            direct.push_back(acc);
          }
          for (int c = 0; c < kt; ++c) {
            Sym lam(0.0);
            for (int b = 0; b < m; ++b) lam += R(c, b) * F[b];
            for (int d = 0; d < kt; ++d) lam += Sinv(c, d) * bSym[d];
            direct.push_back(lam);
          }
          w.directProgram = SymProgram(tape, nv, direct);
          w.direct = true;
        }
      }
    }

    // Constant M with a state-dependent A and at most two constraints (the particle, the
    // disk): A M⁻¹ Aᵀ is inverted in closed form on the tape. Its determinant and a scale
    // are extra outputs, so that a (nearly) singular state falls back to the general path,
    // which reports it with the condition number.
    w.directGuarded = false;
    bool constantM = true;
    for (int i = w.outM; i < w.outA; ++i) constantM &= w.program.outputIsConstant(i);
    if (!w.direct && constantM && kt >= 1 && kt <= 2 && (!sys.hasStructure() || w.structureInTape) &&
        !sys.hasForce()) {
      Eigen::MatrixXd M(m, m);
      for (int i = 0; i < m * m; ++i) M.data()[i] = w.program.output(w.outM + i);
      const Eigen::FullPivLU<Eigen::MatrixXd> luM(M);
      if (luM.isInvertible()) {
        const Eigen::MatrixXd Minv = luM.inverse();
        auto at = [&](int c, int a) { return Sym(out[w.outA + a * kt + c].id, true); };  // A(c, a)
        std::vector<Sym> u(m), W(m * kt);  // u = M⁻¹F, W = M⁻¹Aᵀ (column-major m×kt)
        for (int a = 0; a < m; ++a) {
          Sym acc(0.0);
          for (int b = 0; b < m; ++b) acc += Minv(a, b) * F[b];
          u[a] = acc;
          for (int c = 0; c < kt; ++c) {
            Sym wc(0.0);
            for (int b = 0; b < m; ++b) wc += Minv(a, b) * at(c, b);
            W[a + m * c] = wc;
          }
        }
        Sym S[2][2], r[2], scale(0.0);
        for (int c = 0; c < kt; ++c) {
          Sym rc(out[w.outB + c].id, true);
          for (int a = 0; a < m; ++a) rc -= at(c, a) * u[a];
          r[c] = rc;
          for (int d = 0; d < kt; ++d) {
            Sym sc(0.0);
            for (int a = 0; a < m; ++a) sc += at(c, a) * W[a + m * d];
            S[c][d] = sc;
          }
        }
        Sym lambda[2], det;
        if (kt == 1) {
          det = S[0][0];
          scale = S[0][0];  // S = A M⁻¹ Aᵀ is a scalar; the relative test is on M⁻¹ below
          lambda[0] = r[0] / det;
        } else {
          det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
          scale = S[0][0] * S[1][1];
          lambda[0] = (S[1][1] * r[0] - S[0][1] * r[1]) / det;
          lambda[1] = (S[0][0] * r[1] - S[1][0] * r[0]) / det;
        }
        Sym normA(0.0);  // Σ A², for the scale of a 1×1 S
        for (int c = 0; c < kt; ++c)
          for (int a = 0; a < m; ++a) normA += at(c, a) * at(c, a);
        std::vector<Sym> direct(v.begin(), v.end());
        for (int a = 0; a < m; ++a) {
          Sym acc = u[a];
          for (int c = 0; c < kt; ++c) acc += W[a + m * c] * lambda[c];
          direct.push_back(acc);
        }
        for (int c = 0; c < kt; ++c) direct.push_back(lambda[c]);
        direct.push_back(det);
        direct.push_back(kt == 1 ? normA : scale);
        w.directProgram = SymProgram(tape, nv, direct);
        w.direct = true;
        w.directGuarded = true;
        w.minvNorm = Minv.cwiseAbs().maxCoeff();
      }
    }
  } catch (const TapeError&) {
    w.taped = false;  // value-dependent functions: evaluate with jets instead
  }
}

void EquationsOfMotion::throwSingular(const char* what, double t, const Eigen::MatrixXd& matrix) const {
  // Off the hot path: the exact 2-norm condition number for the message.
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(matrix);
  const auto sv = svd.singularValues();
  const double cond = sv.size() && sv.minCoeff() > 0 ? sv.maxCoeff() / sv.minCoeff()
                                                     : std::numeric_limits<double>::infinity();
  throw SingularSystemError("system '" + system_->name() + "' is not regular at t = " +
                                formatNumber(t) + ": " + what + " is singular (condition number " +
                                formatNumber(cond) + ")",
                            t, cond);
}

// Seeds for the jets (theory §2): y + ε_y, t + ε_s, q + ε_s ρy + Σ ε_σα ρ_α. Then
//   ∂/∂y → p, A;  ∂/∂s → ∂_t + ρy·∂_q (the total derivative at frozen y);  ∂/∂σ → ρᵀ∂_q.
void EquationsOfMotion::loadTaped(double t, const double* q, const double* y,
                                  const double* mu) const {
  EquationsWorkspace& w = *ws_;
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  double* vars = w.variables.data();
  vars[0] = t;
  std::copy(q, q + n, vars + 1);
  std::copy(y, y + m, vars + 1 + n);
  if (dynamics_ == DynamicsKind::Vakonomic) std::copy(mu, mu + kt, vars + 1 + n + m);
  const SymProgram& prg = w.program;
  prg.run(vars);
  w.v.resize(n);
  w.p.resize(m);
  w.F.resize(m);
  w.M.resize(m, m);
  w.A.resize(kt, m);
  w.b.resize(kt);
  w.phiV.resize(kt);
  for (int i = 0; i < n; ++i) w.v[i] = prg.output(w.outV + i);
  for (int a = 0; a < m; ++a) {
    w.p[a] = prg.output(w.outP + a);
    w.F[a] = prg.output(w.outF + a);
  }
  if (!w.factorsValid) {
    for (int i = 0; i < m * m; ++i) w.M.data()[i] = prg.output(w.outM + i);
    for (int i = 0; i < kt * m; ++i) w.A.data()[i] = prg.output(w.outA + i);
  }
  for (int c = 0; c < kt; ++c) {
    w.b[c] = prg.output(w.outB + c);
    w.phiV[c] = prg.output(w.outPhi + c);
  }
  w.lagrangian = prg.output(w.outL);
}

void EquationsOfMotion::accelerations(double t, const double* q, const double* y,
                                      const double* mu) const {
  EquationsWorkspace& w = *ws_;
  const SystemModel& sys = *system_;
  const double* par = parameters_.data();
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  const int nj = 2 * m + 1, s = m;
  const bool vakonomic = dynamics_ == DynamicsKind::Vakonomic;

  if (w.taped) {
    loadTaped(t, q, y, mu);
  } else {
    w.rho.resize(n, m);
    sys.anchor(par, q, w.rho.data());
    w.v.noalias() = w.rho * Eigen::Map<const VecY>(y, m);

    // Lagrangian on a second-order jet.
    // Velocities and time only have the first m+1 directions; coordinates have all 2m+1.
    auto seed2 = [&](Jet2& j, double value, int directions) {
      j.v = value;
      j.n = directions;
      j.n2 = m + 1;
      std::fill(j.g, j.g + directions, 0.0);
      std::fill(j.h, j.h + (m + 1) * (m + 2) / 2, 0.0);
    };
    seed2(w.t2, t, m + 1);
    w.t2.g[s] = 1;
    for (int a = 0; a < m; ++a) {
      seed2(w.y2[a], y[a], m + 1);
      w.y2[a].g[a] = 1;
    }
    for (int i = 0; i < n; ++i) {
      seed2(w.q2[i], q[i], nj);
      w.q2[i].g[s] = w.v[i];
      for (int a = 0; a < m; ++a) w.q2[i].g[m + 1 + a] = w.rho(i, a);
    }
    const Jet2 L = sys.lagrangian(par, w.t2, w.q2, w.y2);
    w.lagrangian = L.v;

    w.M.resize(m, m);
    w.p.resize(m);
    w.F.resize(m);
    if (L.n2 == 0) throw InputError("the Lagrangian of '" + sys.name() + "' does not depend on the velocities");
    for (int a = 0; a < m; ++a) {
      w.p[a] = L.g[a];
      for (int b = 0; b < m; ++b) w.M(a, b) = L.hess(a, b);
      // F = ρᵀ∂L/∂q + Q − (∂p/∂t + ∂p/∂q ρ y); the C-term follows below.
      w.F[a] = (m + 1 + a < L.n ? L.g[m + 1 + a] : 0.0) - L.hess(a, s);
    }

    w.A.resize(kt, m);
    w.b.resize(kt);
    w.phiV.resize(kt);
    if (kt > 0) {
      if (vakonomic) {
        // L̃ = L + μ·Φ: add μ_a times each constraint's derivatives (theory §3).
        sys.constraints(par, w.t2, w.q2, w.y2, w.phi2);
        for (int c = 0; c < kt; ++c) {
          const Jet2& phi = w.phi2[c];
          w.phiV[c] = phi.v;
          if (phi.n == 0) throw InputError("constraint " + std::to_string(c + 1) + " of '" + sys.name() + "' is constant");
          w.b[c] = -phi.g[s];
          for (int a = 0; a < m; ++a) {
            w.A(c, a) = phi.g[a];
            w.p[a] += mu[c] * phi.g[a];
            for (int b = 0; b < m; ++b) w.M(a, b) += mu[c] * phi.hess(a, b);
            w.F[a] += mu[c] * ((m + 1 + a < phi.n ? phi.g[m + 1 + a] : 0.0) - phi.hess(a, s));
          }
        }
      } else {
        // Only A (y directions) and b (the s direction) are needed here: m+1 directions.
        auto seed1 = [&](Jet1& j, double value) {
          j.v = value;
          j.n = m + 1;
          std::fill(j.g, j.g + m + 1, 0.0);
        };
        seed1(w.t1, t);
        w.t1.g[s] = 1;
        for (int a = 0; a < m; ++a) {
          seed1(w.y1[a], y[a]);
          w.y1[a].g[a] = 1;
        }
        for (int i = 0; i < n; ++i) {
          seed1(w.q1[i], q[i]);
          w.q1[i].g[s] = w.v[i];
        }
        sys.constraints(par, w.t1, w.q1, w.y1, w.phi1);
        for (int c = 0; c < kt; ++c) {
          const Jet1& phi = w.phi1[c];
          w.phiV[c] = phi.v;
          w.b[c] = s < phi.n ? -phi.g[s] : 0.0;
          for (int a = 0; a < m; ++a) w.A(c, a) = a < phi.n ? phi.g[a] : 0.0;
        }
      }
    }
  }

  if (sys.hasStructure() && !(w.taped && w.structureInTape)) {
    // C^γ_{βα} y^β p_γ (theory §2; with p̃ = p + μA for the vakonomic case), over the
    // nonzero structure functions only; computed once when they do not depend on q.
    if (!w.structureValid) {
      sys.structure(par, q, w.C.data());
      w.structure.clear();
      for (int g = 0; g < m; ++g)
        for (int b = 0; b < m; ++b)
          for (int a = 0; a < m; ++a)
            if (const double c = w.C[g + m * (b + m * a)]; c != 0) w.structure.push_back({g, b, a, c});
      w.structureValid = sys.info().constantStructure;
    }
    for (const auto& e : w.structure) w.F[e.alpha] += e.value * y[e.beta] * w.p[e.gamma];
  }
  if (sys.hasForce()) {
    w.Q.resize(m);
    sys.force(par, t, q, y, w.Q.data());
    w.F += w.Q;
  }

  w.ydot.resize(m);
  w.lambda.resize(kt);
  if (formulation_ == Formulation::Multipliers || kt == 0) {
    const bool reuse = w.taped && w.constantMatrices && w.factorsValid;
    if (!reuse) {
      w.luM.compute(w.M, m);
      const double rcM = w.luM.reciprocalCondition();
      if (!(rcM > kMinReciprocalCondition)) throwSingular("the mass matrix M = ∂²L/∂y²", t, w.M);
    }
    w.rhs = w.F;
    w.luM.solveInPlace(w.rhs);  // free acceleration M⁻¹F
    if (kt == 0) {
      w.factorsValid = w.taped && w.constantMatrices;
      w.ydot = w.rhs;
      return;
    }
    if (!reuse) {
      w.MinvAt.resize(m, kt);
      for (int c = 0; c < kt; ++c) {
        double* col = w.MinvAt.col(c).data();
        for (int a = 0; a < m; ++a) col[a] = w.A(c, a);
        w.luM.solveInPlace(col);
      }
      w.S.resize(kt, kt);
      for (int c = 0; c < kt; ++c)
        for (int d = 0; d < kt; ++d) {
          double sum = 0;
          for (int a = 0; a < m; ++a) sum += w.A(c, a) * w.MinvAt(a, d);
          w.S(c, d) = sum;
        }
      w.luS.compute(w.S, kt);
      const double rcS = w.luS.reciprocalCondition();
      if (!(rcS > kMinReciprocalCondition)) throwSingular("A M⁻¹ Aᵀ", t, w.S);
      w.factorsValid = w.taped && w.constantMatrices;
    }
    for (int c = 0; c < kt; ++c) {  // λ = S⁻¹ (b − A ẏ_free)
      double sum = w.b[c];
      for (int a = 0; a < m; ++a) sum -= w.A(c, a) * w.rhs[a];
      w.lambda[c] = sum;
    }
    w.luS.solveInPlace(w.lambda);
    for (int a = 0; a < m; ++a) {
      double sum = w.rhs[a];
      for (int c = 0; c < kt; ++c) sum += w.MinvAt(a, c) * w.lambda[c];
      w.ydot[a] = sum;
    }
  } else {
    // Gibbs–Appell (seed 003 §7.2): ẏ = ẏ_p + N ż with A N = 0, A ẏ_p = b,
    // (Nᵀ M N) ż = Nᵀ (F − M ẏ_p). N and ẏ_p from the QR factorisation Aᵀ = Q R.
    w.qr.compute(w.A.transpose());
    const auto R = w.qr.matrixQR().topRows(kt).template triangularView<Eigen::Upper>();
    double dmin = INFINITY, dmax = 0;
    for (int c = 0; c < kt; ++c) {
      dmin = std::min(dmin, std::abs(w.qr.matrixQR()(c, c)));
      dmax = std::max(dmax, std::abs(w.qr.matrixQR()(c, c)));
    }
    if (!(dmin > kMinReciprocalCondition * dmax)) throwSingular("the constraint matrix A = ∂Φ/∂y", t, w.A);
    w.Qfull.resize(m, m);
    w.Qfull.setIdentity();
    w.Qfull.applyOnTheLeft(w.qr.householderQ());
    VecK wv = R.transpose().solve(w.b);
    w.ydotParticular.noalias() = w.Qfull.leftCols(kt) * wv;
    const int d = m - kt;
    w.K.resize(d, d);
    w.K.noalias() = w.Qfull.rightCols(d).transpose() * w.M * w.Qfull.rightCols(d);
    w.luK.compute(w.K);
    const double rcK = reciprocalCondition(w.luK);
    if (!(rcK > kMinReciprocalCondition)) throwSingular("the reduced mass matrix Nᵀ M N", t, w.K);
    w.rhs.resize(m);
    w.rhs.noalias() = w.F - w.M * w.ydotParticular;
    VecY z = w.luK.solve(w.Qfull.rightCols(d).transpose() * w.rhs);
    w.ydot = w.ydotParticular;
    w.ydot.noalias() += w.Qfull.rightCols(d) * z;
    // Multipliers only for reporting: R λ = Q₁ᵀ (M ẏ − F).
    w.rhs.noalias() = w.M * w.ydot - w.F;
    w.lambda.noalias() = w.Qfull.leftCols(kt).transpose() * w.rhs;
    R.solveInPlace(w.lambda);
  }
}

void EquationsOfMotion::rhs(double t, const double* x, double* dxdt) const {
  const int n = system_->n(), m = system_->m(), kt = system_->constraintsTotal();
  EquationsWorkspace& w = *ws_;
  if (w.taped && w.direct && formulation_ == Formulation::Multipliers) {
    double* vars = w.directProgram.variables();
    vars[0] = t;
    std::copy(x, x + w.variables.size() - 1, vars + 1);  // q, y (and μ) in state order
    w.directProgram.runLoaded();
    bool regular = true;
    if (w.directGuarded) {
      const double det = w.directProgram.output(n + m + kt), scale = w.directProgram.output(n + m + kt + 1);
      const double reference = kt == 1 ? scale * w.minvNorm : std::abs(scale);
      regular = std::isfinite(det) && std::abs(det) > kMinReciprocalCondition * reference;
    }
    if (regular) {
      for (int i = 0; i < n + m; ++i) dxdt[i] = w.directProgram.output(i);
      if (dynamics_ == DynamicsKind::Vakonomic)
        for (int c = 0; c < kt; ++c) dxdt[n + m + c] = -w.directProgram.output(n + m + c);
      return;
    }
    // Nearly singular: the general path decides, and reports it.
  }
  accelerations(t, x, x + n, x + n + m);
  for (int i = 0; i < n; ++i) dxdt[i] = ws_->v[i];
  for (int a = 0; a < m; ++a) dxdt[n + a] = ws_->ydot[a];
  if (dynamics_ == DynamicsKind::Vakonomic)
    for (int c = 0; c < kt; ++c) dxdt[n + m + c] = -ws_->lambda[c];
}

void EquationsOfMotion::observe(double t, const double* x, Observables& out) const {
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  accelerations(t, x, x + n, x + n + m);
  const EquationsWorkspace& w = *ws_;
  // Energy of the physical Lagrangian, E_L = p·y − L (theory §4); in the vakonomic case
  // ws.p holds p̃ = p + μA, so the μ part is taken off again.
  const double* y = x + n;
  double py = 0;
  for (int a = 0; a < m; ++a) py += w.p[a] * y[a];
  if (dynamics_ == DynamicsKind::Vakonomic)
    for (int c = 0; c < kt; ++c)
      for (int a = 0; a < m; ++a) py -= x[n + m + c] * w.A(c, a) * y[a];
  out.energy = py - w.lagrangian;
  out.phi.resize(kt);
  sys.constraints(parameters_.data(), t, x, x + n, out.phi.data());
  out.g.resize(sys.h());
  if (sys.h() > 0) sys.holonomic(parameters_.data(), t, x, out.g.data());
  out.lambda = w.lambda;
  out.ydot = w.ydot;
  out.reaction.resize(m);
  if (kt > 0)
    out.reaction.noalias() = w.A.transpose() * w.lambda;
  else
    out.reaction.setZero();
}

double EquationsOfMotion::energy(double t, const double* x) const {
  Observables o;
  observe(t, x, o);
  return o.energy;
}

namespace {
const double kZeroMultipliers[kMaxConstraints] = {};  // μ = 0: M̃ = M, and Φ, A do not depend on μ
}  // namespace

void EquationsOfMotion::velocityJacobian(double t, const double* q, const double* y) const {
  EquationsWorkspace& w = *ws_;
  if (w.taped) {
    loadTaped(t, q, y, kZeroMultipliers);
    return;
  }
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  w.t1 = Jet1(t);
  for (int i = 0; i < n; ++i) w.q1[i] = Jet1(q[i]);
  for (int a = 0; a < m; ++a) {
    w.y1[a].v = y[a];
    w.y1[a].n = m;
    std::fill(w.y1[a].g, w.y1[a].g + m, 0.0);
    w.y1[a].g[a] = 1;
  }
  sys.constraints(parameters_.data(), w.t1, w.q1, w.y1, w.phi1);
  w.phiV.resize(kt);
  w.A.resize(kt, m);
  for (int c = 0; c < kt; ++c) {
    w.phiV[c] = w.phi1[c].v;
    for (int a = 0; a < m; ++a) w.A(c, a) = w.phi1[c].n ? w.phi1[c].g[a] : 0.0;
  }
}

void EquationsOfMotion::massMatrix(double t, const double* q, const double* y) const {
  EquationsWorkspace& w = *ws_;
  if (w.taped) {
    loadTaped(t, q, y, kZeroMultipliers);
    return;
  }
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m();
  w.t2 = Jet2(t);
  for (int i = 0; i < n; ++i) w.q2[i] = Jet2(q[i]);
  for (int a = 0; a < m; ++a) {
    Jet2& j = w.y2[a];
    j.v = y[a];
    j.n = m;
    j.n2 = m;
    std::fill(j.g, j.g + m, 0.0);
    std::fill(j.h, j.h + m * (m + 1) / 2, 0.0);
    j.g[a] = 1;
  }
  const Jet2 L = sys.lagrangian(parameters_.data(), w.t2, w.q2, w.y2);
  w.M.resize(m, m);
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) w.M(a, b) = L.n2 ? L.hess(a, b) : 0.0;
}

double EquationsOfMotion::residual(double t, const double* x) const {
  const SystemModel& sys = *system_;
  double worst = 0;
  VecK phi(sys.constraintsTotal());
  sys.constraints(parameters_.data(), t, x, x + sys.n(), phi.data());
  if (phi.size()) worst = phi.cwiseAbs().maxCoeff();
  if (sys.h() > 0) {
    VecK g(sys.h());
    sys.holonomic(parameters_.data(), t, x, g.data());
    worst = std::max(worst, g.cwiseAbs().maxCoeff());
  }
  return worst;
}

bool EquationsOfMotion::completeVelocities(double t, double* x, const std::vector<bool>& keep) const {
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal();
  if (kt == 0) return true;
  EquationsWorkspace& w = *ws_;
  double* y = x + n;
  int freeIdx[kMaxVelocities];
  int f = 0;
  for (int a = 0; a < m; ++a)
    if (a >= static_cast<int>(keep.size()) || !keep[a]) freeIdx[f++] = a;
  if (f < kt) return false;
  // Newton iterations on Φ(y) = 0 over the free velocities, minimal change in the metric M.
  // Tolerances relative to the size of the terms of Φ (|A||y|): 1e7 m/s velocities
  // cannot be met to 1e-14 absolute.
  auto tolerance = [&](double relative) {
    double scale = 1;
    for (int c = 0; c < kt; ++c)
      for (int a = 0; a < m; ++a) scale = std::max(scale, std::abs(w.A(c, a) * y[a]));
    return relative * scale;
  };
  for (int iter = 0; iter < 20; ++iter) {
    velocityJacobian(t, x, y);
    if (w.phiV.cwiseAbs().maxCoeff() < tolerance(1e-14)) return true;
    if (!w.taped) massMatrix(t, x, y);  // the taped program has just produced M as well
    MatY Mf(f, f);
    MatKY Af(kt, f);
    for (int i = 0; i < f; ++i) {
      for (int j = 0; j < f; ++j) Mf(i, j) = w.M(freeIdx[i], freeIdx[j]);
      for (int c = 0; c < kt; ++c) Af(c, i) = w.A(c, freeIdx[i]);
    }
    Eigen::PartialPivLU<MatY> lu(Mf);
    if (!(reciprocalCondition(lu) > kMinReciprocalCondition)) {  // degenerate metric: fall back to Euclidean
      Mf.setIdentity();
      lu.compute(Mf);
    }
    const MatYK MinvAt = lu.solve(Af.transpose());
    const MatK S = Af * MinvAt;
    Eigen::FullPivLU<MatK> luS(S);
    if (luS.rank() < kt) return false;
    const VecK correction = luS.solve(w.phiV);
    const VecY delta = -MinvAt * correction;
    for (int i = 0; i < f; ++i) y[freeIdx[i]] += delta[i];
  }
  velocityJacobian(t, x, y);
  return w.phiV.cwiseAbs().maxCoeff() < tolerance(1e-10);
}

double EquationsOfMotion::project(double t, double* x) const {
  const SystemModel& sys = *system_;
  const int n = sys.n(), m = sys.m(), kt = sys.constraintsTotal(), h = sys.h();
  for (const QuaternionSlot& qs : sys.info().quaternions) {
    double* qq = x + qs.first;
    const double norm = std::sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
    if (norm > 0)
      for (int i = 0; i < 4; ++i) qq[i] /= norm;
  }
  if (h > 0) {
    // Gauss–Newton: q ← q − Gᵀ (G Gᵀ)⁻¹ g.
    Eigen::VectorXd g(h);
    Eigen::MatrixXd G(h, n);
    for (int iter = 0; iter < 10; ++iter) {
      sys.holonomic(parameters_.data(), t, x, g.data());
      if (g.cwiseAbs().maxCoeff() < 1e-15) break;
      sys.holonomicJacobian(parameters_.data(), t, x, G.data());
      const Eigen::VectorXd dq = G.transpose() * (G * G.transpose()).ldlt().solve(g);
      for (int i = 0; i < n; ++i) x[i] -= dq[i];
    }
  }
  if (kt > 0) {
    std::vector<bool> keep(m, false);
    completeVelocities(t, x, keep);
  }
  return residual(t, x);
}

}  // namespace nh
