// The option table of nhsim and the Python module: one row per option (its name, the kind of
// value it takes, the words of a fixed choice, its help line, the commands that take it, its
// Python keyword argument), the rules that refuse a combination of options, and what is
// generated from them: the usage lines, and the Python keyword arguments of each command.
// The commands themselves are the rows of kCommands (app/nhsim/command_line.h); the parser
// declares exactly these options (app/nhsim/command_line.cpp), the bash completion and the man
// page are written from the parser's declarations. No Qt, no CLI11: the Python module reads
// it as nhsim does.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace nh::cli {

// One command as its help, usage and messages describe it. A command's options struct holds
// its row (`static constexpr CommandRow kRow`), and kCommands lists every one.
struct CommandRow {
  const char* name;           // "run"
  const char* summary;        // its line in `nhsim --help`
  const char* takes;          // "takes one system or scenario": "run takes …, got also 'x'"
  const char* missingTarget;  // the message when its target is missing ("" for none needed)
  const char* target = "";    // its target's kind as the help shows it ("" for none)
  const char* targetHelp = "";
  std::string (*footer)() = nullptr;  // what the options mean together: the end of its --help
};

// What an option takes on the command line.
enum class Takes {
  Flag,    // nothing: given or not
  Value,   // one value, at most once
  Values,  // one value per occurrence, repeatable, kept in order
};

// How the usage line shows an option.
enum class Usage {
  Optional,  // [--t-end T]
  Needed,    // --t-end T: refused when missing (OptionRow::needed says what it is)
  OneOf,     // (--video … | --frames DIR | --html …): the command's OneOf options exclude
             // each other
};

// How a Python keyword argument becomes words of the command (app/python/words.h).
enum class PythonWord {
  None,         // not a keyword argument
  Word,         // a number or string: --name VALUE
  Assignments,  // a dict of names to numbers: --name NAME=VALUE each
  Axes,         // "NAME=…", a list of them, or a dict of NAME to "A:B:C" or (A, B, C)
  Texts,        // a string, a list of strings, or a dict NAME: TEXT ("NAME=TEXT")
  IfTrue,       // True gives --name (default False)
  IfFalse,      // False gives --name (default True): projection=False is --no-projection
};

// One option of one or more commands, with one meaning and one help line. An option whose
// help differs between commands (--t-end) has a row for each meaning, the commands split
// between them.
struct OptionRow {
  const char* name;      // "--t-end"
  const char* commands;  // the commands that take it with this meaning: "run sweep"
  Takes takes = Takes::Value;
  const char* type = "";               // its value's kind as the help shows it ("T", "FILE|-")
  std::string (*choices)() = nullptr;  // the words of a fixed choice: "a|b|c", shown as type
  const char* help = "";
  std::string (*helpFrom)() = nullptr;  // a help written from another table, instead of `help`
  std::string (*fallback)() = nullptr;  // the default, said after the help: " (default …)"
  Usage usage = Usage::Optional;
  const char* needed = "";  // Usage::Needed: what it is ("the time of the motion")
  // Its Python keyword argument ("" for none), for each of its commands that the module has a
  // method for (System.run, linearize, sweep, equations).
  const char* python = "";
  PythonWord pythonWord = PythonWord::None;
};

// Every option, in the order of the help and the usage lines.
extern const std::span<const OptionRow> kOptions;

// A side of a rule: an option given, or given as standard output ("-", /dev/stdout).
enum class When { Given, StandardOutput };

// A combination of options that a command refuses, in one line (`message`), before anything
// runs: Excludes refuses `option` together with `other`, Needs refuses `option` without it.
struct OptionRule {
  const char* commands;
  const char* option;
  When when;
  enum Kind { Excludes, Needs } kind;
  const char* other;
  When otherWhen;
  const char* message;
};
extern const std::span<const OptionRule> kRules;

// Whether the space-separated `commands` name `command`.
bool names(const char* commands, const std::string& command);

// The rows of the options `command` takes, in table order.
std::vector<const OptionRow*> optionsOf(const std::string& command);

// The kind of `row`'s value as the help and the usage show it: its choices, else its type.
std::string valueKind(const OptionRow& row);
// Its help line, with its default.
std::string helpLine(const OptionRow& row);

// The usage lines of `command` ("nhsim run SYSTEM|… [--set NAME=VALUE]... …"), wrapped, each
// continuation indented under the first.
std::string usageOf(const CommandRow& command);

// One Python keyword argument of a command.
struct PythonArgument {
  std::string name;    // "t_end"
  std::string option;  // "--t-end"
  PythonWord word;
  std::string help;
};
// The keyword arguments of `command`, in table order.
std::vector<PythonArgument> pythonArguments(const std::string& command);

}  // namespace nh::cli
// SPDX-License-Identifier: GPL-3.0-or-later
