#!/usr/bin/env bash
# gpu_kernel_variants.sh — versions of the docking kernel's source timed against each other on
# one GPU machine, in one call (run from the repository root): each VARIANTS entry LABEL:FILE
# replaces gpu/dock/dock_gpu.cu, is built into $B (incrementally after the first) and its vsgrid
# kept; then ROUNDS rounds, each running every variant in turn, of the DUD-E INHA screen
# (2,389 records, `--receptor`, seed 0) for each SEARCH; prints records/s and checks every
# variant writes the first one's rows byte for byte. LIB_DIR as for scripts/gpu_kernel_shape.sh.
# The tree's own dock_gpu.cu is put back at the end.
# Usage: LIB_DIR=.bench_data/c33 VARIANTS="A:.bench_data/c33/a.cu B:.bench_data/c33/b.cu" \
#        ROUNDS=2 SEARCH="balanced detail" bash scripts/gpu_kernel_variants.sh
set -u
B=${B:-/tmp/vsg_kv}
OUT=${OUT:-/tmp/vsg_kv_out}
LIB_DIR=${LIB_DIR:-.bench_data}
mkdir -p "$OUT"
src=gpu/dock/dock_gpu.cu
cp "$src" "$B.orig.cu" 2> /dev/null || { mkdir -p "$(dirname "$B")"; cp "$src" "$B.orig.cu"; }
nvidia-smi --query-gpu=name --format=csv,noheader
labels=
for v in $VARIANTS; do
  l=${v%%:*} f=${v#*:}
  cp "$f" "$src"
  { [ -f "$B/CMakeCache.txt" ] || cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release; } > "$OUT/build_$l.log" 2>&1
  cmake --build "$B" -j "$(nproc)" --target vsgrid >> "$OUT/build_$l.log" 2>&1 || { echo "$l: build failed"; tail -20 "$OUT/build_$l.log"; }
  cp "$B/vsgrid" "$B/vsgrid_$l"
  labels="$labels $l"
done
cp "$B.orig.cu" "$src"
rec=data/inha/receptor.pdbqt
"$B/vsgrid" maps "$rec" --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$B/m" --quiet
for round in $(seq "${ROUNDS:-2}"); do
  for S in ${SEARCH:-balanced}; do
    first=
    for l in $labels; do
      csv=$B/${S}_$l.csv
      t0=$(date +%s.%N)
      "$B/vsgrid_$l" screen "$B/m" "$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz" --scoring vina \
        --placement flexible --search "$S" --receptor "$rec" -o "$csv" --quiet
      t1=$(date +%s.%N)
      n=$(($(wc -l < "$csv") - 1))
      same=first
      if [ -n "$first" ]; then cmp -s "$first" "$csv" && same=identical || same=DIFFERENT; fi
      [ -z "$first" ] && first=$csv
      echo "round $round $S $l: $(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.2f s, %.1f records/s", b - a, n / (b - a) }') for $n records; rows $same"
    done
  done
done
cp "$B"/*.csv "$OUT/" 2> /dev/null
