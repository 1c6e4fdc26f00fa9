#!/usr/bin/env bash
# bench_campaign_gpu.sh — issue 26's GPU measurements in one call on a GPU machine (from the
# repository root): a flexible screen of DUD-E INHA repeated to >= 10,000 records on 1, 2 and 4
# GPUs of one host (--devices) and over MPI ranks (mpirun -np N, one rank per GPU), with the
# rows and poses compared byte for byte with the one-GPU, one-process run, and where the time
# goes (VSG_DOCK_TIMES=1: reading, preparing, GPU busy, finishing + writing, waits).
#
#   bash scripts/bench_campaign_gpu.sh            # results in $OUT (default out/campaign)
#
# Knobs: DATA (folder with actives_final.mol2.gz, decoys_final.mol2.gz, crystal_ligand.mol2;
# default $VSG_SHARED_DATA/dude/inha), COPIES (library copies, 5 = 11,945 records), SEARCH
# (balanced), GPUS ("1 2 4": device counts tried, those the host has), NPS ("2 4": mpirun
# ranks), POSES (pdbqt|sdf|none), SRC_TGZ (build this source tarball instead of the checkout),
# OLD_TGZ (also build and time this older source, e.g. the commit before a change: rows compared),
# BUILD (default /tmp/vsg-campaign-build), SMALL=1 (the 124-record bundled library only: a smoke test).
set -u
OUT=${OUT:-out/campaign}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DATA=${DATA:-${VSG_SHARED_DATA:-../shared/data}/dude/inha}
DATA=$(cd "$DATA" && pwd)
COPIES=${COPIES:-5}
SEARCH=${SEARCH:-balanced}
GPUS=${GPUS:-"1 2 4"}
NPS=${NPS:-"2 4"}
POSES=${POSES:-pdbqt}
BUILD=${BUILD:-/tmp/vsg-campaign-build}
W=/tmp/vsg-campaign
mkdir -p "$W"
log() { echo "$@" | tee -a "$OUT/campaign.md"; }
: > "$OUT/campaign.md"

build() { # src_dir build_dir
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DVSG_WERROR=ON > "$2.cmake.log" 2>&1 &&
        cmake --build "$2" -j "$(nproc)" --target vsgrid > "$2.build.log" 2>&1 ||
        { echo "build of $1 failed:"; tail -30 "$2.build.log"; exit 1; }
}
SRC=$PWD
if [ -n "${SRC_TGZ:-}" ]; then
    rm -rf "$W/src" && mkdir -p "$W/src" && tar -xzf "$SRC_TGZ" -C "$W/src" && SRC=$W/src
fi
t0=$(date +%s)
build "$SRC" "$BUILD"
V=$BUILD/vsgrid
if [ -n "${OLD_TGZ:-}" ]; then
    rm -rf "$W/old" && mkdir -p "$W/old" && tar -xzf "$OLD_TGZ" -C "$W/old"
    build "$W/old" "$BUILD-old"
fi
log "# issue 26 campaign bench: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $(nvidia-smi -L | wc -l), $(nproc) cores; build $(($(date +%s) - t0)) s"
log "vsgrid: $($V --version | head -1); mpirun: $(mpirun --version 2>/dev/null | head -1)"

# the map set and the library
"$V" maps "$SRC/data/inha/receptor.pdbqt" --scoring vina --around "$DATA/crystal_ligand.mol2" -o "$W/inha" --quiet ||
    { echo "maps failed"; exit 1; }
LIB=$W/lib.mol2
if [ "${SMALL:-0}" = 1 ]; then
    gzip -dc "$SRC/data/inha/library.mol2.gz" > "$LIB"
else
    : > "$LIB"
    for c in $(seq 1 "$COPIES"); do gzip -dc "$DATA/actives_final.mol2.gz" "$DATA/decoys_final.mol2.gz" >> "$LIB"; done
fi
NREC=$(grep -c '@<TRIPOS>MOLECULE' "$LIB")
log "library: $NREC records ($COPIES copies of INHA actives + decoys), --search $SEARCH, poses $POSES"
NGPU=$(nvidia-smi -L | wc -l)
posearg() { [ "$POSES" = none ] && return; echo "--poses-out $1.$POSES"; }

