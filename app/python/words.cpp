// Python arguments turned into nhsim's words (words.h): numbers, flags, NAME=VALUE dicts,
// sweep axes and lists checked for type, and each method's docstring and signature written
// from the option table.
#include "app/python/words.h"

#include <algorithm>
#include <map>

#include "app/nhsim/command_table.h"
#include "core/nh/scenario.h"

namespace nh::python {

namespace {

std::string typeName(const py::handle& value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

// The key of a dict item, which must be a string.
std::string keyOf(const py::handle& key, const char* argument) {
  if (!py::isinstance<py::str>(key))
    throw py::type_error(std::string(argument) + ": names must be strings, got " + typeName(key));
  return key.cast<std::string>();
}

// A dict, else TypeError.
py::dict dictOf(const py::object& mapping, const char* argument) {
  if (!py::isinstance<py::dict>(mapping))
    throw py::type_error(std::string(argument) + " must be a dict of names to values, got " +
                         typeName(mapping));
  return mapping.cast<py::dict>();
}

// The parts of a sequence axis (A, B, C) joined by ':'.
std::string joinedParts(const py::handle& parts, const std::string& what) {
  std::string text;
  for (const py::handle part : parts) {
    if (!text.empty()) text += ':';
    text += word(part, what);
  }
  return text;
}

// True or False (what Python takes for a truth value) for a flag argument.
bool truth(const py::handle& value, const std::string& what) {
  try {
    return value.cast<bool>();
  } catch (const py::cast_error&) {
    throw py::type_error(what + " must be True or False, got " + typeName(value));
  }
}

// The value of an argument not given, as the signature shows it.
const char* defaultOf(cli::PythonWord word) {
  return word == cli::PythonWord::IfTrue    ? "False"
         : word == cli::PythonWord::IfFalse ? "True"
                                            : "None";
}

}  // namespace

std::string word(const py::handle& value, const std::string& what) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::bool_>(value) || !PyNumber_Check(value.ptr()))
    throw py::type_error(what + " must be a number, got " + typeName(value));
  if (PyIndex_Check(value.ptr()))
    return py::str(py::int_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  return formatValue(value.cast<double>());
}

void Words::option(const char* name, const py::object& value, const char* argument) {
  if (value.is_none()) return;
  words_.emplace_back(name);
  words_.push_back(word(value, argument));
}

void Words::flag(const char* name, bool given) {
  if (given) words_.emplace_back(name);
}

void Words::assignments(const char* name, const py::object& mapping, const char* argument) {
  if (mapping.is_none()) return;
  for (const auto& [key, value] : dictOf(mapping, argument)) {
    const std::string k = keyOf(key, argument);
    words_.emplace_back(name);
    words_.push_back(k + "=" + word(value, std::string(argument) + "['" + k + "']"));
  }
}

void Words::axes(const char* name, const py::object& given, const char* argument) {
  if (given.is_none()) return;
  if (!py::isinstance<py::dict>(given)) return texts(name, given, argument);
  for (const auto& [key, value] : given.cast<py::dict>()) {
    const std::string k = keyOf(key, argument);
    const std::string what = std::string(argument) + "['" + k + "']";
    words_.emplace_back(name);
    words_.push_back(
        k + "=" +
        (py::isinstance<py::str>(value) ? value.cast<std::string>() : joinedParts(value, what)));
  }
}

void Words::texts(const char* name, const py::object& given, const char* argument) {
  if (given.is_none()) return;
  auto add = [&](const py::handle& text, const std::string& prefix) {
    if (!py::isinstance<py::str>(text))
      throw py::type_error(std::string(argument) + " must be strings, got " + typeName(text));
    words_.emplace_back(name);
    words_.push_back(prefix + text.cast<std::string>());
  };
  if (py::isinstance<py::str>(given)) return add(given, "");
  if (py::isinstance<py::dict>(given)) {
    for (const auto& [key, value] : given.cast<py::dict>()) add(value, keyOf(key, argument) + "=");
    return;
  }
  for (const py::handle text : given) add(text, "");
}

void Words::arguments(const py::args& args, const py::kwargs& kwargs,
                      const std::vector<std::string>& positional) {
  const std::string method = words_.front();
  const std::vector<cli::PythonArgument> table = cli::pythonArguments(method);
  if (args.size() > positional.size())
    throw py::type_error(method + "() takes " + std::to_string(positional.size()) +
                         " positional argument(s), got " + std::to_string(args.size()));
  std::map<std::string, py::object> given;
  for (size_t i = 0; i < args.size(); ++i) given.emplace(positional[i], args[i]);
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    const bool known = std::any_of(table.begin(), table.end(),
                                   [&](const cli::PythonArgument& a) { return a.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const cli::PythonArgument& a : table) names.push_back(a.name);
      throw py::type_error(method + "() got an unexpected keyword argument '" + name +
                           "' (it takes: " + joined(names) + ")");
    }
    if (!given.emplace(name, py::reinterpret_borrow<py::object>(value)).second)
      throw py::type_error(method + "() got multiple values for argument '" + name + "'");
  }
  for (const cli::PythonArgument& a : table) {
    const auto at = given.find(a.name);
    if (at == given.end()) continue;
    const char* spelled = a.option.c_str();
    const char* name = a.name.c_str();
    switch (a.word) {
      case cli::PythonWord::Word:
        option(spelled, at->second, name);
        break;
      case cli::PythonWord::Assignments:
        assignments(spelled, at->second, name);
        break;
      case cli::PythonWord::Axes:
        axes(spelled, at->second, name);
        break;
      case cli::PythonWord::Texts:
        texts(spelled, at->second, name);
        break;
      case cli::PythonWord::IfTrue:
        flag(spelled, truth(at->second, a.name));
        break;
      case cli::PythonWord::IfFalse:
        flag(spelled, !truth(at->second, a.name));
        break;
      case cli::PythonWord::None:
        break;
    }
  }
}

std::string methodDoc(const std::string& command, const std::vector<std::string>& positional,
                      const std::string& summary) {
  const std::vector<cli::PythonArgument> table = cli::pythonArguments(command);
  std::string signature = command + "($self", keywords, arguments;
  for (const std::string& name : positional)
    for (const cli::PythonArgument& a : table)
      if (a.name == name) signature += ", " + a.name + "=" + defaultOf(a.word);
  for (const cli::PythonArgument& a : table) {
    if (std::find(positional.begin(), positional.end(), a.name) == positional.end())
      keywords += ", " + a.name + "=" + defaultOf(a.word);
    arguments += "\n" + a.name + " (" + a.option + "): " + a.help;
  }
  if (!keywords.empty()) signature += ", *" + keywords;
  return signature + ")\n--\n\n" + summary + "\n" + arguments;
}

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
