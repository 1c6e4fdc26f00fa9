#!/usr/bin/env bash
# bench_screen_pipeline.sh — where the time of a large `vsgrid screen` goes, stage by stage,
# and whether the parse keeps the GPU fed. Run from the repository root:
#
#   scripts/bench_screen_pipeline.sh BUILD_DIR [COPIES]      (THREADS="1 4 8 14" by default)
#
# FILES=N also cuts the gzip library into N gzip files of COPIES/N members each and screens them
# together (a library in several files gets several splitters); INPUTS picks the inputs
# ("mol2 gz files", default "mol2 gz", plus "files" when FILES > 1).
#
# Builds a library of COPIES × the 100 docked XIAP actives (data/xiap_actives_docked.mol2.gz;
# 10,000 copies = 1,000,000 records, 4.5 GB of MOL2 text), as plain MOL2 and as a gzip file of
# COPIES members, and a PB grid of XIAP (the GPU when there is one). For each input it times
#   - bench_parse --split: the splitter alone (read or inflate, cut into chunks): the ceiling
#     of the parallel parse, since one thread splits each input;
#   - vsgrid screen --parse-threads T for each T: wall time, molecules/s, and each stage's busy
#     time from the --json summary.
# Columns: split_s and split_wait_s (the busiest splitter cutting, and waiting for a free batch);
# parse/T (the workers' busy time per worker); scorer_busy_s and scorer_wait_s (the scoring
# thread on batches, packing and GPU included, and waiting for one); write_s; gpu_s (transfer
# + kernel). "pace" names the stage whose busy time is closest to the wall time: the parse
# keeps the GPU fed when the pace is set by parse/T or by the splitter's read/inflate rate, not
# by a stage that could be parallel and is not.
set -u
build=${1:?usage: bench_screen_pipeline.sh BUILD_DIR [COPIES]}
copies=${2:-10000}
threads=${THREADS:-"1 4 8 14"}
kernel=${KERNEL:-auto}
v=$build/vsgrid
bp=$build/bench_parse
[ -x "$v" ] && [ -x "$bp" ] || { echo "bench_screen_pipeline.sh: build $v and $bp first" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
files=${FILES:-1}
inputs=${INPUTS:-"mol2 gz$([ "$files" -gt 1 ] && echo " files")"}
trap 'rm -f "$work"/lib.mol2 "$work"/lib.mol2.gz "$work"/part_*.mol2.gz "$work"/xiap.vsg "$work"/s.json' EXIT

src=data/xiap_actives_docked.mol2.gz
"$v" grid data/xiap_receptor.pqr.gz -o "$work/xiap.vsg" --box 10.084,10.123,-21.096,36,36,36 \
    --spacing 0.375 --salt 0.15 --bc focus --quiet || exit 1
# the gzip library: COPIES gzip members (a multi-member stream, as `cat a.gz b.gz` makes)
for _ in $(seq 1 "$copies"); do cat "$src"; done > "$work/lib.mol2.gz"
gzip -dc "$work/lib.mol2.gz" > "$work/lib.mol2"
parts=()
if [ "$files" -gt 1 ]; then
    for k in $(seq 1 "$files"); do
        for _ in $(seq 1 $((copies / files))); do cat "$src"; done > "$work/part_$k.mol2.gz"
        parts+=("$work/part_$k.mol2.gz")
    done
fi
records=$((copies * 100))
echo "library: $records records; $(du -m "$work/lib.mol2" | cut -f1) MB MOL2, $(du -m "$work/lib.mol2.gz" | cut -f1) MB gzipped"
echo "host: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo "date: $(date -u +%F) (record the commit from the checkout that was sent: a device copy's .git may be older)"
echo
printf '%-12s %-12s %10s %12s\n' input splitter "s" "MB/s text"
for f in lib.mol2 lib.mol2.gz; do
    "$bp" -n 1 --split "$work/$f" | awk -v f="$f" 'NR == 2 { printf "%-12s %-12s %10.2f %12.0f\n", f, "alone", $5, $8 }'
done
echo
printf '%-12s %3s %7s %9s %8s %8s %8s %8s %8s %8s %8s %-10s %s %s\n' input T wall_s mol/s split_s spl_wait \
    parse/T scor_bsy scor_wt write_s gpu_s pace kernel splitters
for inp in $inputs; do
    case $inp in
        mol2) f=lib.mol2 args=("$work/lib.mol2") ;;
        gz) f=lib.mol2.gz args=("$work/lib.mol2.gz") ;;
        files) f="${files}x.mol2.gz" args=("${parts[@]}") ;;
        *) continue ;;
    esac
    for t in $threads; do
        "$v" screen "$work/xiap.vsg" "${args[@]}" -o /dev/null --kernel "$kernel" --parse-threads "$t" \
            --json "$work/s.json" 2> /dev/null || { echo "$f T=$t: screen failed"; continue; }
        python3 - "$work/s.json" "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall = d["pipeline_seconds"]
t = max(1, d.get("parse_threads", 1))
stages = {
    "split": d.get("split_seconds", 0.0),
    "parse/T": d["parse_seconds"] / t,
    "scorer": d.get("scorer_busy_seconds", 0.0),
    "write": d["write_seconds"],
}
pace = max(stages, key=stages.get)
print("%-12s %3d %7.2f %9.0f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.3f %-10s %s %d" % (
    sys.argv[2], t, wall, d["molecules_per_second"], stages["split"], d.get("split_wait_seconds", 0.0),
    stages["parse/T"], stages["scorer"], d.get("scorer_wait_seconds", 0.0), stages["write"],
    d["transfer_seconds"] + d["score_seconds"], pace, d["kernel"], d.get("splitters", 0)))
PY
    done
done
