// nhlab's bundled resources read (app_resources.h): the application id and icons, the F1 help
// page, and the lessons' index with each lesson's title and note from its scenario's view part.
#include "resources/app_resources.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "core/io/scenario_file.h"
#include "core/nh/errors.h"
#include "resources/app_id.h"

namespace nhres {

namespace {

QByteArray readResource(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw nh::InputError("no bundled resource " + path.toStdString());
  return file.readAll();
}

}  // namespace

QString applicationId() { return QString::fromUtf8(kApplicationId); }

QIcon applicationIcon() { return QIcon(QStringLiteral(":/icons/%1.svg").arg(applicationId())); }

QIcon themedIcon(const ThemedIcon& icon) {
  return QIcon::fromTheme(QString::fromUtf8(icon.themeName), QIcon(QString::fromUtf8(icon.file)));
}

QString shortcutHelpHtml() {
  return QString::fromUtf8(readResource(QStringLiteral(":/help/shortcuts.html")));
}

std::vector<Example> examples() {
  const QString indexPath = QStringLiteral(":/examples/examples.json");
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(readResource(indexPath), &error);
  if (error.error != QJsonParseError::NoError || !document.isArray())
    throw nh::InputError(indexPath.toStdString() + ": expected a JSON array of file names (" +
                         error.errorString().toStdString() + ")");
  std::vector<Example> list;
  for (const QJsonValue& value : document.array()) {
    Example example;
    example.file = value.toString();
    if (example.file.isEmpty())
      throw nh::InputError(indexPath.toStdString() + ": every entry must be a file name");
    // The title and the note are the lesson's own, in its scenario's "view" part.
    const QJsonObject view = QJsonDocument::fromJson(readResource(example.resourcePath()))
                                 .object()
                                 .value("view")
                                 .toObject();
    example.title = view.value("title").toString();
    example.note = view.value("note").toString();
    if (example.title.isEmpty())
      throw nh::InputError(example.resourcePath().toStdString() +
                           ": a lesson needs view.title (and view.note)");
    list.push_back(example);
  }
  return list;
}

nh::Scenario readResourceScenario(const QString& resourcePath) {
  const QByteArray bytes = readResource(resourcePath);
  return nh::parseScenarioJson(bytes.toStdString(), resourcePath.toStdString());
}

}  // namespace nhres
// SPDX-License-Identifier: GPL-3.0-or-later
