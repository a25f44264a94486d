// Runs the nhsim binary under test (NHSIM_PATH) as a child process, for the CLI suites.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace nh::test {

struct ProcessResult {
  int code = -1;  // exit code, or -1 if it crashed or was killed
  QString out, err;
};

inline ProcessResult runNhsim(
    const QStringList& args,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 180000) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(NHSIM_PATH, args);
  if (!p.waitForFinished(timeoutMs)) p.kill();
  ProcessResult r;
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

}  // namespace nh::test
