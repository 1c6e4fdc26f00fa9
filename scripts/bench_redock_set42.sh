#!/usr/bin/env bash
# bench_redock_set42.sh — re-docking by torsion class on the AutoDock-GPU benchmark complexes in
# ../shared/data/adgpu_set42 (issue 28): each complex's ligand is docked from its three random
# starts (rand-0..2.pdbqt) into the box of the set's own maps (protein.maps.fld: its CENTER and
# NELEMENTS × SPACING), by vsgrid (each --search preset, start k with seed k) and by AutoDock
# Vina (exhaustiveness 8, same receptor PDBQT, same box, same start, seed k). Every pose is
# measured against the crystal ligand (flex-xray.pdbqt) with `vsgrid rmsd` (symmetry-aware
# heavy-atom RMSD, no superposition). Success: < 2 A. Reported by torsion class: the top pose
# and the best of the poses written (9 at most), as the AutoDock-GPU papers report them.
#
# Parts (PART=..., default "vsgrid table"), each resumable (a finished run is not redone):
#   vsgrid  maps for each complex (the receptor checked for a ligand left in it: vsgrid maps warns
#           about a HETATM group in the box's centre), then `vsgrid dock` of every start with every
#           preset in PRESETS
#   vina    `vina` on every start in VINA_STARTS (the slow part: run it on many cores, or nice'd
#           beside other work); its poses rescored as the written file says nothing else
#   table   the Markdown tables on stdout
# SCORING=ad4 docks with the AutoDock4 function instead (`vsgrid dock --scoring ad4`):
# AD4 maps of each complex on the same box (`vsgrid maps --scoring ad4`, the complex's own
# ligand types) as OUTDIR/<complex>/ad4/maps, then each start docked alone with seed k (dock
# takes one record, so no library), poses in vsgrid_ad4_<preset>_<k>.*; the table lists them as
# "vsgrid ad4 <preset>". SCORING="vina ad4" does both (same OUTDIR: both sets of rows).
# Environment:
#   VSGRID           the binary (default build/vsgrid beside this script)
#   VSG_SHARED_DATA  the shared data (default ../shared/data beside the repository)
#   OUTDIR           maps, poses, logs (default /tmp/bench_redock_set42)
#   PRESETS          default "fast balanced detail"; CHAINSxSTEPS (e.g. 256x120) for other efforts,
#                    dock: `vsgrid dock` of each start alone with the command's default search
#                    (thorough or detail by the box; its JSON says which),
#                    CHAINSxSTEPS+FOCUSxSTEPS (e.g. 128x40+16x240) with focus chains
#   DOCK_ARGS        extra `vsgrid screen --placement flexible` arguments (e.g. "--devices gpu")
#   REFINE           1 (default): final poses refined and scored on the receptor's atoms
#                    (--receptor), as vina --receptor does; 0: on the maps
#   STARTS           vsgrid's starts (default "0 1 2")
#   VINA             the vina binary (default vina on the PATH); VINA_CPU (default all cores);
#                    VINA_STARTS (default "0"); VINA_JOBS (vina processes at once, default 1)
#   COMPLEXES        a subset, e.g. "1n46 2brt" (default all, fewest torsions first)
#   SCORING          vina (default), ad4, or both ("vina ad4"): vsgrid's function(s), above
#   MAPS_ARGS        extra `vsgrid maps` arguments for the AD4 maps (e.g. "--device cpu --threads 1")
#   AD4_MAPS         vsgrid (default): AD4 maps made by `vsgrid maps` as above; set: the set's own
#                    AutoGrid maps (protein.maps.fld, autogrid4's, as AutoDock-GPU docks on them)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
vsgrid=${VSGRID:-$root/build/vsgrid}
shared=${VSG_SHARED_DATA:-$root/../shared/data}
set42=$shared/adgpu_set42
out=${OUTDIR:-/tmp/bench_redock_set42}
presets=${PRESETS:-fast balanced detail}
starts=${STARTS:-0 1 2}
dock_args=${DOCK_ARGS:-}
vina=${VINA:-vina}
vina_cpu=${VINA_CPU:-$(nproc)}
vina_starts=${VINA_STARTS:-0}
vina_jobs=${VINA_JOBS:-1}
parts=${PART:-vsgrid table}
scorings=${SCORING:-vina}
maps_args=${MAPS_ARGS:-}
[ -d "$set42" ] || { echo "bench_redock_set42: no $set42 (set VSG_SHARED_DATA)" >&2; exit 2; }
mkdir -p "$out" || exit 1

