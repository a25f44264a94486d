// The Python module's classes: a loaded System and what its methods return. Every call is
// checked by nhsim's own command-line checks (parseCommandLine on the words nhsim would be
// given), so that bad input raises with nhsim's one-line message before anything runs.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "core/nh/scenario.h"

namespace nh::python {

namespace py = pybind11;

// The columns of a run: `columns` names, `data` one row per column (each column contiguous).
struct Trajectory {
  std::string system;
  std::vector<std::string> columns;
  py::array_t<double> data;  // columns × rows
  std::vector<std::string> notes, warnings;

  long rows() const;
  // The column `name`; throws KeyError (py::key_error) when there is none.
  py::array column(const std::string& name) const;
};

// The linearisation at a scenario's initial state (`nhsim linearize`).
struct LinearizationResult {
  std::string system;
  std::vector<std::string> variables;
  py::array eigenvalues;  // complex, sorted by real part, then imaginary
  py::array jacobian;     // reduced, variables × variables
  py::array rates;        // the reduced equations' right-hand side (≈ 0 at an equilibrium)
  py::dict point;         // the state linearised at, by name
  bool equilibrium = true;
};

// The equations of motion as `nhsim equations` prints them.
struct EquationsText {
  std::string text;
  bool latex = false;
  // The LaTeX as one display block for Jupyter (None unless latex).
  py::object reprLatex() const;
};

// The arguments of System.run that may be given by position.
inline const std::vector<std::string> kRunPositional = {"t_end"};

// A system, model file or scenario file, loaded and checked.
class System {
 public:
  explicit System(const std::string& nameOrPath);

  std::string name() const;
  std::string title() const;
  py::dict parameters() const;
  std::vector<std::string> stateNames() const;
  py::object info(bool constraints = false) const;  // with the constraints' algebroid
  std::string repr() const;

  // The methods named as nhsim's commands take that command's keyword arguments, as the option
  // table declares them (cli::pythonArguments, app/nhsim/command_table.h); run takes t_end
  // positionally too (kRunPositional).
  Trajectory run(const py::args& args, const py::kwargs& kwargs) const;
  LinearizationResult linearize(const py::args& args, const py::kwargs& kwargs) const;
  py::object sweep(const py::args& args, const py::kwargs& kwargs) const;
  EquationsText equations(const py::args& args, const py::kwargs& kwargs) const;

 private:
  std::string target_;  // as nhsim is given it: a system name or an absolute file path
  Scenario scenario_;   // the target's scenario, resolved
  std::shared_ptr<const SystemModel> model_;
};

// The names of the known systems, as `nhsim list` gives them.
std::vector<std::string> systemNames();

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
