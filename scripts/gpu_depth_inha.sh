#!/usr/bin/env bash
# gpu_depth_inha.sh — issue 28's depth target on a DUD-E set, side by side on one GPU machine:
# every STRIDE-th record of DUD-E INHA (actives then decoys, .bench_data) docked by vsgrid
# (`screen --placement flexible --search S --receptor`, the whole library, on the GPU) and by
# AutoDock Vina (exhaustiveness 8, one process a core, `--cpu 1`) from vsgrid's own PDBQT of the
# record (the same model, types and tree), in the same box; Vina's top pose rescored with
# `vina --score_only` on the receptor (what Vina >= 1.2.4 reports; 1.2.3's own number subtracts
# its last pose's intra). Prints each record's scores and the fraction where vsgrid's best is
# within 0.1 kcal/mol of Vina's or better. Needs the built vsgrid ($B, scripts/gpu_issue28.sh
# PART=build) and vina with its Boost libraries in .bench_data/vina.
# VINA_SCORES=FILE: vina's scores measured before ("index reported score_only" lines, this
# script's vina_scores.txt): vina is not run again. CONFIGS="label:args;label:args": searches
# beyond the presets, e.g. "bal_f8:--search balanced --focus-chains 8" (labels are file names;
# leading NAME=VALUE words set that screen's environment: "ag:VSG_FOCUS_AGREE=4,0.05 --search balanced").
# Usage: STRIDE=50 SEARCH="balanced" bash scripts/gpu_depth_inha.sh
set -u
B=${B:-/tmp/vsg28}
OUT=${OUT:-/tmp/vsg28_out}
LIB_DIR=${LIB_DIR:-.bench_data}
STRIDE=${STRIDE:-50}
V=$B/vsgrid W=$B/depth
VINA_DIR=$(cd "$LIB_DIR/vina" && pwd)
export LD_LIBRARY_PATH=$VINA_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
vina=$VINA_DIR/vina
mkdir -p "$W" "$OUT/depth"
rec=data/inha/receptor.pdbqt
"$V" maps "$rec" --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$W/m" --quiet
# the box of the maps: centre and NELEMENTS x SPACING
read -r cx cy cz sx sy sz <<< "$(awk '/^SPACING/ { s = $2 } /^NELEMENTS/ { nx = $2; ny = $3; nz = $4 } /^CENTER/ { cx = $2; cy = $3; cz = $4 }
  END { printf "%s %s %s %.3f %.3f %.3f", cx, cy, cz, nx * s, ny * s, nz * s }' "$W/m.C_H.map")"
echo "box: $cx $cy $cz  $sx x $sy x $sz"
for S in ${SEARCH:-balanced}; do
  t0=$(date +%s.%N)
  "$V" screen "$W/m" "$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz" --scoring vina --placement flexible \
    --search "$S" --receptor "$rec" --poses 1 --poses-out "$W/$S.pdbqt" -o "$W/$S.csv" --quiet
  t1=$(date +%s.%N)
  echo "$S: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f s", b - a }') for $(($(wc -l < "$W/$S.csv") - 1)) records"
done
labels="${SEARCH:-balanced}"
if [ -n "${CONFIGS:-}" ]; then
  IFS=';' read -r -a cfgs <<< "$CONFIGS"
  for cfg in "${cfgs[@]}"; do
    l=${cfg%%:*} args=${cfg#*:} envs=()
    # leading NAME=VALUE words: the environment of that screen (bench switches)
    while [[ $args =~ ^([A-Z_][A-Z0-9_]*=[^\ ]*)\ (.*)$ ]]; do envs+=("${BASH_REMATCH[1]}"); args=${BASH_REMATCH[2]}; done
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # args are words
    env "${envs[@]}" "$V" screen "$W/m" "$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz" --scoring vina --placement flexible \
      $args --receptor "$rec" -o "$W/$l.csv" --quiet
    t1=$(date +%s.%N)
    n=$(($(wc -l < "$W/$l.csv") - 1))
    echo "$l ($args): $(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.2f s, %.0f records/s", b - a, n / (b - a) }') for $n records"
    labels="$labels $l"
  done
fi
S0=$(echo "${SEARCH:-balanced}" | awk '{ print $1 }')
# the chosen records' PDBQT as vsgrid modelled them (from the first search's poses)
awk -v stride="$STRIDE" -v dir="$W" '/^MODEL/ { buf = ""; next } /^REMARK VSGRID RECORD:/ { idx = $4 }
  /^ENDMDL/ { if (idx % stride == 0) { f = dir "/lig_" idx ".pdbqt"; printf "%s", buf > f; close(f) } buf = ""; next }
  { buf = buf $0 "\n" }' "$W/$S0.pdbqt"
ls "$W"/lig_*.pdbqt | wc -l
if [ -n "${VINA_SCORES:-}" ]; then
  cp "$VINA_SCORES" "$W/vina_scores.txt"
  echo "vina: scores from $VINA_SCORES"
else
one() {
  local f=$1 i
  i=$(basename "$f" .pdbqt); i=${i#lig_}
  "$vina" --receptor "$rec" --ligand "$f" --center_x "$cx" --center_y "$cy" --center_z "$cz" --size_x "$sx" --size_y "$sy" \
    --size_z "$sz" --exhaustiveness 8 --cpu 1 --seed 1 --out "$W/vina_$i.pdbqt" > "$W/vina_$i.log" 2>&1
  awk '/^MODEL 1$/ { on = 1; next } /^ENDMDL/ { if (on) exit } on' "$W/vina_$i.pdbqt" > "$W/vina_top_$i.pdbqt"
  local so
  so=$("$vina" --receptor "$rec" --ligand "$W/vina_top_$i.pdbqt" --score_only --autobox 2>&1 |
    awk '/Estimated Free Energy/ { for (k = 1; k <= NF; k++) if ($k ~ /^-?[0-9]+\.[0-9]+$/) { print $k; exit } }')
  echo "$i $(awk '/^REMARK VINA RESULT/ { print $4; exit }' "$W/vina_$i.pdbqt") $so"
}
export -f one
export vina rec cx cy cz sx sy sz W
t0=$(date +%s.%N)
ls "$W"/lig_*.pdbqt | xargs -P "$(nproc)" -n 1 bash -c 'one "$0"' > "$W/vina_scores.txt"
t1=$(date +%s.%N)
n=$(wc -l < "$W/vina_scores.txt")
echo "vina: $n records in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f s", b - a }') on $(nproc) cores (one a record)"
fi
for S in $labels; do
  sort -n "$W/vina_scores.txt" | while read -r i vr vs; do
    echo "$i $vr $vs $(awk -F, -v i="$i" '$1 == i { print $6; exit }' "$W/$S.csv")"
  done > "$OUT/depth/$S.txt"
  awk -v s="$S" '$3 != "" && $4 != "" { n++; if ($4 <= $3 + 0.1) ok++; d += $4 - $3 }
    END { printf "%s: vsgrid best within 0.1 kcal/mol of vina --score_only of vina'"'"'s top pose, or better: %d of %d (%.0f%%); mean vsgrid - vina %.3f\n", s, ok, n, 100 * ok / n, d / n }' "$OUT/depth/$S.txt"
done
cp "$W"/*.csv "$W/vina_scores.txt" "$OUT/depth/" 2> /dev/null
