#!/usr/bin/env bash
# gpu_inha_status.sh — on a GPU machine, from the repository root: builds this tree (CUDA,
# Release) outside it, docks DUD-E INHA (LIB_DIR: actives_final/decoys_final.mol2.gz) at fast and
# balanced, and prints each search's row statuses and ROC AUC (issue 27: how many records the
# pose check turns into 'outside'/'no_pose' rows, and whether the ranking moved).
set -u
B=${B:-/tmp/vsg_status}
LIB_DIR=${LIB_DIR:-.bench_data}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1 && cmake --build "$B" -j "$(nproc)" --target vsgrid > "$B.build.log" 2>&1 ||
  { echo "build failed"; tail -20 "$B.build.log"; exit 1; }
V=$B/vsgrid W=$B/w
mkdir -p "$W"
nvidia-smi --query-gpu=name --format=csv,noheader
"$V" maps data/inha/receptor.pdbqt --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$W/m" --quiet
zcat "$LIB_DIR/actives_final.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { getline; print $1 }' | sort -u > "$W/actives.txt"
for s in fast balanced; do
  t0=$(date +%s.%N)
  "$V" screen "$W/m" "$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz" --scoring vina --placement flexible \
    --search $s -o "$W/$s.csv" --quiet
  t1=$(date +%s.%N)
  echo "$s: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f s", b - a }'); statuses: $(sed 1d "$W/$s.csv" | sed -E 's/.*,([a-z_]+),("[^"]*"|[^",]*),[01]?,[a-z_;]*$/\1/' | sort | uniq -c | tr '\n' ' ')"
  echo "  no_pose/outside examples: $(grep -E ',(no_pose|outside),' "$W/$s.csv" | head -2 | cut -c1-240)"
  "$V" enrich "$W/$s.csv" --actives "$W/actives.txt" | grep -E "ROC AUC|molecules"
done
