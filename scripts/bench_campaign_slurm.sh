#!/usr/bin/env bash
# bench_campaign_slurm.sh — issue 26's campaign measurement on a one-host Slurm cluster (run as
# root from the repository root, after a build): a library of RECORDS records (the 100 docked
# XIAP actives of data/ repeated, each copy's molecules renamed NAME_c, so every name is its own
# molecule) in FILES gzipped MOL2 files, indexed once (vsgrid index), screened as-is on XIAP's PB
# grid (the CPU twin: this machine has no GPU) as TASKS Slurm array tasks (scripts/slurm_campaign.sh
# on scripts/slurm_cluster.sh), one task killed with SIGKILL mid-shard and requeued; the shards
# merged (vsgrid merge) and compared byte for byte with one uninterrupted `vsgrid screen` of the
# same libraries; a global top 1000 by molecule; wall time, records/s, disk and peak memory per
# task and per million molecules, printed as a table.
#
#   bash scripts/bench_campaign_slurm.sh            # RECORDS=10000000 FILES=50 TASKS=20
#
# Knobs: VSGRID (build/vsgrid), RECORDS, FILES, TASKS, W (work folder, default /tmp/vsg-campaign),
# KEEP=1 (keep W), SINGLE=0 (skip the uninterrupted run: no comparison), CPUS (cpus per task, 1).
set -u
VSGRID=$(cd "$(dirname "${VSGRID:-build/vsgrid}")" && pwd)/$(basename "${VSGRID:-build/vsgrid}")
RECORDS=${RECORDS:-10000000}
FILES=${FILES:-50}
TASKS=${TASKS:-20}
CPUS=${CPUS:-1}
W=${W:-/tmp/vsg-campaign}
SRC=$PWD
mkdir -p "$W" && cd "$W" || exit 1
now() { date +%s.%N; }
dt() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
log() { echo "$@" | tee -a report.md; }
: > report.md
per_file=$((RECORDS / FILES))
copies=$((per_file / 100))
[ $((copies * 100 * FILES)) = "$RECORDS" ] || { echo "RECORDS must be FILES x a multiple of 100"; exit 2; }
log "# Campaign: $RECORDS records in $FILES files, $TASKS Slurm array tasks ($(nproc) cores, $(date -u +%F))"
log "vsgrid: $($VSGRID --version | head -1); commit $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)"

# 1. the grid and the library
t0=$(now)
[ -f xiap.vsg ] || "$VSGRID" grid "$SRC/data/xiap_receptor.pqr.gz" -o xiap.vsg --box 10.08,10.12,-21.10,36,36,36 \
    --spacing 0.375 --salt 0.15 --bc focus --quiet || exit 1
zcat "$SRC/data/xiap_actives_docked.mol2.gz" > xiap100.mol2
make_file() { # f: lib_f.mol2.gz with copies (f*copies .. (f+1)*copies-1) of the 100 molecules
    local f=$1
    [ -s "lib_$f.mol2.gz" ] && return
    awk -v c0=$((f * copies)) -v n="$copies" '
        { line[NR] = $0 } END {
            for (c = c0; c < c0 + n; c++)
                for (i = 1; i <= NR; i++) {
                    if (i > 1 && line[i - 1] == "@<TRIPOS>MOLECULE") print line[i] "_" c; else print line[i]
                } }' xiap100.mol2 | gzip -1 > "lib_$f.mol2.gz.tmp" && mv "lib_$f.mol2.gz.tmp" "lib_$f.mol2.gz"
}
export -f make_file
export copies
seq 0 $((FILES - 1)) | xargs -P "$(nproc)" -I{} bash -c 'make_file {}'
LIBS=() # absolute paths: the source column says the path as given, and the tasks get these
for f in $(seq 0 $((FILES - 1))); do LIBS+=("$W/lib_$f.mol2.gz"); done
t1=$(now)
lib_bytes=$(du -cb "${LIBS[@]}" | tail -1 | cut -f1)
log "library: $(awk -v b="$lib_bytes" 'BEGIN { printf "%.2f GB", b / 1e9 }') gzipped ($(dt "$t0" "$t1") s to make)"

# 2. index once
t0=$(now)
"$VSGRID" index "${LIBS[@]}" --quiet || exit 1
t1=$(now)
index_s=$(dt "$t0" "$t1")
log "vsgrid index: $index_s s for all $FILES files ($(du -cb lib_*.vsgidx | tail -1 | cut -f1) bytes of index)"

# 3. one uninterrupted run (what the merged shards must equal)
if [ "${SINGLE:-1}" = 1 ]; then
    t0=$(now)
    /usr/bin/time -f "%M" -o single.rss "$VSGRID" screen xiap.vsg "${LIBS[@]}" -o single.csv.gz --devices cpu --quiet ||
        log "single run: exit $?"
    t1=$(now)
    single_s=$(dt "$t0" "$t1")
    log "one uninterrupted run: $single_s s, $(awk -v n="$RECORDS" -v s="$single_s" 'BEGIN { printf "%.0f", n / s }') records/s, peak RSS $(cat single.rss) KiB"
fi

# 4. the campaign on Slurm, one task killed mid-shard
state=$W/slurm-state
bash "$SRC/scripts/slurm_cluster.sh" stop "$state" > /dev/null 2>&1
bash "$SRC/scripts/slurm_cluster.sh" start "$state" > cluster.log 2>&1 || { cat cluster.log; exit 1; }
export SLURM_CONF=$state/slurm.conf
rm -rf camp
args=()
for l in "${LIBS[@]}"; do args+=(-l "$l"); done
t0=$(now)
campaign=(bash "$SRC/scripts/slurm_campaign.sh" -n "$TASKS" -o "$W/camp" -t "$W/xiap.vsg" "${args[@]}" --vsgrid "$VSGRID"
    --index none --cpus-per-task "$CPUS" --gzip-shards --merge-args "--top 1000 --top-out $W/camp/top1000.csv"
    --out "$W/camp/all.csv.gz" -- --devices cpu)
