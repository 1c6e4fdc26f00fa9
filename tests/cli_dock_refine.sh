#!/usr/bin/env bash
# Issue 28 item 5: `vsgrid dock --receptor REC` refines the final poses on the receptor's atoms
# and scores them there, as vina --receptor does after its search: the best pose's score equals
# `vina --score_only` of the written pose on the receptor (when vina is installed), the scores
# written are in order, `screen --placement flexible --receptor` gives the same best score as
# dock, and a receptor that cannot be read is exit 3 with nothing written.
# Usage: cli_dock_refine.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_refine
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt
quick=(--exhaustiveness 4 --steps 40 --focus-chains 2 --focus-steps 40 --devices cpu --threads 2 --seed 3)

expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet
expect_rc 0 "$vsgrid" dock m "$lig" "${quick[@]}" --receptor "$rec" -o atoms.pdbqt --csv atoms.csv --quiet
expect_rc 0 "$vsgrid" dock m "$lig" "${quick[@]}" -o maps.pdbqt --csv maps.csv --quiet
# the scores written are in order, in both
for f in atoms.pdbqt maps.pdbqt; do
  awk '/^REMARK VINA RESULT/ { if (n++ && $4 + 0 < last - 1e-9) bad = 1; last = $4 } END { exit !(n >= 2 && !bad) }' "$f" ||
    fail "$f: scores not in order: $(grep 'VINA RESULT' "$f" | tr '\n' ' ')"
done
# the refinement moved the poses (another file) and scores on the atoms (not the maps' values)
cmp -s atoms.pdbqt maps.pdbqt && fail "--receptor changed nothing"
best_atoms=$(awk '/^REMARK VINA RESULT/ { print $4; exit }' atoms.pdbqt)
[ -n "$best_atoms" ] || fail "no score in atoms.pdbqt"
# a flexible screen with --receptor: the same search and refinement, the same best score
expect_rc 0 "$vsgrid" screen m "$lig" --scoring vina --placement flexible "${quick[@]}" --receptor "$rec" -o s.csv --quiet
s=$(awk -F, 'NR == 2 { print $6 }' s.csv)
awk -v a="$s" -v b="$best_atoms" 'BEGIN { exit !(a - b < 0.0006 && b - a < 0.0006) }' ||
  fail "screen --receptor best $s, dock --receptor best $best_atoms"
# vina --score_only of the best written pose on the receptor: the same score
if command -v vina > /dev/null 2>&1; then
  awk '/^MODEL/ { n++; next } /^ENDMDL/ { if (n == 1) exit; next } n == 1' atoms.pdbqt > best.pdbqt
  vina --receptor "$rec" --ligand best.pdbqt --score_only --autobox > vina.txt 2>&1 || fail "vina --score_only failed: $(tail -3 vina.txt)"
  v=$(awk '/Estimated Free Energy of Binding/ { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+\.[0-9]+$/) { print $i; exit } }' vina.txt)
  awk -v a="$v" -v b="$best_atoms" 'BEGIN { exit !(a - b < 0.0015 && b - a < 0.0015) }' ||
    fail "vina --score_only on the receptor gives $v, dock --receptor wrote $best_atoms"
  echo "best pose: dock --receptor $best_atoms, vina --score_only $v"
else
  skip_part "the comparison with vina --score_only" "vina not installed"
fi
# PoseBusters' checks in the CSV: the columns, every pose checked, the crystal-like poses of this
# small search valid (biotin keeps its bonds, angles, rings and stereo by construction)
head -1 atoms.csv | grep -q ',posebusters_valid,posebusters_failed$' || fail "dock --csv: no posebusters columns: $(head -1 atoms.csv)"
awk -F, 'NR > 1 { n++; if ($10 != 0 && $10 != 1) bad++; if ($10 == 0 && $11 == "") bad++ } END { exit !(n >= 2 && !bad) }' atoms.csv ||
  fail "dock --csv: posebusters columns: $(cut -d, -f10,11 atoms.csv | tr '\n' ' ')"
awk -F, 'NR == 2 { exit !($10 == 1) }' atoms.csv || fail "the best pose is not PoseBusters-valid: $(sed -n 2p atoms.csv)"
# ... and as SD items of SDF poses
expect_rc 0 "$vsgrid" dock m "$lig" "${quick[@]}" --receptor "$rec" -o atoms.sdf --quiet
[ "$(grep -c '^> <vsgrid_posebusters_valid>' atoms.sdf)" = "$(grep -c '^\$\$\$\$' atoms.sdf)" ] &&
  [ "$(awk '$0 == "> <vsgrid_posebusters_valid>" { getline; print; exit }' atoms.sdf)" = 1 ] ||
  fail "SDF poses: no vsgrid_posebusters_valid items, or the best pose not valid"
grep -q '^> <vsgrid_posebusters_failed>' atoms.sdf || fail "SDF poses: no vsgrid_posebusters_failed item"
# another receptor than the maps': its refinement and scores would mean nothing: exit 3, nothing written
rm -f other.pdbqt
expect_rc 3 "$vsgrid" dock m "$lig" "${quick[@]}" --receptor "$src/data/inha/receptor.pdbqt" -o other.pdbqt
grep -q "is not the one the maps were made from" err.txt || fail "another receptor: $(cat err.txt)"
[ -e other.pdbqt ] && fail "another receptor: poses written"
# a receptor that cannot be read: exit 3, nothing written
rm -f bad.pdbqt
expect_rc 3 "$vsgrid" dock m "$lig" "${quick[@]}" --receptor missing.pdbqt -o bad.pdbqt
[ -e bad.pdbqt ] && fail "an unreadable receptor: poses written"
echo "$fails failure(s)"
exit $((fails > 0))
