#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that dependencies run one way, core ← ui ← app, folder by folder:
#   rank 0  core/nh            the engine
#           resources/systems  the bundled model files (data, compiled in)
#   rank 1  core/systems core/model (C++ systems; model files and the catalogue)
#   rank 2  core/io
#   rank 3  core/study         (parameter studies: runs, measures, the thread pool)
#   rank 4  ui/sim ui/export/media resources (the bundled files and their Qt-Gui accessors)
#   rank 5  ui/session         (the document: controller, undo stack, file, lesson)
#   rank 6  ui/scene ui/plot ui/panels
#   rank 7  ui/export ui/study (the Study panel; it uses ui/plot's axis ticks)
#   rank 8  ui/window
#   rank 9  app/nhsim app/nhlab app/python app/web (nhlab and the Python module may use nhsim's
#           command-line helpers)
# A source may include headers from its own folder and from folders of lower rank only; a
# CMakeLists.txt may build only the sources beside it (no ../ or paths into other folders).
# Usage: scripts/check-layers.sh [SOURCE_DIR]. Prints each violation; exit 1 if any.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

rank_of() {
  case "$1" in
    core/nh|resources/systems) echo 0 ;;
    core/systems|core/model) echo 1 ;;
    core/io) echo 2 ;;
    core/study) echo 3 ;;
    ui/sim|ui/export/media|resources) echo 4 ;;
    ui/session) echo 5 ;;
    ui/scene|ui/plot|ui/panels) echo 6 ;;
    ui/export|ui/study) echo 7 ;;
    ui/window) echo 8 ;;
    app/nhsim|app/nhlab|app/python|app/web) echo 9 ;;
    *) echo "" ;;
  esac
}

violations=0
report() { echo "layers: $*"; violations=$((violations + 1)); }

while IFS= read -r file; do
  folder=$(dirname "$file")
  own=$(rank_of "$folder")
  [ -n "$own" ] || { report "$file: folder $folder has no layer (add it to scripts/check-layers.sh)"; continue; }
  while IFS= read -r line; do
    header=${line#*\"}
    header=${header%%\"*}
    case "$header" in
      *.moc|*_autogen/*) continue ;;
    esac
    if [[ "$header" != */* ]]; then
      report "$file: includes \"$header\" without naming its layer (write \"$folder/$header\")"
      continue
    fi
    target=$(dirname "$header")
    theirs=$(rank_of "$target")
    if [ -z "$theirs" ]; then
      report "$file: includes \"$header\" from a folder with no layer"
    elif [ "$target" != "$folder" ] && { [ "$theirs" -gt "$own" ] ||
         { [ "$theirs" -eq "$own" ] && [[ "$folder" != app/* ]]; }; }; then
      report "$file: includes \"$header\" ($target is not below $folder)"
    fi
  done < <(grep -E '^\s*#\s*include\s+"' "$file" || true)
done < <(git ls-files 'core/*.h' 'core/*.cpp' 'ui/*.h' 'ui/*.cpp' 'app/*.h' 'app/*.cpp' \
           'resources/*.h' 'resources/*.cpp' 2>/dev/null ||
         find core ui app resources -name '*.h' -o -name '*.cpp')

# Build rules next to their sources.
while IFS= read -r cml; do
  if grep -nE '\.\./|\$\{(CMAKE|PROJECT)_SOURCE_DIR\}/(core|ui|app)/' "$cml" | grep -v '^\s*#' >/dev/null; then
    report "$cml: refers to sources outside its folder: $(grep -nE '\.\./|\$\{(CMAKE|PROJECT)_SOURCE_DIR\}/(core|ui|app)/' "$cml" | head -1)"
  fi
done < <(git ls-files 'core/*CMakeLists.txt' 'ui/*CMakeLists.txt' 'app/*CMakeLists.txt' \
           'resources/*CMakeLists.txt' 2>/dev/null ||
         find core ui app resources -name CMakeLists.txt)

# Lower layers link no target of a higher one.
uses() {  # uses PATTERN FOLDER: non-comment CMake lines under FOLDER naming a target in PATTERN
  # A target name stands alone: not part of a file name, app id or path (no '.', '-', '/').
  grep -rnP "(?<![\w./-])($1)(?![\w./-])" "$2" --include=CMakeLists.txt |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*#' || true
}
found=$(uses 'nhui\w*|nhscene|nhplot|nhpanels|nhexport|nhvideo|nhdisplay|nhwindow|nhresources|nhcli|nhsim|nhlab' core)
[ -z "$found" ] || report "core/ links a ui/ or app/ target: $found"
found=$(uses 'nhcli|nhsim|nhlab|nhsim-export' ui)
[ -z "$found" ] || report "ui/ links an app/ target: $found"
found=$(uses 'nhuisim|nhscene|nhplot|nhpanels|nhexport|nhwindow|nhcli|nhsim|nhlab' resources)
[ -z "$found" ] || report "resources/ links a ui/ or app/ target: $found"

if [ "$violations" -gt 0 ]; then
  echo "layers: $violations violation(s)"
  exit 1
fi
echo "layers: core ← ui ← app holds ($(git ls-files 'core/*' 'ui/*' 'app/*' 'resources/*' | wc -l) files checked)"
