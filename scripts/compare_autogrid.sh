#!/usr/bin/env bash
# vsgrid's AutoGrid-compatible electrostatic map against autogrid4 (Debian's 4.2.6) itself,
# point by point, on the same receptor and box. Prints one table.
#   scripts/compare_autogrid.sh [--quick] [VSGRID]
# --quick (tests/peer_autogrid.sh, CI): 1STP from data/, plus 2BRT and 1IEP when ../shared/data
# is there. Without it: every receptor with an AutoGrid box in ../shared/data.
# For each receptor a gpf is written with the box (npts, spacing, gridcenter) of its source gpf
# or map header, receptor_types = the types present in the PDBQT (autogrid4 insists they match),
# two ligand maps (A, C; autogrid4 needs some) and dielectric -0.1465. Then
#   autogrid4 -p X.gpf   and   vsgrid grid REC --method coulomb --gpf X.gpf --autogrid-maps vs
# and every value of vs.e.map must be within max(1e-3·|v|, 2e-3) kcal/mol/e of autogrid4's v
# (its printed precision). "max rel" is over points with |v| >= 1. The autogrid4 time covers all
# its maps (A, C, e, d); vsgrid's is the whole command on the CPU (--device cpu).
# Exit status: 0 all within tolerance, 1 otherwise, 77 without autogrid4.
set -u
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)
vsgrid=${1:-$here/build/vsgrid}
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
command -v autogrid4 > /dev/null 2>&1 || { echo "skipped: autogrid4 not installed (apt-get install autogrid)"; exit 77; }
[ -x "$vsgrid" ] || { echo "no vsgrid at $vsgrid"; exit 2; }
shared=${VSG_SHARED_DATA:-$here/../shared/data}
[ -d "$shared" ] || shared=
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

now() { date +%s.%N; }

# "NX NY NZ SPACING CX CY CZ" from a gpf, or from an AutoGrid map header (.map or .map.gz)
box_from_gpf() {
  awk '{ sub(/#.*/, "") } $1 == "npts" { n = $2 " " $3 " " $4 } $1 == "spacing" { s = $2 }
       $1 == "gridcenter" { c = $2 " " $3 " " $4 } END { if (s == "") s = 0.375; print n, s, c }' "$1"
}
box_from_map() {
  { case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; } | head -6 |
    awk '$1 == "NELEMENTS" { n = $2 " " $3 " " $4 } $1 == "SPACING" { s = $2 }
         $1 == "CENTER" { c = $2 " " $3 " " $4 } END { print n, s, c }'
}

# write_gpf RECEPTOR_FILE NX NY NZ SPACING CX CY CZ
write_gpf() {
  local types
  types=$(awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); gsub(/ /, "", t); if (!(t in s)) { s[t] = 1; printf "%s ", t } }' "$1")
  cat <<EOF
npts $2 $3 $4
gridfld ag.maps.fld
spacing $5
receptor_types $types
ligand_types A C
receptor $1
gridcenter $6 $7 $8
smooth 0.5
map ag.A.map
map ag.C.map
elecmap ag.e.map
dsolvmap ag.d.map
dielectric -0.1465
EOF
}

# compare REF.map TEST.map → "points max_abs max_rel beyond header_ok"
compare_maps() {
  awk 'FNR == NR { if (FNR <= 6) h[FNR] = $0; else ref[FNR] = $1; nref = FNR; next }
       FNR <= 6 { if (FNR >= 4 && $0 != h[FNR]) hdr = 1; next }
       { n++; v = $1; r = ref[FNR]; d = v - r; if (d < 0) d = -d; a = r < 0 ? -r : r
         tol = 1e-3 * a; if (tol < 2e-3) tol = 2e-3
         if (d > mx) mx = d; if (a >= 1 && d / a > mr) mr = d / a; if (d > tol) bad++ }
       END { if (FNR != nref) hdr = 1; printf "%d %.4g %.3g %d %s\n", n, mx, mr, bad + 0, hdr ? "no" : "yes" }' "$1" "$2"
}

# run_case NAME RECEPTOR NX NY NZ SPACING CX CY CZ
run_case() {
  local name=$1 rec=$2 dir="$work/$1"
  shift 2
  mkdir -p "$dir" && cp "$rec" "$dir/rec.pdbqt" && cd "$dir" || return 1
  write_gpf rec.pdbqt "$@" > ag.gpf
  local t0 t1 t2
  t0=$(now)
  if ! autogrid4 -p ag.gpf -l ag.glg > ag.out 2>&1; then
    echo "autogrid4 failed on $name:"; tail -5 ag.glg ag.out; fails=$((fails + 1)); return 1
  fi
  t1=$(now)
  if ! "$vsgrid" grid rec.pdbqt --method coulomb --gpf ag.gpf --autogrid-maps vs --device cpu --quiet > vs.out 2>&1; then
    echo "vsgrid failed on $name:"; cat vs.out; fails=$((fails + 1)); return 1
  fi
  t2=$(now)
  local r
  r=$(compare_maps ag.e.map vs.e.map)
  set -- $r
  printf "%-6s %9s %12s %12s %8s %9.2f %9.2f\n" "$name" "$1" "$2" "$3" "$4" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')"
  if [ "$4" != 0 ] || [ "$5" != yes ] || [ "$1" = 0 ]; then
    [ "$5" != yes ] && echo "  $name: SPACING/NELEMENTS/CENTER or the number of values differ from autogrid4's map"
    fails=$((fails + 1))
  fi
}

printf "%-6s %9s %12s %12s %8s %9s %9s\n" receptor points "max abs" "max rel" beyond "ag4 s" "vsgrid s"
printf "%-6s %9s %12s %12s %8s %9s %9s\n" "" "" "kcal/mol/e" "(|v|>=1)" "tol" "(4 maps)" "(cpu)"
run_case 1stp "$here/data/1stp_receptor.pdbqt" 24 22 32 0.375 10.734 2.033 -11.537
if [ -n "$shared" ]; then
  run_case 2brt "$shared/adgpu_set42/2brt/protein.pdbqt" $(box_from_map "$shared/adgpu_set42/2brt/protein.e.map.gz")
  run_case 1iep "$shared/autodock_vina/1iep/1iep_receptor.pdbqt" $(box_from_gpf "$shared/autodock_vina/1iep/1iep_receptor.gpf")
  if [ "$quick" = 0 ]; then
    run_case 3ce3 "$shared/autodock_gpu/3ce3/3ce3_protein.pdbqt" $(box_from_gpf "$shared/autodock_gpu/3ce3/3ce3.gpf")
    run_case 5wlo "$shared/adgpu_set42/5wlo/protein.pdbqt" $(box_from_map "$shared/adgpu_set42/5wlo/protein.e.map.gz")
  fi
else
  echo "(../shared/data not found: 1STP only)"
fi
echo "tolerance per point: max(1e-3*|v|, 2e-3) kcal/mol/e; 'beyond' counts points outside it"
[ "$fails" = 0 ] && echo "all within tolerance" || echo "FAILED: $fails receptor(s)"
[ "$fails" = 0 ]
