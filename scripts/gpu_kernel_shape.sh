#!/usr/bin/env bash
# gpu_kernel_shape.sh — the docking chains' kernel shape on a GPU (warps a block: gpu/dock/
# dock_gpu.cu's chains_kernel, bench switch VSG_DOCK_WARPS; 32 warps an SM in every shape) measured
# on the whole DUD-E INHA screen (2,389 records, `--receptor`, seed 0), from the repository root
# of a GPU machine. LIB_DIR holds the INHA MOL2s, crystal_ligand.mol2 and vina_all.txt (vina
# 1.2.3's minima of every 50th record). Every shape must write the same rows (a chain's result
# depends on its record, seed and index only): the script compares them byte for byte.
#   PART=build  the tree as copied, built with CUDA outside it ($B); the GPU docking tests
#   PART=shape  SHAPES (warps a block, "1 4" by default) × SEARCH (default "balanced"): records/s
# Usage: LIB_DIR=.bench_data/c32 PART="build shape" bash scripts/gpu_kernel_shape.sh
set -u
B=${B:-/tmp/vsg_ks}
OUT=${OUT:-/tmp/vsg_ks_out}
LIB_DIR=${LIB_DIR:-.bench_data}
mkdir -p "$OUT"
for part in ${PART:-build shape}; do
  case $part in
  build)
    nvidia-smi --query-gpu=name --format=csv,noheader
    rm -rf "$B"
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release > "$OUT/build.log" 2>&1 && cmake --build "$B" -j "$(nproc)" >> "$OUT/build.log" 2>&1 ||
      { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    (cd "$B" && ctest -R "${TESTS:-test_gpu_dock}" -j1 --output-on-failure 2>&1 | grep -E "tests passed|Failed|\*\*\*|FAIL" | tail -20)
    ;;
  shape)
    V=$B/vsgrid W=$B/shape
    mkdir -p "$W"
    rec=data/inha/receptor.pdbqt
    "$V" maps "$rec" --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$W/m" --quiet
    for S in ${SEARCH:-balanced}; do
      first=
      for shape in ${SHAPES:-1 4}; do
        csv=$W/${S}_w$shape.csv
        t0=$(date +%s.%N)
        VSG_DOCK_WARPS=$shape "$V" screen "$W/m" "$LIB_DIR/actives_final.mol2.gz" \
          "$LIB_DIR/decoys_final.mol2.gz" --scoring vina --placement flexible --search "$S" --receptor "$rec" -o "$csv" --quiet
        t1=$(date +%s.%N)
        n=$(($(wc -l < "$csv") - 1))
        same=first
        if [ -n "$first" ]; then cmp -s "$first" "$csv" && same=identical || same=DIFFERENT; fi
        [ -z "$first" ] && first=$csv
        echo "$S shape $shape (warps a block): $(awk -v a="$t0" -v b="$t1" -v n="$n" \
          'BEGIN { printf "%.2f s, %.1f records/s", b - a, n / (b - a) }') for $n records; rows $same"
      done
      # depth of the first shape against vina's minima (every 50th record)
      sort -n "$LIB_DIR/vina_all.txt" | while read -r i vr vs; do
        echo "$i $vr $vs $(awk -F, -v i="$i" '$1 == i { print $6; exit }' "$first")"
      done | awk -v s="$S" '$3 != "" && $4 != "" { n++; if ($4 <= $3 + 0.1) ok++ }
        END { printf "%s: within 0.1 kcal/mol of vina or better: %d of %d\n", s, ok, n }'
    done
    cp "$W"/*.csv "$OUT/" 2> /dev/null
    ;;
  esac
done
