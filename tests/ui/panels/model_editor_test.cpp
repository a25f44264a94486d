// The model editor in the window: a typed error is marked where the loader places it while
// the last good system keeps running, Apply runs the edited model as one undoable step
// (keeping what the user changed by name), Save replaces files atomically and refuses a FIFO
// or a device, and unsaved edits are not lost on closing.
#include "ui/panels/model_editor.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTimer>
#include <QToolTip>
#include <QUndoStack>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/model/catalogue.h"
#include "core/nh/read_file.h"
#include "message_boxes.h"
#include "ui/panels/equations_panel.h"
#include "ui/panels/system_chooser.h"
#include "ui/sim/simulation_controller.h"
#include "ui/window/main_window.h"

using nhtest::answerNextMessageBox;
using nhui::MainWindow;
using nhui::ModelEditor;
using nhui::SimulationController;

namespace {

// Selects the first occurrence of `what` in the editor (after `after`, if given).
QTextCursor find(ModelEditor* editor, const QString& what, const QString& after = {}) {
  QTextDocument* doc = editor->textEdit()->document();
  QTextCursor start(doc);
  if (!after.isEmpty()) start = doc->find(after);
  const QTextCursor c = doc->find(what, start);
  if (c.isNull()) qFatal("'%s' is not in the editor's text", qPrintable(what));
  return c;
}

// Types `text` over the selection `at`, as a user would: key by key into the editor.
void typeOver(ModelEditor* editor, const QTextCursor& at, const QString& text) {
  editor->textEdit()->setFocus();
  editor->textEdit()->setTextCursor(at);
  QTest::keyClicks(editor->textEdit(), text);
}

std::string readFile(const QString& path) {
  return nh::readRegularFile(path.toStdString(), "file");
}

}  // namespace

class ModelEditorTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(userFolder_.isValid());
    // Saved models go to a private folder, not the user's (catalogue.h: NH_SYSTEMS_PATH).
    qputenv("NH_SYSTEMS_PATH", userFolder_.path().toLocal8Bit());
  }

  void init() {
    window_ = std::make_unique<MainWindow>(false);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    editor_ = window_->modelEditor();
    QVERIFY(editor_);
  }
  void cleanup() {
    // Nothing to ask about when the window goes.
    editor_->setDocument(QString(), QString());
    window_.reset();
  }

  void columnsCountCharacters() {
    // The loader counts characters (code points); the editor places marks in UTF-16 units.
    const QString line = QString::fromUtf8(
        "Ωa\xF0\x9D\x91\xA5"
        "b");  // Ω a 𝑥 b (𝑥: two units)
    QCOMPARE(nhui::utf16Column(line, 1), 0);
    QCOMPARE(nhui::utf16Column(line, 3), 2);
    QCOMPARE(nhui::utf16Column(line, 4), 4);
    QCOMPARE(nhui::utf16Column(line, 9), 5);  // clamped to the line
  }

  void showingTheEmptyEditorOpensTheRunningSystemsModel() {
    QVERIFY(editor_->text().isEmpty());
    window_->modelEditorDock()->toggleViewAction()->trigger();  // View › Model editor
    QTRY_VERIFY(!editor_->text().isEmpty());
    // In front of the Parameters and System docks it shares its place with.
    QTRY_VERIFY(!editor_->visibleRegion().isEmpty());
    QVERIFY(editor_->text().contains("\nname: ball_on_turntable_copy\n"));
    QVERIFY(editor_->system());
  }

  void templateLoads() {
    QVERIFY(window_->newSystem());
    QVERIFY(window_->modelEditorDock()->isVisible());
    QVERIFY2(editor_->system(), qPrintable(editor_->statusLabel()->text()));
    QCOMPARE(editor_->statusLabel()->text(),
             QString("OK — 2 coordinates, 2 velocities, 1 constraint"));
    QCOMPARE(editor_->system()->name(), std::string("my_system"));
    QVERIFY(editor_->applyAction()->isEnabled());  // it is not what runs
    QVERIFY(!editor_->isModified());
  }

  void typedErrorIsMarkedAndTheRunningSystemStays() {
    SimulationController* c = window_->controller();
    QVERIFY(window_->newSystem());
    QVERIFY(window_->applyModel(editor_->system()));
    const auto running = c->systemPtr();
    QCOMPARE(running->name(), std::string("my_system"));
    QVERIFY(!editor_->applyAction()->isEnabled());  // the text is what runs

    // "vy^2" in the Lagrangian becomes "vw^2": an unknown name.
    const QTextCursor vy = find(editor_, "vy", "lagrangian:");
    const int line = vy.blockNumber() + 1;
    const int start = vy.selectionStart();  // `vy` moves with the typing below
    const int column = start - vy.block().position() + 1;
    typeOver(editor_, vy, "vw");
    QVERIFY(!editor_->problem());  // not yet: the check waits for a pause in typing
    QVERIFY(!editor_->applyAction()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(editor_->problem().has_value(), 3000);
    QCOMPARE(editor_->problem()->line, line);
    QCOMPARE(editor_->problem()->column, column);
    QVERIFY2(editor_->problem()->message.contains("unknown name 'vw'"),
             qPrintable(editor_->problem()->message));
    QVERIFY(editor_->statusLabel()->text().contains(
        QString("Line %1, column %2: lagrangian: unknown name 'vw'").arg(line).arg(column)));

    // The mark: a wavy underline over "vw" exactly, and the gutter's marker on its line.
    const auto marks = editor_->textEdit()->extraSelections();
    const auto wavy = std::find_if(marks.begin(), marks.end(), [](const auto& s) {
      return s.format.underlineStyle() == QTextCharFormat::WaveUnderline;
    });
    QVERIFY(wavy != marks.end());
    QCOMPARE(wavy->cursor.selectionStart(), start);
    QCOMPARE(wavy->cursor.selectedText(), QString("vw"));
    QCOMPARE(editor_->textEdit()->errorLine(), line);
    QVERIFY(!editor_->applyAction()->isEnabled());
    // Hovering the mark shows the message.
    QTextCursor inside(editor_->textEdit()->document());
    inside.setPosition(start + 1);
    const QPoint at = editor_->textEdit()->cursorRect(inside).center();
    QWidget* viewport = editor_->textEdit()->viewport();
    QHelpEvent hover(QEvent::ToolTip, at, viewport->mapToGlobal(at));
    QApplication::sendEvent(viewport, &hover);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains("unknown name 'vw'"), qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // The last good system runs on.
    const double t = c->displayTime();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > t + 0.2, 5000);
    QCOMPARE(c->systemPtr(), running);

    // Fixing it clears the mark.
    typeOver(editor_, find(editor_, "vw"), "vy");
    QTRY_VERIFY_WITH_TIMEOUT(!editor_->problem().has_value(), 3000);
    QVERIFY(editor_->textEdit()->extraSelections().isEmpty());
    QCOMPARE(editor_->textEdit()->errorLine(), 0);
    QVERIFY(editor_->statusLabel()->text().startsWith("OK — "));
    QVERIFY(!editor_->applyAction()->isEnabled());  // the same text as what runs again
  }

  void typingInTheEditorTriggersNoWindowShortcut() {
    // Space, R and C are window shortcuts (play, reset, camera); in the editor they are text.
    SimulationController* c = window_->controller();
    QVERIFY(window_->newSystem());
    QVERIFY(c->playing());
    typeOver(editor_, find(editor_, "title: My system"), "title: r c ");
    QVERIFY(c->playing());
    QVERIFY(editor_->text().contains("title: r c \n"));
  }

  void applyRunsTheModelAndUndoReturns() {
    SimulationController* c = window_->controller();
    const auto original = c->systemPtr();
    QCOMPARE(original->name(), std::string("ball_on_turntable"));
    QVERIFY(c->waitForTime(0.2, 20000));
    c->tick();
    QVERIFY(window_->newSystem());
    const int commands = window_->undoStack()->count();
    editor_->applyAction()->trigger();
    QCOMPARE(window_->undoStack()->count(), commands + 1);
    const auto first = c->systemPtr();
    QCOMPARE(first.get(), static_cast<const nh::SystemModel*>(editor_->system().get()));
    QCOMPARE(window_->findChild<QComboBox*>("systemBox")->currentData().toString(),
             QString("my_system"));
    // It runs: x moves from its start (0, at 1 m/s).
    QVERIFY(c->waitForTime(0.5, 20000));
    QVERIFY(std::abs(c->primary().column(c->primary().columnIndex("x")).back()) > 0.1);

    // What the user changed is kept by name; a default edited in the file takes effect.
    c->setParameter("c", 5);
    c->setInitialOverrides({{"x", 0.1}});
    typeOver(editor_, find(editor_, "default: 2", "name: k"), "default: 3");
    typeOver(editor_, find(editor_, "y: 0.3", "initial:"), "y: 0.4");
    editor_->checkNow();
    QVERIFY(editor_->applyAction()->isEnabled());
    editor_->applyAction()->trigger();
    const auto second = c->systemPtr();
    QVERIFY(second != first);
    QCOMPARE(c->parameter("c"), 5.0);
    QCOMPARE(c->parameter("k"), 3.0);
    QCOMPARE(c->initialOverrides().at("x"), 0.1);
    QCOMPARE(c->initialState()[0], 0.1);
    QCOMPARE(c->initialState()[1], 0.4);  // y: the model's new default

    // Undo: the previous system object with its parameters; again: the original system.
    window_->undoStack()->undo();
    QCOMPARE(c->systemPtr(), first);
    QCOMPARE(c->parameter("c"), 5.0);
    QCOMPARE(c->parameter("k"), 2.0);
    QVERIFY(editor_->applyAction()->isEnabled());  // the editor's text is not what runs now
    window_->undoStack()->undo();
    QCOMPARE(c->systemPtr(), original);
    // Its history comes back, paused at the moment it was left (as every undo shows one).
    QVERIFY(!c->playing());
    QVERIFY(c->primary().lastTime() >= 0.2);
    window_->undoStack()->redo();
    QCOMPARE(c->systemPtr(), first);
  }

  // A check of the editor's text while the Equations dock derives the Whipple bicycle's
  // equations (seconds of GiNaC work, under GiNaC's one lock) does not wait for that
  // derivation: the derivation is cancelled and started again afterwards.
  void checkingDoesNotWaitForTheEquationsDock() {
    window_->chooseSystem("whipple_bicycle");
    window_->showEquations();
    QTest::qWait(300);  // the derivation is under way
    QVERIFY(window_->newSystem());
    QElapsedTimer clock;
    clock.start();
    editor_->checkNow();
    // The derivation alone takes seconds (the dock's own limit is 10 s); the check, a few
    // hundred milliseconds on a busy machine.
    QVERIFY2(clock.elapsed() < 4000,
             qPrintable(QString("the check took %1 ms").arg(clock.elapsed())));
    QVERIFY(editor_->system());
  }

  void applyThatCannotStartKeepsTheLastGoodSystem() {
    SimulationController* c = window_->controller();
    QVERIFY(window_->newSystem());
    QVERIFY(window_->applyModel(editor_->system()));
    const auto good = c->systemPtr();
    c->setInitialOverrides({{"y", 0}});
    // M = diag(m, m y²) loads (y = 0.3 in the file) but is singular at the carried y = 0.
    typeOver(editor_, find(editor_, "vy^2", "lagrangian:"), "y^2*vy^2");
    editor_->checkNow();
    QVERIFY2(editor_->system(), qPrintable(editor_->statusLabel()->text()));
    const int commands = window_->undoStack()->count();
    editor_->applyAction()->trigger();
    QCOMPARE(c->systemPtr(), good);
    QCOMPARE(window_->undoStack()->count(), commands);
    QVERIFY2(editor_->statusLabel()->text().startsWith("Not applied: "),
             qPrintable(editor_->statusLabel()->text()));
    QVERIFY(editor_->statusLabel()->text().contains("singular"));
    const double t = c->displayTime();
    QTRY_VERIFY_WITH_TIMEOUT(c->displayTime() > t + 0.2, 5000);
  }

  // A control model opens at rest at its start (it moves only along a plan), and the
  // Equations dock shows its Pontryagin's equations.
  void aControlModelShowsItsEquationsWithoutRunning() {
    SimulationController* c = window_->controller();
    QTemporaryDir dir;
    const QString path = dir.filePath("brockett.yaml");
    {
      std::ofstream(path.toStdString())
          << "format: nonholonomic-lab-system\nversion: 1\nname: brockett\n"
             "coordinates: [x, y, z]\nvelocities: [vx, vy, vz]\ncontrols: [u1, u2]\n"
             "control_section: {vx: u1, vy: u2, vz: x*u2 - y*u1}\n"
             "cost: 0.5*(u1*u1 + u2*u2)\n";
    }
    window_->showEquations();
    QVERIFY(window_->openModelFile(path));
    QVERIFY(c->isControlModel());
    QVERIFY(!c->plan());
    QTest::qWait(300);
    QCOMPARE(c->displayTime(), 0.0);
    auto* equations = window_->findChild<nhui::EquationsPanel*>();
    QVERIFY(equations);
    QTRY_VERIFY_WITH_TIMEOUT(equations->plainText().contains("Hamiltonian H"), 20000);
    QVERIFY2(equations->plainText().contains(QString::fromUtf8("u1 = ξ_vx - y*ξ_vz")),
             qPrintable(equations->plainText()));
  }

  void saveReplacesTheFileAtomically() {
    QTemporaryDir dir;
    const QString path = dir.filePath("model.yaml");
    const QString link = dir.filePath("old-contents.yaml");
    { std::ofstream(path.toStdString()) << "old\n"; }
    // A second name for the old file: a save that renames a new file over `path` leaves it
    // alone; one that rewrote the file in place would change it too.
    QCOMPARE(::link(path.toLocal8Bit().constData(), link.toLocal8Bit().constData()), 0);

    editor_->setDocument(ModelEditor::templateText(), QString());
    typeOver(editor_, find(editor_, "My system"), "Saved system");
    QVERIFY(editor_->isModified());
    QVERIFY(editor_->saveTo(path));
    QVERIFY(!editor_->isModified());
    QCOMPARE(editor_->path(), path);
    QCOMPARE(QString::fromStdString(readFile(path)), editor_->text());
    QCOMPARE(readFile(link), std::string("old\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);  // no leftovers

    // Reading it back gives the same text, unmodified.
    const QString text = editor_->text();
    editor_->setDocument(QString::fromStdString(readFile(path)), path);
    QCOMPARE(editor_->text(), text);
    QVERIFY(!editor_->isModified());
  }

  void savingIntoTheModelFolderListsTheSystem() {
    QVERIFY(window_->newSystem());
    typeOver(editor_, find(editor_, "my_system"), "folder_system");
    const QString path = QDir(userFolder_.path()).filePath("folder_system.yaml");
    QVERIFY(editor_->saveTo(path));
    auto* box = window_->findChild<QComboBox*>("systemBox");
    QVERIFY(box->findData("folder_system") >= 0);
    bool listed = false;
    for (const nh::CatalogueEntry& e : nh::catalogueEntries())
      if (e.system->name() == "folder_system") {
        listed = true;
        QCOMPARE(e.origin, nh::SystemOrigin::UserModel);
        QCOMPARE(QString::fromStdString(e.path), path);
      }
    QVERIFY(listed);
    QFile::remove(path);

    // Saved under a name another system has: the catalogue skips it, and the editor says so.
    const QString taken = QDir(userFolder_.path()).filePath("taken.yaml");
    typeOver(editor_, find(editor_, "folder_system"), "ball_on_turntable");
    QVERIFY(editor_->saveTo(taken));
    QVERIFY2(editor_->statusLabel()->text().startsWith("Saved, but not listed: " + taken),
             qPrintable(editor_->statusLabel()->text()));
    QFile::remove(taken);
    nh::reloadUserModels();
  }

  void fifoAndDeviceAreRefused() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath("model.yaml");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    // Should the editor open the FIFO after all, this reader lets the write finish, so the
    // test fails on its result instead of hanging; it is released and joined on every exit.
    struct Reader {
      explicit Reader(std::string path)
          : path_(std::move(path)), thread_([this] {
              std::ifstream in(path_);
              std::stringstream drained;
              drained << in.rdbuf();
              done_ = true;
            }) {}
      ~Reader() {
        // A reader still waiting for a writer is released by one that opens and writes
        // nothing (non-blocking: with no reader yet, try again).
        while (!done_) {
          const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK);
          if (fd >= 0) ::close(fd);
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        thread_.join();
      }
      std::string path_;
      std::atomic<bool> done_{false};
      std::thread thread_;
    } reader(fifo.toStdString());
    editor_->setDocument(ModelEditor::templateText(), QString());
    typeOver(editor_, find(editor_, "My system"), "Unsaved system");
    QVERIFY(!editor_->saveTo(fifo));
    QVERIFY2(editor_->statusLabel()->text().contains("is not a regular file"),
             qPrintable(editor_->statusLabel()->text()));
    QVERIFY(editor_->isModified());
    QVERIFY(editor_->path().isEmpty());

    QVERIFY(!editor_->saveTo("/dev/full"));
    QVERIFY2(editor_->statusLabel()->text().contains("/dev/full"),
             qPrintable(editor_->statusLabel()->text()));
    QVERIFY(editor_->isModified());
    struct stat st {};
    QCOMPARE(::stat("/dev/full", &st), 0);
    QVERIFY(S_ISCHR(st.st_mode));  // still the device
  }

  void openingAFileWithAnErrorMarksItAndRunsNothing() {
    SimulationController* c = window_->controller();
    const auto running = c->systemPtr();
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.yaml");
    const QString text = ModelEditor::templateText().replace("- c/2*", "- c/2**");
    { std::ofstream(path.toStdString()) << text.toStdString(); }
    QVERIFY(!window_->openModelFile(path));
    QCOMPARE(c->systemPtr(), running);
    QCOMPARE(editor_->text(), text);
    QCOMPARE(editor_->path(), path);
    QVERIFY(editor_->problem().has_value());
    QCOMPARE(editor_->textEdit()->errorLine(), find(editor_, "**").blockNumber() + 1);
    QVERIFY(window_->modelEditorDock()->windowTitle().contains("bad.yaml"));

    // A folder is no model file: said in the banner; the editor keeps what it holds.
    QVERIFY(!window_->openModelFile(dir.path()));
    QVERIFY2(window_->errorBanner()->text().contains("Could not open"),
             qPrintable(window_->errorBanner()->text()));
    QCOMPARE(editor_->text(), text);
    QCOMPARE(c->systemPtr(), running);
  }

  void duplicateAndEditRenames() {
    QVERIFY(window_->newSystem());
    QVERIFY(window_->applyModel(editor_->system()));
    QVERIFY(window_->duplicateAndEdit());
    QVERIFY(editor_->text().contains("\nname: my_system_copy\n"));
    QVERIFY(editor_->path().isEmpty());
    QVERIFY2(editor_->system(), qPrintable(editor_->statusLabel()->text()));
    QCOMPARE(editor_->system()->name(), std::string("my_system_copy"));
  }

  void chooserShowsOrigins() {
    QVERIFY(window_->newSystem());
    QVERIFY(window_->applyModel(editor_->system()));
    nhui::SystemChooser chooser("my_system");
    auto* list = chooser.findChild<QListWidget*>();
    QVERIFY(list);
    QStringList items;
    for (int i = 0; i < list->count(); ++i) items << list->item(i)->text();
    QVERIFY2(!items.filter("  (built in)").isEmpty(), qPrintable(items.join(" | ")));
    QVERIFY2(items.contains("My system  (this session)"), qPrintable(items.join(" | ")));
    QCOMPARE(chooser.chosenSystem(), QString("my_system"));
  }

  // The chooser's page of a system says which kind of algebroid its structure makes, as
  // `nhsim info` does, once no other thread is deriving equations with GiNaC.
  void chooserShowsTheKindOfAlgebroid() {
    auto page = [](const char* name) {
      QString html;
      bool pending = true;
      const auto system = nh::findSystem(name);
      for (int attempt = 0; attempt < 600 && pending; ++attempt) {
        if (attempt > 0) QTest::qWait(100);
        html = nhui::systemHtml(*system, &pending);
      }
      return html;
    };
    const QString lie = page("rigid_body");
    QVERIFY2(lie.contains("<p>Structure: Lie algebroid.</p>"), qPrintable(lie));
    const QString general = page("graded_index_ray");
    QVERIFY2(general.contains("Structure: general algebroid"), qPrintable(general));
  }

  void closingWithUnsavedEditsAsks() {
    QVERIFY(window_->newSystem());
    typeOver(editor_, find(editor_, "My system"), "Changed");
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!window_->close());
    QVERIFY(window_->isVisible());
    QVERIFY(editor_->text().contains("title: Changed"));
    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(window_->close());
  }

  void openingAnotherSystemAsks() {
    QVERIFY(window_->newSystem());
    typeOver(editor_, find(editor_, "My system"), "Changed");
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!window_->newSystem());
    QVERIFY(editor_->text().contains("title: Changed"));
  }

 private:
  QTemporaryDir userFolder_;
  std::unique_ptr<MainWindow> window_;
  ModelEditor* editor_ = nullptr;
};

QTEST_MAIN(ModelEditorTest)
#include "model_editor_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
