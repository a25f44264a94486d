// `nhsim optimize` as users run it: the CSV (comment lines, columns, the closed form of the
// double integrator along the path), the JSON of every extremal, the vakonomic problem, and
// bad input — exit 2 with one line and no output file — or no extremal — exit 3.
#include <sys/stat.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "nhsim_process.h"

namespace {
using Result = nh::test::ProcessResult;
Result nhsim(const QStringList& args) { return nh::test::runNhsim(args); }

const char* kDoubleIntegrator = R"(format: nonholonomic-lab-system
version: 1
name: cart
coordinates: [x, v]
velocities: [vx, vv]
controls: [u]
control_section: {vx: v, vv: u}
cost: 0.5*u*u
)";

// Three coordinates moved by two velocities: at most two end conditions.
const char* kPlane = R"(format: nonholonomic-lab-system
version: 1
name: plane
coordinates: [x, y, z]
velocities: [v1, v2]
anchor: {x: v1, y: v2, z: v1 + v2}
controls: [u1, u2]
control_section: {v1: u1, v2: u2}
cost: 0.5*(u1*u1 + u2*u2)
)";

const char* kNotSmooth = R"(format: nonholonomic-lab-system
version: 1
name: kinked
coordinates: [x]
velocities: [vx]
controls: [u]
control_section: {vx: u}
cost: abs(u)
)";

// u = 1 moves x from 0 to 1 in T = 1; the cost −u²/2 is concave: the stationary path costs
// −1/2, and u = 1 + a sin(πt) (same ends) costs −1/2 − a²/4 — there is no lowest cost.
const char* kConcave = R"(format: nonholonomic-lab-system
version: 1
name: concave
coordinates: [x]
velocities: [vx]
controls: [u]
control_section: {vx: u}
cost: -0.5*u*u
)";

// 1/x is infinite at the start x = 0.
const char* kInfiniteAtStart = R"(format: nonholonomic-lab-system
version: 1
name: pole
coordinates: [x]
velocities: [vx]
controls: [u]
control_section: {vx: u}
cost: 0.5*u*u + 1/x
)";

// The cost does not read u2: ∂²H/∂u² is singular everywhere.
const char* kSingularCost = R"(format: nonholonomic-lab-system
version: 1
name: singular_cost
coordinates: [x, y]
velocities: [vx, vy]
controls: [u1, u2]
control_section: {vx: u1, vy: u2}
cost: 0.5*u1*u1
)";

QString write(const QTemporaryDir& dir, const QString& name, const char* text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text);
  return path;
}

bool oneLine(const QString& err) { return err.trimmed().count('\n') == 0 && !err.isEmpty(); }
}  // namespace

class OptimizeCliTest : public QObject {
  Q_OBJECT

