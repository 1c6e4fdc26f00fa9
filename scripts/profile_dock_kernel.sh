#!/usr/bin/env bash
# profile_dock_kernel.sh — run ON a GPU machine from the repository root: where the docking
# chains' kernel (gpu/dock/dock_gpu.cu, dock_chains) spends its time. Builds vsgrid with
# -lineinfo outside the tree ($B), docks DUD-E INHA's 71 actives (`--search balanced`, one
# batch) under Nsight Compute (--set full, the first dock_chains launch) and writes, under $OUT,
# the report, its details page and its per-line source pages (CUDA and SASS, CSV).
# LIB_DIR holds actives_final.mol2.gz and crystal_ligand.mol2 (scripts/gpu_kernel_shape.sh).
# Usage: LIB_DIR=.bench_data/c32 OUT=/tmp/prof bash scripts/profile_dock_kernel.sh
set -u
B=${B:-/tmp/vsg_li}
OUT=${OUT:-/tmp/vsg_prof}
L=${LIB_DIR:-.bench_data}
NCU=${NCU:-/usr/local/cuda/bin/ncu}
mkdir -p "$OUT"
if [ ! -x "$B/vsgrid" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-lineinfo > "$OUT/build.log" 2>&1 &&
    cmake --build "$B" -j "$(nproc)" --target vsgrid >> "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
fi
V=$B/vsgrid
"$V" maps data/inha/receptor.pdbqt --scoring vina --around "$L/crystal_ligand.mol2" -o "$B/m" --quiet
timeout 400 "$NCU" --set full --import-source yes -k regex:dock_chains -c 1 -f -o "$OUT/prof" "$V" screen "$B/m" \
  "$L/actives_final.mol2.gz" --scoring vina --placement flexible --search "${SEARCH:-balanced}" -o "$B/p.csv" --quiet \
  > "$OUT/ncu.log" 2>&1
tail -3 "$OUT/ncu.log"
"$NCU" -i "$OUT/prof.ncu-rep" --page details > "$OUT/details.txt" 2>&1
for src in cuda sass; do
  "$NCU" -i "$OUT/prof.ncu-rep" --page source --csv --print-source "$src" > "$OUT/source_$src.csv" 2> "$OUT/source_$src.err"
done
ls -la "$OUT"
