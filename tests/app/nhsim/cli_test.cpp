// The nhsim command line: output format, scenarios, and every error case with its message
// and exit code (2: bad input, 3: simulation failed, 1: output failed).
#include <sys/stat.h>

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "core/nh/integrators.h"
#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }

QList<QStringList> readCsv(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  QList<QStringList> rows;
  for (const QByteArray& line : f.readAll().split('\n'))
    if (!line.isEmpty()) rows.append(QString::fromUtf8(line).split(','));
  return rows;
}

}  // namespace

class CliTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }
  void writeFile(const QString& name, const QByteArray& text) {
    QFile f(path(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
  }
  // One line on stderr containing `fragment`, exit code `code`.
  void expectError(const QStringList& args, int code, const QString& fragment) {
    const Result r = nhsim(args);
    QVERIFY2(r.code == code, qPrintable(QString("exit %1, stderr: %2").arg(r.code).arg(r.err)));
    QVERIFY2(r.err.contains(fragment), qPrintable("stderr: " + r.err));
    QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable("more than one line: " + r.err));
    QVERIFY(r.err.startsWith("nhsim: error: "));
  }

 private slots:
  void listAndInfo() {
    const Result list = nhsim({"list"});
    QCOMPARE(list.code, 0);
    for (const char* name : {"ball_on_turntable", "ball_on_table", "nh_particle", "central_force",
                             "rigid_body", "rolling_disk", "chaplygin_sleigh"})
      QVERIFY(list.out.contains(name));
    const Result info = nhsim({"info", "ball_on_turntable", "--json"});
    QCOMPARE(info.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(info.out.toUtf8()).object();
    QCOMPARE(o.value("name").toString(), QString("ball_on_turntable"));
    QStringList params;
    for (const auto& p : o.value("parameters").toArray())
      params << p.toObject().value("name").toString();
    QCOMPARE(params, QStringList({"m", "r", "inertia_ratio", "Omega0", "Omega_rate", "Omega_amp",
                                  "Omega_freq", "tilt", "g", "table_angle0"}));
    QStringList state;
    for (const auto& s : o.value("state").toArray()) state << s.toString();
    QCOMPARE(state.join(' '), QString("x y vx vy wx wy wz qw qx qy qz"));
    const Result text = nhsim({"info", "nh_particle"});
    QCOMPARE(text.code, 0);
    QVERIFY(text.out.contains("vakonomic adds: mu"));
    QVERIFY(text.out.contains("Initial velocities:"));
  }

  // info --constraints: the constraints' algebroid and the holonomy verdict, in text and JSON;
  // a control model is refused in one line.
  void constraintAlgebroid() {
    const Result sleigh = nhsim({"info", "chaplygin_sleigh", "--constraints"});
    QCOMPARE(sleigh.code, 0);
    QVERIFY2(sleigh.out.contains("The constraints' algebroid: nonholonomic: [X_v, X_omega] leaves "
                                 "D"),
             qPrintable(sleigh.out));
    QVERIFY(sleigh.out.contains("ρ(X_v) = cos(theta)*∂/∂x + sin(theta)*∂/∂y"));
    QVERIFY(sleigh.out.contains("A₁ [X_v, X_omega] = -1"));
    const Result pendulum = nhsim({"info", "spherical_pendulum", "--constraints", "--json"});
    QCOMPARE(pendulum.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(pendulum.out.toUtf8()).object();
    QVERIFY(o.value("constraint_algebroid")
                .toObject()
                .value("verdict")
                .toString()
                .startsWith("holonomic: D = ker A is closed"));
    QVERIFY(!nhsim({"info", "chaplygin_sleigh"}).out.contains("constraints' algebroid"));
    expectError({"info", "rigid_body_control", "--constraints"}, 2, "is a control model");
  }

  // discrete-gradient: nhsim info and the run summary say what it conserves; what it cannot
  // step is refused in one line (exit 2) before any file is written.
  void discreteGradientSaysWhatItConserves() {
    QVERIFY(nhsim({"info", "chaplygin_sleigh"})
                .out.contains("discrete-gradient: conserves the energy\n"));
    QVERIFY(nhsim({"info", "ball_on_turntable"})
                .out.contains("discrete-gradient: conserves the energy in the constraints' "
                              "reference frame (energy_frame)"));
    QVERIFY(nhsim({"info", "spherical_pendulum"})
                .out.contains("discrete-gradient: not applicable: holds velocity constraints, "
                              "not holonomic ones"));
    const Result run = nhsim({"run", "ball_on_turntable", "--integrator", "discrete-gradient",
                              "--step", "0.01", "--t-end", "1", "--out", path("dg.csv")});
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains("discrete-gradient: conserves the energy in the constraints' "
                              "reference frame (energy_frame): energy_frame "),
             qPrintable(run.out));
    expectError({"run", "spherical_pendulum", "--integrator", "discrete-gradient", "--step", "0.01",
                 "--out", path("no.csv")},
                2, "choose nh-rattle");
    expectError({"run", "ball_on_turntable", "--integrator", "discrete-gradient", "--step", "0.01",
                 "--set", "tilt=0.3", "--out", path("no.csv")},
                2, "do not keep it");
    QVERIFY(!QFile::exists(path("no.csv")));
  }

  // A fixed-step integrator named on the command line needs its step there (a scenario file
  // carries its own): one line, exit 2, nothing written.
  void fixedStepIntegratorsNeedTheirStep() {
    for (const std::string& name : nh::integratorNames(&nh::IntegratorRow::fixedStep)) {
      const QString method = QString::fromStdString(name);
      expectError({"run", "chaplygin_sleigh", "--integrator", method, "--out", path("no.csv")}, 2,
                  method + " is a fixed-step integrator: give its step with --step H");
    }
    expectError({"run", "chaplygin_sleigh", "--integrator", "nh-rattle", "--step", "0", "--out",
                 path("no.csv")},
                2, "step must be a finite number > 0, got 0");
    QVERIFY(!QFile::exists(path("no.csv")));
  }

  void runWritesCsvWithHeader() {
    const Result r = nhsim(
        {"run", "ball_on_turntable", "--t-end", "2", "--dt-out", "0.5", "--out", path("a.csv")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("ball_on_turntable"));
    const auto rows = readCsv(path("a.csv"));
    QCOMPARE(rows.size(), 6);
    QCOMPARE(rows[0].join(','),
             QString("t,x,y,vx,vy,wx,wy,wz,qw,qx,qy,qz,energy,energy_frame,phi_1,phi_2,lambda_1,"
                     "lambda_2"));
    QCOMPARE(rows[5][0].toDouble(), 2.0);
    for (int i = 1; i < rows.size(); ++i) {  // the residuals phi_1, phi_2
      QVERIFY(std::abs(rows[i][14].toDouble()) < 1e-10);
      QVERIFY(std::abs(rows[i][15].toDouble()) < 1e-10);
    }
    // CSV to stdout with "-", vakonomic adds mu.
    const Result v = nhsim({"run", "nh_particle", "--dynamics", "vakonomic", "--t-end", "1",
                            "--dt-out", "0.5", "--init", "mu=0.2", "--out", "-"});
    QCOMPARE(v.code, 0);
    const QStringList lines = v.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QString("t,x,y,z,vx,vy,vz,mu,energy,energy_frame,phi_1,lambda_1"));
    QCOMPARE(lines[1].split(',')[7].toDouble(), 0.2);
  }

  // The hamiltonian formulation keeps every column and adds the momenta it integrates, with
  // the same motion; vakonomic dynamics are refused with it (one line, exit 2, no file).
  void hamiltonianFormulationAddsTheMomenta() {
    const QStringList common = {"run",      "nh_particle", "--t-end",      "1",
                                "--dt-out", "0.5",         "--integrator", "dop853",
                                "--rtol",   "1e-12",       "--atol",       "1e-12"};
    QCOMPARE(nhsim(common + QStringList{"--out", path("lag.csv")}).code, 0);
    QCOMPARE(
        nhsim(common + QStringList{"--formulation", "hamiltonian", "--out", path("ham.csv")}).code,
        0);
    const auto lag = readCsv(path("lag.csv")), ham = readCsv(path("ham.csv"));
    QCOMPARE(ham[0].join(','),
             QString("t,x,y,z,vx,vy,vz,energy,energy_frame,phi_1,lambda_1,p_vx,p_vy,p_vz"));
    QCOMPARE(lag[0].join(','), QString("t,x,y,z,vx,vy,vz,energy,energy_frame,phi_1,lambda_1"));
    QCOMPARE(ham.size(), lag.size());
    for (int c = 1; c < lag[0].size(); ++c)
      QVERIFY(std::abs(ham.last()[c].toDouble() - lag.last()[c].toDouble()) < 1e-9);
    // nh_particle's L = ½|v|²: p = v.
    for (int a = 0; a < 3; ++a)
      QCOMPARE(ham.last()[11 + a].toDouble(), ham.last()[4 + a].toDouble());
    expectError({"run", "nh_particle", "--dynamics", "vakonomic", "--formulation", "hamiltonian",
                 "--out", path("never.csv")},
                2, "nonholonomic dynamics only");
    QVERIFY(!QFile::exists(path("never.csv")));
  }

  void optionsChangeTheRun() {
    QCOMPARE(nhsim({"run", "rigid_body", "--t-end", "1", "--integrator", "rk4", "--step", "0.01",
                    "--out", path("rk4.csv")})
                 .code,
             0);
    QCOMPARE(nhsim({"run", "rigid_body", "--t-end", "1", "--integrator", "rk78", "--rtol", "1e-12",
                    "--atol", "1e-14", "--out", path("rk78.csv")})
                 .code,
             0);
    const auto a = readCsv(path("rk4.csv")), b = readCsv(path("rk78.csv"));
    QCOMPARE(a.size(), b.size());
    const double d = std::abs(a.last()[1].toDouble() - b.last()[1].toDouble());
    QVERIFY(d > 0 && d < 1e-6);  // different integrators, same motion
    QCOMPARE(nhsim({"run", "chaplygin_sleigh", "--t-end", "1", "--formulation", "gibbs-appell",
                    "--no-projection", "--out", path("ga.csv")})
                 .code,
             0);
  }

  // A t-end off the output grid still ends with the state at t-end; huge quaternion
  // components are normalised, not overflowed.
  void edgesOfTheOutputGridAndOfTheInput() {
    QCOMPARE(nhsim({"run", "ball_on_turntable", "--t-end", "1.005", "--dt-out", "0.01", "--out",
                    path("g.csv")})
                 .code,
             0);
    const auto rows = readCsv(path("g.csv"));
    QCOMPARE(rows.size(), 1 + 101 + 1);
    QCOMPARE(rows.last()[0].toDouble(), 1.005);
    QVERIFY(std::abs(rows.last()[14].toDouble()) < 1e-10);  // phi_1
    QCOMPARE(nhsim({"run", "ball_on_turntable", "--init", "qw=1e200", "--init", "qx=1e200",
                    "--t-end", "0", "--out", path("q.csv")})
                 .code,
             0);
    const auto q = readCsv(path("q.csv"));
    QVERIFY(std::abs(q[1][8].toDouble() - std::sqrt(0.5)) < 1e-15);
    QVERIFY(std::abs(q[1][9].toDouble() - std::sqrt(0.5)) < 1e-15);
  }

  void inconsistentInitialVelocitiesAreCompleted() {
    const Result r =
        nhsim({"run", "ball_on_turntable", "--init", "vx=0.3", "--init", "vy=0", "--init", "wx=1",
               "--init", "wy=1", "--t-end", "0", "--out", path("c.csv")});
    QCOMPARE(r.code, 0);
    // One line naming what changed, the given velocities marked as such.
    QVERIFY2(r.err.count("nhsim: note: the start velocities violate the constraints") == 1,
             qPrintable(r.err));
    QVERIFY2(r.err.contains("(given)"), qPrintable(r.err));
    const auto rows = readCsv(path("c.csv"));
    QCOMPARE(rows.size(), 2);
    QVERIFY(std::abs(rows[1][14].toDouble()) < 1e-12);  // phi_1
  }

  void scenarioRoundTrip() {
    QCOMPARE(nhsim({"run", "ball_on_turntable", "--set", "Omega0=2", "--set", "Omega_amp=0.5",
                    "--init", "x=0.4", "--t-end", "3", "--dt-out", "0.1", "--out", path("d1.csv"),
                    "--save-scenario", path("s.json")})
                 .code,
             0);
    QFile f(path("s.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value("version").toInt(), 2);
    QCOMPARE(o.value("parameters").toObject().value("Omega0").toDouble(), 2.0);
    QCOMPARE(o.value("initial").toObject().value("x").toDouble(), 0.4);
    QCOMPARE(nhsim({"run", path("s.json"), "--out", path("d2.csv")}).code, 0);
    QCOMPARE(readCsv(path("d1.csv")), readCsv(path("d2.csv")));
  }

  // --max-steps is saved with the scenario: the reloaded run keeps the budget (with the
  // default one, 2001 + 2001 rk4 steps to t = 20 would pass).
  void scenarioKeepsTheStepBudget() {
    QCOMPARE(
        nhsim({"run", "ball_on_turntable", "--integrator", "rk4", "--step", "0.01", "--t-end", "1",
               "--max-steps", "1000", "--out", path("m.csv"), "--save-scenario", path("m.json")})
            .code,
        0);
    expectError({"run", path("m.json"), "--t-end", "20", "--out", path("m2.csv")}, 2,
                "more than the step budget of 1000");
    QCOMPARE(nhsim({"run", path("m.json"), "--t-end", "20", "--max-steps", "5000", "--out",
                    path("m2.csv")})
                 .code,
             0);
  }

  void badNamesAndValues() {
    expectError({"run", "teapot"}, 2, "unknown system 'teapot' (known systems: ball_on_turntable");
    expectError({"run", "ball_on_turntable", "--set", "mass=1"}, 2, "unknown parameter 'mass'");
    expectError({"run", "ball_on_turntable", "--init", "speed=1"}, 2,
                "unknown state variable 'speed'");
    expectError({"run", "ball_on_turntable", "--set", "r=abc"}, 2,
                "--set r: 'abc' is not a number");
    expectError({"run", "ball_on_turntable", "--set", "r=inf"}, 2, "must be finite");
    expectError({"run", "ball_on_turntable", "--init", "x=nan"}, 2, "must be finite");
    expectError({"run", "central_force", "--init", "r=-1"}, 2,
                "initial value of 'r' must be in (0, inf), got -1");
    // A check across parameters (each inside its own range): IBxx·IBzz = 25.76 < IBxz² = 400.
    expectError({"run", "whipple_bicycle", "--set", "IBxz=20"}, 2,
                "parameters of 'whipple_bicycle' not allowed: inertia tensor of the rear frame "
                "must be positive definite (IBxx·IBzz > IBxz²");
    expectError({"run", "ball_on_turntable", "--set", "r=-1"}, 2,
                "parameter 'r' must be in (0, inf), got -1");
    expectError({"run", "ball_on_turntable", "--set", "m=0"}, 2,
                "parameter 'm' must be in (0, inf), got 0");
    expectError({"run", "ball_on_turntable", "--rtol", "0"}, 2,
                "rtol must be a finite number > 0, got 0");
    expectError({"run", "ball_on_turntable", "--atol", "-1e-9"}, 2,
                "atol must be a finite number > 0");
    expectError({"run", "ball_on_turntable", "--step", "0"}, 2, "step must be a finite number > 0");
    expectError({"run", "ball_on_turntable", "--t-end", "-1"}, 2,
                "t-end must be a finite number ≥ 0, got -1");
    expectError({"run", "ball_on_turntable", "--dt-out", "0"}, 2,
                "dt-out must be a finite number > 0");
    expectError({"run", "ball_on_turntable", "--integrator", "euler"}, 2,
                "unknown integrator 'euler' (allowed: dopri5, dop853, rk78, rk4, arkode78, bdf, "
                "nh-rattle, discrete-gradient)");
    expectError({"run", "ball_on_turntable", "--dynamics", "magic"}, 2, "unknown dynamics 'magic'");
    expectError({"run", "ball_on_turntable", "--frobnicate"}, 2, "unknown option '--frobnicate'");
    expectError({"run", "ball_on_turntable", "--set"}, 2, "option --set needs a value");
    expectError({"bake"}, 2, "unknown command 'bake'");
    expectError(
        {"run", "ball_on_turntable", "--integrator", "rk4", "--step", "1e-9", "--t-end", "10"}, 2,
        "more than the step budget of 20000000; use a larger --step, a shorter t-end or raise "
        "--max-steps");
    expectError({"run", "ball_on_turntable", "--step", "1e-16"}, 2, "step must be at least 1e-12");
  }

  void badScenarioFiles() {
    writeFile("malformed.json", "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1,, }");
    expectError({"run", path("malformed.json")}, 2, "not valid JSON");
    writeFile("truncated.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1, \"system\": \"ball_on");
    expectError({"run", path("truncated.json")}, 2, "not valid JSON");
    writeFile("version.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 7, \"system\": "
              "\"ball_on_table\"}");
    expectError({"run", path("version.json")}, 2,
                "unsupported scenario version 7 (this program reads versions 1 to 2)");
    writeFile("key.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1, \"system\": "
              "\"ball_on_table\", \"colour\": 1}");
    expectError({"run", path("key.json")}, 2, "unknown key 'colour'");
    writeFile("type.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1, \"system\": "
              "\"ball_on_table\", \"t_end\": \"long\"}");
    expectError({"run", path("type.json")}, 2, "'t_end' must be a number");
    writeFile("range.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1, \"system\": "
              "\"ball_on_table\", \"parameters\": {\"r\": 0}}");
    expectError({"run", path("range.json")}, 2, "parameter 'r' must be in (0, inf), got 0");
    expectError({"run", path("missing.json")}, 2, "cannot read scenario file");
    writeFile("close.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1.0000000001, \"system\": "
              "\"ball_on_table\"}");
    expectError({"run", path("close.json")}, 2, "unsupported scenario version 1.0000000001");
    writeFile("dyn.json",
              "{\"format\": \"nonholonomic-lab-scenario\", \"version\": 1, \"system\": "
              "\"ball_on_table\", \"dynamics\": 5}");
    expectError({"run", path("dyn.json")}, 2, "dyn.json: 'dynamics' must be a string");
  }

  // Not regular at the start: bad input (exit 2) and no file, as for a model file.
  void nonRegularSystem() {
    expectError(
        {"run", "ball_on_turntable", "--set", "inertia_ratio=0", "--out", path("singular.csv")}, 2,
        "system 'ball_on_turntable' is not regular at t = 0: the mass matrix");
    QVERIFY(!QFileInfo::exists(path("singular.csv")));
  }

  // A blow-up keeps the rows written so far, says at which t, and the file ends with a line
  // that says it stops early (as an interrupted run's does).
  void blowUpKeepsRows() {
    expectError({"run", "central_force", "--set", "k=-1", "--set", "n=3", "--init", "w1=1",
                 "--init", "w2=0", "--t-end", "5", "--out", path("blow.csv")},
                3, "blew up at t = 1.31");
    auto rows = readCsv(path("blow.csv"));
    QVERIFY(rows.size() > 100);
    const QString last = rows.takeLast().join(',');
    QVERIFY2(last.startsWith("# partial: stopped at t = 1.31") && last.contains(" rows"),
             qPrintable(last));
    QVERIFY(rows.last()[0].toDouble() > 1.0);
  }

  // list, info and run load neither Qt nor VTK, nor MPI or HDF5 (only sweep's helper does),
  // so nhsim starts in milliseconds; the dynamic loader's own log (LD_DEBUG=libs) lists every
  // shared library it loads.
  void loadsNeitherQtNorVtk() {
    for (const QStringList& args : {QStringList{"list"}, QStringList{"info", "rolling_disk"},
                                    QStringList{"run", "ball_on_turntable", "--t-end", "0.01"}}) {
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("LD_DEBUG", "libs");
      const Result r = nh::test::runNhsim(args, env);
      QCOMPARE(r.code, 0);
      QVERIFY2(r.err.contains("calling init"), "LD_DEBUG printed nothing: cannot check");
      for (const char* library :
           {"libQt6", "libvtk", "libGL", "libavcodec", "libX11", "libmpi", "libhdf5"})
        QVERIFY2(!r.err.contains(library), qPrintable(args.join(' ') + " loads " + library));
    }
  }

  // nhsim equations: the derived equations as text (M, the explicit ẍ of theory §5) or LaTeX;
  // bad input exits 2 with one line.
  void equations() {
    const Result text = nhsim({"equations", "ball_on_turntable"});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("Mass matrix M") && text.out.contains("M = "), qPrintable(text.out));
    // The ball is a model file: its parameters stay symbols, κ = inertia_ratio/(inertia_ratio + 1).
    QVERIFY2(text.out.contains(QString::fromUtf8("w\u0307z = 0")) &&
                 text.out.contains(QString::fromUtf8("v\u0307y = inertia_ratio*(vx*(")) &&
                 text.out.contains("/(inertia_ratio + 1)"),
             qPrintable(text.out));
    // A system written in C++: numbers for its parameters, set ones included.
    const Result latex = nhsim({"equations", "central_force", "--latex", "--set", "k=2"});
    QCOMPARE(latex.code, 0);
    QVERIFY(latex.out.contains("\\begin{pmatrix}"));
    QVERIFY2(latex.out.contains("k = 2"), qPrintable(latex.out));
    writeFile("particle.yaml",
              "format: nonholonomic-lab-system\nversion: 1\nname: p\n"
              "parameters: [{name: m, default: 1}]\ncoordinates: [x, y, z]\n"
              "velocities: [vx, vy, vz]\n"
              "lagrangian: 0.5*m*(vx^2 + vy^2 + vz^2)\nconstraints: [vz - y*vx]\n");
    const Result model = nhsim({"equations", path("particle.yaml")});
    QCOMPARE(model.code, 0);
    QVERIFY2(model.out.contains(QString::fromUtf8("v̇z = vx*vy/(y^2 + 1)")), qPrintable(model.out));
    QVERIFY(model.out.contains("parameters are symbols"));
    expectError({"equations", "teapot"}, 2, "unknown system 'teapot'");
    expectError({"equations"}, 2, "equations needs a system name or a model file");
    expectError({"equations", "ball_on_turntable", "--tex"}, 2, "unknown option '--tex'");
    expectError({"equations", "central_force", "--set", "mass=1"}, 2, "unknown parameter 'mass'");
    expectError({"equations", path("particle.yaml"), "--set", "m=2"}, 2,
                "a model file's parameters stay symbols");
    // A part the symbolic derivation finds undefined is bad input at its place (the run
    // evaluates it in floating point), not an internal error.
    writeFile("log0.yaml",
              "format: nonholonomic-lab-system\nversion: 1\nname: p\n"
              "parameters: [{name: m, default: 1}]\ncoordinates: [x, y, z]\n"
              "velocities: [vx, vy, vz]\n"
              "lagrangian: 0.5*m*(vx^2 + vy^2 + vz^2) + x*log(0)\nconstraints: [vz - y*vx]\n");
    expectError({"equations", path("log0.yaml")}, 2,
                "log0.yaml:7:44: lagrangian: undefined: log(0) (every part of an expression "
                "must be finite for the symbolic derivations)");
  }

  // nhsim equations --hamiltonian: H and the nonholonomic bracket of (q, π) with its
  // Jacobiator, as text or LaTeX; a control model (whose equations already carry a
  // Hamiltonian) is refused with exit 2.
  void equationsHamiltonian() {
    const Result text = nhsim({"equations", "chaplygin_sleigh", "--hamiltonian"});
    QCOMPARE(text.code, 0);
    for (const char* line :
         {"the Hamiltonian side", "H = p_v^2/(2*m)", "{x, π_v} = cos(theta)",
          "{π_v, π_omega} = m*a*π_omega/(m*a^2 + I)", "J(theta, π_v, π_omega) = -m*a/(m*a^2 + I)"})
      QVERIFY2(text.out.contains(QString::fromUtf8(line)),
               qPrintable(text.out + "\nlacks " + line));
    const Result poisson = nhsim({"equations", "rigid_body", "--hamiltonian"});
    QCOMPARE(poisson.code, 0);
    QVERIFY2(poisson.out.contains("{p_w1, p_w2} = -p_w3") &&
                 poisson.out.contains("Jacobiator: 0 (the bracket is Poisson)"),
             qPrintable(poisson.out));
    const Result latex = nhsim({"equations", "nh_particle", "--hamiltonian", "--latex"});
    QCOMPARE(latex.code, 0);
    QVERIFY2(latex.out.contains("\\{z, \\pi_{\\mathrm{vx}}\\} = y") &&
                 latex.out.contains("\\begin{gather*}"),
             qPrintable(latex.out));
    expectError({"equations", "brockett_integrator", "--hamiltonian"}, 2,
                "--hamiltonian: 'brockett_integrator' is a control model");
  }

  void version() {
    const Result r = nhsim({"--version"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), QString("nhsim " NH_PROJECT_VERSION));
  }

  // A copy of nhsim without nhsim-export beside it says that export is not available.
  void exportWithoutItsHelper() {
    const QString copy = path("lonely-nhsim");
    QFile::remove(copy);
    QVERIFY(QFile::copy(NHSIM_PATH, copy));
    QProcess p;
    p.start(copy, {"export", "ball_on_table", "--video", path("x.mp4")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.startsWith("nhsim: error: export is not available: nhsim-export was not found"),
             qPrintable(err));
    QVERIFY(!QFile::exists(path("x.mp4")));
  }

  // A device is written, never replaced; a FIFO given as the scenario is refused at once
  // instead of blocking on it.
  void specialFiles() {
    if (QFileInfo("/dev/full").exists()) {
      expectError({"run", "ball_on_turntable", "--t-end", "0.1", "--out", path("o.csv"),
                   "--save-scenario", "/dev/full"},
                  1, "scenario file: cannot write '/dev/full': No space left on device");
      struct stat st {};
      QVERIFY(::stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
    }
    const QString fifo = path("pipe");  // no .json: recognised as a file on disk, not by name
    QFile::remove(fifo);
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    expectError({"run", fifo}, 2, "not a regular file");
  }

  // An --out that cannot be created is refused before the run, exit 2 as in sweep.
  void unwritableOutput() {
    expectError({"run", "ball_on_table", "--out", "/nonexistent-dir/x.csv"}, 2,
                "cannot write '/nonexistent-dir/x.csv'");
  }
};

QTEST_GUILESS_MAIN(CliTest)
#include "cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
