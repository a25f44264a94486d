// nhlab interrupted during an animation export, in-process (nhlab has no command-line export):
// Ctrl+C (SIGINT) and SIGTERM through the same quit path as nhlab's main()
// (nhui::quitOnStopSignals with the window's close), and closing the main window. Afterwards
// the export is stopped, no hidden ".*.partial*" temporary and no output is left in the target
// folder, no Xvfb child remains, and the event loop returns 128 + the signal.
#include <signal.h>
#include <unistd.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <memory>

#include "ui/export/export_dialog.h"
#include "ui/window/main_window.h"
#include "ui/window/stop_signals.h"
#include "window_fixture.h"

namespace {

QStringList hiddenPartials(const QString& folder) {
  return QDir(folder).entryList(
      {".*.partial*"}, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

QStringList entriesOf(const QString& folder) {
  return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                QDir::NoDotAndDotDot);
}

// Children of this process whose name starts with `prefix` (an Xvfb the export started).
QStringList childrenNamed(const QString& prefix) {
  QStringList found;
  const qint64 self = ::getpid();
  for (QDirIterator it("/proc", QDir::Dirs | QDir::NoDotAndDotDot); it.hasNext();) {
    const QString dir = it.next();
    QFile stat(dir + "/stat");
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QString text = QString::fromUtf8(stat.readAll());
    const int open = text.indexOf('('), close = text.lastIndexOf(')');
    if (open < 0 || close < 0) continue;
    const QString name = text.mid(open + 1, close - open - 1);
    const QStringList rest = text.mid(close + 2).split(' ');
    if (rest.size() > 1 && name.startsWith(prefix) && rest[1].toLongLong() == self) found << dir;
  }
  return found;
}

}  // namespace

class WindowExportInterruptTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // The exit code is what QApplication::exec() returns here. The automatic quit after the
    // last window closes would post a Quit event that closes the next case's windows.
    QApplication::setQuitOnLastWindowClosed(false);
    window_ = std::make_unique<nhui::MainWindow>(false);
    // The same quit path as nhlab's main().
    nhui::quitOnStopSignals(*qApp, [this] { return window_->close(); });
  }

  void signalDuringExport_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("code");
    QTest::newRow("SIGINT") << SIGINT << 130;
    QTest::newRow("SIGTERM") << SIGTERM << 143;
  }
  void signalDuringExport() {
    QFETCH(int, signal);
    QFETCH(int, code);
    const QString folder = dir_.filePath(QString("signal%1").arg(signal));
    nhui::ExportDialog* dialog = startLongExport(folder);
    QVERIFY(dialog);
    QTimer::singleShot(0, [signal] { ::raise(signal); });
    const int exitCode = QApplication::exec();
    QCOMPARE(exitCode, code);
    QVERIFY(!window_->isVisible());
    checkNothingLeft(dialog, folder);
    delete dialog;
  }

  void closingTheWindowDuringExport() {
    const QString folder = dir_.filePath("close");
    nhui::ExportDialog* dialog = startLongExport(folder);
    QVERIFY(dialog);
    QVERIFY(window_->close());
    checkNothingLeft(dialog, folder);
    delete dialog;
  }

 private:
  // Shows the window, opens its export dialog (File > Export > Animation, Ctrl+E) and starts a
  // 30 s MP4 into `folder`; returns once the encoder's temporary exists (null on failure).
  nhui::ExportDialog* startLongExport(const QString& folder) {
    if (!QDir().mkpath(folder) || !nhtest::showActive(*window_)) return nullptr;
    window_->undoStack()->clear();  // nothing unsaved: closing asks nothing
    for (QAction* action : window_->findChildren<QAction*>())
      if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E)) action->trigger();
    const auto dialogs = window_->findChildren<nhui::ExportDialog*>();
    if (dialogs.size() != 1) return nullptr;
    nhui::ExportDialog* dialog = dialogs.front();
    dialog->setAttribute(Qt::WA_DeleteOnClose, false);  // the test deletes it after its checks
    dialog->findChild<QComboBox*>("exportResolution")->setCurrentIndex(3);  // 640 × 360
    dialog->findChild<QDoubleSpinBox*>("exportFps")->setValue(30);
    dialog->findChild<QDoubleSpinBox*>("exportEnd")->setValue(30);
    dialog->setOutputPath(folder + "/long.mp4");
    dialog->startExport();
    if (!dialog->isRunning()) return nullptr;
    QElapsedTimer timer;
    timer.start();
    while (hiddenPartials(folder).isEmpty() && timer.elapsed() < 120000) QTest::qWait(20);
    return hiddenPartials(folder).isEmpty() ? nullptr : dialog;
  }

  // Checked at once: the export must have stopped and cleaned up before the window went.
  void checkNothingLeft(nhui::ExportDialog* dialog, const QString& folder) {
    QVERIFY2(!dialog->isRunning(), "the export still runs after the window was closed");
    QVERIFY2(entriesOf(folder).isEmpty(), qPrintable(entriesOf(folder).join(", ")));
    QVERIFY2(childrenNamed("Xvfb").isEmpty(), qPrintable(childrenNamed("Xvfb").join(", ")));
  }

  QTemporaryDir dir_;
  std::unique_ptr<nhui::MainWindow> window_;
};

QTEST_MAIN(WindowExportInterruptTest)
#include "window_export_interrupt_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
