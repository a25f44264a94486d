// Helpers shared by the suites that compare derived GiNaC expressions: a catalogue system by
// name, a symbol by name, equality in normal form (COMPARE_EX prints both sides when not), and
// the numeric value of an expression at given symbols. GiNaC is not thread-safe: the suites
// take model::ginacMutex() around the expressions they keep.
#pragma once

#include <ginac/ginac.h>

#include <QtTest>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/catalogue.h"

namespace nh::test {

inline std::shared_ptr<const SystemModel> named(const std::string& name) {
  for (const auto& e : catalogueEntries())
    if (e.system->name() == name) return e.system;
  throw std::logic_error("no system " + name);
}

// The symbol named `name` among `symbols` (coordinates, momenta, π, parameters).
inline GiNaC::symbol symbolOf(const std::vector<GiNaC::symbol>& symbols, const std::string& name) {
  for (const GiNaC::symbol& s : symbols)
    if (s.get_name() == name) return s;
  throw std::logic_error("no symbol " + name);
}

inline bool same(const GiNaC::ex& a, const GiNaC::ex& b) { return GiNaC::normal(a - b).is_zero(); }

// The number e is at `at` (every symbol given).
inline double valueAt(const GiNaC::ex& e, const GiNaC::exmap& at) {
  const GiNaC::ex v = GiNaC::evalf(e.subs(at));
  if (!GiNaC::is_a<GiNaC::numeric>(v)) throw std::logic_error("not a number");
  return GiNaC::ex_to<GiNaC::numeric>(v).to_double();
}

}  // namespace nh::test

#define COMPARE_EX(actual, expected)                                 \
  do {                                                               \
    std::ostringstream text;                                         \
    text << GiNaC::dflt << (actual) << "  expected  " << (expected); \
    QVERIFY2(nh::test::same(actual, expected), text.str().c_str());  \
  } while (false)
// SPDX-License-Identifier: GPL-3.0-or-later
