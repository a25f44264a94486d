// Python arguments as the words nhsim takes: numbers in shortest round-trip form (the same
// double comes back), strings as given, so that nhsim's parser checks them and its messages
// name them. A method's keyword arguments are the option table's (cli::pythonArguments,
// app/nhsim/command_table.h): their names, their conversion, their help and the signature.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace nh::python {

namespace py = pybind11;

// A number (Python int or float, NumPy scalars) or a string, as a word; `what` names the
// argument in the TypeError raised for anything else.
std::string word(const py::handle& value, const std::string& what);

// The words after "nhsim" of one command.
class Words {
 public:
  Words(const char* command, const std::string& target) : words_{command, target} {}

  // `--name VALUE`, left out when `value` is None.
  void option(const char* name, const py::object& value, const char* argument);
  void flag(const char* name, bool given);
  // `--name KEY=VALUE` for each item of a dict (None: none).
  void assignments(const char* name, const py::object& mapping, const char* argument);
  // `--name AXIS` for each axis: a string "NAME=…" or a list of them, or a dict of NAME to a
  // string "A:B:C" or a sequence (A, B, C).
  void axes(const char* name, const py::object& given, const char* argument);
  // `--name TEXT` for a string, each string of a list, or "KEY=TEXT" for a dict.
  void texts(const char* name, const py::object& given, const char* argument);
  // The arguments of the Python method named as the command, each as its row of the option
  // table says, in table order: `args` are the first of `positional`. TypeError for an
  // argument the command does not take, or one given twice.
  void arguments(const py::args& args, const py::kwargs& kwargs,
                 const std::vector<std::string>& positional = {});

  const std::vector<std::string>& list() const { return words_; }

 private:
  std::vector<std::string> words_;
};

// The docstring of the Python method for `command`: its signature as inspect reads it
// ("run($self, t_end=None, *, dt_out=None, …)"; `positional` before the "*"), `summary`, and
// each argument with the option it stands for and its help.
std::string methodDoc(const std::string& command, const std::vector<std::string>& positional,
                      const std::string& summary);

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
