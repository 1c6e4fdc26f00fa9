#!/usr/bin/env bash
# `vsgrid screen PREFIX POSES --scoring vina|vinardo` and `vsgrid rescore REC POSES --scoring
# vina|vinardo` on the command line, without vina: help, usage errors (2), a missing map set (3),
# and the rows on data/1stp_receptor.pdbqt with biotin: the CSV columns, one ok row per pose,
# TORSDOF 5 from the tree, the same score on maps from `vsgrid maps`, a status row `untyped`
# for an atom with no XS type and for a map set without one of the ligand's types, and rows in
# input order whatever fails. Scores against vina itself: tests/peer_vina_score.sh.
# Usage: cli_vina_score.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_vina_score
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
lig=$src/data/biotin.pdbqt

expect_rc 0 "$vsgrid" screen --help
grep -q -- "--scoring vina|vinardo" out.txt || fail "screen --help does not document --scoring vina"
grep -q "on the CPU" out.txt || fail "screen --help does not say Vina scores run on the CPU"
expect_rc 0 "$vsgrid" rescore --help
grep -q -- "--scoring vina|vinardo" out.txt || fail "rescore --help does not document --scoring vina"
expect_rc 0 "$vsgrid" screen --scoring vina --help
grep -q "torsional_kcal_mol" out.txt || fail "screen --scoring vina --help lists no CSV columns"

# usage errors → 2
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --scoring vina                     # no -o
expect_rc 2 "$vsgrid" rescore "$rec" --scoring vina -o r.csv                    # no poses
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --scoring vina --kernel gm -o r.csv # not for vina
grep -q "does not apply" err.txt || fail "--kernel with --scoring vina: no explanation"
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --scoring vinrdo -o r.csv
expect_rc 2 "$vsgrid" screen "$rec" "$lig" --scoring ad5 -o r.csv
expect_rc 2 "$vsgrid" screen "$src/data/fas2.pqr" "$lig" --scoring ad4 -o r.csv  # ad4 needs a .fld
grep -q ".fld" err.txt || fail "--scoring ad4 without a map set: message does not ask for a .fld"
expect_rc 0 "$vsgrid" rescore "$rec" "$lig" --scoring ad4 -o ad4.csv --device cpu --devices cpu  # tests/cli_rescore_ad4.sh
# no map set with that prefix → 3, one line
expect_rc 3 "$vsgrid" screen nothere "$lig" --scoring vina -o r.csv
grep -q 'no Vina map with prefix "nothere"' err.txt || fail "missing map set: $(cat err.txt)"
[ "$(wc -l < err.txt)" = 1 ] || fail "missing map set: more than one line on stderr"

# a pose file: biotin, biotin with an atom of no XS type, biotin again
awk '{ print } /^TORSDOF/ { exit }' "$lig" > three.pdbqt
awk '/HETATM    2 / { $0 = substr($0, 1, 77) "Xx" } { print } /^TORSDOF/ { exit }' "$lig" >> three.pdbqt
awk '{ print } /^TORSDOF/ { exit }' "$lig" >> three.pdbqt
expect_rc 0 "$vsgrid" rescore "$rec" three.pdbqt --scoring vina -o r.csv --json r.json
head -1 r.csv | grep -q "^index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,message$" ||
  fail "rescore --scoring vina: header is $(head -1 r.csv)"
[ "$(wc -l < r.csv)" = 4 ] || fail "3 records: $(($(wc -l < r.csv) - 1)) rows"
row1=$(sed -n 2p r.csv) row2=$(sed -n 3p r.csv) row3=$(sed -n 4p r.csv)
echo "$row1" | grep -q ",ok,$" || fail "biotin row: $row1"
[ "$(echo "$row1" | cut -d, -f12)" = 5 ] || fail "biotin TORSDOF: $row1"
echo "$row2" | grep -q ",untyped," || fail "an atom typed Xx: $row2"
echo "$row2" | grep -q "Xx" || fail "untyped row does not name the type: $row2"
[ "$(echo "$row1" | cut -d, -f6-11)" = "$(echo "$row3" | cut -d, -f6-11)" ] || fail "the same pose scored twice differs"
s=$(echo "$row1" | cut -d, -f6)
awk -v s="$s" 'BEGIN { exit !(s < -3 && s > -15) }' || fail "biotin's Vina score $s is not a plausible binding energy"
[ "$(json_val r.json scored)" = 2 ] || fail "json: scored $(json_val r.json scored)"
[ "$(json_val r.json score)" = '"vina"' ] || fail "json: score $(json_val r.json score)"

# vinardo differs from vina
expect_rc 0 "$vsgrid" rescore "$rec" "$lig" --scoring vinardo -o rd.csv --quiet
[ "$(sed -n 2p rd.csv | cut -d, -f6)" != "$s" ] || fail "vinardo gives vina's score"

# maps: every type → ok rows near the atom-based score; only C_H and C_P → untyped rows
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" --quiet -o m/all
expect_rc 0 "$vsgrid" screen m/all "$lig" --scoring vina -o s.csv --quiet
m=$(sed -n 2p s.csv | cut -d, -f6)
sed -n 2p s.csv | grep -q ",ok,$" || fail "screen on maps: $(sed -n 2p s.csv)"
awk -v a="$m" -v b="$s" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1.5) }' || fail "maps score $m far from the atoms' $s"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" --types C_H,C_P --quiet -o m/c
expect_rc 8 "$vsgrid" screen m/c "$lig" --scoring vina -o c.csv --quiet  # its one record untyped: nothing scored
sed -n 2p c.csv | grep -q ",untyped,.*no O_A map" || fail "map set without O_A: $(sed -n 2p c.csv)"

[ "$fails" = 0 ] && echo "cli_vina_score: ok"
exit "$fails"
