// The lessons as a folder a teacher copies to a USB stick or a school's web space: every
// bundled lesson (the app's Lessons menu, resources/examples) written as an interactive page,
// live where the page's engine runs it, and an index.html that lists them in the menu's order
// with a picture of each motion, its title and its note. `nhsim export --lessons DIR [--live]`.
#pragma once

#include <QSize>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/nh/scenario.h"
#include "ui/export/animation_exporter.h"

namespace nhui {

// What an export of `scenario` shows when no option says otherwise (nhsim export, a lesson's
// page in the folder): its t-end (a planned motion's T), its view's camera, arrows, theme and
// comparison, its plots. Not validated: the options applied on top may still change it.
ExportSettings scenarioExportSettings(const nh::Scenario& scenario);

struct LessonSiteOptions {
  bool live = false;        // pages run the motion themselves where the engine can
  QSize picture{480, 270};  // each lesson's picture in the index (pixels)
};

// One page of the folder, as the index lists it.
struct LessonPage {
  std::string file;         // the page's file name in the folder, e.g. "disk_circle.html"
  std::string title, note;  // the lesson's own (its scenario's view part)
  bool live = false;        // the page runs the motion itself
  std::string replayed;     // with `live` asked: why this page replays its run instead
  std::string picture;      // the picture as a data: URL (JPEG, else PNG)
  std::uintmax_t bytes = 0;
};

struct LessonSite {
  std::vector<LessonPage> pages;
  std::filesystem::path index;  // the folder's index.html
  std::uintmax_t bytes = 0;     // every file written
};

// Called before each lesson is written: its position (from 0) in `count`, and its title.
using LessonSiteProgress = std::function<void(int at, int count, const std::string& title)>;

// Writes every lesson's page and then index.html into `folder` (created if missing; files of
// the same names replaced, nothing else touched). Each file is written whole or not at all
// (nh::AtomicOutput); the index comes last, so a folder with an index has every page. Stops
// before the next lesson when `cancel` is set (no index then). Renders the pictures with VTK:
// needs an X display (nh::ensureDisplay()) and a QGuiApplication. Throws nh::InputError for a
// folder that is a file, nh::Error with what failed otherwise.
LessonSite writeLessonSite(const std::filesystem::path& folder, const LessonSiteOptions& options,
                           const LessonSiteProgress& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

// Refuses a folder for writeLessonSite that is a file (nh::InputError, one line); call before
// the work starts, so that a bad folder fails at once.
void checkLessonFolder(const std::filesystem::path& folder);

// The index's HTML for `pages` (each with its picture), as writeLessonSite writes it.
std::string lessonIndexPage(const std::vector<LessonPage>& pages, bool live);

}  // namespace nhui
// SPDX-License-Identifier: GPL-3.0-or-later
