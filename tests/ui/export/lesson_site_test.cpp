// The lessons' folder: every lesson of the app's Lessons menu gets its page, in the menu's
// order in the index, with its title, note and a picture of its motion; pages are live exactly
// where the page's engine runs the lesson, the others replay it and the index says why; every
// page stays within 4 MB; the index fetches nothing; a folder that is a file is refused, and a
// cancelled site has no index. Writes the whole live site once (about a minute).
#include "ui/export/lesson_site.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <memory>

#include "core/nh/errors.h"
#include "resources/app_resources.h"
#include "ui/export/interactive_page.h"
#include "ui/export/media/virtual_display.h"
#include "ui/export/web_engine.h"

namespace {

QByteArray contentsOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The picture of a data: URL, decoded.
QImage pictureOf(const std::string& url) {
  const std::string prefix = "base64,";
  const size_t at = url.find(prefix);
  if (at == std::string::npos) return {};
  return QImage::fromData(QByteArray::fromBase64(QByteArray::fromStdString(url.substr(at + 7))));
}

// Distinct colours in a picture, counted on a coarse grid: a bare background has a few.
int coloursIn(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y) & 0xf0f0f0);
  return colours.size();
}

}  // namespace

class LessonSiteTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    display_ = nh::ensureDisplay();
    QVERIFY2(nhui::webEngineAvailable(), "the web engine (wasm preset) is not built");
    nhui::LessonSiteOptions options;
    options.live = true;
    int calls = 0;
    site_ = nhui::writeLessonSite(dir_.filePath("site").toStdString(), options,
                                  [&](int at, int count, const std::string&) {
                                    QCOMPARE(at, calls++);
                                    QCOMPARE(count, int(nhres::examples().size()));
                                  });
    QCOMPARE(calls, int(nhres::examples().size()));
  }

  // The index lists every lesson in the menu's order, each linking to its page beside it,
  // with its title and note as the menu has them.
  void indexListsEveryLesson() {
    const QString index = QString::fromUtf8(contentsOf(dir_.filePath("site/index.html")));
    QVERIFY(index.startsWith("<!DOCTYPE html>"));
    const std::vector<nhres::Example> lessons = nhres::examples();
    QCOMPARE(site_.pages.size(), lessons.size());
    qsizetype previous = -1;
    for (size_t i = 0; i < lessons.size(); ++i) {
      const nhui::LessonPage& page = site_.pages[i];
      QCOMPARE(QString::fromStdString(page.title), lessons[i].title);
      QCOMPARE(QString::fromStdString(page.note), lessons[i].note);
      const QString link = "href=\"" + QString::fromStdString(page.file) + "\"";
      const qsizetype at = index.indexOf(link);
      QVERIFY2(at > previous, qPrintable(link + " missing or out of the menu's order"));
      previous = at;
      const QString title = lessons[i].title.toHtmlEscaped().replace("&#39;", "'");
      QVERIFY2(index.indexOf("<h2>" + title + "</h2>", at) > at, qPrintable(title));
      QVERIFY(QFile::exists(dir_.filePath("site/" + QString::fromStdString(page.file))));
    }
  }

  // Each picture is the lesson's scene at the index's size, not a bare background.
  void picturesShowTheMotion() {
    for (const nhui::LessonPage& page : site_.pages) {
      const QImage picture = pictureOf(page.picture);
      QVERIFY2(!picture.isNull(), page.file.c_str());
      QCOMPARE(picture.size(), nhui::LessonSiteOptions{}.picture);
      QVERIFY2(coloursIn(picture) > 40, page.file.c_str());
    }
  }

  // Live where the engine runs the lesson (livePageRefusal empty), a replay otherwise, and
  // the index says which and why; a live page carries the engine, a replay none.
  void liveWhereTheEngineRunsIt() {
    const QString index = QString::fromUtf8(contentsOf(dir_.filePath("site/index.html")));
    int live = 0, replayed = 0;
    for (size_t i = 0; i < site_.pages.size(); ++i) {
      const nhui::LessonPage& page = site_.pages[i];
      const nh::Scenario lesson = nhres::readResourceScenario(nhres::examples()[i].resourcePath());
      QCOMPARE(page.live, nhui::livePageRefusal(lesson).empty());
      const QByteArray html =
          contentsOf(dir_.filePath("site/" + QString::fromStdString(page.file)));
      QCOMPARE(html.contains("'wasm-unsafe-eval'"), page.live);
      QVERIFY2(html.size() <= 4'000'000, page.file.c_str());
      QCOMPARE(qsizetype(page.bytes), html.size());
      (page.live ? live : replayed)++;
    }
    QVERIFY(live >= 10 && replayed >= 1);  // the planned motions replay
    QCOMPARE(index.count("<span class=\"kind\">live</span>"), live);
    QCOMPARE(index.count("<span class=\"kind replay\">replay</span>"), replayed);
    QCOMPARE(index.count("Replays its recorded run: a planned motion is not run live."), replayed);
  }

  // The index asks for nothing: its policy allows inlined pictures only, it has no script,
  // and every address in it is a page beside it or a picture inside it.
  void indexFetchesNothing() {
    const QString index = QString::fromUtf8(contentsOf(dir_.filePath("site/index.html")));
    QVERIFY(
        index.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; "
                       "img-src data:\""));
    QVERIFY(!index.contains("<script"));
    const QRegularExpression address("(?:href|src)=\"([^\"]*)\"");
    for (auto m = address.globalMatch(index); m.hasNext();) {
      const QString url = m.next().captured(1);
      QVERIFY2(url.startsWith("data:image/") ||
                   QRegularExpression("^[a-z0-9_]+\\.html$").match(url).hasMatch(),
               qPrintable(url.left(80)));
    }
  }

  // A folder that is a file: one line, nothing written. A cancelled site: no index.
  void refusals() {
    const QString file = dir_.filePath("plain");
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    try {
      nhui::writeLessonSite(file.toStdString(), {});
      QFAIL("a file taken for the folder");
    } catch (const nh::InputError& e) {
      QCOMPARE(QString(e.what()), "--lessons " + file + ": this is a file; give a folder");
    }
    const std::atomic<bool> cancel{true};
    const nhui::LessonSite none =
        nhui::writeLessonSite(dir_.filePath("cancelled").toStdString(), {}, {}, &cancel);
    QVERIFY(none.pages.empty());
    QVERIFY(!QFile::exists(dir_.filePath("cancelled/index.html")));
  }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<nh::VirtualDisplay> display_;
  nhui::LessonSite site_;
};

QTEST_MAIN(LessonSiteTest)
#include "lesson_site_test.moc"
// SPDX-License-Identifier: GPL-3.0-or-later
