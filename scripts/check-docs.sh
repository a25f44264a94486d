#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that the documentation matches the repository:
#   - every folder under core/, ui/ and app/ (build folders aside) is named in the drawing of
#     docs/architecture.md (its first fenced block); the drawing may name a folder that does
#     not exist yet;
#   - README.md is at most 400 lines;
#   - each of the main documents exists in docs/ and is linked from README.md;
#   - README.md and docs/ point at nothing outside the repository (../shared, /work/);
#   - no tracked file speaks of issue or defect numbers;
#   - every relative link in README.md and docs/*.md leads to a file or folder that exists;
#   - every C++ file README.md and docs/*.md name by its path (`core/nh/scenario.cpp`, a path
#     starting with one of the repository's folders, ending in .cpp or .h) exists;
#   - every C++ source under core/, ui/ and app/ has a suite of its name
#     (core/nh/scenario_run.cpp: tests/core/nh/scenario_run_test.cpp) or docs/testing.md names it
#     (its path, or its file name where no other source has it); every suite
#     tests/**/*_test.cpp is named in docs/testing.md (its name, `gui_` before it or not, or in a
#     `tests/<folder>/<name>_test` row its bare `<name>`);
#   - the Python snippets of docs/*.md, run from the repository root as docs/python.md says,
#     write into no folder of the repository (a quoted path starting with one of its folders);
#   - README.md's count of the catalogue's systems with dynamics and of its control models is
#     that of resources/systems/ (model files; those with `controls:` are control models) and
#     core/systems/ (C++ systems, a file each; one with a model-file twin counted once).
# Usage: scripts/check-docs.sh [SOURCE_DIR]. Prints one line per problem; exit 1 if any.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

problems=0
report() { echo "docs: $*"; problems=$((problems + 1)); }

main_docs=(architecture theory model-format cli app classroom testing benchmarks reliability style)
readme_limit=400

# The folders, from the file system, so that a folder added later is checked the day it appears.
folders() {
  find core ui app -mindepth 1 \( -name 'build*' -o -name '.*' -o -name '*_autogen' \
    -o -name CMakeFiles -o -name __pycache__ \) -prune -o -type d -print | sort
}

# The first fenced block of docs/architecture.md: the drawing of the layers.
drawing() {
  awk '/^```/ { if (inside) exit; inside = 1; next } inside { print }' docs/architecture.md
}

if [ ! -f docs/architecture.md ]; then
  report "docs/architecture.md is missing"
else
  diagram=$(drawing)
  [ -n "$diagram" ] || report "docs/architecture.md has no drawing (a fenced block) of the folders"
  while IFS= read -r folder; do
    # A folder is named when it stands alone: "ui/export" is not named by "ui/export/media".
    pattern="(^|[^A-Za-z0-9_/.-])${folder//./\\.}([^A-Za-z0-9_/-]|$)"
    grep -qE "$pattern" <<<"$diagram" ||
      report "$folder is not named in the drawing of docs/architecture.md"
  done < <(folders)
fi

if [ ! -f README.md ]; then
  report "README.md is missing"
else
  lines=$(wc -l <README.md)
  [ "$lines" -le "$readme_limit" ] ||
    report "README.md has $lines lines (at most $readme_limit: the detail belongs in docs/)"
fi

for name in "${main_docs[@]}"; do
  [ -f "docs/$name.md" ] || report "docs/$name.md is missing"
  grep -qF "](docs/$name.md" README.md 2>/dev/null ||
    report "docs/$name.md is not linked from README.md"
done

# Nothing outside the repository: the product carries its own documentation.
while IFS= read -r hit; do
  report "$hit: points outside the repository"
done < <(grep -rnIE '\.\./shared|/work/' README.md docs 2>/dev/null || true)

# Comments and documents say in words what they mean, never a tracker's numbers.
tracked() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z
  else
    find . -path ./build -prune -o -type f -print0
  fi
}
while IFS= read -r hit; do
  report "$hit: an issue or defect number (say in words what is meant)"
done < <(tracked | xargs -0 grep -sInEi 'issue [0-9]+|defect [0-9]+' 2>/dev/null || true)

