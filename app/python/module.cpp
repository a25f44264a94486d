// nonholonomic_lab: the engine of Nonholonomic Lab for Python (pybind11). The module-level
// functions, the classes' Python faces and the mapping of the engine's exceptions to Python's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/nhsim/cli_support.h"
#include "app/python/system.h"
#include "core/nh/errors.h"
#include "core/nh/integrators.h"
#include "core/nh/messages.h"
#include "core/nh/version.h"

namespace py = pybind11;

namespace nh::python {

namespace {

PyObject* simulationError = nullptr;  // nonholonomic_lab.SimulationError

// The engine's exceptions as Python's, with nhsim's one-line message: bad input (nhsim's exit
// 2) is ValueError, a failed simulation (exit 3) SimulationError, anything else RuntimeError.
void translateErrors(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const SingularSystemError& e) {
    PyErr_SetString(simulationError, cli::errorLine(e.what()).c_str());
  } catch (const IntegrationError& e) {
    PyErr_SetString(simulationError, cli::errorLine(e.what()).c_str());
  } catch (const InputError& e) {
    PyErr_SetString(PyExc_ValueError, cli::errorLine(e.what()).c_str());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_RuntimeError, cli::errorLine(e.what()).c_str());
  }
}

void bindTrajectory(py::module_& m) {
  py::class_<Trajectory>(
      m, "Trajectory", "The rows of a run, a NumPy array per column (the columns of 'nhsim run').")
      .def_readonly("system", &Trajectory::system)
      .def_readonly("columns", &Trajectory::columns)
      .def_readonly("notes", &Trajectory::notes)
      .def_readonly("warnings", &Trajectory::warnings)
      .def_property_readonly(
          "array", [](const Trajectory& t) { return t.data.attr("T"); },
          "All columns as one array, a row per sample (rows × columns).")
      .def("__len__", &Trajectory::rows)
      .def("__getitem__", &Trajectory::column)
      .def("__contains__",
           [](const Trajectory& t, const std::string& name) {
             return std::find(t.columns.begin(), t.columns.end(), name) != t.columns.end();
           })
      .def("__getattr__",
           [](const Trajectory& t, const std::string& name) {
             if (std::find(t.columns.begin(), t.columns.end(), name) == t.columns.end())
               throw py::attribute_error("'Trajectory' has no attribute or column '" + name + "'");
             return t.column(name);
           })
      .def("keys", [](const Trajectory& t) { return t.columns; })
      .def(
          "as_dict",
          [](const Trajectory& t) {
            py::dict out;
            for (const auto& name : t.columns) out[py::str(name)] = t.column(name);
            return out;
          },
          "The columns as a dict of name to NumPy array.")
      .def(
          "to_records",
          [](const Trajectory& t) {
            py::list arrays;
            for (const auto& name : t.columns) arrays.append(t.column(name));
            return py::module_::import("numpy").attr("rec").attr("fromarrays")(
                arrays, py::arg("names") = t.columns);
          },
          "The rows as a NumPy record array (one field per column).")
      .def("__repr__", [](const Trajectory& t) {
        return "<nonholonomic_lab.Trajectory '" + t.system + "': " + std::to_string(t.rows()) +
               " rows of " + joined(t.columns) + ">";
      });
}

void bindResults(py::module_& m) {
  py::class_<LinearizationResult>(m, "Linearization",
                                  "The nonholonomic equations linearised at a state, reduced.")
      .def_readonly("system", &LinearizationResult::system)
      .def_readonly("variables", &LinearizationResult::variables)
      .def_readonly("eigenvalues", &LinearizationResult::eigenvalues)
      .def_readonly("jacobian", &LinearizationResult::jacobian)
      .def_readonly("rates", &LinearizationResult::rates)
      .def_readonly("point", &LinearizationResult::point)
      .def_readonly("equilibrium", &LinearizationResult::equilibrium)
      .def("__repr__", [](const LinearizationResult& r) {
        return "<nonholonomic_lab.Linearization '" + r.system +
               "': " + std::to_string(r.variables.size()) + " variables " + joined(r.variables) +
               ">";
      });
  py::class_<EquationsText>(m, "Equations", "The derived equations of motion ('nhsim equations').")
      .def_readonly("text", &EquationsText::text)
      .def_readonly("latex", &EquationsText::latex)
      .def("_repr_latex_", &EquationsText::reprLatex)
      .def("__str__", [](const EquationsText& e) { return e.text; })
      .def("__repr__", [](const EquationsText& e) { return e.text; });
}

