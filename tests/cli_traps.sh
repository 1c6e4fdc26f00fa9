#!/usr/bin/env bash
# Issue 20, "no silent wrong answer": each trap ends in a one-line error or warning and an exit
# code a script can read, never in exit 0 with silent zeros. A misspelt library (exit 3, its io
# row written, the others screened) in screen (as-is PB/Coulomb grid, AD4 map set through
# rescore, Vina maps, flexible docking) and rescore; nothing scored inside the grid (exit 8,
# naming --placement); receptors with all charges 0 and boxes far from the receptor (grid,
# rescore: exit 3, --allow-zero-charges to go on); PDB ligands get bonds (CONECT, else
# distances) so Gasteiger charges and torsions work; the content decides the ligand format
# whatever the extension says, and an unknown one names --format; output paths checked first.
# Usage: cli_traps.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_traps
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt
# shift FILE D: a PDB/PDBQT file with every coordinate moved by D Å along x, y and z
shift_xyz() {
  awk -v d="$2" '/^(ATOM|HETATM)/ { printf "%s%8.3f%8.3f%8.3f%s\n", substr($0, 1, 30), substr($0, 31, 8) + d,
    substr($0, 39, 8) + d, substr($0, 47, 8) + d, substr($0, 55); next } { print }' "$1"
}
status_of() { awk -F, -v r="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i } NR == r + 2 { print $c }' "$1"; } # status of data row r (0-based)
shift_xyz "$lig" 60 > far.pdbqt
# the receptor with every charge 0.000, as 'obabel -xr -p' writes it
awk '/^(ATOM|HETATM)/ { printf "%s%6.3f%s\n", substr($0, 1, 70), 0, substr($0, 77); next } { print }' "$rec" > zero.pdbqt

expect_rc 0 "$vsgrid" grid "$rec" --method coulomb --dielectric 4r --around "$lig" --padding 6 --spacing 0.4 \
  --device cpu -o g.vsg --quiet
[ -s g.vsg ] || { fail "no grid"; expect_rc 1 "$vsgrid" screen g.vsg "$lig" -o r.csv --json no_such_dir/r.json --devices cpu
grep -q "no folder no_such_dir" err.txt || fail "screen --json no_such_dir/r.json: $(cat err.txt)"
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --method coulomb --grid-out g.csv --device cpu --devices cpu -o r.csv
expect_rc 1 "$vsgrid" rescore "$rec" "$lig" --method coulomb --sdf-out no_such_dir/s.sdf --device cpu --devices cpu -o r.csv

echo "$fails failure(s)"; exit 1; }

# 1. A library that cannot be opened: its io row, the other library screened, exit 3, a last line naming it.
expect_rc 3 "$vsgrid" screen g.vsg "$lig" no_such_library.sdf -o r.csv --devices cpu
[ "$(status_of r.csv 0)" = ok ] && [ "$(status_of r.csv 1)" = io ] || fail "screen, missing library: rows $(cat r.csv)"
tail -1 err.txt | grep -q "no_such_library.sdf" || fail "screen, missing library: last line $(tail -1 err.txt)"
expect_rc 3 "$vsgrid" screen g.vsg no_such_library.sdf -o r.csv --devices cpu --quiet    # --quiet: still said
grep -q "cannot be opened: no_such_library.sdf" err.txt || fail "screen --quiet, missing library: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore "$rec" "$lig" no_such_poses.pdbqt --method coulomb --device cpu --devices cpu -o r.csv
[ "$(status_of r.csv 1)" = io ] || fail "rescore, missing poses: rows $(cat r.csv)"
grep -q "no_such_poses.pdbqt" err.txt || fail "rescore, missing poses: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore "$rec" "$lig" no_such_poses.pdbqt --scoring ad4 --device cpu --devices cpu -o r.csv
grep -q "cannot be opened: no_such_poses.pdbqt" err.txt || fail "rescore ad4, missing poses: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet
awk '{ print } /^TORSDOF/ { exit }' "$lig" > one.pdbqt
expect_rc 3 "$vsgrid" screen m one.pdbqt no_such.pdbqt --scoring vina -o r.csv --quiet
[ "$(status_of r.csv 0)" = ok ] && [ "$(status_of r.csv 1)" = io ] || fail "vina screen, missing library: rows $(cat r.csv)"
grep -q "cannot be opened: no_such.pdbqt" err.txt || fail "vina screen, missing library: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore "$rec" one.pdbqt no_such.pdbqt --scoring vina -o r.csv --quiet
expect_rc 3 "$vsgrid" screen m one.pdbqt no_such.pdbqt --scoring vina --placement flexible --seed 1 \
  --exhaustiveness 1 --steps 200 --threads 1 -o r.csv --quiet
[ "$(status_of r.csv 1)" = io ] || fail "flexible, missing library: rows $(cat r.csv)"
grep -q "cannot be opened: no_such.pdbqt" err.txt || fail "flexible, missing library: $(cat err.txt)"

# 2. Nothing scored inside the grid (a library away from the pocket): exit 8, a warning naming --placement.
expect_rc 8 "$vsgrid" screen g.vsg far.pdbqt -o r.csv --devices cpu --quiet
[ "$(status_of r.csv 0)" = outside ] || fail "far library: rows $(cat r.csv)"
grep -q -- "--placement" err.txt && grep -q "rescore" err.txt || fail "far library: $(cat err.txt)"
expect_rc 0 "$vsgrid" screen g.vsg "$lig" far.pdbqt -o r.csv --devices cpu --quiet  # one inside: fine
expect_rc 8 "$vsgrid" screen m far.pdbqt --scoring vina -o r.csv --quiet
grep -q -- "--placement" err.txt || fail "vina, far library: $(cat err.txt)"
expect_rc 8 "$vsgrid" rescore "$rec" far.pdbqt --scoring vina -o r.csv --quiet   # 0 from no receptor atom near
[ "$(status_of r.csv 0)" = outside ] || fail "vina rescore, far poses: rows $(cat r.csv)"
expect_rc 0 "$vsgrid" grid --help
grep -q -- "--allow-zero-charges" out.txt || fail "grid --help does not document --allow-zero-charges"
expect_rc 0 "$vsgrid" rescore --help
grep -q -- "--allow-zero-charges" out.txt && grep -q "8 nothing scored" out.txt || fail "rescore --help: exit 8, --allow-zero-charges"
expect_rc 0 "$vsgrid" screen --help
grep -q "8 nothing scored" out.txt || fail "screen --help does not document exit 8"
grep -q "| 8 |" "$src/README.md" || fail "README's exit codes lack 8"

# 3. Receptors with every charge 0; boxes with no receptor atom near them.
expect_rc 3 "$vsgrid" grid zero.pdbqt --method coulomb --around "$lig" --device cpu -o z.vsg --quiet
grep -q "obabel -xr -p" err.txt && grep -q -- "--allow-zero-charges" err.txt || fail "grid, zero charges: $(cat err.txt)"
expect_rc 3 "$vsgrid" grid zero.pdbqt --around "$lig" --spacing 1 --device cpu -o z.vsg --quiet
expect_rc 0 "$vsgrid" grid zero.pdbqt --method coulomb --around "$lig" --spacing 1 --device cpu -o z.vsg --quiet \
  --allow-zero-charges
expect_rc 3 "$vsgrid" rescore zero.pdbqt "$lig" --method coulomb --device cpu --devices cpu -o r.csv --quiet
expect_rc 3 "$vsgrid" rescore zero.pdbqt "$lig" --scoring ad4 --device cpu --devices cpu -o r.csv --quiet
grep -q "obabel -xr -p" err.txt || fail "rescore ad4, zero charges: $(cat err.txt)"
expect_rc 3 "$vsgrid" grid "$rec" --around far.pdbqt --device cpu -o f.vsg --quiet
grep -q "within 8 A" err.txt || fail "grid, far --around: $(cat err.txt)"
expect_rc 3 "$vsgrid" grid "$rec" --method coulomb --box 80,80,80,10,10,10 --device cpu -o f.vsg --quiet
expect_rc 3 "$vsgrid" rescore "$rec" far.pdbqt --method coulomb --device cpu --devices cpu -o r.csv --quiet
grep -q "not placed on this receptor" err.txt || fail "rescore, far poses: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore "$rec" far.pdbqt --scoring ad4 --device cpu --devices cpu -o r.csv --quiet
# an SDF drawn in 2D (its header says 2D, every z 0): refused with a status that says what to do
printf 'flat\n     RDKit          2D\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n%s\n%s\n%s\n  1  2  1  0\n  2  3  2  0\nM  END\n$$$$\n' \
  "   10.0000    1.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0" \
  "   11.2990    1.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0" \
  "   12.5981    1.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0" > flat2d.sdf
expect_rc 8 "$vsgrid" screen g.vsg flat2d.sdf -o r.csv --devices cpu --charges file --quiet
grep -q ",not_3d,\"flat2d.sdf:1: .*EmbedMolecule" r.csv || fail "a 2D SDF: $(cat r.csv)"
sed 's/          2D/          3D/' flat2d.sdf > flat3d.sdf  # a 3D structure that happens to lie at z = 0
"$vsgrid" screen g.vsg flat3d.sdf -o r.csv --devices cpu --quiet 2>/dev/null
grep -q ",not_3d," r.csv && fail "an SDF headed 3D was refused as 2D: $(cat r.csv)"
# a co-crystallised ligand left in the receptor fills the pocket the box is around: warned
{ grep -E "^(ATOM|HETATM)" "$rec"; grep -E "^(ATOM|HETATM)" "$lig" | sed 's/^ATOM  /HETATM/'; } > holo.pdbqt
expect_rc 0 "$vsgrid" grid holo.pdbqt --method coulomb --around "$lig" --spacing 1 --device cpu -o h.vsg --quiet
grep -q "the ligand itself is part of the receptor" err.txt || fail "grid around a ligand inside the receptor: no warning: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps holo.pdbqt --scoring vina --around "$lig" -o holo/m --quiet
grep -q "the ligand itself is part of the receptor" err.txt || fail "maps around a ligand inside the receptor: no warning"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o apo/m --quiet
grep -q "part of the receptor" err.txt && fail "maps around biotin in the apo receptor warned: $(cat err.txt)"
# a PDB coordinate its 8.3 columns cannot hold: a format error naming the line (was 'out of memory')
printf 'ATOM      1  N   GLY A   1     1.0e+28   2.000   3.000  1.00  0.00           N\nEND\n' > huge.pdb
expect_rc 3 "$vsgrid" prepare huge.pdb -o huge.pqr
grep -q "huge.pdb:1: bad coordinates" err.txt || fail "prepare, a coordinate of 1e+28: $(cat err.txt)"

# 4. PDB ligands: bonds from CONECT (orders from repeated serials), else from distances.
awk '/^(ATOM|HETATM)/ { el = substr($0, 78, 2); gsub(/ /, "", el)
       if (el == "OA") el = "O"; else if (el == "SA") el = "S"; else if (el == "HD") el = "H"
       else if (el == "A") el = "C"; else if (el == "NA") el = "N"
       printf "%s          %-2s\n", substr($0, 1, 66), el } END { print "END" }' "$lig" > noconect.pdb
