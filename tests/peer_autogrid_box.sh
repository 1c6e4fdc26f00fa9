#!/usr/bin/env bash
# Peer comparison with autogrid4 (Debian's autogrid 4.2.6) of `vsgrid maps --scoring ad4`: the
# whole AutoDock4 map set of 1IEP around its ligand (the default 13 ligand types + e + d), made by
#   vsgrid maps 1iep_receptor.pdbqt --scoring ad4 --around 1iep_ligand.pdbqt -o vs/rec --device cpu
# against autogrid4 -p rec.gpf run on the gpf vsgrid wrote beside its maps: every point within
# max(1e-3·|v|, 2e-3) kcal/mol (autogrid4's printed precision), every point where |v| >= 1000
# exactly equal, the SPACING/NELEMENTS/CENTER header lines and the .maps.xyz equal; and the crystal
# ligand's AutoDock4 score (vsgrid screen) within 0.01 kcal/mol on both sets. Prints the max
# deviation per map and both programs' wall times.
# Without ../shared/data (or $VSG_SHARED_DATA) the same checks run on data/'s 1STP receptor around
# its biotin (shipped), so anyone with autogrid4 installed checks the claim.
# Usage: peer_autogrid_box.sh VSGRID SOURCE_DIR BINARY_DIR. Exit 77 (skipped) without autogrid4.
set -u
vsgrid=$1
here=$2
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
command -v autogrid4 > /dev/null 2>&1 || { echo "skipped: autogrid4 not installed (apt-get install autogrid)"; exit 77; }
shared=${VSG_SHARED_DATA:-$here/../shared/data}
d=$shared/autodock_vina/1iep
name=1iep rec=$d/1iep_receptor.pdbqt lig=$d/1iep_ligand.pdbqt
if [ ! -f "$rec" ]; then
  echo "SKIPPED-PART: 1IEP (no autodock_vina/1iep under $shared; data/'s 1STP and biotin instead)"
  name=1stp rec=$here/data/1stp_receptor.pdbqt lig=$here/data/biotin.pdbqt
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${VSG_PEER_KEEP:-}" ] && { trap - EXIT; echo "work dir kept: $work"; }
fails=0
now() { date +%s.%N; }

. "$here/tests/lib_maps.sh"  # compare_maps

cd "$work" || exit 1
t0=$(now)
if ! "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --device cpu -o vs/rec \
     > vs.out 2>&1; then
  echo "vsgrid maps failed:"; cat vs.out; exit 1
fi
t1=$(now)
mkdir ag && cp vs/rec.gpf ag/ && cd ag || exit 1
if ! autogrid4 -p rec.gpf -l rec.glg > ag.out 2>&1; then
  echo "autogrid4 failed on vsgrid's gpf:"; tail -n 5 rec.glg ag.out; exit 1
fi
t2=$(now)
cd "$work" || exit 1
types=$(awk '$1 == "ligand_types" { for (i = 2; i <= NF; i++) printf "%s ", $i }' vs/rec.gpf)
[ "$types" = "A C NA OA N SA HD F Cl Br I P S " ] || { echo "ligand types: $types"; fails=$((fails + 1)); }
line=""
for t in $types e d; do
  set -- $(compare_maps "ag/rec.$t.map" "vs/rec.$t.map")
  line="$line $t $1"
  if [ "$2" != 0 ] || [ "$3" != yes ] || [ "$4" = 0 ]; then
    echo "  map $t: $2 points beyond tolerance (max deviation $1), header/count ok: $3"
    fails=$((fails + 1))
  fi
done
cmp -s ag/rec.maps.xyz vs/rec.maps.xyz || { echo "  .maps.xyz differ"; fails=$((fails + 1)); }
printf "$name --around: %s points a map; autogrid4 %.2f s, vsgrid maps %.2f s (CPU twin)\n  max |dev| per map:%s\n" \
  "$(sed -n 5p vs/rec.A.map | awk '{ print ($2 + 1) "x" ($3 + 1) "x" ($4 + 1) }')" \
  "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$line"
# the crystal ligand scores the same on both sets
"$vsgrid" screen ag/rec.maps.fld "$lig" -o ag.csv > /dev/null 2>&1
"$vsgrid" screen vs/rec.maps.fld "$lig" -o vs.csv > /dev/null 2>&1
a=$(awk -F, 'NR == 2 { print $6 }' ag.csv) b=$(awk -F, 'NR == 2 { print $6 }' vs.csv)
echo "  $name ligand AD4 score: autogrid4's maps $a, vsgrid's $b kcal/mol"
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 0.01) }' ||
  { echo "  the scores differ by more than 0.01"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "peer_autogrid_box: ok"
exit $((fails > 0))