// The docstrings of run and sweep: what 'nhsim' does, and the integrators by name (their rows).
std::string runDoc(const std::string& what) {
  return what + " integrator: one of " + joined(choiceNames(kIntegrators)) + " (default " +
         toString(IntegratorOptions{}.method) + "); step: the step of " +
         joined(integratorNames(&IntegratorRow::fixedStep)) + ".";
}

void bindSystem(py::module_& m) {
  const py::none none;
  const std::string runHelp = runDoc("Simulates as 'nhsim run' does; returns a Trajectory.");
  const std::string sweepHelp =
      runDoc("A parameter study as 'nhsim sweep' does; returns a NumPy structured array.");
  py::class_<System>(m, "System", "A system, model file or scenario file, loaded and checked.")
      .def_property_readonly("name", &System::name)
      .def_property_readonly("title", &System::title)
      .def_property_readonly("parameters", &System::parameters,
                             "The parameters' values by name (defaults, or the scenario's).")
      .def_property_readonly("state_names", &System::stateNames)
      .def("info", &System::info, "What 'nhsim info --json' prints, as a dict.")
      .def("__repr__", &System::repr)
      .def("run", &System::run, runHelp.c_str(), py::arg("t_end") = none, py::kw_only(),
           py::arg("dt_out") = none, py::arg("set") = none, py::arg("init") = none,
           py::arg("integrator") = none, py::arg("rtol") = none, py::arg("atol") = none,
           py::arg("step") = none, py::arg("max_steps") = none, py::arg("dynamics") = none,
           py::arg("formulation") = none, py::arg("projection") = true,
           py::arg("reconstruction") = true)
      .def("linearize", &System::linearize,
           "Linearises at the initial state as 'nhsim linearize' does.", py::kw_only(),
           py::arg("set") = none, py::arg("init") = none)
      .def("sweep", &System::sweep, sweepHelp.c_str(), py::kw_only(), py::arg("vary") = none,
           py::arg("sample") = none, py::arg("count") = none, py::arg("seed") = none,
           py::arg("measures") = none, py::arg("jobs") = none, py::arg("t_end") = none,
           py::arg("dt_out") = none, py::arg("set") = none, py::arg("init") = none,
           py::arg("integrator") = none, py::arg("rtol") = none, py::arg("atol") = none,
           py::arg("step") = none, py::arg("max_steps") = none, py::arg("force") = false)
      .def("equations", &System::equations,
           "The derived equations as 'nhsim equations' prints them (LaTeX with latex=True).",
           py::kw_only(), py::arg("latex") = false, py::arg("hamiltonian") = false,
           py::arg("set") = none);
}

}  // namespace

}  // namespace nh::python

PYBIND11_MODULE(nonholonomic_lab, m) {
  using namespace nh::python;
  m.doc() = "Nonholonomic Lab's engine: load a system, run, linearize, sweep, equations.";
  m.attr("__version__") = nh::kVersion;
  // NumPy imported and pybind11's table of its C API filled here, under the import lock, not
  // on the first run: that table is a function-local static whose first use imports NumPy,
  // which lets other threads take the GIL; a second thread making its first run then waits
  // for the static while holding the GIL the first one needs, and both hang.
  py::module_::import("numpy");
  py::detail::npy_api::get();
  simulationError =
      PyErr_NewException("nonholonomic_lab.SimulationError", PyExc_RuntimeError, nullptr);
  m.attr("SimulationError") = py::handle(simulationError);
  py::register_exception_translator(translateErrors);
  bindTrajectory(m);
  bindResults(m);
  bindSystem(m);
  m.def("systems", &systemNames, "The names of the known systems ('nhsim list').");
  m.def(
      "load",
      [](const py::object& nameOrPath) {
        return System(py::str(py::module_::import("os").attr("fspath")(nameOrPath)));
      },
      "A system by name, or a model file (*.yaml) or scenario file (*.json) by path.",
      py::arg("name_or_path"));
}
// SPDX-License-Identifier: GPL-3.0-or-later