if have_openbabel "$vsgrid"; then
  expect_rc 0 "$vsgrid" screen g.vsg noconect.pdb -o r.csv --devices cpu --charges gasteiger --quiet
  [ "$(status_of r.csv 0)" = ok ] || fail "PDB without CONECT, gasteiger: $(cat err.txt) $(cat r.csv)"
else
  skip_part "the Gasteiger check of PDB ligands" "vsgrid built without Open Babel"
fi
expect_rc 0 "$vsgrid" rescore "$rec" noconect.pdb --scoring vina -o r.csv --quiet
[ "$(awk -F, 'NR == 2 { print $11 }' r.csv)" = 5 ] || fail "PDB without CONECT: torsions $(cat r.csv)"
# A box around a ligand in any ligand format: the crystal ligand's PDB (no charges needed for a
# box; refused before) and an SDF give the grid the PDBQT of the same atoms gives.
awk '/^(ATOM|HETATM)/ { n++; x[n] = substr($0, 31, 8); y[n] = substr($0, 39, 8); z[n] = substr($0, 47, 8)
       el = substr($0, 78, 2); gsub(/ /, "", el); if (el == "OA") el = "O"; else if (el == "SA") el = "S"
       else if (el == "HD") el = "H"; else if (el == "A") el = "C"; else if (el == "NA") el = "N"; e[n] = el }
     END { print "biotin"; print "  hand"; print ""; printf "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", n, 0
           for (i = 1; i <= n; i++) printf "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", x[i], y[i], z[i], e[i]
           print "M  END"; print "$$$$" }' "$lig" > around.sdf
