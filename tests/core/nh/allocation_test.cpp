// The integration hot path allocates nothing (style guide, "Model vs data"): rhs, observe,
// project and a Simulation's step loop, after a warm-up call with the same workspace, for
// every catalogue system (and a holonomic one), both dynamics, both formulations, both
// backends and every integrator (nh-rattle where it applies). Global operator new/delete
// are replaced by counting versions; with glibc (and no sanitizer, which has its own
// allocator) malloc and friends are counted as well, since Eigen allocates its dynamic-size
// storage with malloc.
#include <QtTest>
#include <atomic>
#include <cstdlib>
#include <new>

#include "core/model/catalogue.h"
#include "core/nh/scenario.h"
#include "core/nh/simulation.h"
#include "tests/core/test_support.h"
#include "tests/support/catalogue_systems.h"

namespace {
std::atomic<bool> gCounting{false};
std::atomic<long> gAllocations{0};

void noteAllocation() {
  if (gCounting.load(std::memory_order_relaxed))
    gAllocations.fetch_add(1, std::memory_order_relaxed);
}

// Allocations made while f runs.
template <class F>
long allocationsDuring(F&& f) {
  gAllocations = 0;
  gCounting = true;
  f();
  gCounting = false;
  return gAllocations.load();
}
}  // namespace

void* operator new(std::size_t size) {
  noteAllocation();
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  noteAllocation();
  return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return ::operator new(size, tag);
}
void* operator new(std::size_t size, std::align_val_t align) {
  noteAllocation();
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return ::operator new(size, align);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#if defined(__GLIBC__) && !defined(NH_TEST_SANITIZER)
#define NH_COUNT_MALLOC 1
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* malloc(std::size_t size) {
  noteAllocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  noteAllocation();
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  noteAllocation();
  return __libc_realloc(p, size);
}
void* aligned_alloc(std::size_t align, std::size_t size) {
  noteAllocation();
  return __libc_memalign(align, size);
}
int posix_memalign(void** out, std::size_t align, std::size_t size) {
  noteAllocation();
  *out = __libc_memalign(align, size);
  return *out ? 0 : ENOMEM;
}
}
#endif

using namespace nh;

namespace {

std::vector<std::shared_ptr<const SystemModel>> systemsUnderTest() {
  auto systems = test::systemsWithDynamics();
  systems.push_back(makeSystem<nh::test::SphericalPendulum>());
  return systems;
}

QString label(const SystemModel& system, DynamicsKind kind, Formulation f, Backend b) {
  return QString("%1, %2, %3, %4")
      .arg(QString::fromStdString(system.name()), QString::fromStdString(toString(kind)),
           QString::fromStdString(toString(f)), b == Backend::Taped ? "taped" : "jets");
}

}  // namespace

class AllocationTest : public QObject {
  Q_OBJECT
 private slots:
  // The counter sees an allocation: the test can fail.
  void counterSeesAllocations() {
    const long counted = allocationsDuring([] {
      std::vector<double> v(1000);
      QVERIFY(v.data() != nullptr);
    });
    QVERIFY(counted >= 1);
#ifdef NH_COUNT_MALLOC
    const long counted2 = allocationsDuring([] {
      Eigen::VectorXd v(1000);  // Eigen's dynamic storage goes through malloc
      v.setZero();
    });
    QVERIFY(counted2 >= 1);
#endif
  }

  void equationsAllocateNothing() {
    std::mt19937 rng(5);
    for (const auto& system : systemsUnderTest())
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic})
        for (Formulation f : {Formulation::Multipliers, Formulation::GibbsAppell})
          for (Backend b : {Backend::Taped, Backend::Jets}) {
            const EquationsOfMotion eq(system, kind, f, {}, b);
            EquationsWorkspace ws(eq);
            const auto x0 = test::randomState(eq, rng, 0.4);
            std::vector<double> x = x0, dx(x.size());
            Observables obs;
            auto calls = [&] {
              for (int i = 0; i < 20; ++i) {
                const double t = 0.4 + 0.01 * i;
                eq.rhs(ws, t, x.data(), dx.data());
                eq.observe(ws, t, x.data(), obs);
                for (size_t j = 0; j < x.size(); ++j) x[j] += 1e-3 * dx[j];
                eq.project(ws, t, x.data());
              }
            };
            calls();  // warm-up
            x = x0;
            const long n = allocationsDuring(calls);
            QVERIFY2(n == 0,
                     qPrintable(label(*system, kind, f, b) + QString(": %1 allocations").arg(n)));
          }
  }

  void simulationStepLoopAllocatesNothing() {
    for (const auto& system : systemsUnderTest())
      for (DynamicsKind kind : {DynamicsKind::Nonholonomic, DynamicsKind::Vakonomic})
        for (Integrator method : {Integrator::Dopri5, Integrator::Dop853, Integrator::Rk78,
                                  Integrator::Rk4, Integrator::NhRattle}) {
          IntegratorOptions options;
          options.method = method;
          options.rtol = 1e-8;
          options.atol = 1e-10;
          options.step = 1e-2;
          Simulation sim(system, kind, Formulation::Multipliers, options);
          // nh-rattle steps the nonholonomic equations of taped systems only (it refuses
          // the others).
          if (method == Integrator::NhRattle &&
              (kind != DynamicsKind::Nonholonomic || !sim.equations().isTaped()))
            continue;
          // The vakonomic bicycle kicked sideways steers itself into the singular steer angle
          // within 0.3 s: it runs upright and straight here (every call is made all the same).
          std::map<std::string, double> init;
          if (kind == DynamicsKind::Vakonomic && system->name() == "whipple_bicycle")
            init = {{"lean_rate", 0.0}};
          sim.setState(0, initialState(sim.equations(), 0, init));
          long samples = 0;
          const Simulation::SampleCallback onSample = [&](double, const double*) { ++samples; };
          sim.advance(0.2, 0.05, onSample);  // warm-up: sizes the steppers' buffers
          const long stepsBefore = sim.stepsTaken();
          const long n = allocationsDuring([&] { sim.advance(3.0, 0.05, onSample); });
          const QString what = QString("%1, %2, %3")
                                   .arg(QString::fromStdString(system->name()),
                                        QString::fromStdString(toString(kind)),
                                        QString::fromStdString(toString(method)));
          QVERIFY2(sim.stepsTaken() > stepsBefore, qPrintable(what));
          QVERIFY2(n == 0, qPrintable(what + QString(": %1 allocations").arg(n)));
        }
  }
};

QTEST_APPLESS_MAIN(AllocationTest)
#include "allocation_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
