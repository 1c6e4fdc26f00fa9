#!/usr/bin/env bash
# Issue 20: a PDB file works wherever a receptor goes, prepared as `vsgrid prepare` does, and
# gives the same numbers as the prepared file given by hand: rescore (PB/Coulomb on a PQR; Vina
# and AutoDock4 on a PDBQT), maps --scoring ad4 (whose gpf must name a file autogrid4 can read:
# the prepared PDBQT is kept as PREFIX.receptor.pdbqt). A receptor given where screen wants a
# grid, and an all-zero-charge receptor for an AD4 map set, end in errors that say what to do.
# Usage: cli_receptor_pdb.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_receptor_pdb
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
lig=$src/data/biotin.pdbqt
shared=$(shared_data "$src")
pdb=$shared/autodock_gpu/1stp/1STP.pdb
[ -f "$pdb" ] || skip_test "no $pdb (set VSG_SHARED_DATA)"
# the first model's protein, as the PDB gives it (biotin, the HETATM, is the pose)
awk '/^ENDMDL/ { exit } /^ATOM|^TER/ { print } END { print "END" }' "$pdb" > rec.pdb
rows() { cut -d, -f2- "$1"; } # every column but the index

# screen given a receptor: an error naming the commands that make its grid (exit 3, no CSV row claims)
expect_rc 3 "$vsgrid" screen rec.pdb "$lig" -o r.csv --devices cpu
grep -q "is a receptor, not a grid" err.txt && grep -q "vsgrid maps rec.pdb" err.txt && grep -q "vsgrid rescore rec.pdb" err.txt ||
  fail "screen REC.pdb: $(cat err.txt)"
expect_rc 3 "$vsgrid" screen "$src/data/1stp_receptor.pdbqt" "$lig" --scoring vina -o r.csv
grep -q "is a receptor, not a grid" err.txt || fail "screen REC.pdbqt --scoring vina: $(cat err.txt)"

# PB/Coulomb rescoring: the PDB equals its PQR
expect_rc 0 "$vsgrid" prepare rec.pdb -o rec.pqr
expect_rc 0 "$vsgrid" rescore rec.pdb "$lig" --method coulomb --device cpu --devices cpu -o a.csv
grep -q "prepared rec.pdb" err.txt || fail "rescore REC.pdb: no preparation summary: $(head -2 err.txt)"
expect_rc 0 "$vsgrid" rescore rec.pqr "$lig" --method coulomb --device cpu --devices cpu -o b.csv --quiet
[ "$(rows a.csv)" = "$(rows b.csv)" ] || fail "rescore coulomb: PDB $(rows a.csv) vs PQR $(rows b.csv)"
awk -F, 'NR == 2 && !($6 < -0.5) { exit 1 }' a.csv || fail "rescore coulomb: biotin should score < -0.5: $(cat a.csv)"

if ! have_openbabel "$vsgrid"; then
  skip_part "Vina and AutoDock4 with a PDB receptor" "vsgrid built without Open Babel (PDBQT preparation)"
