// The web engine's files for a live page (web_engine.h).
#include "ui/export/web_engine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/nh/errors.h"

namespace nhui {

namespace {

bool holdsEngine(const QString& folder) {
  return QFile::exists(folder + "/nhweb.js") && QFile::exists(folder + "/nhweb.wasm");
}

QByteArray contents(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw nh::InputError("cannot read the web engine's " + path.toStdString());
  return file.readAll();
}

// The running program's folder: Qt's answer where there is an application object, else the
// kernel's (nhsim export --html writes pages without one).
QString programFolder() {
  if (QCoreApplication::instance()) return QCoreApplication::applicationDirPath();
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? QDir::currentPath() : QString::fromStdString(self.parent_path().string());
}

}  // namespace

std::string webEngineFolder() {
  if (const char* given = std::getenv("NH_WEB_ENGINE_DIR"); given && *given) return given;
  // The program runs from build/<preset>/bin: the wasm preset's programs are in build/wasm/bin.
  const QString bin = programFolder();
  const QString built = QDir(bin + "/../../wasm/bin").absolutePath();
  if (holdsEngine(built)) return built.toStdString();
  return QDir(bin + "/../share/nonholonomic-lab/web").absolutePath().toStdString();
}

bool webEngineAvailable() { return holdsEngine(QString::fromStdString(webEngineFolder())); }

WebEngineFiles readWebEngine() {
  const QString folder = QString::fromStdString(webEngineFolder());
  if (!holdsEngine(folder))
    throw nh::InputError(
        "a live page needs the web engine (nhweb.js and nhweb.wasm), not found in " +
        folder.toStdString() +
        "; build it with ./scripts/build.sh --preset wasm, or write the page "
        "without --live");
  const QByteArray script = contents(folder + "/nhweb.js");
  const QByteArray wasm = contents(folder + "/nhweb.wasm");
  return {script.toStdString(), wasm.toStdString()};
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
