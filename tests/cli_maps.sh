#!/usr/bin/env bash
# `vsgrid maps` (Vina / Vinardo maps) on the command line: help, usage errors (exit 2), bad
# input (exit 3), and the files it writes on data/1stp_receptor.pdbqt: names, vina's header,
# node count, and values that react to --scoring and --analytic. The values against vina itself:
# tests/peer_vina_maps.sh. Usage: cli_maps.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_maps
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
box=10.734,2.033,-11.537,9,8.25,12

expect_rc 0 "$vsgrid" maps --help
grep -q "usage: vsgrid maps" out.txt || fail "maps --help has no usage line"
for opt in --scoring --box --around --padding --spacing --types --analytic -o; do
  grep -q -- "$opt" out.txt || fail "maps --help does not document $opt"
done
grep -q "default 0.375" out.txt || fail "maps --help gives no default spacing"
expect_rc 0 "$vsgrid" --help
grep -q "maps RECEPTOR" out.txt || fail "vsgrid --help lists no maps command"

# Usage errors → 2.
expect_rc 2 "$vsgrid" maps
expect_rc 2 "$vsgrid" maps "$rec" --box "$box"                       # no -o
expect_rc 2 "$vsgrid" maps "$rec" -o m                                # no box
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --around "$src/data/biotin.pdbqt" -o m
expect_rc 2 "$vsgrid" maps "$rec" --box 1,2,3 -o m
expect_rc 2 "$vsgrid" maps "$rec" --box 1,2,3,4,0,5 -o m              # empty box
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --spacing 0 -o m
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --scoring ad5 -o m
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --types C,Qx -o m
grep -q "'Qx'" err.txt || fail "--types Qx: message does not name the type"
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --types H,HD -o m       # no type with a map
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --frobnicate -o m
# Bad input → 3: a receptor without AutoDock types, a missing file.
expect_rc 3 "$vsgrid" maps "$src/data/fas2.pqr" --box "$box" -o m
grep -q "AutoDock type" err.txt || fail "PQR receptor: message does not say AutoDock types are needed"
expect_rc 3 "$vsgrid" maps nothere.pdbqt --box "$box" -o m
[ -e m.C_H.map ] && fail "a failed run left maps behind"

# A run: 9/0.375 = 24, 8.25/0.375 = 22, 12/0.375 = 32 voxels → 25 × 23 × 33 nodes.
expect_rc 0 "$vsgrid" maps "$rec" --box "$box" --types C,OA,HD --quiet -o vina
[ "$(ls vina.*.map | tr '\n' ' ')" = "vina.C_H.map vina.C_P.map vina.O_A.map vina.O_DA.map " ] ||
  fail "--types C,OA,HD wrote $(ls vina.*.map | tr '\n' ' ')"
sed -n 4,6p vina.C_H.map > head.txt
printf 'SPACING 0.375\nNELEMENTS 24 22 32\nCENTER 10.734 2.033 -11.537\n' | cmp -s - head.txt ||
  fail "header: $(cat head.txt)"
[ "$(wc -l < vina.C_H.map)" = $((6 + 25 * 23 * 33)) ] || fail "vina.C_H.map has $(wc -l < vina.C_H.map) lines"
# Inside a protein pocket box there are clashes (> 0) and favourable nodes (< 0).
awk 'NR > 6 { if ($1 + 0 > 1) hi = 1; if ($1 + 0 < -0.3) lo = 1 } END { exit !(hi && lo) }' vina.C_H.map ||
  fail "vina.C_H.map has no clash or no favourable node"
expect_rc 0 "$vsgrid" maps "$rec" --box "$box" --types C_H --scoring vinardo --quiet -o vinardo
cmp -s <(tail -n +7 vina.C_H.map) <(tail -n +7 vinardo.C_H.map) && fail "vinardo map equals the vina map"
expect_rc 0 "$vsgrid" maps "$rec" --box "$box" --types C_H --analytic --quiet -o exact
paste <(tail -n +7 vina.C_H.map) <(tail -n +7 exact.C_H.map) |
  awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0) diff = 1; v = $1 < 0 ? -$1 : $1
         if (d > 0.02 + 0.03 * v) bad++ } END { exit !(diff && !bad) }' ||
  fail "--analytic maps are not within 0.02 kcal/mol + 3% of (and not equal to) the tabulated ones"
# --around a ligand: vina's autobox (center = mean of the atoms)
expect_rc 0 "$vsgrid" maps "$rec" --around "$src/data/biotin.pdbqt" --types N_D --quiet -o around
[ -f around.N_D.map ] || fail "--around wrote no around.N_D.map"

# a box no receptor atom reaches: every map would be zero, an error (exit 3), nothing written
"$vsgrid" maps "$rec" --box 500,500,500,6,6,6 --types C_H --quiet -o far > far.out 2> far.err
rc=$?; [ "$rc" = 3 ] || fail "far box: exit $rc, not 3 (every map would be zero)"
grep -q "no receptor atom within 8 A of the box" far.err || fail "far box: no error saying every map would be zero"
[ -e far.C_H.map ] && fail "far box: maps written"
"$vsgrid" maps "$rec" --around "$src/data/biotin.pdbqt" --types C_H --quiet -o near > near.out 2> near.err
grep -q "no receptor atom" near.err && fail "the biotin site's box warned that no receptor atom is near"

# a legacy PDBQT's metal written as its PDB element name in capitals (ZN, as AutoDock-GPU's own
# receptors have it): read as Zn with one warning, the maps those of the file that says Zn (issue 28)
{ grep -v '^END' "$rec"; printf 'HETATM 9999 ZN    ZN A 900      10.734   2.033 -11.537  1.00  0.00     2.000 Zn\n'; } > zn.pdbqt
sed 's/ Zn$/ ZN/' zn.pdbqt > zn_legacy.pdbqt
expect_rc 0 "$vsgrid" maps zn.pdbqt --box "$box" --types C_H,N_A --quiet -o zn
expect_rc 0 "$vsgrid" maps zn_legacy.pdbqt --box "$box" --types C_H,N_A --quiet -o znl
grep -q "AutoDock type 'ZN' read as 'Zn'" err.txt || fail "legacy ZN: no warning: $(cat err.txt)"
for t in C_H N_A; do
  cmp -s <(tail -n +7 zn.$t.map) <(tail -n +7 znl.$t.map) || fail "legacy ZN: the $t map differs from Zn's"
done

[ "$fails" = 0 ] && echo "cli_maps: ok"
exit $((fails > 0))