for f in "$lig" noconect.pdb around.sdf; do
  expect_rc 0 "$vsgrid" grid "$rec" --method coulomb --around "$f" --spacing 1 --device cpu -o around.vsg --quiet
  "$vsgrid" info around.vsg | grep -E "origin|^.*grid [0-9]" >> around.txt
done
[ "$(sort -u around.txt | wc -l)" = 2 ] || fail "grid --around PDBQT/PDB/SDF: different boxes: $(cat around.txt)"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around around.sdf -o sdf/p --quiet
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o pdbqt/p --quiet
cmp -s sdf/p.C_H.map pdbqt/p.C_H.map || fail "maps --around an SDF: not the PDBQT's box"

# 5. The content decides the format: MOL2 in a .sd file (and gzipped), PDBQT in a .txt file;
# unknown: the error names --format.
cp one.pdbqt pdbqt_content.txt
{
  echo "@<TRIPOS>MOLECULE"; echo "carboxylate"; echo " 3 2 0 0 0"; echo "SMALL"; echo "USER_CHARGES"; echo ""
  echo "@<TRIPOS>ATOM"
  echo "      1 C1          9.0510    4.5760  -14.4590 C.2     1  BTN       0.1720"
  echo "      2 O1          8.1470    5.3730  -14.1720 O.co2   1  BTN      -0.6480"
  echo "      3 O2          8.6970    3.4980  -15.1320 O.co2   1  BTN      -0.6480"
  echo "@<TRIPOS>BOND"; echo "     1     1     2   ar"; echo "     2     1     3   ar"
} > mol2_content.sd
expect_rc 0 "$vsgrid" screen g.vsg mol2_content.sd -o r.csv --devices cpu --quiet
[ "$(status_of r.csv 0)" = ok ] || fail "MOL2 content in a .sd file: $(cat r.csv)"
grep -q "content is MOL2" err.txt || fail "MOL2 content in a .sd file: no warning: $(cat err.txt)"
gzip -c mol2_content.sd > mol2_content.sdf.gz
expect_rc 0 "$vsgrid" screen g.vsg mol2_content.sdf.gz -o r.csv --devices cpu --quiet
[ "$(status_of r.csv 0)" = ok ] || fail "MOL2 content in a .sdf.gz file: $(cat r.csv)"
expect_rc 0 "$vsgrid" screen g.vsg pdbqt_content.txt -o r.csv --devices cpu --quiet
[ "$(status_of r.csv 0)" = ok ] || fail "PDBQT content in a .txt file: $(cat r.csv)"
echo "not a molecule" > junk.dat
expect_rc 2 "$vsgrid" screen g.vsg junk.dat -o r.csv --devices cpu
grep -q -- "--format" err.txt || fail "unknown format: the error does not name --format: $(cat err.txt)"

