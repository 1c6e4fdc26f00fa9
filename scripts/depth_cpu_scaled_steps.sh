#!/usr/bin/env bash
# depth_cpu_scaled_steps.sh — does search effort that grows with the ligand (issue 28 item 6)
# reach Vina's minima more often than the presets' one count for all? The depth measurement of
# scripts/gpu_depth_inha.sh on the CPU twin (deterministic for a seed, whatever the load), with
# the balanced preset's chains (96 x STEPS, then 16 focus chains x 4 STEPS) and STEPS per record:
#   base         40 (the preset)
#   up           40 x max(1, h / REF)        h = Vina 1.2's heuristic 50 + atoms + 10 (6 + torsions)
#   both         40 x h / REF                (REF 190: 30 atoms and 5 torsions; "both" scales small
#                                            ligands down too, about the preset's cost on INHA)
#   flat         40 x FLAT                   (the same extra evaluations spread over every record)
# Inputs in DIR (made once, PART=inputs): every 50th record of DUD-E INHA (actives then decoys)
# as lig_I.mol2 and vsgrid's PDBQT of it, the Vina maps of data/inha/receptor.pdbqt around the
# crystal ligand, and (PART=vina) vina 1.2's minimum of each: exhaustiveness 8, --cpu 1, seed 1,
# its top pose rescored with --score_only on the receptor (what vina >= 1.2.4 reports), two
# records at a time. PART=dock LABEL MODE [SEED]: one configuration; PART=table: every
# configuration run, against vina: within 0.1 kcal/mol or better, mean difference, 7+ torsions,
# evaluations.
# DOCK_EXTRA: more `dock` words for every record (e.g. "--poses 1": only the best minimum refined
# on the atoms, as a screen's rows are).
# Usage: DIR=/tmp/depth V=build/vsgrid PART=inputs bash scripts/depth_cpu_scaled_steps.sh
#        PART=vina ...; PART=dock ... up up 7; REF=160 PART=dock ... up160 up; PART=table ...
set -u
V=${V:-build/vsgrid} DIR=${DIR:-/tmp/depth} REF=${REF:-190} FLAT=${FLAT:-1}
SRC=$(cd "$(dirname "$0")/.." && pwd)
REC=$SRC/data/inha/receptor.pdbqt
INHA=${INHA:-$SRC/../shared/data/dude/inha}
mkdir -p "$DIR" && cd "$DIR" || exit 1
case ${PART:-table} in
inputs)
  "$V" maps "$REC" --scoring vina --around "$INHA/crystal_ligand.mol2" -o m --quiet --device cpu || exit 1
  (zcat "$INHA/actives_final.mol2.gz"; zcat "$INHA/decoys_final.mol2.gz") |
    awk 'BEGIN { n = -1 } /^@<TRIPOS>MOLECULE/ { n++; if (out) close(out); out = n % 50 == 0 ? "lig_" n ".mol2" : "" } out { print > out }'
  for f in lig_*.mol2; do
    "$V" prepare-ligands "$f" -o "${f%.mol2}.pdbqt" --quiet && grep -v '^MODEL\|^ENDMDL' "${f%.mol2}.pdbqt" > "v_${f%.mol2}.pdbqt"
  done
  awk '/^SPACING/ { s = $2 } /^NELEMENTS/ { nx = $2; ny = $3; nz = $4 } /^CENTER/ { cx = $2; cy = $3; cz = $4 }
    END { printf "%s %s %s %.3f %.3f %.3f\n", cx, cy, cz, nx * s, ny * s, nz * s }' m.C_H.map > box.txt
  echo "$(ls lig_*.mol2 | wc -l) records; box $(cat box.txt)"
  ;;
vina)
  one() {
    local f=$1 i cx cy cz sx sy sz so
    i=${f#v_lig_}; i=${i%.pdbqt}
    read -r cx cy cz sx sy sz < box.txt
    vina --receptor "$REC" --ligand "$f" --center_x "$cx" --center_y "$cy" --center_z "$cz" --size_x "$sx" --size_y "$sy" \
      --size_z "$sz" --exhaustiveness 8 --cpu 1 --seed 1 --out "vina_$i.pdbqt" > "vina_$i.log" 2>&1
    awk '/^MODEL 1$/ { on = 1; next } /^ENDMDL/ { if (on) exit } on' "vina_$i.pdbqt" > "vina_top_$i.pdbqt"
    so=$(vina --receptor "$REC" --ligand "vina_top_$i.pdbqt" --score_only --autobox 2>&1 |
      awk '/Estimated Free Energy/ { for (k = 1; k <= NF; k++) if ($k ~ /^-?[0-9]+\.[0-9]+$/) { print $k; exit } }')
    echo "$i $(awk '/^REMARK VINA RESULT/ { print $4; exit }' "vina_$i.pdbqt") $so"
  }
  export -f one
  export REC
  ls v_lig_*.pdbqt | xargs -P 2 -n 1 bash -c 'one "$0"' | sort -n > vina_all.txt
  echo "vina: $(wc -l < vina_all.txt) records"
  ;;
dock)
  label=$1 mode=$2 seed=${3:-0}
  : > "$label.txt"
  for f in lig_*.mol2; do
    i=${f#lig_}; i=${i%.mol2}
    atoms=$(grep -c '^ATOM\|^HETATM' "lig_$i.pdbqt")
    nrot=$(grep -c '^BRANCH' "lig_$i.pdbqt")
    s=$(awk -v a="$atoms" -v r="$nrot" -v m="$mode" -v ref="$REF" -v flat="$FLAT" \
      'BEGIN { h = 50 + a + 10 * (6 + r); s = h / ref; if (m == "base") s = 1; if (m == "up" && s < 1) s = 1;
               if (m == "flat") s = flat; print s }')
    st=$(awk -v s="$s" 'BEGIN { printf "%d", 40 * s + 0.5 }') fs=$(awk -v s="$s" 'BEGIN { printf "%d", 160 * s + 0.5 }')
    out=$("$V" dock m "$f" --receptor "$REC" -o "out_${label}_$i.pdbqt" --search balanced --exhaustiveness 96 --steps "$st" \
      --focus-chains 16 --focus-steps "$fs" --devices cpu --seed "$seed" ${DOCK_EXTRA:-} 2>&1)
    echo "$i $atoms $nrot $st $fs $(echo "$out" | grep -o 'best -*[0-9.]*' | awk '{ print $2 }') $(echo "$out" | grep -o '[0-9]* evaluations' | awk '{ print $1 }')" >> "$label.txt"
  done
  ;;
table)
  echo "| configuration | within 0.1 kcal/mol of vina | mean vsgrid - vina | 7+ torsions within 0.1 | evaluations |"
  echo "|---|--:|--:|--:|--:|"
  for f in *.txt; do
    c=${f%.txt}
    case $c in vina* | box) continue ;; esac
    join <(sort vina_all.txt) <(sort "$f") | awk -v c="$c" '{ n++; d = $8 - $3; if (d <= 0.1) ok++; sd += d; ev += $9
      if ($5 >= 7) { n7++; if (d <= 0.1) ok7++ } }
      END { if (n) printf "| %s | %d / %d (%.0f%%) | %+.3f | %d / %d | %.1f M |\n", c, ok, n, 100 * ok / n, sd / n, ok7, n7, ev / 1e6 }'
  done
  ;;
esac
