#include "app/python/words.h"

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

}  // namespace nh::python
// SPDX-License-Identifier: GPL-3.0-or-later
