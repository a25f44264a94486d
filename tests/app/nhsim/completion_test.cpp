// nhsim's bash completion (app/nhsim/completion.h), generated from the parser's own
// declarations: it names every command and every option each command's help lists, offers the
// words of a fixed choice, files where a file is expected and the catalogue's systems for a
// target; the script is valid bash and, run by bash, completes what a user types.
#include "app/nhsim/completion.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <variant>

#include "core/nh/named_choice.h"
#include "core/nh/simulation.h"
#include "help_options.h"

namespace {

using nh::cli::ValueCompletion;

// The long options `nhsim COMMAND --help` lists ("--help" for nhsim itself when `command`
// is empty).
QStringList optionsInHelp(const std::string& command) {
  std::vector<std::string> args;
  if (!command.empty()) args.push_back(command);
  args.push_back("--help");
  const nh::cli::CommandLine line = nh::cli::parseArguments(args);
  const QString help = QString::fromStdString(std::get<nh::cli::HelpRequest>(line).text);
  return nhtest::optionsInHelp(help);
}

}  // namespace

class CompletionTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString script_;

  // The words bash's completion offers for the command line `typed` (the last word is the one
  // being completed), with bash-completion's helpers stubbed: files are offered as "<files>",
  // folders as "<folders>".
  QStringList complete(const QStringList& typed) {
    QString words;
    for (const QString& word : typed) words += " '" + word + "'";
    const QString program =
        "_init_completion() { words=(\"${COMP_WORDS[@]}\"); cword=$COMP_CWORD;"
        " cur=${words[cword]}; prev=${words[cword-1]}; }\n"
        "_filedir() { if [[ $1 == -d ]]; then COMPREPLY+=('<folders>');"
        " else COMPREPLY+=('<files>'); fi; }\n"
        "source '" +
        script_ +
        "'\n"
        "COMP_WORDS=('" NHSIM_PATH "'" +
        words + ")\nCOMP_CWORD=" + QString::number(typed.size()) +
        "\n_nhsim\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
    QProcess bash;
    bash.start("bash", {"-c", program});
    if (!bash.waitForFinished(30000)) return {"bash did not finish"};
    return QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    script_ = dir_.filePath("nhsim.bash");
    QFile file(script_);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(nh::cli::bashCompletion(nh::cli::declaredCommandLine()).c_str());
  }

  // What each kind of value, as the help names it, completes to.
  void valueKinds() {
    using nh::cli::valueCompletion;
    QCOMPARE(valueCompletion("SYSTEM|MODEL.yaml|SCENARIO.json"), ValueCompletion::Systems);
    QCOMPARE(valueCompletion("FILE|-"), ValueCompletion::Files);
    QCOMPARE(valueCompletion("OUT.mp4|OUT.webm|OUT.gif"), ValueCompletion::Files);
    QCOMPARE(valueCompletion("DIR"), ValueCompletion::Folders);
    QCOMPARE(valueCompletion("csv|hdf5"), ValueCompletion::Words);
    QCOMPARE(valueCompletion(nh::alternatives(nh::kIntegrators)), ValueCompletion::Words);
    QCOMPARE(valueCompletion("VAR[,VAR]..."), ValueCompletion::None);
    QCOMPARE(valueCompletion("X,Y|none"), ValueCompletion::None);
    QCOMPARE(valueCompletion("NAME=VALUE"), ValueCompletion::None);
    QCOMPARE(valueCompletion("T"), ValueCompletion::None);
  }

  // Every command and every option its help lists is declared for the completion.
  void everyOptionOfTheHelpIsDeclared() {
    const nh::cli::DeclaredCommandLine line = nh::cli::declaredCommandLine();
    QCOMPARE(line.commands.size(), std::size(nh::cli::kCommands));
    for (const nh::cli::DeclaredCommand& command : line.commands) {
      QStringList declared;
      for (const nh::cli::DeclaredOption& option : command.options)
        declared << QString::fromStdString(option.name);
      const QStringList inHelp = optionsInHelp(command.name);
      QVERIFY2(inHelp.size() > 0, command.name.c_str());
      for (const QString& option : inHelp)
        QVERIFY2(declared.contains(option),
                 qPrintable(QString::fromStdString(command.name) + " " + option));
    }
  }

  void scriptIsValidBash() {
    QProcess bash;
    bash.start("bash", {"-n", script_});
    QVERIFY(bash.waitForFinished(30000));
    QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
  }

  // The first word: the commands and nhsim's own options.
  void completesTheCommands() {
    const QStringList words = complete({""});
    for (const nh::cli::CommandRow& row : nh::cli::kCommands)
      QVERIFY2(words.contains(row.name), row.name);
    QVERIFY(words.contains("--version"));
    QCOMPARE(complete({"ru"}), QStringList{"run"});
    QCOMPARE(complete({"li"}), (QStringList{"list", "linearize"}));
  }

  // A command's options, and the words or files after an option that takes a value.
  void completesOptionsAndTheirValues() {
    QCOMPARE(complete({"run", "ball_on_turntable", "--integ"}), QStringList{"--integrator"});
    const QStringList integrators = complete({"run", "x", "--integrator", ""});
    for (const std::string& name : nh::choiceNames(nh::kIntegrators))
      QVERIFY2(integrators.contains(QString::fromStdString(name)), name.c_str());
    QCOMPARE(complete({"sweep", "x", "--format", ""}), (QStringList{"csv", "hdf5"}));
    QCOMPARE(complete({"run", "x", "--out", ""}), QStringList{"<files>"});
    QCOMPARE(complete({"export", "x", "--frames", ""}), QStringList{"<folders>"});
    QCOMPARE(complete({"run", "x", "--t-end", ""}), QStringList());
    QVERIFY(complete({"export", "x", "--"}).contains("--video"));
    QVERIFY(!complete({"info", "x", "--"}).contains("--video"));
  }

  // A target: the systems 'nhsim list' prints, and model or scenario files.
  void completesTheTarget() {
    const QStringList words = complete({"run", "ball_on"});
    QVERIFY2(words.contains("ball_on_turntable"), qPrintable(words.join(' ')));
    QVERIFY(words.contains("<files>"));
    // After a flag (it takes no value) the target is completed again.
    QVERIFY(complete({"linearize", "--json", "ball_on_t"}).contains("ball_on_turntable"));
    QCOMPARE(complete({"list", ""}), QStringList{"--help"});  // list takes no target
  }
};

QTEST_GUILESS_MAIN(CompletionTest)
#include "completion_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