 private slots:
  // Rest to rest over d = 2 in T = 2: u = (6d/T²)(1 − 2t/T) = 3(1 − t), J = 6d²/T³ = 3.
  void csvFollowsTheClosedForm() {
    QTemporaryDir dir;
    const QString model = write(dir, "cart.yaml", kDoubleIntegrator);
    const QString out = dir.filePath("path.csv");
    const Result r = nhsim({"optimize", model, "--t-end", "2", "--target", "x=2", "--target", "v=0",
                            "--dt-out", "0.5", "--out", out});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("1 extremal"), qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines[0].startsWith("# nhsim optimize"));
    QVERIFY(lines[1].contains("optimal control"));
    const int header = 4;
    QCOMPARE(lines[header], QString("t,x,v,vx,vv,u,xi_vx,xi_vv,cost"));
    QCOMPARE(lines.size(), header + 1 + 5);  // t = 0, 0.5, …, 2
    for (int k = 0; k < 5; ++k) {
      const QStringList v = lines[header + 1 + k].split(',');
      const double t = v[0].toDouble();
      QVERIFY(std::abs(t - 0.5 * k) < 1e-15);
      QVERIFY2(std::abs(v[5].toDouble() - 3 * (1 - t)) < 1e-9, qPrintable(lines[header + 1 + k]));
    }
    const QStringList last = lines.back().split(',');
    QVERIFY(std::abs(last[1].toDouble() - 2) < 1e-9);
    QVERIFY(std::abs(last[8].toDouble() - 3) < 1e-9);
  }

  void jsonListsTheExtremals() {
    QTemporaryDir dir;
    const QString model = write(dir, "cart.yaml", kDoubleIntegrator);
    const Result r = nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root["system"].toString(), QString("cart"));
    QCOMPARE(root["t_end"].toDouble(), 1.0);
    QVERIFY(root["converged"].toBool());
    const QJsonArray e = root["extremals"].toArray();
    QCOMPARE(e.size(), 1);
    // v free at T: transversality gives ξ_vv(T) = 0, so ξ_vx = a, ξ_vv = u = a (T − t) with
    // x(T) = a T³/3 = d: a = 3d/T³ = 3 and J = ½∫u² = a²T³/6 = 3d²/(2T³) = 1.5.
    const QJsonObject best = e[0].toObject();
    QVERIFY(std::abs(best["cost"].toDouble() - 1.5) < 1e-9);
    QVERIFY(std::abs(best["costate0"].toObject()["xi_vx"].toDouble() - 3) < 1e-9);
    QVERIFY(std::abs(best["costate0"].toObject()["xi_vv"].toDouble() - 3) < 1e-9);
  }

  // A system without controls: the vakonomic problem; its unknowns are the free initial
  // velocities and μ(0).
  void vakonomicProblem() {
    const Result r =
        nhsim({"optimize", "nh_particle", "--t-end", "1.2", "--init", "y=0.5", "--target", "x=1",
               "--target", "y=-0.2", "--target", "z=0.4", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root["problem"].toString(), QString("vakonomic"));
    const QJsonObject c = root["extremals"].toArray()[0].toObject()["costate0"].toObject();
    QCOMPARE(c.keys(), (QStringList{"mu_1", "vx", "vy"}));
  }

  void badInputExitsTwoWithOneLine() {
    QTemporaryDir dir;
    const QString cart = write(dir, "cart.yaml", kDoubleIntegrator);
    const QString plane = write(dir, "plane.yaml", kPlane);
    const QString kinked = write(dir, "kinked.yaml", kNotSmooth);
    const QString out = dir.filePath("never.csv");
    const struct {
      QStringList args;
      const char* says;
    } cases[] = {
        {{cart, "--target", "x=1"}, "--t-end"},
        {{cart, "--t-end", "1"}, "--target"},
        {{cart, "--t-end", "0", "--target", "x=1"}, "positive"},
        {{cart, "--t-end", "1", "--target", "w=1"}, "not a coordinate"},
        {{cart, "--t-end", "1", "--target", "x=1", "--init", "vx=1"}, "controls"},
        {{plane, "--t-end", "1", "--target", "x=1", "--target", "y=1", "--target", "z=1"},
         "3 end conditions for 2 unknowns"},
        {{kinked, "--t-end", "1", "--target", "x=1"}, "differentiated"},
        {{"rigid_body", "--t-end", "1", "--target", "qw=1"}, "four components"},
        {{cart, "--t-end", "1", "--target", "x=1", "--starts", "0"}, "--starts"},
    };
    for (const auto& c : cases) {
      const Result r = nhsim(QStringList{"optimize"} + c.args + QStringList{"--out", out});
      QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + ": " + r.err));
      QVERIFY2(oneLine(r.err) && r.err.contains(c.says), qPrintable(r.err));
      QVERIFY(!QFile::exists(out));
    }
  }

  // --json with --out FILE writes both: the JSON on standard output, the CSV to the file.
  void jsonWithOutWritesBoth() {
    QTemporaryDir dir;
    const QString model = write(dir, "cart.yaml", kDoubleIntegrator);
    const QString out = dir.filePath("both.csv");
    const Result r =
        nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--json", "--out", out});
    QCOMPARE(r.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(root["extremals"].toArray().size(), 1);
    QFile f(out);
    QVERIFY2(f.open(QIODevice::ReadOnly), "no CSV beside the JSON");
    QVERIFY(QString(f.readAll()).contains("\nt,x,v,vx,vv,u,xi_vx,xi_vv,cost\n"));
    const Result pair =
        nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--json", "--out", "-"});
    QCOMPARE(pair.code, 2);
    QVERIFY2(oneLine(pair.err) && pair.err.contains("both write to standard output"),
             qPrintable(pair.err));
    QVERIFY(pair.out.isEmpty());
  }

  // The output is checked before the solve (it was after it, exit 1): a missing folder, a
  // folder, a FIFO that no process reads — exit 2, one line, nothing solved.
  void outputCheckedBeforeTheSolve() {
    QTemporaryDir dir;
    const QString model = write(dir, "cart.yaml", kDoubleIntegrator);
    const QStringList problem{"optimize", model, "--t-end", "2", "--target", "x=2"};
    for (const QString& out : {QString("/nonexistent-folder-of-nhsim/x.csv"), dir.path()}) {
      const Result r = nhsim(problem + QStringList{"--out", out});
      QCOMPARE(r.code, 2);
      QVERIFY2(oneLine(r.err) && r.err.contains("cannot write") && !r.err.contains("extremal"),
               qPrintable(r.err));
    }
    const QString fifo = dir.filePath("out.fifo");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const Result r = nhsim(problem + QStringList{"--out", fifo});
    QCOMPARE(r.code, 2);
    QVERIFY2(oneLine(r.err) && r.err.contains("no process opened this FIFO for reading") &&
                 !r.err.contains("extremal"),
             qPrintable(r.err));
  }

  // Names optimize writes as its columns are refused at load with the file's line and
  // column: a control named xi_vx (the costate of vx), one named cost.
  void namesOfItsColumnsAreReserved() {
    QTemporaryDir dir;
    const QString xi = write(dir, "xi.yaml", R"(format: nonholonomic-lab-system
version: 1
name: xi
coordinates: [x]
velocities: [vx]
controls: [xi_vx]
control_section: {vx: xi_vx}
cost: 0.5*xi_vx*xi_vx
)");
    const QString cost = write(dir, "cost.yaml", R"(format: nonholonomic-lab-system
version: 1
name: costly
coordinates: [x]
velocities: [vx]
controls: [mu_1, cost]
control_section: {vx: mu_1 + cost}
cost: 0.5*(mu_1*mu_1 + cost*cost)
)");
    const struct {
      QString model;
      const char* where;
      const char* name;
    } cases[] = {{xi, "xi.yaml:6:", "'xi_vx'"}, {cost, "cost.yaml:6:", "'cost'"}};
    for (const auto& c : cases) {
      const Result r = nhsim({"optimize", c.model, "--t-end", "1", "--target", "x=1"});
      QCOMPARE(r.code, 2);
      QVERIFY2(oneLine(r.err) && r.err.contains(c.where) && r.err.contains(c.name) &&
                   r.err.contains("a column that 'nhsim optimize' writes"),
               qPrintable(r.err));
    }
  }

  // A concave cost: the extremal is a stationary path, no minimum; the run says so.
  void concaveCostIsNoMinimum() {
    QTemporaryDir dir;
    const QString model = write(dir, "concave.yaml", kConcave);
    const QString out = dir.filePath("concave.csv");
    const Result r = nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--out", out});
    QCOMPARE(r.code, 0);
    QVERIFY2(
        r.err.contains("nhsim: warning: the extremal is no minimum") && r.err.contains("Legendre"),
        qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(QString(f.readAll()).contains("# warning: the extremal is no minimum"));
    // A convex cost keeps its word "lowest" and gets no warning.
    const QString cart = write(dir, "cart.yaml", kDoubleIntegrator);
    const Result convex = nhsim(
        {"optimize", cart, "--t-end", "1", "--target", "x=1", "--out", dir.filePath("cart.csv")});
    QCOMPARE(convex.code, 0);
    QVERIFY2(!convex.err.contains("warning") && convex.err.contains("the lowest cost"),
             qPrintable(convex.err));
  }

  // A cost that is not finite at the start is bad input (exit 2), not a path that blew up.
  void costNotFiniteAtTheStartIsBadInput() {
    QTemporaryDir dir;
    const QString model = write(dir, "pole.yaml", kInfiniteAtStart);
    const QString out = dir.filePath("never.csv");
    const Result r = nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(oneLine(r.err) && r.err.contains("is not finite at the start (t = 0, x = 0)"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
    // Started where it is defined, it solves.
    const Result moved = nhsim(
        {"optimize", model, "--t-end", "1", "--init", "x=1", "--target", "x=2", "--out", out});
    QVERIFY2(moved.code == 0 || moved.code == 3, qPrintable(moved.err));
  }

  // A start that the constraints move is reported as run reports it.
  void movedStartIsReported() {
    const Result r = nhsim({"optimize", "spherical_pendulum", "--t-end", "1", "--init", "x=5",
                            "--target", "x=0.5", "--starts", "1", "--max-iterations", "1"});
    QVERIFY2(r.err.contains("nhsim: note: initial x = 5 violates the holonomic constraints; "
                            "changed to "),
             qPrintable(r.err));
  }

  // Newton cut to one iteration from one start cannot reach a far target: exit 3, one line
  // with the best residual, no file.
  void noExtremalExitsThree() {
    QTemporaryDir dir;
    const QString out = dir.filePath("never.csv");
    const Result r =
        nhsim({"optimize", "nh_particle", "--t-end", "1", "--target", "x=1", "--target", "z=100",
               "--starts", "1", "--max-iterations", "1", "--out", out});
    QCOMPARE(r.code, 3);
    QVERIFY2(oneLine(r.err) && r.err.contains("best residual"), qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
  }

  // A cost singular in a control: exit 3 with one line that says so and what cost is
  // allowed, not advice to try other starts (none can help).
  void singularCostSaysWhatIsAllowed() {
    QTemporaryDir dir;
    const QString model = write(dir, "singular.yaml", kSingularCost);
    const Result r = nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--target", "y=1",
                            "--starts", "2", "--out", dir.filePath("never.csv")});
    QCOMPARE(r.code, 3);
    QVERIFY2(oneLine(r.err) && r.err.contains("singular in the controls") &&
                 r.err.contains("strictly convex in every control") &&
                 !r.err.contains("try other --starts"),
             qPrintable(r.err));
  }

  // The paths kept are bounded in bytes: a sampling one path would pass the ceiling with is
  // refused at once (exit 2, one line with the size), before any solving.
  void pathMemoryCeilingRefusedAtOnce() {
    QTemporaryDir dir;
    const QString model = write(dir, "cart.yaml", kDoubleIntegrator);
    const Result r = nhsim({"optimize", model, "--t-end", "1", "--target", "x=1", "--dt-out",
                            "1e-7", "--out", dir.filePath("never.csv")});
    QCOMPARE(r.code, 2);
    QVERIFY2(oneLine(r.err) && r.err.contains("GB in memory"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(OptimizeCliTest)
#include "optimize_cli_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
