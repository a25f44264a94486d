// The option table (app/nhsim/command_table.h) and what is written from it: the usage lines
// (and the synopsis of docs/cli.md), each command's --help, the bash completion and the Python
// keyword arguments list exactly the rows of kOptions for each command of kCommands, in table
// order; the table names only commands that exist, with at most one row per option and
// command; each rule of kRules refuses its combination in one line, and a needed option is
// refused when missing.
#include "app/nhsim/command_table.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "app/nhsim/command_line.h"
#include "app/nhsim/completion.h"
#include "core/nh/messages.h"
#include "help_options.h"

namespace {

using namespace nh::cli;

// The words of a space-separated list.
std::vector<std::string> wordsOf(const char* list) {
  std::vector<std::string> words;
  for (const QString& word : QString(list).split(' ', Qt::SkipEmptyParts))
    words.push_back(word.toStdString());
  return words;
}

// The options of `command` in table order.
QStringList tableOptions(const std::string& command) {
  QStringList names;
  for (const OptionRow* row : optionsOf(command)) names << row->name;
  return names;
}

// The long options named in `text`, in order, each once.
QStringList optionsIn(const QString& text) {
  QStringList names;
  static const QRegularExpression option("(?<![\\w-])(--[a-z][a-z-]*)");
  for (const QRegularExpressionMatch& m : option.globalMatch(text))
    if (!names.contains(m.captured(1))) names << m.captured(1);
  return names;
}

// The usage lines of `command` in `usage`: from "nhsim COMMAND" to the next command's.
QString usageBlock(const QString& usage, const std::string& command) {
  const QString start = "nhsim " + QString::fromStdString(command) + " ";
  qsizetype at = usage.indexOf(start);
  if (at < 0) at = usage.indexOf("nhsim " + QString::fromStdString(command) + "\n");
  if (at < 0) return {};
  const qsizetype end = usage.indexOf(QRegularExpression("\n *(usage: )?nhsim "), at);
  return usage.mid(at, end < 0 ? -1 : end - at);
}

// The help `args` ask for.
QString helpOf(const std::vector<std::string>& args) {
  return QString::fromStdString(std::get<HelpRequest>(parseArguments(args)).text);
}

// The message parseCommandLine refuses `args` with, or "" when it accepts them.
QString refusal(const std::vector<std::string>& args) {
  try {
    parseCommandLine(args);
  } catch (const UsageError& e) {
    return QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    return "not a usage error: " + QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class CommandTableTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Every row names commands of kCommands, and no command takes an option twice.
  void tableIsConsistent() {
    std::set<std::string> commands;
    for (const CommandRow& row : kCommands) commands.insert(row.name);
    std::set<std::pair<std::string, std::string>> seen;
    for (const OptionRow& row : kOptions) {
      bool any = false;
      for (const std::string& command : commands) {
        if (!names(row.commands, command)) continue;
        any = true;
        QVERIFY2(seen.insert({command, row.name}).second, (command + " " + row.name).c_str());
      }
      QVERIFY2(any, row.name);
      for (const std::string& word : wordsOf(row.commands))
        QVERIFY2(commands.count(word), (std::string(row.name) + ": " + word).c_str());
    }
    QVERIFY(names("run sweep", "sweep") && names("run sweep", "run"));
    QVERIFY(!names("run sweep", "un") && !names("linearize", "linear"));
  }

  // The usage of each command names its options as the table lists them, in its order; nhsim
  // prints the same lines without arguments, and docs/cli.md shows them as its synopsis.
  void usageIsTheTable() {
    const QString usage = QString::fromStdString(usageText());
    QVERIFY(usage.startsWith("usage: nhsim list\n"));
    for (const CommandRow& row : kCommands) {
      const QString block = usageBlock(usage, row.name);
      QVERIFY2(!block.isEmpty(), row.name);
      QCOMPARE(optionsIn(block), tableOptions(row.name));
      if (*row.target) QVERIFY2(block.contains(row.target), row.name);
      for (const QString& line : block.split('\n')) QVERIFY2(line.size() <= 96, qPrintable(line));
    }
    QFile doc(QFINDTESTDATA("../../../docs/cli.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(doc.readAll());
    const qsizetype start = text.indexOf("```\n") + 4;
    const QString synopsis = text.mid(start, text.indexOf("```", start) - start);
    QString expected = usage;
    expected.replace(QRegularExpression("(^|\n)(usage: |       )"), "\\1");
    QCOMPARE(synopsis, expected);
  }

  // `nhsim COMMAND --help` lists the table's options with their help lines.
  void helpIsTheTable() {
    for (const CommandRow& row : kCommands) {
      const QString help = helpOf({row.name, "--help"});
      QCOMPARE(nhtest::optionsInHelp(help), QStringList{"--help"} + tableOptions(row.name));
      for (const OptionRow* option : optionsOf(row.name)) {
        const QString line = QString::fromStdString(helpLine(*option)).simplified();
        QVERIFY2(help.simplified().contains(line.left(40)), qPrintable(line));
      }
      QVERIFY2(helpOf({"--help"}).contains(row.summary), row.name);
    }
  }

  // The completion offers for each command the table's options, and the words of each fixed
  // choice after its option.
  void completionIsTheTable() {
    const DeclaredCommandLine line = declaredCommandLine();
    QCOMPARE(line.commands.size(), std::size(kCommands));
    const std::string script = bashCompletion(line);
    for (size_t i = 0; i < line.commands.size(); ++i) {
      const DeclaredCommand& command = line.commands[i];
      QCOMPARE(command.name, std::string(kCommands[i].name));
      QCOMPARE(command.target, std::string(kCommands[i].target));
      QStringList declared;
      for (const DeclaredOption& option : command.options)
        declared << QString::fromStdString(option.name);
      QCOMPARE(declared, QStringList{"--help"} + tableOptions(command.name));
      const std::vector<const OptionRow*> rows = optionsOf(command.name);
      for (size_t k = 0; k < rows.size(); ++k) {
        QCOMPARE(command.options[k + 1].type,
                 rows[k]->takes == Takes::Flag ? std::string() : valueKind(*rows[k]));
        if (!rows[k]->choices) continue;
        std::string words = rows[k]->choices();
        std::replace(words.begin(), words.end(), '|', ' ');
        QVERIFY2(script.find("compgen -W '" + words + "'") != std::string::npos, rows[k]->name);
      }
    }
  }

  // The Python module's keyword arguments: the rows with a Python name, in table order. The
  // lists below are the module's interface (docs/python.md): a row renamed or dropped in the
  // table changes it, and this fails.
  void pythonArgumentsAreTheTable() {
    const std::map<std::string, QStringList> api = {
        {"run",
         {"set", "init", "dynamics", "formulation", "t_end", "dt_out", "integrator", "rtol", "atol",
          "step", "max_steps", "projection", "reconstruction", "sensitivity"}},
        {"linearize", {"set", "init", "dynamics", "formulation"}},
        {"sweep", {"set",       "init",       "dynamics",       "formulation", "t_end",
                   "dt_out",    "integrator", "rtol",           "atol",        "step",
                   "max_steps", "projection", "reconstruction", "vary",        "sample",
                   "count",     "seed",       "measures",       "jobs",        "force"}},
        {"equations", {"set", "latex", "hamiltonian", "gibbs_appell"}},
    };
    for (const auto& [command, expected] : api) {
      QStringList names;
      for (const PythonArgument& a : pythonArguments(command)) {
        names << QString::fromStdString(a.name);
        QVERIFY2(tableOptions(command).contains(QString::fromStdString(a.option)),
                 a.option.c_str());
        QVERIFY(!a.help.empty());
      }
      QCOMPARE(names, expected);
    }
    for (const char* command : {"list", "info"})
      QVERIFY2(pythonArguments(command).empty(), command);
  }

  // Each rule refuses its combination with its own line, and only that combination.
  void rulesRefuseTheirCombinations() {
    const std::string page = dir_.filePath("p.html").toStdString();
    const std::map<std::string, std::vector<std::string>> base = {
        {"run", {"run", "nh_particle", "--out", dir_.filePath("r.csv").toStdString()}},
        {"optimize", {"optimize", "nh_particle", "--t-end", "1", "--target", "x=1"}},
        {"export", {"export", "nh_particle", "--video", dir_.filePath("v.mp4").toStdString()}},
        {"sweep", {"sweep", "nh_particle", "--measure", "final(x)"}},
        {"equations", {"equations", "nh_particle"}},
    };
    const std::map<std::string, std::string> values = {
        {"--vary", "m=1:2:2"}, {"--sample", "m=uniform:1:2"},
        {"--count", "2"},      {"--seed", "1"},
        {"--width", "64"},     {"--height", "64"},
        {"--html", page}};
    // The words giving `option` as `when` asks; for export the page replaces the video.
    auto add = [&](std::vector<std::string>& words, const std::string& option, When when) {
      const auto* row = optionsOf(words[0]).front();
      for (const OptionRow* r : optionsOf(words[0]))
        if (option == r->name) row = r;
      if (option == "--html") words.erase(words.begin() + 2, words.begin() + 4);
      if (option == "--out")
        words.erase(std::remove(words.begin(), words.end(), "--out"), words.end());
      words.push_back(option);
      if (row->takes != Takes::Flag)
        words.push_back(when == When::StandardOutput ? "-" : values.at(option));
    };
    for (const OptionRule& rule : kRules) {
      for (const std::string& command : wordsOf(rule.commands)) {
        std::vector<std::string> words = base.at(command);
        if (command == "run" && std::string(rule.other) == "--out")
          words.resize(2);  // --out not given: standard output
        add(words, rule.option, rule.when);
        if (rule.kind == OptionRule::Excludes && !(command == "run"))
          add(words, rule.other, rule.otherWhen);
        const QString why = refusal(words);
        QVERIFY2(why == rule.message,
                 qPrintable(QString::fromStdString(nh::joined(words, " ")) + ": " + why));
        QVERIFY2(why.contains(rule.option) && why.contains(rule.other), rule.message);
      }
    }
    // The combinations docs/cli.md says are refused, whatever the table holds.
    const std::string video = dir_.filePath("v.mp4").toStdString();
    const std::vector<std::pair<std::vector<std::string>, QString>> refused = {
        {{"run", "nh_particle", "--save-scenario", "/dev/stdout"}, "--out and --save-scenario"},
        {{"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--json", "--out", "-"},
         "--json and --out - both"},
        {{"export", "nh_particle", "--html", page, "--height", "64"}, "--height does not apply"},
        {{"export", "nh_particle", "--html", page, "--no-overlay"}, "--no-overlay does not apply"},
        {{"sweep", "nh_particle", "--measure", "final(x)", "--vary", "m=1:2:2", "--seed", "1"},
         "--seed goes with --sample"},
        {{"sweep", "nh_particle", "--measure", "final(x)", "--vary", "m=1:2:2", "--count", "2"},
         "--count goes with --sample"},
        {{"sweep", "nh_particle", "--measure", "final(x)", "--sample", "m=uniform:1:2"},
         "--sample needs --count N"},
    };
    for (const auto& [words, says] : refused)
      QVERIFY2(refusal(words).startsWith(says), qPrintable(says + ": " + refusal(words)));
    // Apart, the options of a rule are accepted.
    QCOMPARE(refusal({"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--json"}),
             QString());
    QCOMPARE(refusal({"export", "nh_particle", "--html", page}), QString());
    QCOMPARE(refusal({"export", "nh_particle", "--video", dir_.filePath("w.mp4").toStdString(),
                      "--width", "64"}),
             QString());
  }

  // A needed option (Usage::Needed) is refused when missing, in one line saying what it is.
  void neededOptionsAreRefusedWhenMissing() {
    QCOMPARE(refusal({"optimize", "nh_particle", "--target", "x=1"}),
             QString("optimize needs --t-end T, the time of the motion"));
    QCOMPARE(refusal({"optimize", "nh_particle", "--t-end", "1"}),
             QString("optimize needs at least one --target NAME=VALUE, a coordinate at T"));
    QVERIFY(usageBlock(QString::fromStdString(usageText()), "optimize")
                .contains(" --target NAME=VALUE... --t-end T "));
  }

  // The options of a command that exclude each other (Usage::OneOf) are refused together,
  // named in one line.
  void oneOfOptionsExcludeEachOther() {
    try {
      parseArguments({"export", "nh_particle", "--video", "a.mp4", "--frames", "d"});
      QFAIL("--video with --frames accepted");
    } catch (const UsageError& e) {
      QCOMPARE(QString(e.what()),
               QString("give one of --video, --frames, --html and --lessons, once"));
    }
    // The group may break between its alternatives (under the target's column).
    QString block = usageBlock(QString::fromStdString(usageText()), "export");
    block.replace(QRegularExpression("\\s+"), " ");
    QVERIFY2(
        block.contains(
            "(--video OUT.mp4|OUT.webm|OUT.gif | --frames DIR | --html OUT.html | --lessons DIR)"),
        qPrintable(block));
  }
};

QTEST_GUILESS_MAIN(CommandTableTest)
#include "command_table_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
