// The initial-state panel has a field for every entry of the state in force. The soak (seed
// 2026) found it without the multiplier mu after a scenario switched the same system to
// vakonomic dynamics: the fields were rebuilt only when the system changed.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/panels/parameter_panel.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"
#include "window_fixture.h"

using nhui::MainWindow;

class InitialFieldsTest : public QObject {
  Q_OBJECT

 private slots:
  void fieldsFollowTheDynamics() {
    MainWindow window(false);
    QVERIFY(nhtest::showActive(window));
    window.chooseSystem("nh_particle");
    QVERIFY(window.initialPanel()->spinBox("x"));
    QVERIFY(!window.initialPanel()->spinBox("mu"));
    QTemporaryDir dir;
    const QString saved = dir.filePath("saved.json");
    QVERIFY(window.saveScenario(saved));
    for (const QString dynamics : {"vakonomic", "nonholonomic", "vakonomic"}) {
      QFile in(saved);
      QVERIFY(in.open(QIODevice::ReadOnly));
      QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
      json["dynamics"] = dynamics;
      const QString changed = dir.filePath(dynamics + ".json");
      QFile out(changed);
      QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
      out.write(QJsonDocument(json).toJson());
      out.close();
      QVERIFY(window.openScenario(changed));
      QCOMPARE(window.controller()->system().name(), std::string("nh_particle"));
      const auto& names = window.controller()->primary().layout().state.names;
      QCOMPARE(std::count(names.begin(), names.end(), "mu"), dynamics == "vakonomic" ? 1L : 0L);
      for (const std::string& name : names)
        QVERIFY2(window.initialPanel()->spinBox(QString::fromStdString(name)),
                 qPrintable(dynamics + ": no field for " + QString::fromStdString(name)));
      QCOMPARE(window.initialPanel()->spinBox("mu") != nullptr, dynamics == "vakonomic");
    }
  }
};

QTEST_MAIN(InitialFieldsTest)
#include "initial_fields_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