"${campaign[@]}" > submit.log 2>&1 || { cat submit.log; exit 1; }
# kill task 7's vsgrid (SIGKILL, as the OOM killer or a crash) once it has written part of its slice
victim=7
for _ in $(seq 1 3000); do
    p=$(ls camp/shard_$victim.csv.gz.partial 2>/dev/null)
    if [ -n "$p" ] && [ "$(stat -c %s "$p")" -gt 2000000 ]; then break; fi
    sleep 0.2
done
killed_at=$(stat -c %s camp/shard_$victim.csv.gz.partial 2>/dev/null)
pkill -KILL -f -- "--shard $victim/$TASKS "
sleep 1
if [ -f camp/shard_$victim.csv.gz.partial ] && [ ! -f camp/shard_$victim.csv.gz.done ]; then
    log "killed task $victim (SIGKILL to its vsgrid) with $killed_at bytes of its partial CSV written"
    sleep 2
    array=$(awk '$1 == "array" { print $2; exit }' camp/slurm/jobs)
    scontrol requeue "${array}_$victim" >> submit.log 2>&1 && log "requeued task $victim (scontrol requeue ${array}_$victim)"
else
    log "task $victim could not be killed mid-shard (finished first?)"
fi
bash "$SRC/scripts/slurm_campaign.sh" --watch -o "$W/camp" > watch.log 2>&1
if [ "$(cat camp/logs/merge.rc 2>/dev/null)" != 0 ]; then # the merge ran before the rerun: the same command again
    log "merge found shards missing (exit $(cat camp/logs/merge.rc 2>/dev/null)): the campaign's command run again"
    "${campaign[@]}" >> submit.log 2>&1
    bash "$SRC/scripts/slurm_campaign.sh" --watch -o "$W/camp" >> watch.log 2>&1
fi
t1=$(now)
grep -h "resuming" camp/logs/task_$victim.log | head -2 | while read -r l; do log "task $victim: $l"; done
camp_s=$(dt "$t0" "$t1")
cat watch.log | tail -40
log ""
log "campaign: $camp_s s wall for $TASKS tasks ($(awk -v n="$RECORDS" -v s="$camp_s" 'BEGIN { printf "%.0f", n / s }') records/s), index $index_s s before it"
if [ -f camp/all.csv.gz ] && [ -f single.csv.gz ]; then
    if cmp -s camp/all.csv.gz single.csv.gz; then log "merged CSV: byte-identical to the uninterrupted run's (gzip bytes too)"
    elif cmp -s <(zcat camp/all.csv.gz) <(zcat single.csv.gz); then log "merged CSV: identical text to the uninterrupted run's (gzip bytes differ)"
    else log "merged CSV: DIFFERS from the uninterrupted run's"; fi
fi
rows=$(zcat camp/all.csv.gz 2>/dev/null | tail -n +2 | wc -l)
t2=$(now)
/usr/bin/time -f "%M" -o topmol.rss "$VSGRID" merge camp/ --best-per-molecule --top 1000 --top-out camp/top1000_molecules.csv --quiet
t3=$(now)
log "merged rows: $rows; top 1000 rows: $(($(wc -l < camp/top1000.csv 2>/dev/null || echo 1) - 1)); top 1000 molecules (merge --best-per-molecule --top 1000): $(dt "$t2" "$t3") s, peak RSS $(cat topmol.rss) KiB"
# per task: elapsed and peak memory (logs/task_K.stats: one line an attempt)
log ""
log "| per task | min | median | max |"
log "|---|--:|--:|--:|"
stats() { sort -n | awk '{ a[NR] = $1 } END { printf "%s | %s | %s", a[1], a[int((NR + 1) / 2)], a[NR] }'; }
log "| elapsed s (an attempt) | $(cat camp/logs/task_*.stats 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^start=/) a = substr($i, 7); if ($i ~ /^end=/) b = substr($i, 5) } print b - a }' | stats) |"
log "| peak RSS MiB | $(cat camp/logs/task_*.stats 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^maxrss_kb=/) { sub("maxrss_kb=", "", $i); printf "%.0f\n", $i / 1024 } }' | stats) |"
shard_bytes=$(du -cb camp/shard_*.csv.gz | tail -1 | cut -f1)
all_bytes=$(stat -c %s camp/all.csv.gz 2>/dev/null || echo 0)
log ""
log "disk per million molecules: library $(awk -v b="$lib_bytes" -v n="$RECORDS" 'BEGIN { printf "%.0f MB", b / n * 1e6 / 1e6 }') gzipped MOL2, index $(du -cb lib_*.vsgidx | tail -1 | cut -f1 | awk -v n="$RECORDS" '{ printf "%.2f MB", $1 / n }'), shard CSVs $(awk -v b="$shard_bytes" -v n="$RECORDS" 'BEGIN { printf "%.1f MB", b / n }') (gzip), merged CSV $(awk -v b="$all_bytes" -v n="$RECORDS" 'BEGIN { printf "%.1f MB", b / n }') (gzip)"
log "1e9 molecules at this campaign's rate on this $(nproc)-core host: $(awk -v n="$RECORDS" -v s="$camp_s" 'BEGIN { printf "%.0f h", 1e9 / (n / s) / 3600 }')"
bash "$SRC/scripts/slurm_cluster.sh" stop "$state" > /dev/null 2>&1
[ "${KEEP:-0}" = 1 ] || rm -rf "$W/camp/shard_"* "$W/single.csv.gz"
