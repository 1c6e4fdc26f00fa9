#!/usr/bin/env bash
# bench_dock_gpu.sh — flexible docking on the GPU, run ON the GPU machine from the repository
# root after a CUDA build:  VSGRID=build/vsgrid bash scripts/bench_dock_gpu.sh
# 1. Throughput: DUD-E INHA (71 actives + 2318 decoys, as shipped) docked into its pocket's Vina
#    maps (data/inha/receptor.pdbqt, box around the crystal ligand) with each --search preset,
#    whole `vsgrid screen` wall time (reading, preparing, searching, scoring, writing).
# 2. The CPU twin on all host cores for one preset on the actives (the same search, for the ratio).
# 3. Redocking: each crystal ligand with a receptor PDBQT in ../shared, from random starts, each
#    preset and seed: best-scored pose's heavy-atom RMSD to the crystal (same atom order).
# Knobs: VSGRID, VSG_SHARED_DATA, OUT (default out), PRESETS ("fast balanced detail"),
# SEEDS ("0 1 2"), CPU_PRESET (fast; "" skips part 2), DEVICES (gpu), LIB (the INHA library),
# WORK (scratch, default /tmp/bench_dock), SKIP_REDOCK=1.
set -u
VSGRID=${VSGRID:-build/vsgrid}
SHARED=${VSG_SHARED_DATA:-../shared/data}
OUT=${OUT:-out}
W=${WORK:-/tmp/bench_dock}   # maps and poses; the tables, CSVs and JSON go to $OUT
PRESETS=${PRESETS:-"fast balanced detail"}
SEEDS=${SEEDS:-"0 1 2"}
CPU_PRESET=${CPU_PRESET-fast}
DEVICES=${DEVICES:-gpu}
INHA=$SHARED/dude/inha
LIB=${LIB:-"$INHA/actives_final.mol2.gz $INHA/decoys_final.mol2.gz"}
mkdir -p "$W" "$OUT"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

"$VSGRID" maps data/inha/receptor.pdbqt --scoring vina --around "$INHA/crystal_ligand.mol2" -o "$W/inha" --quiet ||
    { echo "bench_dock_gpu: maps failed"; exit 1; }

echo "## INHA screen, --placement flexible ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1))"
echo
echo "| preset | device | records | docked | wall s | molecules/s | evaluations |"
echo "|---|---|--:|--:|--:|--:|--:|"
screen() { # preset devices label lib...
    local preset=$1 dev=$2 label=$3
    shift 3
    local t0 t1
    t0=$(now)
    "$VSGRID" screen "$W/inha" "$@" --scoring vina --placement flexible --search "$preset" --devices "$dev" \
        -o "$W/inha_${label}.csv" --json "$W/inha_${label}.json" --quiet 2> "$W/inha_${label}.err"
    t1=$(now)
    local rows ok ev
    rows=$(($(wc -l < "$W/inha_${label}.csv") - 1))
    ok=$(grep -c ',ok,$' "$W/inha_${label}.csv")
    ev=$(grep -o '"dock_evaluations": *[0-9]*' "$W/inha_${label}.json" | grep -o '[0-9]*$')
    echo "| $preset | $dev | $rows | $ok | $(secs "$t0" "$t1") | $(awk -v n="$rows" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / (b - a) }') | $ev |"
    cp "$W/inha_${label}.csv" "$W/inha_${label}.json" "$OUT/" 2>/dev/null
}
for p in $PRESETS; do
    # shellcheck disable=SC2086
    screen "$p" "$DEVICES" "$p" $LIB
done
if [ -n "$CPU_PRESET" ]; then
    screen "$CPU_PRESET" cpu "cpu_$CPU_PRESET" "$INHA/actives_final.mol2.gz"
    screen "$CPU_PRESET" "$DEVICES" "gpu_actives_$CPU_PRESET" "$INHA/actives_final.mol2.gz"
    echo
    echo "Twins on the same molecules (score of the best pose, GPU minus CPU twin, same search):"
    awk -F, 'FNR == 1 { f++; next } $14 == "ok" { s[f, $1] = $6 } END {
        for (k in s) { split(k, a, SUBSEP); if (a[1] != 1 || !((2, a[2]) in s)) continue;
            d = s[2, a[2]] - s[1, a[2]]; n++; sum += d; if (d < -0.5) lo++; else if (d > 0.5) hi++; else same++ }
        if (n) printf "  %d molecules: mean %+.3f kcal/mol; GPU better by > 0.5: %d, worse by > 0.5: %d, within 0.5: %d\n", n, sum / n, lo, hi, same }' \
        "$W/inha_cpu_$CPU_PRESET.csv" "$W/inha_gpu_actives_$CPU_PRESET.csv"
fi
[ "${SKIP_REDOCK:-0}" = 1 ] && exit 0

echo
echo "## Redocking from random starts (heavy-atom RMSD of the best-scored pose, same atom order)"
echo
echo "| complex | preset | seed | score | RMSD A | seconds |"
echo "|---|---|--:|--:|--:|--:|"
redock() { # name receptor ligand
    local name=$1 rec=$2 lig=$3
    [ -f "$rec" ] && [ -f "$lig" ] || { echo "| $name | (missing) | | | | |"; return; }
    "$VSGRID" maps "$rec" --scoring vina --around "$lig" -o "$W/$name" --quiet || return
    for p in $PRESETS; do
        for s in $SEEDS; do
            local t0 t1
            t0=$(now)
            "$VSGRID" dock "$W/$name" "$lig" --search "$p" --seed "$s" --devices "$DEVICES" --quiet \
                -o "$W/${name}_${p}_$s.pdbqt" --csv "$W/${name}_${p}_$s.csv" || continue
            t1=$(now)
            echo "| $name | $p | $s | $(sed -n 2p "$W/${name}_${p}_$s.csv" | cut -d, -f2) | $(sed -n 2p "$W/${name}_${p}_$s.csv" | cut -d, -f9) | $(secs "$t0" "$t1") |"
        done
    done
}
redock 1stp data/1stp_receptor.pdbqt data/biotin.pdbqt
redock 3ce3 "$SHARED/autodock_gpu/3ce3/3ce3_protein.pdbqt" "$SHARED/autodock_gpu/3ce3/3ce3_ligand.pdbqt"
redock 1iep "$SHARED/autodock_vina/1iep/1iep_receptor.pdbqt" "$SHARED/autodock_vina/1iep/1iep_ligand.pdbqt"
redock 2brt "$SHARED/adgpu_set42/2brt/protein.pdbqt" "$SHARED/adgpu_set42/2brt/flex-xray.pdbqt"
redock 5wlo "$SHARED/adgpu_set42/5wlo/protein.pdbqt" "$SHARED/adgpu_set42/5wlo/flex-xray.pdbqt"
