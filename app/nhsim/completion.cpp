// nhsim's bash completion script (completion.h), written from the declared command line: a
// case per command with its options, and what each option's value completes to (fixed words,
// file names, the catalogue's systems).
#include "app/nhsim/completion.h"

#include <regex>
#include <vector>

#include "core/nh/messages.h"

namespace nh::cli {

namespace {

// Words separated by '|': "csv|hdf5" -> {"csv", "hdf5"}.
std::vector<std::string> alternativesOf(const std::string& type) {
  std::vector<std::string> words;
  size_t start = 0;
  for (size_t bar = type.find('|'); bar != std::string::npos; bar = type.find('|', start)) {
    words.push_back(type.substr(start, bar - start));
    start = bar + 1;
  }
  words.push_back(type.substr(start));
  return words;
}

std::string spaced(const std::vector<std::string>& words) { return joined(words, " "); }

// The names of `options`, separated by spaces.
std::string optionNames(const std::vector<DeclaredOption>& options) {
  std::vector<std::string> names;
  for (const DeclaredOption& option : options) names.push_back(option.name);
  return spaced(names);
}

// The shell lines that fill COMPREPLY for a value of the kind `type` (indented by `indent`).
std::string completeValue(const std::string& type, const std::string& indent) {
  switch (valueCompletion(type)) {
    case ValueCompletion::Words:
      return indent + "COMPREPLY=($(compgen -W '" + spaced(alternativesOf(type)) +
             "' -- \"$cur\"))\n";
    case ValueCompletion::Files:
      return indent + "_filedir\n";
    case ValueCompletion::Folders:
      return indent + "_filedir -d\n";
    case ValueCompletion::Systems:
      return indent + "COMPREPLY=($(compgen -W \"$(_nhsim_systems)\" -- \"$cur\"))\n" + indent +
             "_filedir '@(yaml|yml|json)'\n";
    case ValueCompletion::None:
      break;
  }
  return indent + ":  # a value to type: nothing to offer\n";
}

// The `case "$prev"` branch of one command: the value after each option that takes one
// ("" when none does).
std::string valueCases(const DeclaredCommand& command) {
  std::string cases;
  for (const DeclaredOption& option : command.options) {
    if (!option.takesValue) continue;
    cases += "        " + option.name + ")\n" + completeValue(option.type, "          ") +
             "          return ;;\n";
  }
  return cases.empty() ? cases : "      case \"$prev\" in\n" + cases + "      esac\n";
}

// The branch of one command: an option's value, else its options, else its target.
std::string commandCase(const DeclaredCommand& command) {
  const std::string options =
      "COMPREPLY=($(compgen -W '" + optionNames(command.options) + "' -- \"$cur\"))\n";
  std::string text = "    " + command.name + ")\n" + valueCases(command);
  if (command.target.empty()) return text + "      " + options + "      ;;\n";
  text += "      if [[ $cur == -* ]]; then\n        " + options + "        return\n      fi\n";
  return text + completeValue(command.target, "      ") + "      ;;\n";
}

const char* kHeader =
    "# bash completion for nhsim (Nonholonomic Lab), generated from its command table by\n"
    "# nhsim-completion: do not edit.\n\n"
    "# The system names 'nhsim list' prints first on each line.\n"
    "_nhsim_systems() {\n"
    "  \"${COMP_WORDS[0]}\" list 2>/dev/null | awk 'NF { print $1 }'\n"
    "}\n\n"
    "_nhsim() {\n"
    "  local cur prev words cword\n"
    "  _init_completion || return\n"
    "  # The command: the first word after nhsim that is not an option.\n"
    "  local command='' i\n"
    "  for ((i = 1; i < cword; i++)); do\n"
    "    if [[ ${words[i]} != -* ]]; then\n"
    "      command=${words[i]}\n"
    "      break\n"
    "    fi\n"
    "  done\n"
    "  case \"$command\" in\n";

const char* kFooter =
    "  esac\n"
    "}\n"
    "complete -F _nhsim nhsim\n";

}  // namespace

ValueCompletion valueCompletion(const std::string& type) {
  if (type.rfind("SYSTEM", 0) == 0) return ValueCompletion::Systems;
  if (type == "DIR") return ValueCompletion::Folders;
  static const std::regex fileEnding("[A-Za-z]\\.[a-z0-9]+");  // "OUT.mp4"
  if (type.find("FILE") != std::string::npos || std::regex_search(type, fileEnding))
    return ValueCompletion::Files;
  static const std::regex choice("[a-z0-9-]+(\\|[a-z0-9-]+)+");  // "csv|hdf5"
  if (std::regex_match(type, choice)) return ValueCompletion::Words;
  return ValueCompletion::None;
}

std::string bashCompletion(const DeclaredCommandLine& line) {
  std::vector<std::string> first;
  for (const DeclaredCommand& command : line.commands) first.push_back(command.name);
  std::string text = kHeader;
  text += "    '')\n      COMPREPLY=($(compgen -W '" + spaced(first) + " " +
          optionNames(line.options) + "' -- \"$cur\"))\n      ;;\n";
  for (const DeclaredCommand& command : line.commands) text += commandCase(command);
  return text + kFooter;
}

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
