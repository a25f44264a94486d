// Runs the nhsim binary under test (NHSIM_PATH) as a child process, for the CLI suites.
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTest>
#include <algorithm>

namespace nh::test {

struct ProcessResult {
  int code = -1;  // exit code, or -1 if it crashed or was killed
  QString out, err;
};

// This process's environment without DISPLAY and WAYLAND_DISPLAY: an export takes its
// headless path (a private Xvfb).
inline QProcessEnvironment headlessEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  return env;
}

// Starts nhsim in `p` (for the suites that signal or watch it while it runs).
inline void startNhsim(QProcess& p, const QStringList& args,
                       const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  p.setProcessEnvironment(env);
  p.start(NHSIM_PATH, args);
}

// Runs nhsim to its end (killed after timeoutMs). With `stdoutFile`, its standard output
// goes to that file (e.g. /dev/full) and `out` stays empty.
inline ProcessResult runNhsim(
    const QStringList& args,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 180000, const QString& stdoutFile = {}) {
  QProcess p;
  if (!stdoutFile.isEmpty()) p.setStandardOutputFile(stdoutFile);
  startNhsim(p, args, env);
  if (!p.waitForFinished(timeoutMs)) p.kill();
  ProcessResult r;
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

// `nhsim export ARGS` in the headless environment.
inline ProcessResult runNhsimExport(const QStringList& args) {
  return runNhsim(QStringList{"export"} + args, headlessEnvironment());
}

// Waits (at most timeoutMs) until a hidden temporary in `dir` whose name starts with `prefix`
// (the atomic writer's ".NAME…") holds `bytes` or more, i.e. rows beyond one stdio buffer
// reached it; returns whether it did.
inline bool waitForTemporaryBytes(const QString& dir, const QString& prefix, qint64 bytes,
                                  int timeoutMs) {
  auto largest = [&] {
    qint64 size = 0;
    for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Hidden | QDir::Files))
      if (f.fileName().startsWith(prefix)) size = std::max(size, f.size());
    return size;
  };
  QElapsedTimer timer;
  timer.start();
  while (largest() < bytes && timer.elapsed() < timeoutMs) QTest::qWait(20);
  return largest() >= bytes;
}

}  // namespace nh::test
// SPDX-License-Identifier: GPL-3.0-or-later
