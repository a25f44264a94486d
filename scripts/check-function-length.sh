#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that no function in core/, ui/ or app/ is longer than 120 lines, except those listed
# with their reason in docs/architecture.md ("Functions longer than 120 lines": a table whose
# first column names the function as `Scope::name`). Function extents come from
# universal-ctags (its end lines). Prints each function over the limit that is not listed and
# each listed one that is no longer over it; exit 1 if any. Likewise no source file in core/,
# ui/ or app/ is longer than 900 lines unless docs/architecture.md lists it ("Files with one
# job each": a table whose first column names the file as `path`).
# Usage: scripts/check-function-length.sh [LIMIT]   (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
command -v ctags >/dev/null || { echo "function length: universal-ctags is missing" >&2; exit 1; }
listed=$(sed -n '/^## Functions longer than 120 lines/,/^## /p' docs/architecture.md |
  grep -oE '^\| `[^`]+`' | sed -E 's/^\| `([^`]+)`/\1/' || true)
long=$(ctags -R --languages=C++ --kinds-C++=f --fields=+ne -x \
  --_xformat='%{line}|%{end}|%{input}|%{scope}::%{name}' core ui app 2>/dev/null |
  awk -F'|' -v limit="$limit" '$2 != "" && $2 - $1 + 1 > limit {
    name = $4; sub(/^::/, "", name); gsub(/__anon[0-9a-f]+::/, "", name)
    sub(/^(nh|nhui|nhres)::((cli|model|study)::)?/, "", name)
    print $2 - $1 + 1 "|" $3 ":" $1 "|" name }')
status=0
while IFS='|' read -r lines where name; do
  [ -n "$name" ] || continue
  if ! grep -qxF "$name" <<<"$listed"; then
    echo "function length: $name ($where) has $lines lines; at most $limit, or list it with its reason in docs/architecture.md"
    status=1
  fi
done <<<"$long"
while IFS= read -r name; do
  [ -n "$name" ] || continue
  if ! awk -F'|' '{print $3}' <<<"$long" | grep -qxF "$name"; then
    echo "function length: $name is listed in docs/architecture.md but is not over $limit lines; take it off the list"
    status=1
  fi
done <<<"$listed"
files_listed=$(sed -n '/^## Files with one job each/,/^## /p' docs/architecture.md |
  grep -oE '^\| `[^`]+`' | sed -E 's/^\| `([^`]+)`/\1/' || true)
while read -r lines file; do
  [ "$file" != total ] || continue
  if [ "$lines" -gt 900 ] && ! grep -qxF "$file" <<<"$files_listed"; then
    echo "file length: $file has $lines lines; at most 900 (split it by job), or list it with its reason in docs/architecture.md"
    status=1
  fi
done < <(git ls-files 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' 'app/*.cpp' 'app/*.h' | xargs wc -l)
[ "$status" -ne 0 ] || echo "function length: no function over $limit lines and no file over 900 lines outside the listed ones"
exit "$status"
