// Named choices (integrators, dynamics, formulations): each is one table of rows {value,
// name, description}, and everything that names them reads it: toString and the parse
// functions, scenario files, nhsim's usage, option help and "allowed: …" messages, the app's
// menus. A new choice is one new row.
#pragma once

#include <string>
#include <vector>

#include "core/nh/errors.h"
#include "core/nh/messages.h"

namespace nh {

template <class Enum>
struct NamedChoice {
  Enum value;
  const char* name;         // as written on the command line and in scenario files
  const char* description;  // one line, for help texts and menus
};

// The names of a table's rows, in table order.
template <class Table>
std::vector<std::string> choiceNames(const Table& table) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

// The names as a usage line offers them: "a|b|c".
template <class Table>
std::string alternatives(const Table& table) {
  return joined(choiceNames(table), "|");
}

// The name of `value`; the first row's for a value the table does not hold.
template <class Table, class Enum>
std::string choiceName(const Table& table, Enum value) {
  for (const auto& row : table)
    if (row.value == value) return row.name;
  return std::begin(table)->name;
}

// The value named `text`. Throws InputError "unknown WHAT 'TEXT' (allowed: a, b, c)", the
// names in table order (the input is echoed whole; callers that show it cut it).
template <class Table>
auto parseChoice(const Table& table, const std::string& text, const std::string& what) {
  for (const auto& row : table)
    if (text == row.name) return row.value;
  throw InputError("unknown " + what + " '" + text + "' (allowed: " + joined(choiceNames(table)) +
                   ")");
}

}  // namespace nh
// SPDX-License-Identifier: GPL-3.0-or-later
