#!/usr/bin/env bash
# `vsgrid check-poses POSES... [--receptor R] [--reference L] [--maps P | --box ...] [-o CSV]`:
# PoseBusters' checks of each pose. Without extra data: --help, usage errors (2), unreadable
# inputs (3, one line naming the file), an unwritable -o (1), the 1STP biotin crystal pose
# against its receptor and a box (valid), biotin mirrored against biotin (stereo inverted, 3
# centres, not valid, exit 0), biotin shifted 30 A (outside the box, away from the receptor), a
# pose of another molecule (its row 'mismatch', exit 3).
# With ../shared/data: an adgpu_set42 crystal ligand against its protein: valid.
# Usage: cli_check_poses.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_check_poses
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
lig=$src/data/biotin.pdbqt rec=$src/data/1stp_receptor.pdbqt
box=10,1,-10,30,30,30

expect_rc 0 "$vsgrid" check-poses --help
grep -q "usage: vsgrid check-poses" out.txt || fail "check-poses --help has no usage line"
for opt in --receptor --reference --maps --box -o --quiet receptor_clash inside_box valid; do
  grep -q -- "$opt" out.txt || fail "check-poses --help does not document $opt"
done
expect_rc 0 "$vsgrid" --help
grep -q "^  check-poses POSES" out.txt || fail "vsgrid --help does not list check-poses"

# usage errors: 2, one line and the --help hint
expect_rc 2 "$vsgrid" check-poses
expect_rc 2 "$vsgrid" check-poses "$lig" --frobnicate
grep -q "unknown option --frobnicate" err.txt || fail "unknown option message: $(cat err.txt)"
expect_rc 2 "$vsgrid" check-poses "$lig" --box 1,2,3
grep -q -- "--box" err.txt || fail "bad --box message: $(cat err.txt)"
expect_rc 2 "$vsgrid" check-poses "$lig" --box $box --maps somewhere
expect_rc 2 "$vsgrid" check-poses "$lig" --receptor

# unreadable inputs: 3, a message naming the file
expect_rc 3 "$vsgrid" check-poses nothere.pdbqt
grep -q "nothere.pdbqt" err.txt || fail "a missing POSES file is not named: $(cat err.txt)"
expect_rc 3 "$vsgrid" check-poses "$lig" --receptor norec.pdbqt
grep -q "norec.pdbqt" err.txt || fail "a missing receptor is not named: $(cat err.txt)"
expect_rc 3 "$vsgrid" check-poses "$lig" --reference noref.sdf
grep -q "noref.sdf" err.txt || fail "a missing reference is not named: $(cat err.txt)"
expect_rc 3 "$vsgrid" check-poses "$lig" --maps nomaps/x
grep -q "nomaps/x" err.txt || fail "missing maps are not named: $(cat err.txt)"
printf 'garbage\n' > bad.sdf
expect_rc 3 "$vsgrid" check-poses bad.sdf
[ "$(wc -l < err.txt)" -le 2 ] || fail "a malformed SDF gives more than two lines: $(cat err.txt)"
grep -q "bad.sdf" err.txt || fail "a malformed SDF is not named: $(cat err.txt)"
expect_rc 1 "$vsgrid" check-poses "$lig" -o nodir/out.csv
grep -q "nodir" err.txt || fail "an unwritable -o is not named: $(cat err.txt)"

# col NAME: the column NAME of CSV row 1 of checks.csv
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' checks.csv; }

# the crystal pose: valid, every check run
expect_rc 0 "$vsgrid" check-poses "$lig" --receptor "$rec" --box $box -o checks.csv
[ "$(head -1 checks.csv | tr ',' '\n' | wc -l)" = 23 ] || fail "23 CSV columns: $(head -1 checks.csv)"
[ "$(wc -l < checks.csv)" = 2 ] || fail "one row per record: $(cat checks.csv)"
[ "$(col valid)" = 1 ] || fail "biotin's crystal pose is not valid: $(cat checks.csv)"
[ "$(col stereo_centres)" = 3 ] || fail "biotin has 3 stereo centres: $(col stereo_centres)"
[ "$(col receptor_clash)" = 1 ] && [ "$(col inside_box)" = 1 ] || fail "receptor/box checks: $(cat checks.csv)"
grep -q "1 poses checked, 1 valid" err.txt || fail "summary line: $(cat err.txt)"
# without receptor and box their columns are empty (not run), the pose still valid
expect_rc 0 "$vsgrid" check-poses "$lig" -o checks.csv --quiet
[ "$(col receptor_clash)" = "" ] && [ "$(col inside_box)" = "" ] && [ "$(col valid)" = 1 ] ||
  fail "checks not run are empty: $(cat checks.csv)"
[ ! -s err.txt ] || fail "--quiet prints: $(cat err.txt)"
# to standard output by default
expect_rc 0 "$vsgrid" check-poses "$lig" --quiet
head -1 out.txt | grep -q "^index,name,bond_lengths" || fail "CSV on stdout: $(head -2 out.txt)"

# biotin mirrored (x -> -x): bonds and angles kept, its 3 stereo centres inverted
awk '/^(ATOM|HETATM)/ { x = substr($0, 31, 8) + 0; $0 = substr($0, 1, 30) sprintf("%8.3f", -x) substr($0, 39) } { print }' \
  "$lig" > mirror.pdbqt
expect_rc 0 "$vsgrid" check-poses mirror.pdbqt --reference "$lig" -o checks.csv
[ "$(col stereo)" = 0 ] && [ "$(col inverted_centres)" = 3 ] && [ "$(col valid)" = 0 ] ||
  fail "mirrored biotin: $(cat checks.csv)"
[ "$(col bond_lengths)" = 1 ] && [ "$(col bond_angles)" = 1 ] || fail "mirrored biotin's geometry: $(cat checks.csv)"
grep -q "stereo failed 1" err.txt || fail "summary names the failing check: $(cat err.txt)"

# biotin moved 30 A along x: outside the box, far from the receptor
awk '/^(ATOM|HETATM)/ { x = substr($0, 31, 8) + 30; $0 = substr($0, 1, 30) sprintf("%8.3f", x) substr($0, 39) } { print }' \
  "$lig" > moved.pdbqt
expect_rc 0 "$vsgrid" check-poses moved.pdbqt --reference "$lig" --receptor "$rec" --box $box -o checks.csv
[ "$(col inside_box)" = 0 ] && [ "$(col atoms_outside)" = 16 ] && [ "$(col valid)" = 0 ] ||
  fail "moved biotin, box: $(cat checks.csv)"

# another molecule: its row says mismatch, exit 3
expect_rc 3 "$vsgrid" check-poses "$src/data/inha/crystal_ligand.mol2" --reference "$lig" -o checks.csv
[ "$(col status)" = mismatch ] || fail "another molecule's row: $(cat checks.csv)"
grep -q "heavy atom" err.txt || fail "the mismatch is not explained: $(cat err.txt)"

# real data: a crystal ligand against its own protein
sd=$(shared_data "$src")
if [ -n "$sd" ] && [ -f "$sd/adgpu_set42/1hwi/flex-xray.pdbqt" ]; then
  d=$sd/adgpu_set42/1hwi
  expect_rc 0 "$vsgrid" check-poses "$d/flex-xray.pdbqt" --receptor "$d/protein.pdbqt" -o checks.csv
  [ "$(col valid)" = 1 ] || fail "1hwi crystal pose: $(cat checks.csv)"
else
  skip_part "the adgpu_set42 crystal pose" "no ../shared/data; set VSG_SHARED_DATA"
fi
[ "$fails" = 0 ] || exit 1
echo "cli_check_poses: ok"
