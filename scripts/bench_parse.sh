#!/usr/bin/env bash
# bench_parse.sh — ligand parsing speed, vsgrid's readers against Open Babel on the same files,
# one core each: bench_parse (reads every record: coordinates, charges, bonds; best of N passes)
# and `obabel -iFMT FILE... -oxyz -O /dev/null` (Open Babel reads every molecule into an OBMol,
# perceiving what its reader perceives, and writes XYZ to /dev/null: the cheapest full read it
# offers from the command line). Open Babel reads the file REPEAT times in one process, and its
# start-up time (measured on an empty input) is subtracted, which favours Open Babel.
#
#   scripts/bench_parse.sh [BUILD_DIR] [FILE...]    (default: the gzipped libraries of shared/data)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
data=$here/../shared/data
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$data/ligands_rdkit/egfr.sdf.gz" "$data/dude/inha/actives_final.mol2.gz"
                                  "$data/dude/inha/decoys_final.mol2.gz" "$data/dude_xiap_docked/actives_docked.sdf")
bench=$build/bench_parse
[ -x "$bench" ] || { echo "bench_parse.sh: $bench not built (cmake --build $build --target bench_parse)" >&2; exit 2; }
passes=${PASSES:-10}
repeat=${REPEAT:-5}
have_obabel=0
command -v obabel >/dev/null && have_obabel=1

now() { date +%s.%N; }
printf '%-26s %7s %9s %12s %12s %10s %12s %8s\n' file records atoms "vsgrid mol/s" "atoms/s" "MB/s text" "obabel mol/s" ratio
if [ $have_obabel = 1 ]; then # start-up time of obabel on an empty input
    empty=$(mktemp --suffix=.sdf)
    t0=$(now); obabel -isdf "$empty" -oxyz -O /dev/null >/dev/null 2>&1 || true; t1=$(now)
    startup=$(echo "$t1 - $t0" | bc -l)
    rm -f "$empty"
fi
for f in "${files[@]}"; do
    line=$("$bench" -n "$passes" "$f" | tail -1)
    read -r name recs failed atoms spass mols atomss mbt mbf <<<"$line"
    ob="n/a" ratio="n/a"
    if [ $have_obabel = 1 ]; then
        base=${f%.gz}
        fmt=${base##*.}
        [ "$fmt" = sd ] && fmt=sdf
        args=()
        for ((i = 0; i < repeat; i++)); do args+=("$f"); done
        t0=$(now); obabel -i"$fmt" "${args[@]}" -oxyz -O /dev/null >/dev/null 2>&1 || true; t1=$(now)
        ob=$(echo "$recs * $repeat / ($t1 - $t0 - $startup)" | bc -l)
        ratio=$(echo "$mols / $ob" | bc -l)
        ob=$(printf '%.0f' "$ob")
        ratio=$(printf '%.1f' "$ratio")
    fi
    printf '%-26s %7s %9s %12s %12s %10s %12s %8s\n' "$name" "$recs" "$atoms" "$mols" "$atomss" "$mbt" "$ob" "$ratio"
done
[ $have_obabel = 1 ] && printf 'obabel start-up %.3f s subtracted; obabel read each file %d times in one process\n' "$startup" "$repeat"
exit 0
