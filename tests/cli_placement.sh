#!/usr/bin/env bash
# `vsgrid screen --placement rigid` end to end (CPU twin, 200 rotations): the pose columns of
# the CSV, --poses-out as PDBQT (re-scored as-is, it gives the CSV's scores) and as SDF,
# --sdf-out with placed coordinates, usage errors. Skips (77) without ../shared.
# Usage: cli_placement.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_placement
d=${VSG_SHARED_DATA:-$src/../shared/data}/autodock_gpu/1stp
[ -f "$d/1stp_protein.maps.fld" ] || { echo "skipped: $d absent (../shared/data; set VSG_SHARED_DATA)"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
col() { awk -F, -v c="$2" 'NR > 1 { print $c }' "$1"; }
lig=$d/1stp_ligand.pdbqt
maps=$d/1stp_protein.maps.fld

expect_rc 0 "$vsgrid" screen --help
for opt in --placement --box --around --padding --site-step --rotations --top-poses --poses-out pose_qw; do
  grep -q -- "$opt" out.txt || fail "screen --help does not document $opt"
done
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --placement wiggle
# An electrostatic grid has no steric term: placement on it is refused, naming the command that
# makes a map set (issue 17: ligands sank into the protein on PB grids).
"$vsgrid" grid "$d/1stp_protein.pdbqt" --method coulomb --spacing 0.6 --around "$lig" --padding 4 --device cpu \
  -o elec.vsg --quiet 2> /dev/null || fail "no coulomb grid"
expect_rc 2 "$vsgrid" screen elec.vsg "$lig" -o r.csv --placement rigid --rotations 20
grep -q "vsgrid maps" err.txt && grep -q "steric" err.txt || fail "placement on an electrostatic grid: $(cat err.txt)"
[ -e r.csv ] && fail "refused placement wrote r.csv"
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --rotations 100          # needs rigid
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --placement rigid --poses-out p.mol2
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --placement rigid --top-poses 3  # needs --poses-out
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --placement rigid --box 1,2,3 
expect_rc 2 "$vsgrid" screen "$maps" "$lig" -o r.csv --placement rigid --box 1,2,3,4,5,6 --around "$lig"

# The crystal ligand and data/biotin.pdbqt (the same molecule), 200 rotations, 0.5 Å step.
expect_rc 0 "$vsgrid" screen "$maps" "$lig" "$src/data/biotin.pdbqt" -o r.csv --placement rigid --rotations 200 \
  --around "$lig" --padding 1 --site-step 0.5 --poses-out p.pdbqt --sdf-out s.sdf --json r.json --quiet
head -1 r.csv | grep -qx "index,name,source,record,atoms,score_kcal_mol,vdw_hb_kcal_mol,elec_kcal_mol,desolv_kcal_mol,pose_index,pose_qw,pose_qx,pose_qy,pose_qz,pose_tx,pose_ty,pose_tz,atoms_outside,status,message,ad4_intra" ||
  fail "CSV header: $(head -1 r.csv)"
[ "$(col r.csv 19 | sort -u)" = ok ] || fail "statuses: $(col r.csv 19 | tr '\n' ' ')"
[ "$(col r.csv 18 | sort -u)" = 0 ] || fail "a best pose has atoms outside: $(col r.csv 18 | tr '\n' ' ')"
awk -F, 'NR > 1 { n = $11 * $11 + $12 * $12 + $13 * $13 + $14 * $14; if (n < 0.9999 || n > 1.0001) bad = 1 } END { exit bad }' r.csv ||
  fail "pose quaternions are not unit"
awk -F, 'NR > 1 && $6 > -3 { bad = 1 } END { exit bad }' r.csv || fail "best scores not below -3 kcal/mol: $(col r.csv 6 | tr '\n' ' ')"
grep -q '"placement": *"rigid"' r.json || fail "--json lacks placement"
grep -q '"poses_scored"' r.json || fail "--json lacks poses_scored"
# --poses-out PDBQT: one rigid ligand per molecule, and re-scored where it is, the same scores.
[ "$(grep -c '^MODEL' p.pdbqt)" = 2 ] || fail "p.pdbqt: $(grep -c '^MODEL' p.pdbqt) models, expected 2"
[ "$(grep -c '^TORSDOF 0' p.pdbqt)" = 2 ] || fail "p.pdbqt lacks TORSDOF 0"
[ "$(grep -c '^ATOM' p.pdbqt)" = 36 ] || fail "p.pdbqt: $(grep -c '^ATOM' p.pdbqt) atoms, expected 36"
expect_rc 0 "$vsgrid" screen "$maps" p.pdbqt -o back.csv --quiet
paste -d, <(col r.csv 6) <(col back.csv 6) | awk -F, '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0.01) bad = 1 } END { exit bad }' ||
  fail "poses re-scored as-is differ from the placement's scores: $(col r.csv 6 | tr '\n' ' ') vs $(col back.csv 6 | tr '\n' ' ')"
# --sdf-out holds the placed coordinates and the pose tags.
[ "$(grep -c '^\$\$\$\$' s.sdf)" = 2 ] || fail "s.sdf: not 2 records"
grep -q "vsgrid_pose_quaternion_wxyz" s.sdf || fail "s.sdf lacks the pose tags"
# Same input, same best pose; --top-poses writes K poses per molecule, best first, as SDF.
expect_rc 0 "$vsgrid" screen "$maps" "$lig" -o r2.csv --placement rigid --rotations 200 --around "$lig" --padding 1 \
  --site-step 0.5 --poses-out p.sdf --top-poses 3 --quiet --threads 1
[ "$(col r2.csv 10)" = "$(col r.csv 10 | head -1)" ] || fail "pose index differs between runs: $(col r2.csv 10) vs $(col r.csv 10 | head -1)"
[ "$(grep -c '^\$\$\$\$' p.sdf)" = 3 ] || fail "p.sdf: $(grep -c '^\$\$\$\$' p.sdf) records, expected 3"
# (a V2000 molfile from PDBQT input carries no partial charges: only the parse is checked; no
# record scored is exit 8, issue 20)
expect_rc 8 "$vsgrid" screen "$maps" p.sdf -o back2.csv --quiet
[ "$(tail -n +2 back2.csv | wc -l | tr -d ' ')" = 3 ] && ! col back2.csv 11 | grep -q parse || fail "p.sdf re-read: $(col back2.csv 11 | tr '\n' ' ')"
# A box too far from the grid: no pose fits → status no_pose, the rows are written, exit 8 (nothing scored).
expect_rc 8 "$vsgrid" screen "$maps" "$lig" -o far.csv --placement rigid --rotations 20 --box 100,100,100,2,2,2 --quiet
[ "$(col far.csv 19)" = no_pose ] || fail "far box: status $(col far.csv 19)"
# As-is stays as it was: no pose columns.
expect_rc 0 "$vsgrid" screen "$maps" "$lig" -o asis.csv --quiet
head -1 asis.csv | grep -q pose_ && fail "as-is CSV has pose columns"

echo "$fails failure(s)"
[ "$fails" = 0 ]
