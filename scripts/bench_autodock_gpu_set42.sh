#!/usr/bin/env bash
# bench_autodock_gpu_set42.sh — AutoDock-GPU on its own benchmark complexes (../shared/data/
# adgpu_set42), the peer of `vsgrid dock --scoring ad4` on the GPU (issue 28 item 4): each
# complex's start rand-k.pdbqt docked with seed k on the AD4 maps bench_redock_set42.sh made for
# vsgrid (MAPS_DIR: its OUTDIR; C/ad4/maps.maps.fld, the same box and types), or without MAPS_DIR
# on the set's own AutoGrid maps (protein.maps.fld, unzipped into OUTDIR; only some complexes
# carry them), AutoDock-GPU's defaults (20 LGA runs, ADADELTA, heuristics and
# autostop on) unless ADGPU_ARGS says otherwise. Its poses are measured as
# bench_redock_set42.sh measures vsgrid's: the cluster heads in AutoDock-GPU's ranking (best
# estimated free energy first, at most 9) written as PDBQT models, `vsgrid rmsd` against
# flex-xray.pdbqt (symmetry-aware, heavy atoms); top pose and best of the 9.
# Prints one row a run (complex torsions class start top_rmsd best_rmsd poses energy seconds)
# and the table by torsion class, as bench_redock_set42.sh's.
# Environment: ADGPU (the autodock_gpu binary, required), VSGRID (for rmsd; default
# build/vsgrid), VSG_SHARED_DATA, OUTDIR (default /tmp/bench_adgpu_set42), STARTS (default
# "0 1 2"), COMPLEXES (default all), ADGPU_ARGS (extra autodock_gpu arguments).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
vsgrid=${VSGRID:-$root/build/vsgrid}
adgpu=${ADGPU:?set ADGPU to the autodock_gpu binary}
shared=${VSG_SHARED_DATA:-$root/../shared/data}
set42=$shared/adgpu_set42
out=${OUTDIR:-/tmp/bench_adgpu_set42}
starts=${STARTS:-0 1 2}
# shellcheck source=scripts/lib_redock.sh
. "$here/lib_redock.sh"
[ -d "$set42" ] || { echo "bench_autodock_gpu_set42: no $set42" >&2; exit 2; }
mkdir -p "$out" || exit 1
torsions() { grep -c '^BRANCH' "$set42/$1/flex-xray.pdbqt"; }
class_of() {
  local t=$1
  if [ "$t" -le 4 ]; then echo "0-4"; elif [ "$t" -le 7 ]; then echo "5-7"; elif [ "$t" -le 11 ]; then echo "8-11"; else echo "12+"; fi
}
if [ -n "${COMPLEXES:-}" ]; then list=$COMPLEXES
else list=$(for d in "$set42"/*/; do n=$(basename "$d"); [ -f "$d/flex-xray.pdbqt" ] && echo "$(torsions "$n") $n"; done | sort -n -k1,1 -k2 | awk '{ print $2 }')
fi
rows=$out/rows.tsv
: > "$rows"
for c in $list; do
  d=$out/$c
  mkdir -p "$d"
  fld=$d/protein.maps.fld
  if [ -n "${MAPS_DIR:-}" ]; then
    fld=$MAPS_DIR/$c/ad4/maps.maps.fld
    [ -s "$fld" ] || { echo "$c: no $fld (run bench_redock_set42.sh SCORING=ad4 first)" >&2; continue; }
  elif [ ! -f "$d/maps.done" ]; then # the set's maps, unzipped beside its fld (AutoDock-GPU reads plain files)
    cp "$set42/$c/protein.maps.fld" "$d/"
    for m in "$set42/$c"/protein.*.map.gz; do zcat "$m" > "$d/$(basename "$m" .gz)"; done
    touch "$d/maps.done"
  fi
  t=$(torsions "$c")
  for k in $starts; do
    f=$d/adgpu_$k
    if [ ! -s "$f.dlg" ]; then
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086 # ADGPU_ARGS is a list of words
      (cd "$(dirname "$fld")" && "$adgpu" --ffile "$fld" --resnam "$d/adgpu_$k" --lfile "$set42/$c/rand-$k.pdbqt" --xraylfile "$set42/$c/flex-xray.pdbqt" \
        --seed "$((k + 1))" --xmloutput 0 ${ADGPU_ARGS:-} > "$d/adgpu_$k.log" 2>&1) ||
        echo "$c start $k: autodock_gpu failed: $(tail -2 "$f.log")" >&2
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$f.seconds"
    fi
    [ -s "$f.dlg" ] || continue
    # the cluster heads (sub-rank 1) in rank order, each run's DOCKED pose as a PDBQT model
    awk '
      /RANKING$/ && $2 == 1 && n < 9 { head[++n] = $3; energy[n] = $4 }
      /^DOCKED: MODEL/ { run = $3 }
      /^DOCKED: / { sub(/^DOCKED: /, ""); if (run) pose[run] = pose[run] $0 "\n" }
      END { for (i = 1; i <= n; i++) printf "%s", pose[head[i]]; print energy[1] > "/dev/stderr" }' "$f.dlg" > "$f.pdbqt" 2> "$f.energy"
    r=$(FALLBACK=order redock_rmsds "$set42/$c/flex-xray.pdbqt" "$f.pdbqt")
    [ -n "$r" ] || continue
    read -r top best n <<< "$r"
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$c" "$t" "$(class_of "$t")" "$k" "$top" "$best" "$n" "$(cat "$f.energy")" \
      "$(cat "$f.seconds")" >> "$rows"
  done
done
cat "$rows"
awk -F'\t' '
  { cls[$3] = 1; n[$3]++; top[$3] += $5 < 2; best[$3] += $6 < 2; s += $9; N++; T += $5 < 2; B += $6 < 2 }
  END {
    printf "| program | 0-4 torsions | 5-7 torsions | 8-11 torsions | 12+ torsions | all | mean s a run |\n|---|--:|--:|--:|--:|--:|--:|\n"
    printf "| AutoDock-GPU |"
    split("0-4 5-7 8-11 12+", k, " ")
    for (i = 1; i <= 4; i++) printf " %d / %d of %d |", top[k[i]], best[k[i]], n[k[i]]
    printf " %d / %d of %d (%.0f%% / %.0f%%) | %.1f |\n", T, B, N, 100 * T / N, 100 * B / N, s / N
  }' "$rows"