run() { # label vsgrid-args...: one timed screen, its rows in $W/label.csv
    local label=$1
    shift
    local a b
    a=$(date +%s.%N)
    # shellcheck disable=SC2046
    VSG_DOCK_TIMES=1 "$@" -o "$W/$label.csv" $(posearg "$W/$label") --quiet 2> "$W/$label.err"
    local rc=$?
    b=$(date +%s.%N)
    local s
    s=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')
    echo "$s" > "$W/$label.secs"
    echo "$label rc=$rc ${s}s $(grep -h 'flex screen:' "$W/$label.err" | head -4 | tr '\n' ' ')" >> "$OUT/times.txt"
    cp "$W/$label.err" "$OUT/$label.err"
    return $rc
}
same() { # a b: rows and poses byte for byte
    local r="rows identical"
    cmp -s "$W/$1.csv" "$W/$2.csv" || r="ROWS DIFFER"
    if [ "$POSES" != none ]; then cmp -s "$W/$1.$POSES" "$W/$2.$POSES" && r="$r, poses identical" || r="$r, POSES DIFFER"; fi
    echo "$r"
}
screen=("$V" screen "$W/inha" "$LIB" --scoring vina --placement flexible --search "$SEARCH")

log ""
log "## Several GPUs of one host (--devices), one process"
log ""
log "| GPUs | wall s | records/s | speed-up | per GPU | rows vs 1 GPU |"
log "|--:|--:|--:|--:|--:|---|"
base=
for n in $GPUS; do
    [ "$n" -le "$NGPU" ] || continue
    devs=$(seq -s, 0 $((n - 1)))
    run "gpu$n" "${screen[@]}" --devices "$devs" || { log "| $n | failed: $(tail -2 "$W/gpu$n.err") |"; continue; }
    s=$(cat "$W/gpu$n.secs")
    [ -z "$base" ] && base=$s
    log "| $n | $s | $(awk -v n="$NREC" -v s="$s" 'BEGIN { printf "%.0f", n / s }') | $(awk -v a="$base" -v b="$s" 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="$base" -v b="$s" -v n="$n" 'BEGIN { printf "%.0f%%", 100 * a / b / n }') | $(same gpu1 "gpu$n") |"
done
if [ -n "${OLD_TGZ:-}" ]; then
    run old1 "$BUILD-old/vsgrid" screen "$W/inha" "$LIB" --scoring vina --placement flexible --search "$SEARCH" --devices 0
    log ""
    log "older source, 1 GPU: $(cat "$W/old1.secs") s, $(same gpu1 old1) (against this source's 1-GPU run)"
    if [ "$NGPU" -ge 2 ]; then
        run old2 "$BUILD-old/vsgrid" screen "$W/inha" "$LIB" --scoring vina --placement flexible --search "$SEARCH" --devices 0,1
        log "older source, 2 GPUs: $(cat "$W/old2.secs") s"
    fi
fi

if command -v mpirun > /dev/null; then
    log ""
    log "## MPI ranks on one host, one rank per GPU (mpirun -np N), against one process on one GPU"
    log ""
    log "| ranks | wall s | records/s | speed-up | rows vs 1 process | per rank: GPU busy s (read, prepare, finish+write) |"
    log "|--:|--:|--:|--:|---|---|"
    for np in $NPS; do
        [ "$np" -le "$NGPU" ] || [ "${SMALL:-0}" = 1 ] || continue
        run "mpi$np" mpirun -np "$np" --allow-run-as-root --oversubscribe --bind-to none --tag-output -x VSG_MPI_ALL_OUTPUT=1 "${screen[@]}" ||
            { log "| $np | failed: $(tail -3 "$W/mpi$np.err" | tr '\n' ' ') |"; continue; }
        s=$(cat "$W/mpi$np.secs")
        per=$(grep -o '^\[1,[0-9]*\]<stderr>:flex screen:.*' "$W/mpi$np.err" | sed -E 's/^\[1,([0-9]+)\].*read ([0-9.]+) s, check\+prepare ([0-9.]+) s.*finish\+write ([0-9.]+) s.*GPU busy ([0-9. ]+) s.*/rank \1: \5 (\2, \3, \4)/' | tr '\n' ';')
        log "| $np | $s | $(awk -v n="$NREC" -v s="$s" 'BEGIN { printf "%.0f", n / s }') | $(awk -v a="$base" -v b="$s" 'BEGIN { printf "%.2f", a / b }') | $(same gpu1 "mpi$np") | $per |"
    done
fi
log ""
log "Breakdowns (VSG_DOCK_TIMES=1) in times.txt; the rows of the one-GPU run in gpu1.csv.gz"
gzip -c "$W/gpu1.csv" > "$OUT/gpu1.csv.gz" 2> /dev/null
cp "$OUT/campaign.md" "$OUT/campaign.txt"
