#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that every source file names the project's licence, GPL-3.0-or-later, with the line
# "SPDX-License-Identifier: GPL-3.0-or-later" in its first three lines (after a shebang), in
# the file's own comment syntax — C++ sources and headers (*.cpp, *.h, *.hpp) as their last
# line, which is where scripts/add-spdx.sh puts it in them: a comment after the code leaves
# the text the compiler sees as it was, where a line added at the top moves every line after
# it and so misses the compiler cache for every object of the three builds (release, asan,
# tsan), more than CI's time allows. Sources: C++ (*.cpp, *.h, *.hpp and the *.h.in CMake
# configures), CMake (CMakeLists.txt, *.cmake), shell (*.sh, .ci/run), Python (*.py), the
# interactive page's and the help's *.js, *.css and *.html, and the desktop entry and metainfo
# templates (*.desktop.in, *.xml.in). Not sources here: data (model files *.yaml, scenarios
# and corpora), images, Markdown, and the Debian changelog template, whose format has no
# comments. scripts/add-spdx.sh inserts the line where it is missing.
# Also checks the other fixed line of every C++ source and header (*.cpp, *.h, *.hpp): its
# first line is a "//" comment, the start of the opening comment that says what the file
# holds (docs/style.md, "Names, files, comments"); the licence line is not that comment.
# Usage: scripts/check-spdx.sh [--list]   Prints each file without the line, and each C++ file
#        without an opening comment; exit 1 if any.
#        With --list, prints only the paths of the files without the licence line, one a line
#        (what scripts/add-spdx.sh reads), and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

# The sources, tracked (or, outside a git checkout, found outside build folders).
sources() {
  local patterns=('*.cpp' '*.h' '*.hpp' '*.h.in' 'CMakeLists.txt' '*.cmake' '*.sh' '*.py' '*.js'
    '*.css' '*.html' '*.desktop.in' '*.xml.in' '.ci/run')
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- "${patterns[@]/#/:(glob)**/}" | sort -u
  else
    find . -type d \( -name 'build*' -o -name .git \) -prune -o -type f \( -name '*.cpp' \
      -o -name '*.h' -o -name '*.hpp' -o -name '*.h.in' -o -name CMakeLists.txt \
      -o -name '*.cmake' -o -name '*.sh' -o -name '*.py' -o -name '*.js' -o -name '*.css' \
      -o -name '*.html' -o -name '*.desktop.in' -o -name '*.xml.in' -o -path ./.ci/run \) \
      -print | sed 's|^\./||' | sort
  fi
}

# Whether FILE has the line in its first three lines, a shebang not counted (C++: as its last).
has_identifier() {
  case "$1" in
    *.cpp | *.h | *.hpp)
      tail -n 1 "$1" | grep -q 'SPDX-License-Identifier: GPL-3\.0-or-later'
      return
      ;;
  esac
  awk 'NR == 1 && /^#!/ { skip = 1; next }
    NR > 3 + skip { exit 1 }
    /SPDX-License-Identifier: GPL-3\.0-or-later/ { found = 1; exit 0 }
    END { exit !found }' "$1"
}

# Whether the first line of the C++ file FILE is a "//" comment other than the licence line.
has_opening_comment() {
  local first
  first=$(head -n 1 "$1")
  [[ $first == //* && $first != *SPDX-License-Identifier* ]]
}

list=false
[ "${1:-}" = "--list" ] && list=true
count=0
missing=0
cpp=0
unopened=0
while IFS= read -r file; do
  [ -f "$file" ] || continue
  count=$((count + 1))
  case "$file" in
    *.cpp | *.h | *.hpp)
      cpp=$((cpp + 1))
      if ! $list && ! has_opening_comment "$file"; then
        unopened=$((unopened + 1))
        echo "spdx: $file: its first line is not a // comment saying what the file holds"
      fi
      ;;
  esac
  has_identifier "$file" && continue
  missing=$((missing + 1))
  if $list; then
    echo "$file"
  else
    case "$file" in
      *.cpp | *.h | *.hpp) where="as its last line" ;;
      *) where="in its first 3 lines" ;;
    esac
    echo "spdx: $file: no 'SPDX-License-Identifier: GPL-3.0-or-later' $where"
  fi
done < <(sources)
$list && exit 0
if [ "$missing" -gt 0 ]; then
  echo "spdx: $missing of $count sources without the licence line (scripts/add-spdx.sh adds it)"
fi
if [ "$unopened" -gt 0 ]; then
  echo "spdx: $unopened of $cpp C++ sources without an opening comment (docs/style.md)"
fi
[ "$missing" -eq 0 ] && [ "$unopened" -eq 0 ] || exit 1
echo "spdx: $count sources name GPL-3.0-or-later; the $cpp C++ ones open with a comment"
