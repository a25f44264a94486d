// File › Export › Interactive page (ui/window/export_menu.cpp): the page of the window's run,
// with the open lesson's title and note, its plotted variables and its comparison run.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <memory>

#include "message_boxes.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"

namespace {

// Answers the next file dialog with `path` (accepted), once it is shown.
void answerNextFileDialog(const QString& path) {
  QTimer::singleShot(0, [path] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) {
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");
        return;
      }
    answerNextFileDialog(path);  // not shown yet
  });
}

}  // namespace

class ExportMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void interactivePageOfTheLesson() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    nhui::MainWindow window(false);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScenario(QStringLiteral(":/examples/particle_compare.json")));
    nhui::SimulationController* c = window.controller();
    c->setSpeed(8);
    c->play();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() >= 4, 30000);
    c->pause();

    QAction* page = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == QObject::tr("&Interactive page (HTML)…")) page = a;
    QVERIFY(page);
    const QString path = dir.filePath("lesson.html");
    answerNextFileDialog(path);
    nhtest::answerNextMessageBox(QMessageBox::Ok);
    page->trigger();

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray html = file.readAll();
    QVERIFY(html.contains("<title>Particle with"));
    QVERIFY(html.contains("Both runs start from the same position and velocity."));
    QVERIFY(html.contains("\"comparison\":{"));
    QVERIFY(html.contains("blue: nonholonomic"));
    QVERIFY(html.contains("\"name\":\"vz\""));
  }
};

QTEST_MAIN(ExportMenuTest)
#include "export_menu_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
