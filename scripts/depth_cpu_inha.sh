#!/usr/bin/env bash
# depth_cpu_inha.sh — the depth measurement of scripts/gpu_depth_inha.sh on the CPU twin, from
# vina's scores already measured (VINA_SCORES: "index vina_reported vina_score_only" lines) and
# the records as MOL2 (DIR/lig_INDEX.mol2): each record docked by `vsgrid dock` (the CPU search,
# --receptor), its best score against vina's --score_only of vina's top pose.
# Usage: V=build/vsgrid DIR=/tmp/depth VINA_SCORES=/tmp/depth/vina9.txt LABEL=x bash scripts/depth_cpu_inha.sh [dock args]
set -u
V=${V:-build/vsgrid} DIR=${DIR:-/tmp/depth} LABEL=${LABEL:-run}
REC=${REC:-data/inha/receptor.pdbqt}
out=$DIR/$LABEL.txt
: > "$out"
t0=$(date +%s.%N)
while read -r i vr vs; do
  s=$("$V" dock "$DIR/m" "$DIR/lig_$i.mol2" --receptor "$REC" -o "$DIR/${LABEL}_$i.pdbqt" "$@" 2>&1 |
    grep -o 'best -*[0-9.]*' | awk '{ print $2 }')
  echo "$i $vs ${s:-nan}" >> "$out"
done < "$VINA_SCORES"
t1=$(date +%s.%N)
awk -v l="$LABEL" -v a="$t0" -v b="$t1" '$3 != "nan" { n++; if ($3 <= $2 + 0.1) ok++; d += $3 - $2 }
  END { printf "%s: within 0.1 of vina: %d of %d (%.0f%%), mean vsgrid - vina %.3f, %.0f s\n", l, ok, n, 100 * ok / n, d / n, b - a }' "$out"
