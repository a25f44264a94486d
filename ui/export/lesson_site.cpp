// The lessons' folder (lesson_site.h): each lesson exported as `nhsim export LESSON.json --html
// [--live]` would write it, its picture rendered from the end of its run, and the index.
#include "ui/export/lesson_site.h"

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QImageWriter>
#include <map>

#include "core/io/atomic_output.h"
#include "core/nh/errors.h"
#include "core/nh/version.h"
#include "resources/app_resources.h"
#include "ui/export/animation_exporter.h"
#include "ui/export/interactive_page.h"
#include "ui/export/page_template.h"
#include "ui/export/plan_source.h"

namespace nhui {

namespace {

constexpr const char* kIndexTemplate = ":/page/html/lessons.html";

// The 3D view at the end of the lesson's run (its trails show the motion), without plots,
// overlay, legend or corner axes, as a data: URL: JPEG where Qt's plugin is installed, else PNG.
std::string pictureOf(const nh::Scenario& lesson, const ExportSettings& page, QSize size) {
  ExportSettings settings = page;
  settings.width = size.width();
  settings.height = size.height();
  settings.plots = false;
  settings.overlay = false;
  settings.guides = false;  // unreadable at this size; the lesson's page has them
  AnimationExporter exporter(lesson, settings);
  const nh::RgbImage frame = exporter.renderFrame(exporter.frameCount() - 1);
  const QImage image(frame.pixels.data(), frame.width, frame.height, 3 * frame.width,
                     QImage::Format_RGB888);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter jpeg(&buffer, "jpeg");
  jpeg.setQuality(85);
  std::string type = "jpeg";
  if (!jpeg.write(image)) {
    bytes.clear();
    buffer.seek(0);
    if (!image.save(&buffer, "PNG"))
      throw nh::Error("cannot encode the picture of " + lesson.system);
    type = "png";
  }
  return "data:image/" + type + ";base64," + bytes.toBase64().toStdString();
}

// "a planned motion is not run live: its page plays …" → "a planned motion is not run live".
std::string shortReason(const std::string& refusal) {
  const size_t end = refusal.find_first_of(":;(");
  std::string reason = refusal.substr(0, end);
  while (!reason.empty() && reason.back() == ' ') reason.pop_back();
  return reason;
}

std::string lessonCard(const LessonPage& page, bool live) {
  std::string card = "<a class=\"lesson\" href=\"" + htmlEscaped(page.file) + "\">\n";
  card += "  <img src=\"" + page.picture + "\" alt=\"" + htmlEscaped(page.title) + "\">\n";
  card += "  <div class=\"text\">\n";
  if (live)
    card += page.live ? "    <span class=\"kind\">live</span>\n"
                      : "    <span class=\"kind replay\">replay</span>\n";
  card += "    <h2>" + htmlEscaped(page.title) + "</h2>\n";
  card += "    <p class=\"note\">" + htmlEscaped(page.note) + "</p>\n";
  if (live && !page.live)
    card += "    <p class=\"why\">Replays its recorded run: " +
            htmlEscaped(shortReason(page.replayed)) + ".</p>\n";
  card += "  </div>\n</a>\n";
  return card;
}

}  // namespace

ExportSettings scenarioExportSettings(const nh::Scenario& scenario) {
  ExportSettings settings;
  settings.tEnd = scenario.tEnd;
  applyScenarioView(scenario.view, settings);
  applyScenarioPlots(scenario, settings);
  if (const auto plan = scenarioPlan(scenario)) settings.tEnd = plan->tEnd;
  return settings;
}

std::string lessonIndexPage(const std::vector<LessonPage>& pages, bool live) {
  std::string cards;
  for (const LessonPage& page : pages) cards += lessonCard(page, live);
  const std::string intro =
      live ? "Open a lesson to watch the motion and change it: every parameter and initial "
             "value is a slider, edits act while it plays, and the page's link keeps the "
             "setup to hand out. Pages marked replay play the recorded motion."
           : "Open a lesson to watch its motion, turn the view and read its plots.";
  return filledTemplate(resourceText(kIndexTemplate), {{"TITLE", "Nonholonomic Lab: lessons"},
                                                       {"VERSION", nh::kVersion},
                                                       {"INTRO", htmlEscaped(intro)},
                                                       {"LESSONS", cards}});
}

void checkLessonFolder(const std::filesystem::path& folder) {
  std::error_code error;
  if (std::filesystem::exists(folder, error) && !std::filesystem::is_directory(folder, error))
    throw nh::InputError("--lessons " + folder.string() + ": this is a file; give a folder");
}

LessonSite writeLessonSite(const std::filesystem::path& folder, const LessonSiteOptions& options,
                           const LessonSiteProgress& progress, const std::atomic<bool>* cancel) {
  checkLessonFolder(folder);
  std::error_code error;
  if (!std::filesystem::create_directories(folder, error) && error)
    throw nh::Error("cannot create the folder " + folder.string() + ": " + error.message());
  const std::vector<nhres::Example> lessons = nhres::examples();
  LessonSite site;
  const int count = static_cast<int>(lessons.size());
  for (int at = 0; at < count; ++at) {
    if (cancel && cancel->load()) return site;
    const nhres::Example& lesson = lessons[static_cast<size_t>(at)];
    LessonPage page;
    page.title = lesson.title.toStdString();
    page.note = lesson.note.toStdString();
    if (progress) progress(at, count, page.title);
    const nh::Scenario scenario = nhres::readResourceScenario(lesson.resourcePath());
    page.file =
        std::filesystem::path(lesson.file.toStdString()).replace_extension(".html").string();
    page.replayed = options.live ? livePageRefusal(scenario) : std::string();
    page.live = options.live && page.replayed.empty();
    ExportSettings settings = scenarioExportSettings(scenario);
    settings.validate();
    AnimationExporter exporter(scenario, settings);
    page.bytes =
        writeInteractivePage(folder / page.file, exportedPage(exporter, scenario, page.live));
    page.picture = pictureOf(scenario, settings, options.picture);
    site.bytes += page.bytes;
    site.pages.push_back(std::move(page));
  }
  const std::string index = lessonIndexPage(site.pages, options.live);
  site.index = folder / "index.html";
  site.bytes += writeInteractivePage(site.index, index);
  return site;
}

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
