#!/usr/bin/env bash
# gpu_issue28.sh — issue 28's GPU measurements in one call, from the repository root of a GPU
# machine (results under $OUT, one archive):
#   PART=build    the committed tree (git archive HEAD when .git is here, else the tree as is)
#                 built with CUDA outside the tree ($B), test_gpu_dock run
#   PART=inha     DUD-E INHA (.bench_data: actives_final/decoys_final.mol2.gz) screened at fast
#                 and balanced, with and without --receptor (the final refinement on the atoms):
#                 whole-command time, statuses, ROC AUC, mean best score
#   PART=set42    scripts/bench_redock_set42.sh's vsgrid part on the GPU (presets in PRESETS),
#                 with --receptor, outputs under $OUT/set42
#   PART=big      the same on set42's 12+ torsion complexes (2XY9, 1JYQ, 3ER5) at growing effort
#                 (BIG_PRESETS, CHAINSxSTEPS: does more search reach the 20-35 torsion crystal poses?),
#                 the table and every run's rows (rows.tsv) under $OUT/big
#   PART=keep     one ligand docked (`dock`, each preset of DOCK_PRESETS, default vina: 8 chains,
#                 20 minima kept a chain) on each device of DOCK_DEVICES (default gpu cpu): biotin in
#                 1STP (data/) and imatinib in 1IEP ($LIB_DIR/shared, else ../shared/data): poses,
#                 best score, RMSD of the top pose to the input, whole-command seconds
# CMAKE_ARGS: extra words for the build's cmake.
# Usage: PART="build inha" bash scripts/gpu_issue28.sh
set -u
B=${B:-/tmp/vsg28}
OUT=${OUT:-/tmp/vsg28_out}
LIB_DIR=${LIB_DIR:-.bench_data}
root=$(pwd)
mkdir -p "$OUT"
for part in ${PART:-build inha}; do
  case $part in
  build)
    src=$root
    if [ -f "$LIB_DIR/head.tar" ]; then # `git archive HEAD -o .bench_data/head.tar`: the commit, not the tree
      rm -rf /tmp/vsg28_src && mkdir -p /tmp/vsg28_src && tar -xf "$LIB_DIR/head.tar" -C /tmp/vsg28_src && src=/tmp/vsg28_src
      echo "building the archived commit"
    elif [ -d .git ] && git rev-parse HEAD > /dev/null 2>&1; then
      rm -rf /tmp/vsg28_src && mkdir -p /tmp/vsg28_src && git archive HEAD | tar -x -C /tmp/vsg28_src && src=/tmp/vsg28_src
      echo "building commit $(git rev-parse --short HEAD)"
    else
      echo "building the tree as copied (no .git)"
    fi
    nvidia-smi --query-gpu=name --format=csv,noheader
    rm -rf "$B" # an archive's files carry the commit's time: older objects would look up to date
    # shellcheck disable=SC2086 # CMAKE_ARGS: words (e.g. Open Babel carried in: scripts/gpu_smiles.sh)
    cmake -S "$src" -B "$B" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} > "$OUT/build.log" 2>&1 &&
      cmake --build "$B" -j "$(nproc)" >> "$OUT/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    (cd "$B" && ctest -R "${TESTS:-test_gpu_dock|test_dock}" -j1 --output-on-failure 2>&1 | tail -15)
    ;;
  inha)
    V=$B/vsgrid W=$B/inha
    mkdir -p "$W"
    "$V" maps data/inha/receptor.pdbqt --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$W/m" --quiet
    zcat "$LIB_DIR/actives_final.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { getline; print $1 }' | sort -u > "$W/actives.txt"
    echo "| search | refinement | s | records/s | statuses | ROC AUC | mean best score | best poses PoseBusters-valid |"
    echo "|---|---|--:|--:|---|--:|--:|--:|"
    for s in fast balanced; do
      for refine in maps atoms; do
        extra=()
        [ $refine = atoms ] && extra=(--receptor data/inha/receptor.pdbqt)
        t0=$(date +%s.%N)
        "$V" screen "$W/m" "$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz" --scoring vina --placement flexible \
          --search $s "${extra[@]}" -o "$W/${s}_$refine.csv" --quiet
        t1=$(date +%s.%N)
        n=$(($(wc -l < "$W/${s}_$refine.csv") - 1))
        auc=$("$V" enrich "$W/${s}_$refine.csv" --actives "$W/actives.txt" | grep -m1 "ROC AUC" | grep -o '[0-9]\.[0-9]*' | head -1)
        mean=$(awk -F, 'NR > 1 && $6 != "" { s += $6; k++ } END { if (k) printf "%.3f", s / k }' "$W/${s}_$refine.csv")
        st=$(sed 1d "$W/${s}_$refine.csv" | sed -E 's/.*,([a-z_]+),("[^"]*"|[^",]*),[01]?,[a-z_;]*$/\1/' | sort | uniq -c | tr '\n' ' ')
        pb=$(awk -F, 'NR > 1 && $(NF - 1) != "" { k++; v += $(NF - 1) } END { printf "%d of %d", v, k }' "$W/${s}_$refine.csv")
        awk -v a="$t0" -v b="$t1" -v n="$n" -v s=$s -v r=$refine -v st="$st" -v auc="$auc" -v m="$mean" -v pb="$pb" \
          'BEGIN { printf "| %s | %s | %.2f | %.0f | %s | %s | %s | %s |\n", s, r, b - a, n / (b - a), st, auc, m, pb }'
      done
    done
    cp "$W"/*.csv "$OUT/" 2> /dev/null
    ;;
  set42)
    rm -rf "$OUT/set42"
    VSGRID=$B/vsgrid OUTDIR=$OUT/set42 PART=vsgrid PRESETS="${PRESETS:-fast balanced detail}" DOCK_ARGS="--devices gpu" \
      REFINE=1 bash scripts/bench_redock_set42.sh
    find "$OUT/set42" -name "maps.*.map" -delete
    ls "$OUT/set42" | wc -l
    ;;
  keep)
    V=$B/vsgrid W=$B/keep
    mkdir -p "$W"
    sh=$LIB_DIR/shared; [ -d "$sh/autodock_vina" ] || sh=../shared/data
    "$V" maps data/1stp_receptor.pdbqt --scoring vina --around data/biotin.pdbqt -o "$W/stp" --quiet
    "$V" maps "$sh/autodock_vina/1iep/1iep_receptor.pdbqt" --scoring vina --around "$sh/autodock_vina/1iep/1iep_ligand.pdbqt" \
      --padding 8 -o "$W/iep" --quiet
    echo "| ligand | search | device | poses | best (kcal/mol) | top pose RMSD to the input (A) | s |"
    echo "|---|---|---|--:|--:|--:|--:|"
    for c in "stp data/biotin.pdbqt data/1stp_receptor.pdbqt" \
      "iep $sh/autodock_vina/1iep/1iep_ligand.pdbqt $sh/autodock_vina/1iep/1iep_receptor.pdbqt"; do
      read -r m lig rec <<< "$c"
      for s in ${DOCK_PRESETS:-vina}; do
        for dev in ${DOCK_DEVICES:-gpu cpu}; do
          t0=$(date +%s.%N)
          "$V" dock "$W/$m" "$lig" --search "$s" --receptor "$rec" --devices "$dev" --seed 1 -o "$W/${m}_${s}_$dev.pdbqt" --quiet
          t1=$(date +%s.%N)
          n=$(grep -c '^MODEL' "$W/${m}_${s}_$dev.pdbqt")
          best=$(awk '/^REMARK VINA RESULT/ { print $4; exit }' "$W/${m}_${s}_$dev.pdbqt")
          r=$("$V" rmsd "$lig" "$W/${m}_${s}_$dev.pdbqt" 2> /dev/null | awk -F, 'NR == 2 { print $3 }')
          awk -v a="$t0" -v b="$t1" -v m="$m" -v s="$s" -v d="$dev" -v n="$n" -v best="$best" -v r="$r" \
            'BEGIN { printf "| %s | %s | %s | %s | %s | %s | %.2f |\n", m, s, d, n, best, r, b - a }'
        done
      done
    done
    ;;
  big)
    rm -rf "$OUT/big"
    VSGRID=$B/vsgrid OUTDIR=$OUT/big PART="vsgrid table" VSG_SHARED_DATA=${VSG_SHARED_DATA:-$root/$LIB_DIR/shared} COMPLEXES="2xy9 1jyq 3er5" DOCK_ARGS="--devices gpu" REFINE=1 \
      PRESETS="${BIG_PRESETS:-thorough 512x960 2048x240 2048x960}" bash scripts/bench_redock_set42.sh | tee "$OUT/big_table.md"
    find "$OUT/big" -name "maps.*.map" -delete
    ;;
  esac
done
cd "$OUT" && tar czf /tmp/vsg28_results.tgz . && mv /tmp/vsg28_results.tgz "$OUT/results.tgz"
