#!/usr/bin/env bash
# The CLI is a client of the public API: engine/cli/ includes only the public header, its own
# headers and engine/report/ (pictures, meshes, JSON), and engine/report/ only the public header
# and its own. Usage: api_boundary.sh SOURCE_DIR. Prints each include that breaks the rule.
set -u
src=${1:?source dir}
bad=0
check() {  # check FOLDER ALLOWED_REGEX
  local f line inc
  for f in "$src/$1"/*.[ch]; do
    while IFS= read -r line; do
      inc=${line#*\"}; inc=${inc%%\"*}
      if ! [[ $inc =~ $2 ]]; then
        echo "api_boundary: ${f#$src/}: includes \"$inc\" (internal; add what it needs to grids/base/vsgrid.h)"
        bad=$((bad + 1))
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$f")
  done
}
check engine/cli '^(grids/base/vsgrid\.h|engine/cli/[a-z_]+\.h|engine/report/[a-z_]+\.h)$'
check engine/report '^(grids/base/vsgrid\.h|engine/report/[a-z_]+\.h)$'
# The rule must see files: a check over no files would pass vacuously.
n=$(ls "$src"/engine/cli/*.c 2>/dev/null | wc -l)
[ "$n" -ge 5 ] || { echo "api_boundary: only $n CLI sources under $src/engine/cli"; exit 1; }
echo "api_boundary: $bad internal include(s) in engine/cli and engine/report"
[ "$bad" -eq 0 ]