torsions() { grep -c '^BRANCH' "$set42/$1/flex-xray.pdbqt"; }
heavy() { awk '/^(ATOM  |HETATM)/ && $NF != "H" && $NF != "HD" && $NF != "HS"' "$set42/$1/flex-xray.pdbqt" | wc -l; }
# shellcheck source=scripts/lib_redock.sh
. "$here/lib_redock.sh"
# The box of the set's maps: "cx cy cz sx sy sz".
box_of() { redock_box_fld "$set42/$1/protein.maps.fld"; }
if [ -n "${COMPLEXES:-}" ]; then list=$COMPLEXES
else list=$(for d in "$set42"/*/; do n=$(basename "$d"); [ -f "$d/flex-xray.pdbqt" ] && echo "$(torsions "$n") $n"; done | sort -n -k1,1 -k2 | awk '{ print $2 }')
fi

# The search options of a PRESETS entry: a preset's name, CHAINSxSTEPS, or
# CHAINSxSTEPS+FOCUSxSTEPS (words on one line)
search_args() {
  if [[ $1 =~ ^([0-9]+)x([0-9]+)\+([0-9]+)x([0-9]+)$ ]]; then
    echo "--search detail --exhaustiveness ${BASH_REMATCH[1]} --steps ${BASH_REMATCH[2]} --focus-chains ${BASH_REMATCH[3]} --focus-steps ${BASH_REMATCH[4]}"
  elif [[ $1 =~ ^([0-9]+)x([0-9]+)$ ]]; then
    echo "--search detail --exhaustiveness ${BASH_REMATCH[1]} --steps ${BASH_REMATCH[2]}"
  else
    echo "--search $1"
  fi
}
run_vsgrid() {
  [ -x "$vsgrid" ] || { echo "bench_redock_set42: no vsgrid at '$vsgrid' (set VSGRID)" >&2; exit 2; }
  for c in $list; do
    d=$out/$c
    mkdir -p "$d"
    read -r cx cy cz sx sy sz <<< "$(box_of "$c")"
    redock_maps "$set42/$c/protein.pdbqt" "$cx,$cy,$cz,$sx,$sy,$sz" "$d" "$c" || continue
    # the starts as one library: record k is start k, docked with seed k (a screen's seed + index),
    # every start in one GPU launch; poses split by record afterwards
    local lib=() k
    for k in $starts; do lib+=("$set42/$c/rand-$k.pdbqt"); done
    for p in $presets; do
      f=$d/vsgrid_$p
      [ -s "$f.csv" ] && continue
      local t0 t1
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086 # DOCK_ARGS is a list of words
      local refine=()
      [ "${REFINE:-1}" = 1 ] && refine=(--receptor "$set42/$c/protein.pdbqt") # as vina --receptor ends its docking
      if [ "$p" = dock ]; then # `vsgrid dock` of each start with the command's default search
        for k in $starts; do
          # shellcheck disable=SC2086 # DOCK_ARGS is a list of words
          "$vsgrid" dock "$d/maps" "$set42/$c/rand-$k.pdbqt" --seed "$k" --poses 9 -o "${f}_$k.pdbqt" --csv "${f}_$k.csv" \
            --json "${f}_$k.json" "${refine[@]}" $dock_args > "${f}_$k.log" 2>&1 || echo "$c dock start $k failed: $(tail -1 "${f}_$k.log")" >&2
        done
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$f.seconds"
        cat "${f}"_[0-9].csv > "$f.csv"
        continue
      fi
      local search
      read -r -a search <<< "$(search_args "$p")"
      "$vsgrid" screen "$d/maps" "${lib[@]}" --scoring vina --placement flexible "${search[@]}" --seed 0 --poses 9 \
        --poses-out "$f.pdbqt" -o "$f.csv" --quiet "${refine[@]}" $dock_args > "$f.log" 2>&1 || echo "$c $p: screen failed: $(tail -1 "$f.log")" >&2
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$f.seconds"
      local i=0
      for k in $starts; do # record i of the library = start k
        awk -v i="$i" '/^MODEL/ { buf = $0 "\n"; keep = 0; next } /^REMARK VSGRID RECORD:/ { keep = ($4 == i) }
             { buf = buf $0 "\n" } /^ENDMDL/ { if (keep) printf "%s", buf; buf = "" }' "$f.pdbqt" > "${f}_$k.pdbqt"
        awk -F, -v i="$i" 'NR == 1 || $1 == i' "$f.csv" > "${f}_$k.csv"
        i=$((i + 1))
      done
    done
  done
}

# AD4 maps of complex C on its box as OUTDIR/C/ad4/maps (made once: ad4/maps.done; the seconds
# they took in ad4/maps.seconds), for the ligand types of C's crystal ligand and starts only (any
# type there, not only vsgrid's drug-like default list; fewer maps to write).
ad4_maps() {
  local c=$1 d=$out/$1/ad4 cx cy cz sx sy sz types t0 t1
  [ "${AD4_MAPS:-vsgrid}" = set ] && return 0
  [ -f "$d/maps.done" ] && return 0
  mkdir -p "$d" || return 1
  read -r cx cy cz sx sy sz <<< "$(box_of "$c")"
  types=$(cat "$set42/$c/flex-xray.pdbqt" "$set42/$c"/rand-*.pdbqt | awk '/^(ATOM  |HETATM)/ { print $NF }' | sort -u | paste -sd, -)
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # MAPS_ARGS is a list of words
  if "$vsgrid" maps "$set42/$c/protein.pdbqt" --scoring ad4 --box "$cx,$cy,$cz,$sx,$sy,$sz" --ligand-types "$types" \
    $maps_args -o "$d/maps" > "$d/maps.log" 2>&1; then
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$d/maps.seconds"
    touch "$d/maps.done"
    return 0
  fi
  echo "$c: vsgrid maps --scoring ad4 failed: $(tail -1 "$d/maps.log")" >&2
  return 1
}

# `vsgrid dock --scoring ad4` of every start with every preset: one record a call (dock docks
# one; on the GPU when there is one, DOCK_ARGS="--devices cpu" for the CPU twin), start k with seed k as in run_vsgrid, its own
# seconds. No --receptor: with ad4 it only serves hydrated docking's dry step (the poses are
# scored on the maps, as autodock4 scores them).
run_vsgrid_ad4() {
  [ -x "$vsgrid" ] || { echo "bench_redock_set42: no vsgrid at '$vsgrid' (set VSGRID)" >&2; exit 2; }
  local c d p f k t0 t1 search
  for c in $list; do
    d=$out/$c
    mkdir -p "$d"
    ad4_maps "$c" || continue
    local fld=$d/ad4/maps
    [ "${AD4_MAPS:-vsgrid}" = set ] && fld=$set42/$c/protein.maps.fld
    for p in $presets; do
      search=()
      [ "$p" = dock ] || read -r -a search <<< "$(search_args "$p")" # dock: the command's default search
      for k in $starts; do
        f=$d/vsgrid_ad4_${p}_$k
        [ -s "$f.csv" ] && continue
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086 # DOCK_ARGS is a list of words
        "$vsgrid" dock "$fld" "$set42/$c/rand-$k.pdbqt" --scoring ad4 "${search[@]}" --seed "$k" --poses 9 \
          -o "$f.pdbqt" --csv "$f.csv" $dock_args > "$f.log" 2>&1 || { echo "$c $p start $k: dock --scoring ad4 failed: $(tail -1 "$f.log")" >&2; rm -f "$f.csv"; }
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$f.seconds"
      done
    done
  done
}

run_vina() {
  command -v "$vina" > /dev/null 2>&1 || [ -x "$vina" ] || { echo "bench_redock_set42: no vina ('$vina')" >&2; exit 2; }
  jobs_file=$out/vina_jobs.txt
  : > "$jobs_file"
  for c in $list; do
    mkdir -p "$out/$c"
    for k in $vina_starts; do [ -s "$out/$c/vina_$k.pdbqt" ] || echo "$c $k" >> "$jobs_file"; done
  done
  one_vina() {
    local c=$1 k=$2 d=$out/$1 cx cy cz sx sy sz t0 t1
    read -r cx cy cz sx sy sz <<< "$(box_of "$c")"
    t0=$(date +%s.%N)
    "$vina" --receptor "$set42/$c/protein.pdbqt" --ligand "$set42/$c/rand-$k.pdbqt" --center_x "$cx" --center_y "$cy" \
      --center_z "$cz" --size_x "$sx" --size_y "$sy" --size_z "$sz" --exhaustiveness 8 --seed "$k" --cpu "$vina_cpu" \
      --out "$d/vina_$k.tmp.pdbqt" > "$d/vina_$k.log" 2>&1 && mv "$d/vina_$k.tmp.pdbqt" "$d/vina_$k.pdbqt"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }' > "$d/vina_$k.seconds"
  }
  export -f one_vina box_of redock_box_fld
  export out set42 vina vina_cpu
  xargs -P "$vina_jobs" -L 1 bash -c 'one_vina "$0" "$1"' < "$jobs_file"
}

# RMSD of each pose of FILE to the crystal pose: "top best n" (empty when FILE is missing); the
# set's PDBQTs list atoms in one order, so a pose whose bond graph did not match is compared in
# file order (lib_redock.sh).
rmsds() { FALLBACK=order redock_rmsds "$set42/$1/flex-xray.pdbqt" "$2"; }
# PoseBusters' checks (vsgrid check-poses) of FILE's top pose against the start it was docked
# from, the receptor and the box: 1 valid, 0 not (empty when FILE is missing).
top_valid() {
  local c=$1 f=$2 k=$3 cx cy cz sx sy sz
  [ -s "$f" ] || return 0
  read -r cx cy cz sx sy sz <<< "$(box_of "$c")"
  [ -s "$f.checks" ] || "$vsgrid" check-poses "$f" --reference "$set42/$c/rand-$k.pdbqt" --receptor "$set42/$c/protein.pdbqt" \
    --box "$cx,$cy,$cz,$sx,$sy,$sz" --quiet > "$f.checks" 2> /dev/null
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "valid") v = i } NR == 2 { print $v; exit }' "$f.checks"
}
# Vina's top score in its output file; vsgrid's from the CSV's first pose.
vina_score() { awk '/^REMARK VINA RESULT/ { print $4; exit }' "$1"; }
vsgrid_score() { awk -F, 'NR == 2 { print $6 }' "$1"; }
# dock --scoring ad4's CSV: score_kcal_mol (AutoDock4's estimated free energy of binding).
ad4_score() { awk -F, 'NR == 2 { print $2 }' "$1"; }
class_of() {
  local t=$1
  if [ "$t" -le 4 ]; then echo "0-4"; elif [ "$t" -le 7 ]; then echo "5-7"; elif [ "$t" -le 11 ]; then echo "8-11"; else echo "12+"; fi
}

# row C T CLASS LABEL K POSES SCORE SECONDS: one run's line of rows.tsv (nothing when POSES is
# missing): complex, torsions, class, program, start, "top best n", score, seconds, top valid.
row() {
  local r
  r=$(rmsds "$1" "$6")
  [ -n "$r" ] || return 0
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$1" "$2" "$3" "$4" "$5" "$r" "$7" "$8" "$(top_valid "$1" "$6" "$5")"
}

run_table() {
  local rows=$out/rows.tsv presets_vina='' presets_ad4='' nstarts
  : > "$rows"
  nstarts=$(echo $starts | wc -w)
  # the rows of the functions SCORING names (vina alone by default, as before ad4 was added)
  case " $scorings " in *" vina "*) presets_vina=$presets ;; esac
  case " $scorings " in *" ad4 "*) presets_ad4=$presets ;; esac
  for c in $list; do
    t=$(torsions "$c")
    cls=$(class_of "$t")
    for p in $presets_vina; do # one screen of every start: its seconds shared among them
      for k in $starts; do
        score=$(vsgrid_score "$out/$c/vsgrid_${p}_$k.csv")
        [ "$p" = dock ] && score=$(ad4_score "$out/$c/vsgrid_${p}_$k.csv") # dock's CSV: pose,score,...
        row "$c" "$t" "$cls" "vsgrid $p" "$k" "$out/$c/vsgrid_${p}_$k.pdbqt" "$score" \
          "$(awk -v n="$nstarts" '{ printf "%.2f", $1 / n }' "$out/$c/vsgrid_${p}.seconds" 2> /dev/null)" >> "$rows"
      done
    done
    for p in $presets_ad4; do
      for k in $starts; do
        row "$c" "$t" "$cls" "vsgrid ad4 $p" "$k" "$out/$c/vsgrid_ad4_${p}_$k.pdbqt" \
          "$(ad4_score "$out/$c/vsgrid_ad4_${p}_$k.csv")" "$(cat "$out/$c/vsgrid_ad4_${p}_$k.seconds" 2> /dev/null)" >> "$rows"
      done
    done
    for k in 0 1 2; do
      row "$c" "$t" "$cls" "vina 1.2.3" "$k" "$out/$c/vina_$k.pdbqt" "$(vina_score "$out/$c/vina_$k.pdbqt")" \
        "$(cat "$out/$c/vina_$k.seconds" 2> /dev/null)" >> "$rows"
    done
  done
  echo "# Re-docking adgpu_set42 by torsion class"
  echo
  echo "$("$vsgrid" --version 2> /dev/null); $(date -u '+%Y-%m-%d %H:%M UTC'); DOCK_ARGS: ${dock_args:-(none)};$([ "$scorings" = vina ] || echo " SCORING: $scorings;") outputs in $out"
  echo
  echo "Top pose / best of the poses written within 2 A of the crystal pose (runs: complexes x starts):"
  echo
  # columns: complex tors class program start "top best n" score seconds valid
  echo "| program | 0-4 torsions | 5-7 torsions | 8-11 torsions | 12+ torsions | all | mean s a run | top poses PoseBusters-valid |"
  echo "|---|--:|--:|--:|--:|--:|--:|--:|"
  awk -F'\t' '
    { split($6, r, " "); key = $4 SUBSEP $3; runs[key]++; if (r[1] < 2) top[key]++; if (r[2] < 2) best[key]++
      prog[$4] = 1; cls[$3] = 1; all[$4]++; if (r[1] < 2) alltop[$4]++; if (r[2] < 2) allbest[$4]++
      sec[$4] += $8; if ($9 == 1) valid[$4]++ }
    END {
      n = split("0-4 5-7 8-11 12+", order, " ")
      for (p in prog) {
        printf "| %s |", p
        for (i = 1; i <= n; i++) { k = p SUBSEP order[i]; if (runs[k]) printf " %d / %d of %d |", top[k], best[k], runs[k]; else printf " |" }
        printf " %d / %d of %d (%.0f%% / %.0f%%) | %.1f | %.0f%% |\n", alltop[p], allbest[p], all[p], 100 * alltop[p] / all[p], 100 * allbest[p] / all[p], sec[p] / all[p], 100 * valid[p] / all[p]
      }
    }' "$rows" | sort
  echo
  echo "Per complex (top-pose RMSD A, start 0; score kcal/mol as each program reports it):"
  echo
  awk -F'\t' '$5 == 0 { split($6, r, " "); v[$1 SUBSEP $4] = sprintf("%.2f (%s)", r[1], $7); tors[$1] = $2; prog[$4] = 1; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
    END {
      np = 0; for (p in prog) pl[++np] = p
      for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (pl[j] < pl[i]) { t = pl[i]; pl[i] = pl[j]; pl[j] = t }
      printf "| complex | torsions |"; for (i = 1; i <= np; i++) printf " %s |", pl[i]; printf "\n|---|--:|"; for (i = 1; i <= np; i++) printf "---|"; printf "\n"
      for (c = 1; c <= n; c++) { printf "| %s | %s |", order[c], tors[order[c]]; for (i = 1; i <= np; i++) printf " %s |", v[order[c] SUBSEP pl[i]]; printf "\n" }
    }' "$rows"
}

for part in $parts; do
  case $part in
    vsgrid)
      for s in $scorings; do
        case $s in
          vina) run_vsgrid ;;
          ad4) run_vsgrid_ad4 ;;
          *) echo "bench_redock_set42: unknown SCORING '$s' (vina, ad4)" >&2; exit 2 ;;
        esac
      done ;;
    vina) run_vina ;;
    table) run_table ;;
    *) echo "bench_redock_set42: unknown PART '$part' (vsgrid, vina, table)" >&2; exit 2 ;;
  esac
done
