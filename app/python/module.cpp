// nonholonomic_lab: the engine of Nonholonomic Lab for Python (pybind11). The module-level
// functions, the classes' Python faces and the mapping of the engine's exceptions to Python's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/nhsim/cli_support.h"
#include "app/nhsim/command_table.h"
#include "app/python/system.h"
#include "app/python/words.h"
#include "core/nh/errors.h"
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

// A method of System named as the nhsim command it runs: its arguments and docstring (with
// the signature inspect reads) from the option table.
template <class Result>
void bindCommand(py::class_<System>& system, const char* command,
                 Result (System::*method)(const py::args&, const py::kwargs&) const,
                 const std::string& summary, const std::vector<std::string>& positional = {}) {
  // The docstring is all of the method's doc (no signature of pybind11's before it): its
  // first line is the signature.
  py::options options;
  options.disable_function_signatures();
  const std::string doc = methodDoc(command, positional, summary);
  system.def(
      command,
      [method](const System& s, const py::args& args, const py::kwargs& kwargs) {
        return (s.*method)(args, kwargs);
      },
      py::doc(doc.c_str()));  // pybind11 keeps a copy
}

void bindSystem(py::module_& m) {
  py::class_<System> system(m, "System",
                            "A system, model file or scenario file, loaded and checked.");
  system.def_property_readonly("name", &System::name)
      .def_property_readonly("title", &System::title)
      .def_property_readonly("parameters", &System::parameters,
                             "The parameters' values by name (defaults, or the scenario's).")
      .def_property_readonly("state_names", &System::stateNames)
      .def("info", &System::info, py::arg("constraints") = false,
           "What 'nhsim info --json' prints, as a dict; constraints=True adds the "
           "constraints' algebroid and whether they are holonomic ('nhsim info --constraints').")
      .def("__repr__", &System::repr);
  bindCommand(system, "run", &System::run, "Simulates as 'nhsim run' does; returns a Trajectory.",
              kRunPositional);
  bindCommand(system, "linearize", &System::linearize,
              "Linearises at the initial state as 'nhsim linearize' does.");
  bindCommand(system, "sweep", &System::sweep,
              "A parameter study as 'nhsim sweep' does; returns a NumPy structured array.");
  bindCommand(system, "equations", &System::equations,
              "The derived equations as 'nhsim equations' prints them (LaTeX with latex=True).");
}

// The keyword arguments of the method `command` (run, linearize, sweep, equations): for each,
// its name, the nhsim option it stands for and its help, in the order of nhsim's help.
py::list keywordArguments(const std::string& command) {
  py::list out;
  for (const cli::PythonArgument& a : cli::pythonArguments(command))
    out.append(py::make_tuple(a.name, a.option, a.help));
  return out;
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
  m.def("keyword_arguments", &keywordArguments,
        "The keyword arguments of System.run, linearize, sweep or equations: (name, nhsim "
        "option, help) each.",
        py::arg("method"));
  m.def(
      "load",
      [](const py::object& nameOrPath) {
        return System(py::str(py::module_::import("os").attr("fspath")(nameOrPath)));
      },
      "A system by name, or a model file (*.yaml) or scenario file (*.json) by path.",
      py::arg("name_or_path"));
}
// SPDX-License-Identifier: GPL-3.0-or-later