# Relative links in the Markdown documents lead somewhere.
for doc in README.md docs/*.md; do
  [ -f "$doc" ] || continue
  dir=$(dirname "$doc")
  while IFS= read -r target; do
    target=${target#*](}
    target=${target%)}
    target=${target%%#*}
    target=${target%% *}
    case "$target" in
      '' | http://* | https://* | mailto:*) continue ;;
    esac
    [ -e "$dir/$target" ] || report "$doc: link to $target, which does not exist"
  done < <(grep -oE '\]\([^)]+\)' "$doc" || true)
done

# Python snippets write outside the repository (a temporary folder), never over its files.
top_folders=$(find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name 'build*' -printf '%f|')
while IFS= read -r hit; do
  report "$hit: a Python snippet names a path in the repository (write to a temporary folder)"
done < <(for doc in docs/*.md; do
  awk -v doc="$doc" '/^```/ { inside = !inside && /^```python/; next }
    inside { print doc ":" FNR ": " $0 }' "$doc"
done | grep -E "[\"'](\./)?(${top_folders%|})/" || true)

# C++ files named by their path exist: a document that names a moved or renamed file is wrong.
# A path with a placeholder (`tests/<layer>/…`, `core/nh/*.cpp`) is no file's name and is left.
while IFS=: read -r doc line path; do
  [ -e "$path" ] || report "$doc:$line: names $path, which does not exist"
done < <(grep -noE '[A-Za-z0-9_./-]+' README.md docs/*.md 2>/dev/null | sed -E 's/\.+$//' |
  grep -E ":(${top_folders%|})(/[A-Za-z0-9_.-]+)+\.(cpp|h)$" || true)

# Suites mirror sources (docs/testing.md, "Where the suites are"): a source without a suite of its
# name is named in docs/testing.md, and every suite is. One pass of awk over the document's
# words, the sources and the suites, tagged by kind (N word, P placeholder-row suite, S source,
# T suite).
suite_words() {
  grep -oE '[A-Za-z0-9_./<>-]+' docs/testing.md | sed -E 's/\.+$//; s/^/N /'
  # `tests/ui/panels/<name>_test` rows name their suites by bare `<name>`s.
  awk 'match($0, /tests\/[a-z0-9_\/]+\/<name>_test/) {
      dir = substr($0, RSTART + 6, RLENGTH - 18); rest = substr($0, RSTART + RLENGTH)
      while (match(rest, /`[a-z0-9_]+`/)) {
        print "P " dir "/" substr(rest, RSTART + 1, RLENGTH - 2) "_test"
        rest = substr(rest, RSTART + RLENGTH)
      }
    }' docs/testing.md
  find core ui app \( -name 'build*' -o -name '.*' -o -name '*_autogen' -o -name CMakeFiles \) \
    -prune -o -type f -name '*.cpp' -print | sed 's/^/S /'
  find tests \( -name 'build*' -o -name '.*' \) -prune -o -type f -name '*_test.cpp' -print |
    sed 's/^/T /'
}
unmapped() {
  suite_words | awk '
    $1 == "N" { w = $2; named[w] = 1; sub(/.*\//, "", w); named[w] = 1
                sub(/\.cpp$/, "", w); sub(/^gui_/, "", w); suite[w] = 1; next }
    $1 == "P" { placed[$2] = 1; next }
    $1 == "S" { src[++ns] = $2; b = $2; sub(/.*\//, "", b); count[b]++; next }
    $1 == "T" { tst[++nt] = $2; have[$2] = 1; next }
    END {
      for (i = 1; i <= ns; i++) {
        s = src[i]; b = s; sub(/.*\//, "", b); t = "tests/" s; sub(/\.cpp$/, "_test.cpp", t)
        if ((t in have) || (s in named) || (count[b] == 1 && (b in named))) continue
        print s ": no suite of its name (" t ") and not named in docs/testing.md (add it to the table of suites, or to the sources no suite covers)"
      }
      for (i = 1; i <= nt; i++) {
        t = tst[i]; n = t; sub(/.*\//, "", n); sub(/\.cpp$/, "", n)
        d = t; sub(/^tests\//, "", d); sub(/\/[^\/]*$/, "", d)
        if ((n in suite) || ((d "/" n) in placed)) continue
        print t ": a suite docs/testing.md does not name (give it a row in the table of suites)"
      }
    }' | sort
}
if [ -f docs/testing.md ] && [ -d tests ]; then
  while IFS= read -r hit; do
    report "$hit"
  done < <(unmapped)
fi

# README's count of the catalogue, as English words ("holds twenty-one systems with dynamics",
# "and five control models").
number_word() {
  local n=$1
  local ones=(zero one two three four five six seven eight nine ten eleven twelve thirteen
    fourteen fifteen sixteen seventeen eighteen nineteen)
  local tens=('' '' twenty thirty forty fifty sixty seventy eighty ninety)
  if [ "$n" -lt 20 ]; then
    echo "${ones[$n]}"
  elif [ $((n % 10)) -eq 0 ]; then
    echo "${tens[$((n / 10))]}"
  else
    echo "${tens[$((n / 10))]}-${ones[$((n % 10))]}"
  fi
}
if [ -d resources/systems ] && [ -d core/systems ]; then
  all=$( (cd resources/systems && ls -- *.yaml) | sed 's/\.yaml$//'
    (cd core/systems && ls -- *.cpp) | sed 's/\.cpp$//')
  systems=$(sort -u <<<"$all" | wc -l)
  controls=$(grep -l '^controls:' resources/systems/*.yaml | wc -l)
  dynamics=$(number_word $((systems - controls)))
  controls=$(number_word "$controls")
  tr '\n' ' ' <README.md |
    grep -qiE "holds[[:space:]]+$dynamics[[:space:]]+systems[[:space:]]+with[[:space:]]+dynamics" ||
    report "README.md does not say the catalogue holds $dynamics systems with dynamics"
  tr '\n' ' ' <README.md | grep -qiE "[[:space:]]$controls[[:space:]]+control[[:space:]]+models" ||
    report "README.md does not say the catalogue holds $controls control models"
fi

if [ "$problems" -gt 0 ]; then
  echo "docs: $problems problem(s)"
  exit 1
fi
echo "docs: $(folders | wc -l) folders drawn, ${#main_docs[@]} documents linked, the C++ files they name exist, every source and suite in docs/testing.md, no outside paths or tracker numbers"
