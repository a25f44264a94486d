// nhsim with model files: run, info and list take them; scenarios refer to them relative to
// their own folder; the user's folder is listed; a bad model file exits 2 with one line
// naming the file, key, line and column, and writes nothing. A control model's info names
// its controls and cost, and its equations are Pontryagin's; a control model with a
// Lagrangian is refused.
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"
#include "particle_model.h"
#include "veselova_model.h"

namespace {

using Result = nh::test::ProcessResult;

// The particle of seed 003 Ex. 7.1 typed as formulas: the same system as the built-in
// nh_particle, under its own name and title.
const QByteArray kParticle = QByteArray::fromStdString(
    nh::test::withLine(nh::test::kParticleModel,
                       "name:", "name: my_particle\ntitle: Particle typed in") +
    "independent: [vx, vy]\n");

// Brockett's integrator: ẋ = u1, ẏ = u2, ż = x u2 − y u1 at the cost (u1² + u2²)/2.
const QByteArray kBrockett = R"(format: nonholonomic-lab-system
version: 1
name: brockett
coordinates: [x, y, z]
velocities: [vx, vy, vz]
controls: [u1, u2]
control_section: {vx: u1, vy: u2, vz: x*u2 - y*u1}
cost: 0.5*(u1*u1 + u2*u2)
)";

QList<QList<double>> readCsv(const QString& path, QStringList* header = nullptr) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QList<QList<double>> rows;
  const QList<QByteArray> lines = f.readAll().split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    if (lines[i].isEmpty()) continue;
    if (i == 0) {
      if (header) *header = QString::fromUtf8(lines[i]).split(',');
      continue;
    }
    QList<double> row;
    for (const QByteArray& cell : lines[i].split(',')) row.append(cell.toDouble());
    rows.append(row);
  }
  return rows;
}

}  // namespace

class ModelCliTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }
  void writeFile(const QString& name, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path(name)).absolutePath());
    QFile f(path(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
  }
  Result nhsim(const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("NH_SYSTEMS_PATH", path("user-systems"));
    return nh::test::runNhsim(args, env);
  }

 private slots:
  void runsAModelFileLikeTheBuiltInSystem() {
    writeFile("particle.yaml", kParticle);
    QCOMPARE(nhsim({"run", path("particle.yaml"), "--t-end", "2", "--dt-out", "0.25", "--out",
                    path("model.csv")})
                 .code,
             0);
    QCOMPARE(nhsim({"run", "nh_particle", "--t-end", "2", "--dt-out", "0.25", "--out",
                    path("builtin.csv")})
                 .code,
             0);
    QStringList header;
    const auto model = readCsv(path("model.csv"), &header);
    const auto builtin = readCsv(path("builtin.csv"));
    QCOMPARE(header, QStringList({"t", "x", "y", "z", "vx", "vy", "vz", "energy", "energy_frame",
                                  "phi_1", "lambda_1"}));
    QCOMPARE(model.size(), 9);
    QCOMPARE(model.size(), builtin.size());
    for (int r = 0; r < model.size(); ++r)
      for (int c = 0; c < model[r].size(); ++c)
        QVERIFY2(std::abs(model[r][c] - builtin[r][c]) <= 1e-12,
                 qPrintable(QString("row %1 column %2").arg(r).arg(header[c])));
  }

  void infoDescribesAModelFile() {
    writeFile("particle.yaml", kParticle);
    const Result r = nhsim({"info", path("particle.yaml"), "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value("name").toString(), QString("my_particle"));
    QCOMPARE(o.value("title").toString(), QString("Particle typed in"));
  }

  // info: a "Controls:" line and the cost (text), "controls" and "cost" (JSON).
  void infoNamesAControlModelsControlsAndCost() {
    writeFile("brockett.yaml", kBrockett);
    const Result text = nhsim({"info", path("brockett.yaml")});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("\nControls: u1, u2\n"), qPrintable(text.out));
    QVERIFY2(text.out.contains("\nCost: L = 0.5*(u1*u1 + u2*u2)\n"), qPrintable(text.out));
    const Result json = nhsim({"info", path("brockett.yaml"), "--json"});
    QCOMPARE(json.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(o.value("controls").toVariant().toStringList(), QStringList({"u1", "u2"}));
    QCOMPARE(o.value("cost").toString(), QString("0.5*(u1*u1 + u2*u2)"));
    writeFile("particle.yaml", kParticle);
    const Result plain = nhsim({"info", path("particle.yaml")});
    QVERIFY2(!plain.out.contains("Controls:"), qPrintable(plain.out));
  }

  // info: the kind of algebroid the structure makes, "Structure: …" (text) and
  // "structure_kind", "structure_why" (JSON).
  void infoNamesTheKindOfAlgebroid() {
    const Result ray = nhsim({"info", "graded_index_ray"});
    QCOMPARE(ray.code, 0);
    QVERIFY2(ray.out.contains("\nStructure: general algebroid: [e_vx, e_vx] ≠ 0\n"),
             qPrintable(ray.out));
    const Result json = nhsim({"info", "rigid_body", "--json"});
    QCOMPARE(json.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(o.value("structure_kind").toString(), QString("Lie algebroid"));
    QCOMPARE(o.value("structure_why").toString(), QString());
  }

  // equations: Pontryagin's equations, in plain text and LaTeX, not M ẏ − Aᵀλ = F with L = 0.
  void equationsOfAControlModelArePontryagins() {
    writeFile("brockett.yaml", kBrockett);
    const Result text = nhsim({"equations", path("brockett.yaml")});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.startsWith("brockett — brockett: Pontryagin's equations"),
             qPrintable(text.out));
    for (const char* line : {"ξ̇_vx = -ξ_vz*u2", "ξ̇_vy = ξ_vz*u1", "ξ̇_vz = 0", "u1 = ξ_vx - y*ξ_vz",
                             "u2 = ξ_vy + x*ξ_vz"})
      QVERIFY2(text.out.contains(QString::fromUtf8(line)), qPrintable(text.out));
    QVERIFY2(!text.out.contains("Mass matrix"), qPrintable(text.out));
    const Result latex = nhsim({"equations", path("brockett.yaml"), "--latex"});
    QCOMPARE(latex.code, 0);
    QVERIFY2(latex.out.contains("Pontryagin's equations (5.6)-(5.8)"), qPrintable(latex.out));
    QVERIFY2(latex.out.contains("\\dot{\\xi}_{\\mathrm{vx}} = -\\xi_{\\mathrm{vz}} \\, u_{2}"),
             qPrintable(latex.out));
  }

  // A model with controls and a Lagrangian: one line, exit 2.
  void controlsWithALagrangianAreRefused() {
    writeFile("both.yaml", kBrockett + "lagrangian: 0.5*(vx^2 + vy^2)\n");
    for (const QString& command : {QString("info"), QString("equations")}) {
      const Result r = nhsim({command, path("both.yaml")});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains("lagrangian: a control model has no 'lagrangian'"),
               qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY(r.out.isEmpty());
    }
  }

  void scenariosReferToModelFilesRelatively() {
    writeFile("models/particle.yaml", kParticle);
    writeFile("scenarios/run.json", R"({"format": "nonholonomic-lab-scenario", "version": 1,
      "system": "../models/particle.yaml", "parameters": {"m": 2}, "t_end": 1, "dt_out": 0.5})");
    // Run from another working directory: the path is relative to the scenario's folder.
    QDir().mkpath(path("elsewhere/deeper"));
    QCOMPARE(nhsim({"run", path("scenarios/run.json"), "--out", path("a.csv"), "--save-scenario",
                    path("elsewhere/deeper/saved.json")})
                 .code,
             0);
    QFile saved(path("elsewhere/deeper/saved.json"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(saved.readAll()).object();
    QCOMPARE(o.value("system").toString(), QString("../../models/particle.yaml"));
    QCOMPARE(o.value("parameters").toObject().value("m").toDouble(), 2.0);
    QCOMPARE(nhsim({"run", path("elsewhere/deeper/saved.json"), "--out", path("b.csv")}).code, 0);
    QCOMPARE(readCsv(path("a.csv")), readCsv(path("b.csv")));
  }

  void theUsersFolderIsListed() {
    writeFile("user-systems/mine.yaml", kParticle);
    writeFile("user-systems/broken.yaml", "format: nonholonomic-lab-system\nversion: 1\n");
    const Result list = nhsim({"list"});
    QCOMPARE(list.code, 0);
    QVERIFY2(list.out.contains("my_particle") && list.out.contains("Particle typed in"),
             qPrintable(list.out));
    QVERIFY(list.out.contains("ball_on_turntable"));
    QVERIFY2(list.err.contains("broken.yaml") && list.err.contains("missing key 'name'"),
             qPrintable(list.err));
    QCOMPARE(nhsim({"run", "my_particle", "--t-end", "0.5", "--out", path("u.csv")}).code, 0);
    QCOMPARE(readCsv(path("u.csv")).size(), 51);
  }

  // appell_hamel wound up (a = 0.2) from vx = 2: its horizontal speed reaches 0 at
  // t* = 2 (1 + a²)/(a g) = 1.06014 s, where the constraint is not differentiable (the file's
  // `singular` entry): run exits 3 with one stderr line naming t, keeping the rows before t*.
  void aSingularPointExitsThreeKeepingTheRows() {
    const Result r = nhsim({"run", "appell_hamel", "--set", "a=0.2", "--t-end", "2", "--dt-out",
                            "0.1", "--out", path("appell.csv")});
    QCOMPARE(r.code, 3);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.err.contains("t = 1.06014") && r.err.contains("not differentiable"),
             qPrintable(r.err));
    auto rows = readCsv(path("appell.csv"));
    // t = 0, 0.1, …, 1.0, then the line that says the file stops early ("# partial: …", read
    // here as one value that is not a number).
    QCOMPARE(rows.size(), 12);
    rows.removeLast();
    QCOMPARE(rows.last()[0], 1.0);
    QFile f(path("appell.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().trimmed().split('\n').last().startsWith("# partial: stopped at t = 1.06"));
  }

  // A structure its anchor contradicts (the Veselova system's so(3) with the sign of one
  // bracket flipped) exits 2 at that entry's line and column, whatever the command; with
  // `structure_checked: false` the run goes on and says so once on standard error.
  void aStructureTheAnchorContradictsIsRefusedOrWarned() {
    const std::string wrong = nh::test::withLine(nh::test::kVeselovaModel, "  - {bracket: [w3, w1]",
                                                 "  - {bracket: [w3, w1], equals: {w2: -1}}");
    writeFile("wrong.yaml", QByteArray::fromStdString(wrong));
    for (const QString& command : {QString("run"), QString("info"), QString("equations")}) {
      QStringList args{command, path("wrong.yaml")};
      if (command == "run")
        args << "--t-end"
             << "0.1"
             << "--out" << path("never.csv");
      const Result r = nhsim(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith("nhsim: error: " + path("wrong.yaml") +
                                ":23:15: structure[3].bracket: the anchor does not map this "
                                "bracket to the bracket of its columns: ρ[e_w1, e_w3] ≠ "
                                "[ρe_w1, ρe_w3]"),
               qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY(r.out.isEmpty());
    }
    QVERIFY(!QFileInfo::exists(path("never.csv")));
    writeFile("kept.yaml", QByteArray::fromStdString(wrong + "structure_checked: false\n"));
    const Result kept = nhsim({"run", path("kept.yaml"), "--t-end", "0.1", "--out", path("k.csv")});
    QCOMPARE(kept.code, 0);
    QCOMPARE(kept.err.count("nhsim: warning: "), 1);
    QVERIFY2(kept.err.contains(path("kept.yaml") + ": the structure contradicts the anchor: "
                                                   "ρ[e_w1, e_w3] ≠ [ρe_w1, ρe_w3]"),
             qPrintable(kept.err));
    QVERIFY(QFileInfo::exists(path("k.csv")));
  }

  // Bytes that are not UTF-8 (a title holding \xff\xfe\xc3) are refused at load with their
  // byte offset, exit 2, before info --json or export could write them: the title starts at
  // offset 32 + 11 + 18 + 7 = 68 ("format: …", "version: 1", "name: my_particle" lines and
  // "title: "), so "Particle " puts the first bad byte at 77, line 4, column 17.
  void invalidUtf8IsRefusedAtLoad() {
    QByteArray bad = kParticle;
    bad.replace("Particle typed in", "Particle \xff\xfe\xc3");
    writeFile("bad-utf8.yaml", bad);
    for (const QStringList& args :
         {QStringList{"info", path("bad-utf8.yaml"), "--json"},
          QStringList{"run", path("bad-utf8.yaml"), "--out", path("never.csv")}}) {
      const Result r = nhsim(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith("nhsim: error: " + path("bad-utf8.yaml") +
                                ":4:17: the file is not valid UTF-8: byte 0xFF at byte offset 77 "
                                "(a model file is UTF-8 text)"),
               qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY(r.out.isEmpty());
    }
    QVERIFY(!QFileInfo::exists(path("never.csv")));
  }

  void aBadModelFileExitsTwoAndWritesNothing() {
    QByteArray bad = kParticle;
    bad.replace("0.5*m*(vx^2 + vy^2 + vz^2)", "0.5*m*(vx^2 + vy^2 + vq^2)");
    writeFile("bad.yaml", bad);
    for (const QString& command : {QString("run"), QString("info")}) {
      QStringList args{command, path("bad.yaml")};
      if (command == "run") args << "--out" << path("never.csv");
      const Result r = nhsim(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith("nhsim: error: " + path("bad.yaml") +
                                ":9:34: lagrangian: "
                                "unknown name 'vq'"),
               qPrintable(r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY(r.out.isEmpty());
    }
    QVERIFY(!QFileInfo::exists(path("never.csv")));
    const Result missing = nhsim({"run", path("absent.yaml")});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("absent.yaml") && missing.err.contains("No such file"),
             qPrintable(missing.err));
  }

  // A model of the user's folder that does not load, run by its name, reports the file's own
  // error (file, line, column), not "unknown system".
  void aBrokenUserModelByNameShowsItsError() {
    writeFile("broken-systems/broken_model.yaml",
              QByteArray::fromStdString(nh::test::withLine(
                  nh::test::kParticleModel, "lagrangian:", "lagrangian: 0.5*m*(vx^2 +")));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("NH_SYSTEMS_PATH", path("broken-systems"));
    const Result r = nh::test::runNhsim({"run", "broken_model", "--t-end", "0.1"}, env);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("broken_model.yaml:8:") && r.err.contains("lagrangian") &&
                 !r.err.contains("unknown system"),
             qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
  }

  // A model without `independent` keeps every velocity it is given: run completes the start,
  // and linearize solves the constraints for whichever velocities they can be solved for.
  void linearizeAModelWithoutIndependentVelocities() {
    writeFile("free.yaml", QByteArray::fromStdString(nh::test::kParticleModel));
    const Result run = nhsim({"run", path("free.yaml"), "--t-end", "0.1", "--quiet"});
    QCOMPARE(run.code, 0);
    const Result r = nhsim({"linearize", path("free.yaml"), "--json"});
    QVERIFY2(r.code == 0 && !r.err.contains("cannot be solved"), qPrintable(r.err));
    QVERIFY2(!QJsonDocument::fromJson(r.out.toUtf8()).isNull(), qPrintable(r.out));
  }

  // discrete-gradient's refusal of a Lagrangian that reads t is grammatical ("the Lagrangian
  // of 'driven' depends on time").
  void aTimeDependentLagrangianIsRefusedInWords() {
    writeFile("driven.yaml",
              QByteArray::fromStdString(nh::test::withLine(
                  nh::test::withLine(nh::test::kParticleModel, "name:", "name: driven"),
                  "lagrangian:", "lagrangian: 0.5*m*(1 + 0.1*t)*(vx^2 + vy^2 + vz^2)")));
    const Result r = nhsim({"run", path("driven.yaml"), "--integrator", "discrete-gradient",
                            "--step", "0.01", "--t-end", "0.1"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("the Lagrangian of 'driven' depends on time explicitly"),
             qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(ModelCliTest)
#include "model_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
