#!/usr/bin/env bash
# Peer comparison with autogrid4 (Debian's autogrid 4.2.6), run for real in CI: every map of an
# AutoDock4 map set — each ligand type's affinity map, e and d — made by
#   vsgrid grid REC --gpf X.gpf --autogrid-maps vs --device cpu
# against autogrid4 -p X.gpf on the same gpf: every point within max(1e-3·|v|, 2e-3) kcal/mol
# (autogrid4's printed precision), and every point where |v| >= 1000 (pair energies clamped at
# 1e5) exactly equal. (The affinity and d maps come out identical to autogrid4's text; the e map
# within 0.001.) Receptors: 1STP and 3CE3 (AutoDock-GPU's gpfs), 1IEP (its gpf with
# the boron-silicon parameter_file, ligand types cut to the 14 that Debian's autogrid4 allows:
# MAX_MAPS 16), 2BRT and 5WLO (a gpf written from the box of their shipped maps). Prints the max
# deviation per map and both programs' wall times.
# Usage: peer_autogrid_maps.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without autogrid4
# or without ../shared/data (or $VSG_SHARED_DATA).
set -u
vsgrid=$1
here=$2
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
command -v autogrid4 > /dev/null 2>&1 || { echo "skipped: autogrid4 not installed (apt-get install autogrid)"; exit 77; }
shared=${VSG_SHARED_DATA:-$here/../shared/data}
[ -d "$shared/autodock_gpu/1stp" ] || { echo "skipped: no shared data at $shared"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${VSG_PEER_KEEP:-}" ] && { trap - EXIT; echo "work dir kept: $work"; }
fails=0
now() { date +%s.%N; }

. "$here/tests/lib_maps.sh"  # compare_maps

# gpf for a receptor without one: box from a shipped map's header, types from the PDBQT/maps
write_gpf() { # RECEPTOR MAPHEADER LIGAND_TYPES...
  local rec=$1 hdr=$2; shift 2
  local types
  types=$(awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); gsub(/ /, "", t); if (!(t in s)) { s[t] = 1; printf "%s ", t } }' "$rec")
  local box
  box=$({ gzip -dc "$hdr" 2> /dev/null || cat "$hdr"; } | head -6 |
    awk '$1 == "NELEMENTS" { n = $2 " " $3 " " $4 } $1 == "SPACING" { s = $2 }
         $1 == "CENTER" { c = $2 " " $3 " " $4 } END { print n, s, c }')
  set -- $box "$@"
  # autogrid4's order (gridcenter after receptor: autogrid4 4.2.6 crashes otherwise)
  echo "npts $1 $2 $3"
  echo "gridfld ag.maps.fld"
  echo "spacing $4"
  echo "receptor_types $types"
  local c="$5 $6 $7"
  shift 7
  echo "ligand_types $*"
  echo "receptor $(basename "$rec")"
  echo "gridcenter $c"
  echo "smooth 0.5"
  for t in "$@"; do echo "map ag.$t.map"; done
  echo "elecmap ag.e.map"
  echo "dsolvmap ag.d.map"
  echo "dielectric -0.1465"
}

# run_case NAME DIR GPF: autogrid4 writes the gpf's own names; vsgrid writes vs.*; compare each
run_case() {
  local name=$1 dir=$2 gpf=$3
  cd "$dir" || return 1
  local t0 t1 t2
  t0=$(now)
  if ! autogrid4 -p "$gpf" -l ag.glg > ag.out 2>&1; then
    echo "autogrid4 failed on $name:"; tail -n 5 ag.glg ag.out; fails=$((fails + 1)); return 1
  fi
  t1=$(now)
  if ! "$vsgrid" grid --gpf "$gpf" --autogrid-maps vs --device cpu --quiet > vs.out 2>&1; then
    echo "vsgrid failed on $name:"; cat vs.out; fails=$((fails + 1)); return 1
  fi
  t2=$(now)
  local types maps
  types=$(awk '{ sub(/#.*/, "") } $1 == "ligand_types" { for (i = 2; i <= NF; i++) printf "%s ", $i }' "$gpf")
  maps=$(awk '{ sub(/#.*/, "") } $1 == "map" || $1 == "elecmap" || $1 == "dsolvmap" { printf "%s ", $2 }' "$gpf")
  set -- $maps
  local line="" t ref r
  for t in $types e d; do
    ref=$1; shift
    r=$(compare_maps "$ref" "vs.$t.map")
    set -- $r "$@"
    line="$line $(printf "%s %s" "$t" "$1")"
    if [ "$2" != 0 ] || [ "$3" != yes ] || [ "$4" = 0 ]; then
      echo "  $name map $t: $2 points beyond tolerance (max deviation $1), header/count ok: $3"
      fails=$((fails + 1))
    fi
    shift 4
  done
  printf "%-5s %8.2f %8.2f  max |dev| per map:%s\n" "$name" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')" "$line"
}

printf "%-5s %8s %8s\n" case "ag4 s" "vsgrid s"
for c in 1stp 3ce3; do
  mkdir -p "$work/$c"
  cp "$shared/autodock_gpu/$c/$c.gpf" "$work/$c/"
  src=$(ls "$shared/autodock_gpu/$c/${c}_protein.pdbqt")
  cp "$src" "$work/$c/"
  run_case $c "$work/$c" "$c.gpf"
done
# 1STP in a whole-receptor box (192³ at 0.375 Å), one ligand type: where the gpf's centre and the
# grid's origin + (n − 1)/2·h differ in the last bit, lattice distances on a table bin's edge fell
# in the neighbouring bin of the e map (6 points 0.003–0.046 off before vsgrid took the centre
# exactly).
mkdir -p "$work/1stpW"
cp "$shared/autodock_gpu/1stp/1stp_protein.pdbqt" "$work/1stpW/"
awk '{ k = $1 } k == "npts" { print "npts 192 192 192"; next } k == "gridfld" { print "gridfld ag.maps.fld"; next }
     k == "ligand_types" { print "ligand_types A"; next } k == "map" { if (!m++) print "map ag.A.map"; next }
     k == "elecmap" { print "elecmap ag.e.map"; next } k == "dsolvmap" { print "dsolvmap ag.d.map"; next } { print }' \
  "$shared/autodock_gpu/1stp/1stp.gpf" > "$work/1stpW/1stpW.gpf"
run_case 1stpW "$work/1stpW" 1stpW.gpf
# the set as vsgrid screen reads it (.maps.fld): the crystal ligand scores the same on both sets
lig="$shared/autodock_gpu/1stp/1stp_ligand.pdbqt"
if (cd "$work/1stp" && "$vsgrid" screen 1stp_protein.maps.fld "$lig" -o ag.csv --quiet > /dev/null 2>&1 &&
    "$vsgrid" screen vs.maps.fld "$lig" -o vs.csv --quiet > /dev/null 2>&1); then
  a=$(cut -d, -f6-9 "$work/1stp/ag.csv" | tail -n 1); v=$(cut -d, -f6-9 "$work/1stp/vs.csv" | tail -n 1)
  echo "1stp ligand on autogrid4's set: $a; on vsgrid's: $v (score, vdw_hb, elec, desolv)"
  [ "$a" = "$v" ] || { echo "  the scores differ"; fails=$((fails + 1)); }
else
  echo "vsgrid screen failed on a 1stp map set"; fails=$((fails + 1))
fi
mkdir -p "$work/1iep"
cp "$shared/autodock_vina/1iep/1iep_receptor.pdbqt" "$shared/autodock_vina/1iep/boron-silicon-atom_par.dat" "$work/1iep/"
keep="HD C A N NA OA F P SA S Cl Br I Si"
awk -v keep="$keep" 'BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
     $1 == "ligand_types" { printf "ligand_types %s\n", keep; next }
     $1 == "map" { t = $2; sub(/^1iep_receptor\./, "", t); sub(/\.map$/, "", t); if (!(t in want)) next }
     { print }' "$shared/autodock_vina/1iep/1iep_receptor.gpf" > "$work/1iep/1iep.gpf"
run_case 1iep "$work/1iep" 1iep.gpf
for c in 2brt 5wlo; do
  d="$shared/adgpu_set42/$c"
  [ -d "$d" ] || continue
  mkdir -p "$work/$c"
  cp "$d/protein.pdbqt" "$work/$c/"
  types=$(ls "$d"/protein.*.map.gz | sed 's/.*protein\.//; s/\.map\.gz$//' | grep -v '^[ed]$' | tr '\n' ' ')
  write_gpf "$d/protein.pdbqt" "$d/protein.e.map.gz" $types > "$work/$c/$c.gpf"
  run_case $c "$work/$c" "$c.gpf"
done
echo "tolerance per point: max(1e-3*|v|, 2e-3) kcal/mol (e: kcal/mol/e)"
[ "$fails" = 0 ] && echo "all maps within tolerance" || echo "FAILED: $fails map(s) or case(s)"
[ "$fails" = 0 ]
