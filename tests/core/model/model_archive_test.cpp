// The bundled model files compiled ahead (model_archive.h, built by nhcompile_models) are the
// models their files load to: the same data and description, and equations whose right-hand
// sides agree bit for bit at random states. The derived expressions (GiNaC's: the anchor's
// coefficients and the holonomic rate and Jacobian) are compared by value: GiNaC orders their
// terms by hashes that vary from one process to the next, so two loads of one file may add
// the same terms in another order.
#include "core/model/model_archive.h"

#include <QtTest>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/model/catalogue.h"
#include "core/model/expression.h"
#include "core/model/model_data.h"
#include "core/model/model_file.h"
#include "core/nh/dynamics.h"
#include "core/nh/errors.h"

using namespace nh;

namespace {

struct Pair {
  std::string file;
  std::shared_ptr<const model::FormulaSystem> compiled, loaded;
};

// Each bundled model file compiled ahead and loaded from its text, as the catalogue would.
std::vector<Pair> pairs() {
  std::vector<Pair> out;
  for (const auto& [file, text] : bundledModelFiles()) {
    Pair p{file, nullptr, model::loadModelText(text, "resources/systems/" + file)};
    for (const model::CompiledModel& c : model::compiledModels())
      if (c.file == file) p.compiled = model::unarchiveModel(c.archive);
    out.push_back(std::move(p));
  }
  return out;
}

// The derived expressions of a model, one list after the other.
std::vector<model::Expression> derived(const model::ModelData& d) {
  std::vector<model::Expression> all = d.rho;
  all.insert(all.end(), d.holonomicRate.begin(), d.holonomicRate.end());
  all.insert(all.end(), d.holonomicJacobian.begin(), d.holonomicJacobian.end());
  return all;
}

// Whether the derived expressions of a and b have the same values (to round-off) at random
// values of every slot.
bool sameDerivedValues(const model::ModelData& a, const model::ModelData& b) {
  const std::vector<model::Expression> ea = derived(a), eb = derived(b);
  if (ea.size() != eb.size()) return false;
  std::mt19937 random(11);
  std::uniform_real_distribution<double> slot(-2.0, 2.0);
  std::vector<double> env(a.layout.size());
  std::vector<double> scratch(std::max(a.maxNodes, b.maxNodes) + 1);
  for (int sample = 0; sample < 20; ++sample) {
    for (double& v : env) v = slot(random);
    for (size_t i = 0; i < ea.size(); ++i) {
      const double va = model::evaluate(ea[i], env.data(), scratch.data());
      const double vb = model::evaluate(eb[i], env.data(), scratch.data());
      if (std::isfinite(va) != std::isfinite(vb)) return false;
      if (std::isfinite(va) && std::abs(va - vb) > 1e-12 * (1 + std::abs(va))) return false;
    }
  }
  return true;
}

// The archive of a system with its derived expressions left out: everything else, bit for bit.
std::string archiveWithoutDerived(const model::FormulaSystem& system) {
  auto data = std::make_shared<model::ModelData>(system.data());
  data->rho.clear();
  data->holonomicRate.clear();
  data->holonomicJacobian.clear();
  return model::archiveModel(model::FormulaSystem(data, system.info()));
}

// dx/dt at `states` random states near the model's default start, as raw bits; a state where
// the equations are singular gives the message instead.
std::vector<std::string> rhsBits(const std::shared_ptr<const SystemModel>& system,
                                 DynamicsKind kind, int states) {
  const EquationsOfMotion eq(system, kind);
  EquationsWorkspace ws(eq);
  const SystemInfo& info = system->info();
  std::vector<double> start = info.defaultCoordinates;
  start.insert(start.end(), info.defaultVelocities.begin(), info.defaultVelocities.end());
  start.resize(eq.stateSize(), 0.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> noise(-0.5, 0.5);
  std::vector<std::string> out;
  for (int s = 0; s < states; ++s) {
    std::vector<double> x = start, dxdt(start.size(), 0.0);
    for (double& v : x) v += noise(random);
    const double t = noise(random);
    try {
      eq.rhs(ws, t, x.data(), dxdt.data());
      out.emplace_back(reinterpret_cast<const char*>(dxdt.data()), dxdt.size() * sizeof(double));
    } catch (const SingularSystemError& e) {
      out.emplace_back(e.what());
    }
  }
  return out;
}

}  // namespace

class ModelArchiveTest : public QObject {
  Q_OBJECT
 private slots:
  // Every bundled file has its archive, and it holds what loading the file gives: the
  // derived expressions with the same values, everything else (the ModelData memberwise, the
  // SystemInfo through the archive's bytes) bit for bit.
  void compiledAheadIsTheLoadedModel() {
    const std::vector<Pair> all = pairs();
    QCOMPARE(model::compiledModels().size(), all.size());
    for (const Pair& p : all) {
      const QByteArray file = QByteArray::fromStdString(p.file);
      QVERIFY2(p.compiled, file);
      QVERIFY2(sameDerivedValues(p.compiled->data(), p.loaded->data()), file);
      QVERIFY2(archiveWithoutDerived(*p.compiled) == archiveWithoutDerived(*p.loaded), file);
      model::ModelData a = p.compiled->data(), b = p.loaded->data();
      for (model::ModelData* d : {&a, &b}) d->rho = d->holonomicRate = d->holonomicJacobian = {};
      QVERIFY2(a == b, file);
    }
  }

  // The equations taped from both agree bit for bit (nonholonomic and vakonomic).
  void rightHandSidesAgreeBitForBit() {
    for (const Pair& p : pairs()) {
      if (p.loaded->info().isControlModel()) continue;  // moved by a plan, not by equations
      for (const DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic}) {
        const std::vector<std::string> a = rhsBits(p.compiled, kind, 20);
        const std::vector<std::string> b = rhsBits(p.loaded, kind, 20);
        QVERIFY2(a == b, QByteArray::fromStdString(p.file));
      }
    }
  }

  // Bytes that are not a whole archive are refused.
  void refusesMalformedBytes() {
    const std::string bytes(model::compiledModels().front().archive);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, model::unarchiveModel(""));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, model::unarchiveModel("not an archive"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             model::unarchiveModel(bytes.substr(0, bytes.size() / 2)));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, model::unarchiveModel(bytes + "x"));
  }
};

QTEST_APPLESS_MAIN(ModelArchiveTest)
#include "model_archive_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
