#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adds the licence line "SPDX-License-Identifier: GPL-3.0-or-later" to every source that
# scripts/check-spdx.sh finds without it, in the file's comment syntax: first, or after a
# shebang, an <?xml …?> declaration or an HTML doctype; in C++ sources and headers last (why:
# scripts/check-spdx.sh). Files that have it are left as they
# are, so it can be run again at any time (after a merge, say); then check-spdx.sh passes.
# Usage: scripts/add-spdx.sh   Prints each file it changed.
set -euo pipefail
cd "$(dirname "$0")/.."

identifier="SPDX-License-Identifier: GPL-3.0-or-later"

# The line for FILE, by its kind.
line_for() {
  case "$1" in
    *.cpp | *.h | *.hpp | *.h.in | *.js) echo "// $identifier" ;;
    *.css) echo "/* $identifier */" ;;
    *.html | *.xml.in) echo "<!-- $identifier -->" ;;
    *) echo "# $identifier" ;;  # CMake, shell, Python, desktop entries
  esac
}

changed=0
while IFS= read -r file; do
  line=$(line_for "$file")
  case "$file" in
    *.cpp | *.h | *.hpp)
      [ -z "$(tail -c 1 "$file")" ] || echo >>"$file"  # a last line without its newline
      printf '%s\n' "$line" >>"$file"
      echo "add-spdx: $file"
      changed=$((changed + 1))
      continue
      ;;
  esac
  # Where it goes: after a first line that must stay first, else at the top.
  after=0
  if head -n 1 "$file" | grep -qE '^(#!|<\?xml|<!DOCTYPE)'; then after=1; fi
  temporary=$(mktemp "$file.spdx.XXXXXX")
  {
    head -n "$after" "$file"
    printf '%s\n' "$line"
    tail -n "+$((after + 1))" "$file"
  } >"$temporary"
  chmod --reference="$file" "$temporary"
  mv "$temporary" "$file"
  echo "add-spdx: $file"
  changed=$((changed + 1))
done < <(./scripts/check-spdx.sh --list)
echo "add-spdx: $changed file(s) given the licence line"
# None is left without it (check-spdx.sh itself also asks for the C++ files' opening comments).
[ -z "$(./scripts/check-spdx.sh --list)" ]
