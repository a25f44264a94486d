// `nhsim sweep --out FILE.h5`: the file read back with the HDF5 C API holds the
// values, status and comment lines of the CSV of the same sweep (on threads and, where MPI
// was built, on 2 MPI ranks); standard output and special files are refused with one line;
// the file is absent after bad input or a failed write, and says it is partial when
// interrupted; equal sweeps give equal files byte for byte. In a build without HDF5, a .h5 output
// is refused with one line.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#ifdef NH_HAVE_HDF5
#include <hdf5.h>
#endif

#include "nhsim_process.h"

namespace {

using Result = nh::test::ProcessResult;

[[maybe_unused]] QByteArray contents(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A CSV of nhsim sweep: comment lines (without "# "), column names, values, status.
struct Table {
  QStringList comments, columns, status;
  QVector<QVector<double>> values;
  long long runs = -1, rows = -1;
  QString partial;
};

#ifdef NH_HAVE_HDF5
Table parseCsv(const QByteArray& text) {
  Table t;
  const QList<QByteArray> lines = text.split('\n');
  int i = 0;
  while (i < lines.size() && lines[i].startsWith("# "))
    t.comments << QString::fromUtf8(lines[i++].mid(2));
  t.columns = QString::fromUtf8(lines[i++]).split(',');
  t.columns.removeLast();  // status
  for (; i < lines.size() && !lines[i].isEmpty(); ++i) {
    if (lines[i].startsWith("# ")) {
      t.comments << QString::fromUtf8(lines[i].mid(2));
      continue;
    }
    QVector<double> row;
    QByteArray rest = lines[i];
    for (int c = 0; c < t.columns.size(); ++c) {
      const int comma = rest.indexOf(',');
      const QByteArray field = rest.left(comma);
      row << (field == "nan" ? std::nan("") : field.toDouble());
      rest = rest.mid(comma + 1);
    }
    if (rest.startsWith('"')) rest = rest.mid(1, rest.size() - 2).replace("\"\"", "\"");
    t.values << row;
    t.status << QString::fromUtf8(rest);
  }
  return t;
}

QStringList readStrings(hid_t object, bool attribute) {
  const hid_t type = attribute ? H5Aget_type(object) : H5Dget_type(object);
  const hid_t space = attribute ? H5Aget_space(object) : H5Dget_space(object);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  const hid_t memory = H5Tcopy(H5T_C_S1);
  H5Tset_size(memory, H5T_VARIABLE);
  H5Tset_cset(memory, H5T_CSET_UTF8);
  std::vector<char*> data(static_cast<size_t>(n));
  QStringList out;
  const herr_t ok = n == 0 ? 0
                    : attribute
                        ? H5Aread(object, memory, data.data())
                        : H5Dread(object, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  if (ok >= 0) {
    for (char* s : data) out << QString::fromUtf8(s);
    if (n > 0) H5Dvlen_reclaim(memory, space, H5P_DEFAULT, data.data());
  }
  H5Tclose(memory);
  H5Sclose(space);
  H5Tclose(type);
  return out;
}

// The HDF5 file as a Table; runs = -1 when it cannot be read.
Table readH5(const QString& path) {
  Table t;
  const hid_t file = H5Fopen(QFile::encodeName(path).constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return t;
  const hid_t values = H5Dopen2(file, "values", H5P_DEFAULT);
  const hid_t space = H5Dget_space(values);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  std::vector<double> data(dims[0] * dims[1]);
  if (!data.empty()) H5Dread(values, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  for (hsize_t r = 0; r < dims[0]; ++r) {
    QVector<double> row;
    for (hsize_t c = 0; c < dims[1]; ++c) row << data[r * dims[1] + c];
    t.values << row;
  }
  H5Sclose(space);
  H5Dclose(values);
  for (const char* name : {"columns", "status"}) {
    const hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    (name[0] == 'c' ? t.columns : t.status) = readStrings(d, false);
    H5Dclose(d);
  }
  hid_t a = H5Aopen(file, "comments", H5P_DEFAULT);
  t.comments = readStrings(a, true);
  H5Aclose(a);
  if (H5Aexists(file, "partial") > 0) {
    a = H5Aopen(file, "partial", H5P_DEFAULT);
    t.partial = readStrings(a, true).value(0);
    H5Aclose(a);
  }
  for (auto [name, value] : {std::pair{"runs", &t.runs}, std::pair{"rows", &t.rows}}) {
    a = H5Aopen(file, name, H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_LLONG, value);
    H5Aclose(a);
  }
  H5Fclose(file);
  return t;
}

// Same values bit for bit (NaN equal to NaN).
bool sameValues(const QVector<QVector<double>>& a, const QVector<QVector<double>>& b) {
  if (a.size() != b.size()) return false;
  for (int r = 0; r < a.size(); ++r) {
    if (a[r].size() != b[r].size()) return false;
    for (int c = 0; c < a[r].size(); ++c)
      if (!(a[r][c] == b[r][c] || (std::isnan(a[r][c]) && std::isnan(b[r][c])))) return false;
  }
  return true;
}
#endif

const QStringList kSweep = {"sweep",     "ball_on_turntable",
                            "--sample",  "inertia_ratio=uniform:-0.1:0.6",
                            "--sample",  "vx=normal:0:0.3",
                            "--count",   "40",
                            "--seed",    "9",
                            "--t-end",   "0.5",
                            "--measure", "final(x)",
                            "--measure", "reversal=first_crossing(y)"};

}  // namespace

class SweepHdf5Test : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }
  int hiddenFiles() const {
    return QDir(dir_.path()).entryList({".*"}, QDir::Hidden | QDir::Files).size();
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void sameAsCsv() {
#ifndef NH_HAVE_HDF5
    QSKIP(
        "this nhsim was built without HDF5 (NH_WITH_HDF5=OFF or no libhdf5 found): .h5 is refused");
#else
    const QString csv = path("s.csv"), h5 = path("s.h5");
    Result r = nh::test::runNhsim(kSweep + QStringList{"--jobs", "2", "--out", csv});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = nh::test::runNhsim(kSweep + QStringList{"--jobs", "2", "--out", h5});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("40 runs (") && r.out.contains("written to " + h5), qPrintable(r.out));
    const Table expected = parseCsv(contents(csv));
    QVERIFY(expected.status.contains("ok"));
    QVERIFY(expected.status.filter("error: parameter 'inertia_ratio'").size() > 0);
    QCOMPARE(expected.values.size(), 40);

    QStringList files = {h5};
    // --format hdf5 whatever the name; under MPI, rank 0 writes it.
    const QString named = path("s.data");
    r = nh::test::runNhsim(kSweep + QStringList{"--format", "hdf5", "--out", named});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    files << named;
#ifdef NH_HAVE_MPI
    const QString ranks = path("mpi.h5");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    p.setProcessEnvironment(env);
    p.start(MPIEXEC_PATH,
            QStringList{"-n", "2", "--oversubscribe", "--mca", "btl", "self,vader", NHSIM_PATH} +
                kSweep + QStringList{"--mpi", "--out", ranks});
    QVERIFY(p.waitForFinished(240000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    files << ranks;
#endif
    for (const QString& file : files) {
      const Table t = readH5(file);
      QVERIFY2(t.runs == 40 && t.rows == 40, qPrintable(file));
      QCOMPARE(t.columns, expected.columns);
      QCOMPARE(t.status, expected.status);
      QCOMPARE(t.comments, expected.comments);
      QVERIFY2(sameValues(t.values, expected.values), qPrintable(file));
      QVERIFY(t.partial.isEmpty());
      QVERIFY((QFileInfo(file).permissions() & QFile::ReadOther) != 0);  // not mkstemp's 0600
    }
    QCOMPARE(hiddenFiles(), 0);
#endif
  }

  // The same sweep written twice, over a second apart, gives the same file byte for byte: no
  // object of the file records when it was made.
  void equalSweepsGiveEqualFiles() {
#ifndef NH_HAVE_HDF5
    QSKIP("this nhsim was built without HDF5");
#else
    const QString file = path("again.h5");  // one name: the command is in the file
    Result r = nh::test::runNhsim(kSweep + QStringList{"--jobs", "1", "--out", file});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray a = contents(file);
    QTest::qWait(1100);  // HDF5's modification times count whole seconds
    r = nh::test::runNhsim(kSweep + QStringList{"--jobs", "1", "--out", file});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray b = contents(file);
    QVERIFY(!a.isEmpty());
    QVERIFY2(a == b, "two runs of one sweep wrote different HDF5 files");
#endif
  }

  void refusedTargets_data() {
    QTest::addColumn<QStringList>("out");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("standard output")
        << QStringList{"--out", "-", "--format", "hdf5"} << "regular file";
    QTest::newRow("fifo") << QStringList{"--out", path("fifo.h5")} << "regular file";
    QTest::newRow("device") << QStringList{"--out", "/dev/null", "--format", "hdf5"}
                            << "regular file";
    QTest::newRow("no folder") << QStringList{"--out", "/nonexistent/dir/x.h5"}
                               << "No such file or directory";
    QTest::newRow("format") << QStringList{"--out", path("x.h5"), "--format", "netcdf"}
                            << "--format";
  }
  void refusedTargets() {
#ifndef NH_HAVE_HDF5
    QSKIP(
        "this nhsim was built without HDF5 (NH_WITH_HDF5=OFF or no libhdf5 found): .h5 is refused");
#else
    QFETCH(QStringList, out);
    QFETCH(QString, fragment);
    const QString fifo = path("fifo.h5");
    if (!QFile::exists(fifo)) QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const Result r = nh::test::runNhsim(kSweep + out);
    const QString context = out.join(' ') + " → " + QString::number(r.code) + ": " + r.err;
    QVERIFY2(r.code == 2, qPrintable(context));
    QVERIFY2(r.err.startsWith("nhsim: error: ") && r.err.count('\n') == 1, qPrintable(context));
    QVERIFY2(r.err.contains(fragment), qPrintable(context));
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFile::exists(path("x.h5")));
    QCOMPARE(hiddenFiles(), 0);
#endif
  }

  // A write that fails (the file size limit: EFBIG) leaves no file and no temporary.
  void failedWriteLeavesNothing() {
#ifndef NH_HAVE_HDF5
    QSKIP(
        "this nhsim was built without HDF5 (NH_WITH_HDF5=OFF or no libhdf5 found): .h5 is refused");
#else
    const QString h5 = path("big.h5");
    QProcess p;
    p.setChildProcessModifier([] {
      ::signal(SIGXFSZ, SIG_IGN);
      const struct rlimit limit = {2048, 2048};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    p.start(NHSIM_PATH, kSweep + QStringList{"--out", h5, "--quiet"});
    QVERIFY(p.waitForFinished(120000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitCode() == 1, qPrintable(err));
    QVERIFY2(err.startsWith("nhsim: error: cannot write '" + h5 + "'") && err.count('\n') == 1,
             qPrintable(err));
    QVERIFY(!QFile::exists(h5));
    QCOMPARE(hiddenFiles(), 0);
#endif
  }

  void interruptedIsPartial() {
#ifndef NH_HAVE_HDF5
    QSKIP(
        "this nhsim was built without HDF5 (NH_WITH_HDF5=OFF or no libhdf5 found): .h5 is refused");
#else
    const QString h5 = path("interrupted.h5");
    QProcess p;
    p.start(NHSIM_PATH,
            {"sweep", "rolling_disk", "--sample", "wphi=uniform:0.1:1", "--count", "1000000",
             "--t-end", "1", "--measure", "final(x)", "--jobs", "2", "--out", h5, "--quiet"});
    QVERIFY(p.waitForStarted());
    QTest::qWait(2000);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGTERM), 0);
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitCode() == 143, qPrintable(err));
    const Table t = readH5(h5);
    QVERIFY2(t.rows > 10 && t.rows < 1000000 && t.runs == 1000000, qPrintable(err));
    QCOMPARE(t.values.size(), t.rows);
    QCOMPARE(t.status.size(), t.rows);
    QCOMPARE(t.partial, QString("partial: %1 of 1000000 runs (interrupted)").arg(t.rows));
    QCOMPARE(t.comments.last(), t.partial);
    QVERIFY2(err.contains(QString("%1 of 1000000 runs kept in %2").arg(t.rows).arg(h5)),
             qPrintable(err));
    QCOMPARE(hiddenFiles(), 0);
#endif
  }
  void refusedWithoutHdf5() {
#ifdef NH_HAVE_HDF5
    QSKIP("this nhsim was built with HDF5: .h5 files are written");
#else
    const QString h5 = path("x.h5");
    const Result r = nh::test::runNhsim(kSweep + QStringList{"--out", h5});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("built without HDF5 support") && r.err.count('\n') == 1,
             qPrintable(r.err));
    QVERIFY(!QFile::exists(h5));
    QCOMPARE(hiddenFiles(), 0);
#endif
  }
};

QTEST_GUILESS_MAIN(SweepHdf5Test)
#include "sweep_hdf5_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
