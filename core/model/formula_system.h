// FormulaSystem: the system a model file defines (model_file.h reads the file into one).
#pragma once

#include <memory>
#include <string>

#include "core/nh/system.h"

namespace nh::model {

struct ModelData;  // the parsed file (model_data.h)

// A system defined by a model file. Its functions evaluate the file's formulas over every
// scalar type of the engine; the taped equations record them once per parameter set.
class FormulaSystem final : public SystemModel {
 public:
  FormulaSystem(std::shared_ptr<const ModelData> data, SystemInfo info);
  ~FormulaSystem() override;

  const ModelData& data() const { return *data_; }
  const std::string& text() const;  // the file's text as read
  const std::string& path() const;  // the file it came from ("" : typed in, or built in)

  void anchor(const double* p, const double* q, double* rho) const override;
  void anchor(const double* p, const Sym* q, Sym* rho) const override;
  std::string checkParameters(const double* p) const override;
  // Evaluates the definition named by the parameter's keeps_continuous.
  double continuousValue(int parameter, const double* p, double t, const double* q,
                         const double* y) const override;
  bool hasStructure() const override;
  void structure(const double* p, const double* q, double* C) const override;
  void structure(const double* p, const Sym* q, Sym* C) const override;
  bool hasForce() const override;
  void force(const double* p, double t, const double* q, const double* y, double* Q) const override;
  void force(const double* p, const Sym& t, const Sym* q, const Sym* y, Sym* Q) const override;
  double lagrangian(const double* p, double t, const double* q, const double* y) const override;
  Jet2 lagrangian(const double* p, const Jet2& t, const Jet2* q, const Jet2* y) const override;
  Sym lagrangian(const double* p, const Sym& t, const Sym* q, const Sym* y) const override;
  void constraints(const double* p, double t, const double* q, const double* y,
                   double* phi) const override;
  void constraints(const double* p, const Jet1& t, const Jet1* q, const Jet1* y,
                   Jet1* phi) const override;
  void constraints(const double* p, const Jet2& t, const Jet2* q, const Jet2* y,
                   Jet2* phi) const override;
  void constraints(const double* p, const Sym& t, const Sym* q, const Sym* y,
                   Sym* phi) const override;
  void holonomic(const double* p, double t, const double* q, double* g) const override;
  void holonomicJacobian(const double* p, double t, const double* q, double* G) const override;
  void scene(const double* p, double t, const double* q, const double* y, const double* lambda,
             SceneFrame& frame) const override;
  void singularities(const double* p, double t, const double* q, const double* y,
                     double* s) const override;
  void outputs(const double* p, double t, const double* q, const double* y,
               double* out) const override;
  // The file's reference_frame, or Γ = 0 for linear constraints; none for affine constraints
  // without a declared frame (ModelData::hasReferenceFrame).
  bool hasReferenceFrame() const override;
  void referenceFrame(const double* p, double t, const double* q, double* gamma) const override;
  void controlSection(const double* p, const Sym& t, const Sym* q, const Sym* u,
                      Sym* f) const override;
  Sym cost(const double* p, const Sym& t, const Sym* q, const Sym* u) const override;

 private:
  std::shared_ptr<const ModelData> data_;
};

// The system as a FormulaSystem, or null for a system written in C++.
const FormulaSystem* asFormula(const SystemModel& system);

}  // namespace nh::model
// SPDX-License-Identifier: GPL-3.0-or-later
