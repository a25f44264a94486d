// What nhlab bundles in its Qt resource (resources/CMakeLists.txt): the application icon,
// the toolbar and menu icons, the F1 help page and the demonstration scenarios.
#pragma once

#include <QIcon>
#include <QString>
#include <array>
#include <vector>

#include "core/nh/scenario.h"

namespace nhres {

// The reverse-DNS id that names the .desktop file, the AppStream metainfo and the installed
// icon (set once, in resources/CMakeLists.txt).
QString applicationId();
// The scalable application icon, from the resource.
QIcon applicationIcon();

// An icon by freedesktop theme name, with a bundled SVG (a path under :/icons/) used when
// the current icon theme has no icon of that name.
struct ThemedIcon {
  const char* themeName;
  const char* file;
};

namespace icons {
inline constexpr ThemedIcon play{"media-playback-start", ":/icons/play.svg"};
inline constexpr ThemedIcon pause{"media-playback-pause", ":/icons/pause.svg"};
inline constexpr ThemedIcon stepForward{"media-seek-forward", ":/icons/step-forward.svg"};
inline constexpr ThemedIcon stepBack{"media-seek-backward", ":/icons/step-back.svg"};
inline constexpr ThemedIcon reset{"media-skip-backward", ":/icons/reset.svg"};
inline constexpr ThemedIcon open{"document-open", ":/icons/open.svg"};
inline constexpr ThemedIcon save{"document-save", ":/icons/save.svg"};
inline constexpr ThemedIcon exportAnimation{"document-export", ":/icons/export.svg"};
inline constexpr ThemedIcon presentation{"view-fullscreen", ":/icons/presentation.svg"};
inline constexpr ThemedIcon resetCamera{"zoom-fit-best", ":/icons/camera-reset.svg"};
inline constexpr ThemedIcon follow{"mark-location", ":/icons/follow.svg"};
inline constexpr ThemedIcon tableFrame{"object-rotate-left", ":/icons/table-frame.svg"};
inline constexpr ThemedIcon editStart{"transform-move", ":/icons/edit-start.svg"};
// Every entry above, for tests and for anything that walks the set.
inline constexpr std::array all{play,   pause,      stepForward,     stepBack,     reset,
                                open,   save,       exportAnimation, presentation, resetCamera,
                                follow, tableFrame, editStart};
}  // namespace icons

// QIcon::fromTheme(icon.themeName, QIcon(icon.file)).
QIcon themedIcon(const ThemedIcon& icon);

// The F1 overlay's HTML (:/help/shortcuts.html).
QString shortcutHelpHtml();

// One lesson of the index (:/examples/examples.json, a list of file names in menu order).
struct Example {
  QString file;   // file name beside the index, e.g. "ball_closed_circle.json"
  QString title;  // the scenario's view.title: what the menu shows
  QString note;   // its view.note: what to watch
  QString resourcePath() const { return QStringLiteral(":/examples/") + file; }
};
// The index in its order. Throws nh::InputError if the index is malformed or a lesson has
// no title.
std::vector<Example> examples();

// Reads a scenario from the Qt resource (a path starting with ":/") with
// nh::parseScenarioJson; throws nh::InputError if there is no such resource.
nh::Scenario readResourceScenario(const QString& resourcePath);

}  // namespace nhres
// SPDX-License-Identifier: GPL-3.0-or-later