# 6. Output paths checked before the solve.
expect_rc 2 "$vsgrid" grid "$rec" --around "$lig" --device cpu -o out.csv
grep -q "\.vsg, \.dx or \.dx\.gz" err.txt || fail "grid -o out.csv: $(cat err.txt)"
grep -q "iterations" err.txt && fail "grid -o out.csv solved before failing"
expect_rc 1 "$vsgrid" grid "$rec" --around "$lig" --device cpu -o no_such_dir/g.vsg
grep -q "no folder no_such_dir" err.txt || fail "grid -o no_such_dir/g.vsg: $(cat err.txt)"
grep -q "iterations" err.txt && fail "grid -o no_such_dir/g.vsg solved before failing"

expect_rc 1 "$vsgrid" screen g.vsg "$lig" -o r.csv --json no_such_dir/r.json --devices cpu
grep -q "no folder no_such_dir" err.txt || fail "screen --json no_such_dir/r.json: $(cat err.txt)"
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --method coulomb --grid-out g.csv --device cpu --devices cpu -o r.csv
expect_rc 1 "$vsgrid" rescore "$rec" "$lig" --method coulomb --sdf-out no_such_dir/s.sdf --device cpu --devices cpu -o r.csv

echo "$fails failure(s)"
[ "$fails" = 0 ]
