#!/usr/bin/env bash
# bench_dock_accuracy.sh — redocking accuracy: every crystal complex of ../shared/data that has a
# receptor PDBQT and a crystal ligand is docked back with `vsgrid dock` (each chain starts from a
# random pose in the box) on a Vina map set made by `vsgrid maps --around LIGAND`, and the poses
# are measured against the crystal pose with `vsgrid rmsd` (symmetry-aware heavy-atom RMSD, no
# superposition). Success: the best-scored pose within 2 A. Prints a Markdown table on stdout.
#
# Needs only the built vsgrid and the shared data: runs on a machine with nothing else.
# Environment:
#   VSGRID           the binary (default: vsgrid on the PATH, else build/vsgrid beside this script)
#   VSG_SHARED_DATA  the shared data folder (default ../shared/data beside the repository)
#   DOCK_ARGS        extra `vsgrid dock` arguments, e.g. "--exhaustiveness 8" or "--device gpu"
#   SEEDS            seeds, one docking run each (default "0 1 2")
#   OUTDIR           where maps, poses and logs go (default: a new folder under /tmp)
#   COMPLEXES        the complexes to run, e.g. "1STP 1IEP" (default all)
# Usage: scripts/bench_dock_accuracy.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ -n "${VSGRID:-}" ]; then vsgrid=$VSGRID
elif command -v vsgrid > /dev/null 2>&1; then vsgrid=$(command -v vsgrid)
else vsgrid=$root/build/vsgrid
fi
[ -x "$vsgrid" ] || { echo "bench_dock_accuracy: no vsgrid binary at '$vsgrid' (set VSGRID)" >&2; exit 2; }
shared=${VSG_SHARED_DATA:-$root/../shared/data}
[ -d "$shared" ] || { echo "bench_dock_accuracy: no shared data at '$shared' (set VSG_SHARED_DATA)" >&2; exit 2; }
seeds=${SEEDS:-0 1 2}
dock_args=${DOCK_ARGS:-}
out=${OUTDIR:-$(mktemp -d /tmp/bench_dock_accuracy.XXXXXX)}
mkdir -p "$out" || exit 1

# name | receptor | crystal ligand
rec_1stp=$root/data/1stp_receptor.pdbqt
[ -f "$rec_1stp" ] || rec_1stp=$shared/autodock_gpu/1stp/1stp_protein.pdbqt
complexes=(
  "1STP|$rec_1stp|$shared/autodock_gpu/1stp/1stp_ligand.pdbqt"
  "3CE3|$shared/autodock_gpu/3ce3/3ce3_protein.pdbqt|$shared/autodock_gpu/3ce3/3ce3_ligand.pdbqt"
  "1IEP|$shared/autodock_vina/1iep/1iep_receptor.pdbqt|$shared/autodock_vina/1iep/1iep_ligand.pdbqt"
  "2BRT|$shared/adgpu_set42/2brt/protein.pdbqt|$shared/adgpu_set42/2brt/flex-xray.pdbqt"
  "5WLO|$shared/adgpu_set42/5wlo/protein.pdbqt|$shared/adgpu_set42/5wlo/flex-xray.pdbqt"
)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "# vsgrid redocking accuracy"
echo
echo "$("$vsgrid" --version); $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); seeds: $seeds; DOCK_ARGS: ${dock_args:-(none)}; outputs in $out"
echo
echo "| complex | seed | heavy atoms | torsions | best-scored pose (kcal/mol) | its RMSD (A) | best RMSD of the poses (A) | poses | dock s | success (< 2 A) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
summary=() runs=0 wins=0 failed=0
for c in "${complexes[@]}"; do
  IFS='|' read -r name rec lig <<< "$c"
  if [ -n "${COMPLEXES:-}" ] && ! [[ " $COMPLEXES " == *" $name "* ]]; then continue; fi
  if [ ! -f "$rec" ] || [ ! -f "$lig" ]; then
    summary+=("$name: skipped, missing $( [ -f "$rec" ] && echo "$lig" || echo "$rec")")
    continue
  fi
  d=$out/$name
  mkdir -p "$d"
  heavy=$(awk '/^(ATOM  |HETATM)/ && $NF != "H" && $NF != "HD" && $NF != "HS"' "$lig" | wc -l)
  tors=$(grep -c '^BRANCH' "$lig")   # the torsion tree's rotatable bonds
  if ! "$vsgrid" maps "$rec" --scoring vina --around "$lig" --quiet -o "$d/maps" > "$d/maps.log" 2>&1; then
    summary+=("$name: vsgrid maps failed: $(tail -1 "$d/maps.log")")
    failed=$((failed + 1))
    continue
  fi
  ok=0
  for seed in $seeds; do
    t0=$(now)
    # shellcheck disable=SC2086 # DOCK_ARGS is a list of words
    if ! "$vsgrid" dock "$d/maps" "$lig" --seed "$seed" --quiet -o "$d/poses_$seed.pdbqt" --csv "$d/dock_$seed.csv" \
         $dock_args > "$d/dock_$seed.log" 2>&1; then
      echo "| $name | $seed | $heavy | $tors | dock failed: $(tail -1 "$d/dock_$seed.log" | tr '|' '/') | | | | | |"
      failed=$((failed + 1))
      continue
    fi
    t1=$(now)
    if ! "$vsgrid" rmsd "$lig" "$d/poses_$seed.pdbqt" > "$d/rmsd_$seed.csv" 2> "$d/rmsd_$seed.log"; then
      echo "| $name | $seed | $heavy | $tors | rmsd failed: $(tail -1 "$d/rmsd_$seed.log" | tr '|' '/') | | | | | |"
      failed=$((failed + 1))
      continue
    fi
    score=$(sed -n 2p "$d/dock_$seed.csv" | cut -d, -f2)
    r1=$(sed -n 2p "$d/rmsd_$seed.csv" | awk -F, '{ print $NF }')
    best=$(tail -n +2 "$d/rmsd_$seed.csv" | awk -F, 'NR == 1 || $NF < m { m = $NF } END { print m }')
    np=$(($(wc -l < "$d/rmsd_$seed.csv") - 1))
    win=$(awk -v r="$r1" 'BEGIN { print (r != "" && r < 2) ? "yes" : "no" }')
    runs=$((runs + 1))
    [ "$win" = yes ] && wins=$((wins + 1)) && ok=$((ok + 1))
    printf '| %s | %s | %s | %s | %.3f | %.2f | %.2f | %s | %s | %s |\n' "$name" "$seed" "$heavy" "$tors" "$score" \
      "$r1" "$best" "$np" "$(elapsed "$t0" "$t1")" "$win"
  done
  summary+=("$name: $ok of $(echo $seeds | wc -w) seeds within 2 A")
done
echo
for s in "${summary[@]}"; do echo "- $s"; done
for p in 1imx 1k9q; do
  [ -d "$shared/pdbbind_subset/$p" ] &&
    echo "- $(echo $p | tr a-z A-Z): skipped, pdbbind_subset has only a protein PDB (no receptor PDBQT: receptor preparation is a later issue)"
done
echo "- success: $wins of $runs runs (best-scored pose < 2 A)"
[ "$failed" = 0 ]
