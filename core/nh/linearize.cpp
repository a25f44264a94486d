// Linearisation on the constraint manifold (linearize.h).
#include "core/nh/linearize.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/nh/equation_pieces.h"
#include "core/nh/errors.h"
#include "core/nh/messages.h"
#include "core/nh/symbolic.h"

namespace nh {

namespace {

using pieces::jacobianOf;
using pieces::Pieces;
using pieces::PiecesProgram;

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

// Which coordinates are declared cyclic. An attitude quaternion is declared whole or not at
// all (one that is not goes into an attitude chart).
std::vector<bool> cyclicCoordinates(const SystemModel& sys) {
  const SystemInfo& info = sys.info();
  std::vector<bool> cyclic(sys.n(), false);
  for (int i : sys.cyclicIndices()) cyclic[i] = true;
  for (const QuaternionSlot& qs : info.quaternions) {
    const int declared = static_cast<int>(
        std::count(cyclic.begin() + qs.first, cyclic.begin() + qs.first + 4, true));
    if (declared != 0 && declared != 4)
      throw InputError("'" + sys.name() + "' declares some components of its attitude (" +
                       info.coordinates[qs.first] + " " + info.coordinates[qs.first + 1] + " " +
                       info.coordinates[qs.first + 2] + " " + info.coordinates[qs.first + 3] +
                       "), a unit quaternion, cyclic but not all: linearize needs all four or "
                       "none");
  }
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
  if (!dependent.empty()) return dependent;
  // No declared split that A can be solved for (a model without `independent` keeps every
  // velocity): any velocities A can be solved for, as a run's start completes them.
  std::vector<int> every(m);
  for (int a = 0; a < m; ++a) every[a] = a;
  dependent = pivotColumns(A, every);
  if (dependent.empty())
    throw InputError("the constraints of '" + sys.name() +
                     "' cannot be solved for any of its velocities at this state (their "
                     "matrix A has rank below its " +
                     std::to_string(A.rows()) + " rows)");
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

  // The same for moves of the coordinates given as the columns of `dq` (n × c, zero in the
  // dependent coordinates' rows): an attitude chart's directions.
  Eigen::MatrixXd along(const Eigen::MatrixXd& dq) const {
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(n_ + m_, dq.cols());
    T.topRows(n_) = dq;
    if (h_ > 0) {  // G_d δq_d = −G δq
      const Eigen::MatrixXd dependent = -luG_.solve(G_ * dq);
      for (int c = 0; c < h_; ++c) T.row(dependentQ_[c]) = dependent.row(c);
    }
    if (kt_ > 0) {  // A_d δy_d = −Φ_q δq
      const Eigen::MatrixXd dy = -luA_.solve(phiQ_ * T.topRows(n_));
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
// SJ: the reduced rows of the Jacobian, S J.
double cyclicCouplingOf(const SystemModel& sys, const Eigen::MatrixXd& SJ,
                        const Tangents& tangents) {
  if (sys.cyclicIndices().empty()) return 0;
  double coupling = 0;
  const Eigen::MatrixXd moved = SJ * tangents(sys.cyclicIndices(), {});
  for (int c = 0; c < moved.rows(); ++c) {
    double terms = 1;
    for (int j = 0; j < SJ.cols(); ++j) terms = std::max(terms, std::abs(SJ(c, j)));
    coupling = std::max(coupling, moved.row(c).cwiseAbs().maxCoeff() / terms);
  }
  return coupling;
}

// The reduced right-hand side S f (q̇ of the kept coordinates, an attitude chart's rates, ẏ
// of the kept velocities) and whether it is small against the terms of f (|S J||x|).
void setReducedRhs(Linearization& out, const Pieces& P, const Eigen::VectorXd& ydot,
                   const Eigen::MatrixXd& S, const Eigen::MatrixXd& SJ,
                   const std::vector<double>& x) {
  Eigen::VectorXd f(P.n + P.m);
  f << P.v, ydot;
  out.reducedRhs = S * f;
  double scale = 1;
  for (int c = 0; c < SJ.rows(); ++c) {
    double terms = 0;
    for (int j = 0; j < SJ.cols(); ++j) terms += std::abs(SJ(c, j) * x[j]);
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

// ---- Attitude charts --------------------------------------------------------------------
// A unit quaternion q the equations read is linearised in the chart
//   q = exp(θ u/2) ⊗ q0 ⊗ exp(σ/2)   (u, σ in body axes at q0; exp(θ u/2) turns about the
// space axis R0 u), the body-frame exponential coordinates σ of the directions the equations
// read and θ about the one they do not (the vertical, for a body on a level plane). With
// q̇ = ½ q ⊗ (0, ω), δq = ½ q0 ⊗ (0, δσ) and δσ̇ = Vᵀ(2 vec(q0⁻¹ ⊗ δq̇) + ½ θ̇ δσ × u), θ̇ = u·ω:
// the last term is the chart turning with θ (at a relative equilibrium θ̇ is the spin about u).

// [a]×, the matrix of a × ·.
Eigen::Matrix3d crossMatrix(const Eigen::Vector3d& a) {
  Eigen::Matrix3d X;
  X << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return X;
}

// δq = ½ q0 ⊗ (0, δξ): the columns for δξ = e1, e2, e3 (q0 = (w, x, y, z)).
Eigen::Matrix<double, 4, 3> chartColumns(const Eigen::Vector4d& q0) {
  Eigen::Matrix<double, 4, 3> E;
  E.row(0) = -0.5 * q0.tail<3>().transpose();
  E.bottomRows<3>() = 0.5 * (q0[0] * Eigen::Matrix3d::Identity() + crossMatrix(q0.tail<3>()));
  return E;
}

// Their left inverse δξ = 2 vec(q0⁻¹ ⊗ δq); applied to q̇ it gives the body-frame ω.
Eigen::Matrix<double, 3, 4> chartRows(const Eigen::Vector4d& q0) {
  Eigen::Matrix<double, 3, 4> L;
  L.col(0) = -q0.tail<3>();
  L.rightCols<3>() = q0[0] * Eigen::Matrix3d::Identity() - crossMatrix(q0.tail<3>());
  return (2 / q0.squaredNorm()) * L;
}

struct AttitudeChart {
  int first = 0;  // the quaternion's index in q
  Eigen::Vector4d q0;
  Eigen::Vector3d dropped = Eigen::Vector3d::Zero();  // u, unit; zero when none is dropped
  Eigen::MatrixXd kept;                               // V: 3 × k, orthonormal
  std::vector<std::string> names;                     // of the kept directions
};

// The quaternions that are not declared cyclic (the equations read them).
std::vector<int> chartSlots(const SystemModel& sys, const std::vector<bool>& cyclic) {
  std::vector<int> firsts;
  for (const QuaternionSlot& qs : sys.info().quaternions)
    if (!cyclic[qs.first]) firsts.push_back(qs.first);
  return firsts;
}

// The coordinate moves (n × 3) of the body-frame directions of the quaternion at `first`.
Eigen::MatrixXd chartMoves(int n, int first, const Eigen::Vector4d& q0) {
  Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(n, 3);
  dq.middleRows(first, 4) = chartColumns(q0);
  return dq;
}

// The orthonormal body directions (3 × d) that none of `blocks` reads: the null space of
// the stacked blocks (rows × 3), singular values at most `tolerance` counting as zero.
Eigen::MatrixXd unreadDirections(const std::vector<Eigen::MatrixXd>& blocks, double tolerance) {
  Eigen::Index rows = 0;
  for (const auto& b : blocks) rows += b.rows();
  if (rows == 0) return Eigen::Matrix3d::Identity();
  Eigen::MatrixXd stacked(rows, 3);
  rows = 0;
  for (const auto& b : blocks) {
    stacked.middleRows(rows, b.rows()) = b;
    rows += b.rows();
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(stacked, Eigen::ComputeFullV);
  int rank = 0;
  for (Eigen::Index i = 0; i < svd.singularValues().size(); ++i)
    if (svd.singularValues()[i] > tolerance) ++rank;
  return svd.matrixV().rightCols(3 - rank);
}

// u without round-off noise (components below 1e-12 set to zero), unit, its largest
// component positive.
Eigen::Vector3d cleanDirection(Eigen::Vector3d u) {
  for (int i = 0; i < 3; ++i)
    if (std::abs(u[i]) < 1e-12) u[i] = 0;
  u.normalize();
  Eigen::Index largest = 0;
  u.cwiseAbs().maxCoeff(&largest);
  return u[largest] < 0 ? Eigen::Vector3d(-u) : u;
}

// The kept directions for one dropped direction u: the body axes least along u, made
// orthogonal to it (the two other axes exactly when u is an axis), named ξ by their axes.
void keepAllBut(AttitudeChart& chart, const std::string& suffix) {
  const Eigen::Vector3d& u = chart.dropped;
  std::vector<int> axes = {0, 1, 2};
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int a, int b) { return std::abs(u[a]) < std::abs(u[b]); });
  Eigen::Vector3d v1 = Eigen::Vector3d::Unit(axes[0]) - u[axes[0]] * u;
  v1.normalize();
  Eigen::Vector3d v2 = u.cross(v1);
  const int second = axes[1];
  if (v2[second] < 0) v2 = -v2;
  chart.kept.resize(3, 2);
  if (axes[0] < second) {
    chart.kept << v1, v2;
    chart.names = {"xi" + std::to_string(axes[0] + 1) + suffix,
                   "xi" + std::to_string(second + 1) + suffix};
  } else {
    chart.kept << v2, v1;
    chart.names = {"xi" + std::to_string(second + 1) + suffix,
                   "xi" + std::to_string(axes[0] + 1) + suffix};
  }
}

// The chart of the quaternion at `first` given the directions the equations do not read.
AttitudeChart makeChart(const SystemModel& sys, int first, const Eigen::Vector4d& q0,
                        const Eigen::MatrixXd& unread, int slotCount) {
  AttitudeChart chart;
  chart.first = first;
  chart.q0 = q0;
  const std::string suffix = slotCount > 1 ? "_" + sys.info().coordinates[first] : "";
  if (unread.cols() == 0) {
    chart.kept = Eigen::Matrix3d::Identity();
    for (int k = 1; k <= 3; ++k) chart.names.push_back("xi" + std::to_string(k) + suffix);
  } else if (unread.cols() == 1) {
    chart.dropped = cleanDirection(unread.col(0));
    keepAllBut(chart, suffix);
  } else if (unread.cols() == 2) {
    const SystemInfo& info = sys.info();
    throw InputError("the equations of '" + sys.name() + "' read its attitude (" +
                     info.coordinates[first] + " " + info.coordinates[first + 1] + " " +
                     info.coordinates[first + 2] + " " + info.coordinates[first + 3] +
                     "), a unit quaternion, about one direction only: linearize drops one "
                     "direction the equations do not read (a rotation about a fixed axis) "
                     "or all three");
  } else {
    chart.kept.resize(3, 0);
  }
  return chart;
}

// What linearize keeps and drops at one state.
struct Reduction {
  std::vector<int> dependentQ, keptQ, dependentY, keptY;
  std::vector<AttitudeChart> charts;
};

// A state with the coordinates of x but other velocities: generic values added to the kept
// ones, the dependent ones solved from Φ = 0 again (Newton steps; Φ is affine in y). An
// attitude direction that neither this state nor x reads is one the equations do not read,
// not the accident of a state at rest. None when the constraints cannot be solved there.
std::optional<std::vector<double>> probeState(const PiecesProgram& program, double t,
                                              const std::vector<double>& x, int n,
                                              const Reduction& r) {
  std::vector<double> probe(x);
  for (size_t c = 0; c < r.keptY.size(); ++c)
    probe[n + r.keptY[c]] += 0.3 + std::fmod(0.6180339887498949 * static_cast<double>(c + 1), 1.0);
  const int kt = static_cast<int>(r.dependentY.size());
  for (int iteration = 0; iteration < 3 && kt > 0; ++iteration) {
    const Pieces P = program.at(t, probe.data());
    Eigen::MatrixXd Ad(kt, kt);
    for (int c = 0; c < kt; ++c) Ad.col(c) = P.A.col(r.dependentY[c]);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(Ad);
    if (!lu.isInvertible()) return std::nullopt;
    const Eigen::VectorXd step = lu.solve(P.phi);
    for (int c = 0; c < kt; ++c) probe[n + r.dependentY[c]] -= step[c];
  }
  return probe;
}

// The kept coordinates' and velocities' rows (the rows that read the attitude) of J times
// the tangent vectors of the body directions of the quaternion at `first`.
Eigen::MatrixXd readingBlock(const Eigen::MatrixXd& J, const Tangents& tangents, const Reduction& r,
                             int first, const Eigen::Vector4d& q0) {
  const int n = static_cast<int>(J.rows()) - static_cast<int>(r.keptY.size()) -
                static_cast<int>(r.dependentY.size());
  const Eigen::MatrixXd T = tangents.along(chartMoves(n, first, q0));
  Eigen::MatrixXd block(r.keptQ.size() + r.keptY.size(), 3);
  Eigen::Index row = 0;
  for (int i : r.keptQ) block.row(row++) = J.row(i) * T;
  for (int a : r.keptY) block.row(row++) = J.row(n + a) * T;
  return block;
}

// The largest entry of J in the reading rows, at least 1.
double readingScale(const Eigen::MatrixXd& J, const Reduction& r) {
  const int n = static_cast<int>(J.rows()) - static_cast<int>(r.keptY.size()) -
                static_cast<int>(r.dependentY.size());
  double scale = 1;
  for (int i : r.keptQ) scale = std::max(scale, J.row(i).cwiseAbs().maxCoeff());
  for (int a : r.keptY) scale = std::max(scale, J.row(n + a).cwiseAbs().maxCoeff());
  return scale;
}

// The Jacobian and tangents at the probe state, when it exists and the equations are
// regular there.
struct Probe {
  Pieces pieces;
  Eigen::MatrixXd J;
};
std::optional<Probe> probeAt(const EquationsOfMotion& equations, const PiecesProgram& program,
                             double t, const std::vector<double>& x, const Reduction& r) {
  const std::optional<std::vector<double>> state =
      probeState(program, t, x, equations.system().n(), r);
  if (!state) return std::nullopt;
  Probe probe;
  probe.pieces = program.at(t, state->data());
  try {
    probe.J = jacobianOf(equations, probe.pieces);
  } catch (const InputError&) {
    return std::nullopt;
  }
  return probe;
}

// The chart of every quaternion the equations read: the body directions that neither the
// state nor the probe reads (Jacobian columns along the manifold below 1e-9 of its entries)
// are dropped.
std::vector<AttitudeChart> attitudeCharts(const EquationsOfMotion& equations,
                                          const PiecesProgram& program, double t,
                                          const std::vector<double>& x, const Eigen::MatrixXd& J,
                                          const Tangents& tangents, const Eigen::MatrixXd& G,
                                          const Reduction& r, const std::vector<int>& slots) {
  if (slots.empty()) return {};
  const SystemModel& sys = equations.system();
  const std::optional<Probe> probe = probeAt(equations, program, t, x, r);
  std::optional<Tangents> probeTangents;
  double tolerance = readingScale(J, r);
  if (probe) {
    probeTangents.emplace(sys, probe->pieces, G, r.dependentQ, r.dependentY);
    tolerance = std::max(tolerance, readingScale(probe->J, r));
  }
  tolerance *= 1e-9;
  std::vector<AttitudeChart> charts;
  for (int first : slots) {
    const Eigen::Vector4d q0(x[first], x[first + 1], x[first + 2], x[first + 3]);
    std::vector<Eigen::MatrixXd> blocks = {readingBlock(J, tangents, r, first, q0)};
    if (probe) blocks.push_back(readingBlock(probe->J, *probeTangents, r, first, q0));
    charts.push_back(makeChart(sys, first, q0, unreadDirections(blocks, tolerance),
                               static_cast<int>(slots.size())));
  }
  return charts;
}

// The reduced variables' frame: S (r × (n + m)) picks or charts their rows of ẋ, T
// ((n + m) × r) holds their tangent vectors; kept coordinates, the charts' directions, kept
// velocities. Their names and state indices go to `out`.
struct Frame {
  Eigen::MatrixXd S, T;
};
Frame reducedFrame(const SystemModel& sys, const Reduction& r, const Tangents& tangents,
                   Linearization& out) {
  const SystemInfo& info = sys.info();
  const int n = sys.n(), m = sys.m();
  const int nq = static_cast<int>(r.keptQ.size()), ny = static_cast<int>(r.keptY.size());
  int nc = 0;
  for (const AttitudeChart& chart : r.charts) nc += static_cast<int>(chart.kept.cols());
  const Eigen::MatrixXd T0 = tangents(r.keptQ, r.keptY);
  Frame frame{Eigen::MatrixXd::Zero(nq + nc + ny, n + m), Eigen::MatrixXd(n + m, nq + nc + ny)};
  frame.T.leftCols(nq) = T0.leftCols(nq);
  frame.T.rightCols(ny) = T0.rightCols(ny);
  for (int c = 0; c < nq; ++c) {
    frame.S(c, r.keptQ[c]) = 1;
    out.variables.push_back(info.coordinates[r.keptQ[c]]);
    out.stateIndex.push_back(r.keptQ[c]);
  }
  int row = nq;
  for (const AttitudeChart& chart : r.charts) {
    const int k = static_cast<int>(chart.kept.cols());
    frame.T.middleCols(row, k) = tangents.along(chartMoves(n, chart.first, chart.q0) * chart.kept);
    frame.S.block(row, chart.first, k, 4) = chart.kept.transpose() * chartRows(chart.q0);
    out.variables.insert(out.variables.end(), chart.names.begin(), chart.names.end());
    out.stateIndex.insert(out.stateIndex.end(), k, -1);
    row += k;
  }
  for (int c = 0; c < ny; ++c) {
    frame.S(row + c, n + r.keptY[c]) = 1;
    out.variables.push_back(info.velocities[r.keptY[c]]);
    out.stateIndex.push_back(n + r.keptY[c]);
  }
  return frame;
}

// Each chart turns with its dropped direction: − ½ θ̇ Vᵀ [u]× V on its block of the reduced
// Jacobian (θ̇ = u·ω, ω the quaternion's body-frame rate at the state; chart blocks start at
// row `offset`).
void addChartTurning(Eigen::MatrixXd& jacobian, const std::vector<AttitudeChart>& charts,
                     const Pieces& P, int offset) {
  int at = offset;
  for (const AttitudeChart& chart : charts) {
    const int k = static_cast<int>(chart.kept.cols());
    const Eigen::Vector4d rate = P.v.segment<4>(chart.first);
    const double spin = chart.dropped.dot(chartRows(chart.q0) * rate);
    if (k > 0 && spin != 0)
      jacobian.block(at, at, k, k) -=
          0.5 * spin * chart.kept.transpose() * crossMatrix(chart.dropped) * chart.kept;
    at += k;
  }
}

}  // namespace

Linearization linearize(const EquationsOfMotion& equations, double t,
                        const std::vector<double>& x) {
  const SystemModel& sys = equations.system();
  const int n = sys.n(), m = sys.m(), h = sys.h();
  if (equations.dynamics() != DynamicsKind::Nonholonomic)
    throw InputError(
        "linearize works on the nonholonomic equations; the vakonomic ones are not "
        "supported");
  if (static_cast<int>(x.size()) < n + m) throw InputError("linearize: state too short");
  const std::vector<bool> cyclic = cyclicCoordinates(sys);
  refuseSingularPoint(equations, t, x);
  const std::vector<int> slots = chartSlots(sys, cyclic);
  std::vector<bool> notKept = cyclic;  // cyclic, in an attitude chart, or dependent
  for (int first : slots) std::fill(notKept.begin() + first, notKept.begin() + first + 4, true);

  Eigen::MatrixXd G(h, n);
  if (h > 0) sys.holonomicJacobian(equations.parameters().data(), t, x.data(), G.data());
  Reduction r;
  r.dependentQ = dependentCoordinates(sys, G, notKept);
  for (int i : r.dependentQ) notKept[i] = true;
  r.keptQ = keptIndices(n, notKept);

  const PiecesProgram program(equations);
  const Pieces P = program.at(t, x.data());
  Eigen::VectorXd ydot;
  const Eigen::MatrixXd J = jacobianOf(equations, P, &ydot);
  r.dependentY = dependentVelocities(sys, P.A);
  std::vector<bool> skipY(m, false);
  for (int a : r.dependentY) skipY[a] = true;
  r.keptY = keptIndices(m, skipY);

  const Tangents tangents(sys, P, G, r.dependentQ, r.dependentY);
  r.charts = attitudeCharts(equations, program, t, x, J, tangents, G, r, slots);
  Linearization out;
  const Frame frame = reducedFrame(sys, r, tangents, out);
  out.jacobian = frame.S * J * frame.T;
  addChartTurning(out.jacobian, r.charts, P, static_cast<int>(r.keptQ.size()));
  const Eigen::MatrixXd SJ = frame.S * J;
  out.cyclicCoupling = cyclicCouplingOf(sys, SJ, tangents);
  setReducedRhs(out, P, ydot, frame.S, SJ, x);
  out.eigenvalues = sortedEigenvalues(sys, out.jacobian);
  return out;
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