else
  expect_rc 0 "$vsgrid" prepare rec.pdb -o rec.pdbqt
  # Vina on the receptor's atoms
  expect_rc 0 "$vsgrid" rescore rec.pdb "$lig" --scoring vina -o a.csv
  expect_rc 0 "$vsgrid" rescore rec.pdbqt "$lig" --scoring vina -o b.csv --quiet
  [ "$(rows a.csv)" = "$(rows b.csv)" ] || fail "rescore vina: PDB $(rows a.csv) vs PDBQT $(rows b.csv)"
  # AutoDock4 through a map set: the kept PDBQT is the prepared file, named by the gpf
  expect_rc 0 "$vsgrid" rescore rec.pdb "$lig" --scoring ad4 --device cpu --devices cpu --keep-maps k/m -o a.csv --quiet
  expect_rc 0 "$vsgrid" rescore rec.pdbqt "$lig" --scoring ad4 --device cpu --devices cpu -o b.csv --quiet
  [ "$(rows a.csv)" = "$(rows b.csv)" ] || fail "rescore ad4: PDB $(rows a.csv) vs PDBQT $(rows b.csv)"
  cmp -s k/m.receptor.pdbqt rec.pdbqt || fail "rescore ad4 --keep-maps: k/m.receptor.pdbqt is not the prepared receptor"
  grep -q "^receptor .*m.receptor.pdbqt" k/m.gpf || fail "rescore ad4: the gpf names $(grep '^receptor ' k/m.gpf)"
  # maps --scoring ad4 of the PDB: the same values as of its PDBQT
  expect_rc 0 "$vsgrid" maps rec.pdb --scoring ad4 --around "$lig" --ligand-types C,OA,N,HD -o a/m --device cpu
  grep -q "prepared rec.pdb" err.txt && grep -q "a/m.receptor.pdbqt" err.txt || fail "maps REC.pdb: $(head -3 err.txt)"
  expect_rc 0 "$vsgrid" maps rec.pdbqt --scoring ad4 --around "$lig" --ligand-types C,OA,N,HD -o b/m --device cpu --quiet
  for t in C OA N HD e d; do
    cmp -s <(tail -n +7 a/m.$t.map) <(tail -n +7 b/m.$t.map) || fail "maps ad4 of the PDB: the $t map differs from the PDBQT's"
  done
  grep -q "^receptor .*a/m.receptor.pdbqt" a/m.gpf || fail "maps ad4: the gpf names $(grep '^receptor ' a/m.gpf)"
  if command -v autogrid4 > /dev/null 2>&1; then # the gpf works for autogrid4 as written
    (cd a && autogrid4 -p m.gpf -l m.glg > /dev/null 2>&1) || fail "autogrid4 -p a/m.gpf failed: $(tail -3 a/m.glg)"
    awk 'NR > 6 { n++ } END { exit n != 0 + 0 ? 0 : 1 }' a/m.OA.map || fail "autogrid4 wrote no OA map"
  else
    skip_part "autogrid4 on the gpf of a PDB receptor" "autogrid4 not installed"
  fi
  # an AutoDock4 map set of a receptor without charges: refused, unless --allow-zero-charges
  awk '/^(ATOM|HETATM)/ { printf "%s%6.3f%s\n", substr($0, 1, 70), 0, substr($0, 77); next } { print }' rec.pdbqt > zero.pdbqt
  expect_rc 3 "$vsgrid" maps zero.pdbqt --scoring ad4 --around "$lig" --ligand-types C -o z/m --device cpu
  grep -q -- "--allow-zero-charges" err.txt || fail "maps ad4, zero charges: $(cat err.txt)"
  [ -e z/m.C.map ] && fail "maps ad4, zero charges: a map was written"
  expect_rc 0 "$vsgrid" maps zero.pdbqt --scoring ad4 --around "$lig" --ligand-types C -o z/m --device cpu --allow-zero-charges --quiet
  expect_rc 2 "$vsgrid" maps zero.pdbqt --scoring vina --around "$lig" -o z/v --allow-zero-charges
fi
# the whole 1STP entry keeps biotin (HETATM BTN) in the receptor: rescoring biotin there warns
expect_rc 0 "$vsgrid" rescore "$pdb" "$lig" --method coulomb --device cpu --devices cpu -o holo.csv
grep -q "of the 16 heavy atoms of .*biotin.pdbqt lie within 1 A of atoms of .*1STP.pdb (first: BTN" err.txt ||
  fail "rescore in 1STP with its biotin: no warning: $(grep -i warn err.txt)"
# the whole 3CE3 entry keeps its inhibitor (HETATM 1FN) as part of the receptor: prepare names
# it and says to remove a bound ligand; maps around that very ligand warn that its pocket is full
e=$shared/autodock_gpu/3ce3
if [ -f "$e/3CE3.pdb" ]; then
  expect_rc 0 "$vsgrid" prepare "$e/3CE3.pdb" -o 3ce3.pqr
  grep -q "1FN A1401 (34 atoms): kept" err.txt && grep -q "remove a bound ligand's lines" err.txt ||
    fail "prepare 3CE3: the kept ligand is not named: $(cat err.txt)"
  if have_openbabel "$vsgrid"; then # (maps prepare the PDB into a PDBQT)
    expect_rc 0 "$vsgrid" maps "$e/3CE3.pdb" --scoring vina --around "$e/3ce3_ligand.pdb" -o m3/r --quiet
    grep -q "34 of the 34 heavy atoms .* (first: 1FN A1401)" err.txt || fail "maps in 3CE3's own ligand: $(cat err.txt)"
  fi
fi
echo "$fails failure(s)"
[ "$fails" = 0 ]
