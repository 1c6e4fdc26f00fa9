#!/usr/bin/env bash
# Issue 27, item 9: messages that name what to do. Each wrong turn a new user takes ends in an exit
# code a script can read and one message naming the command to run or the option to add:
#   --placement flexible without --scoring vina (exit 2: --scoring vina|vinardo, vsgrid maps);
#   a Vina map prefix screened without --scoring (exit 3: "is a Vina map set", --scoring vina), an
#   AutoDock4 prefix without .maps.fld (give PREFIX.maps.fld);
#   dock on a PB/Coulomb grid, an AutoDock4 set or one map file (exit 3: what it is, vsgrid maps),
#   on a Vina set's file name (its prefix) or on a file that does not exist (no such file);
#   a PDB file named .pdbqt, as receptor or ligand (exit 3: "looks like a PDB file", vsgrid prepare);
#   a PQR receptor for Vina or AutoDock4 maps (exit 3: vsgrid prepare REC -o REC.pdbqt);
#   ligands with boron, platinum (status untyped; dock exit 3) and a receptor PDBQT with a Pt atom
#   (exit 3): the atom (number, line, name), the element and the elements that are typed.
# Usage: cli_messages.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_messages
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt
# has PATTERN WHAT: err.txt holds the fixed string PATTERN, else a failure naming WHAT
has() { grep -qF -- "$1" err.txt || fail "$2: no \"$1\" in: $(cat err.txt)"; }
one_line() { [ "$(grep -c . err.txt)" = 1 ] || fail "$1: more than one line: $(cat err.txt)"; }

expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" -o a4 --device cpu --quiet
expect_rc 0 "$vsgrid" grid "$rec" --method coulomb --around "$lig" --spacing 0.5 --device cpu -o g.vsg --quiet
[ -s m.C_H.map ] && [ -s a4.maps.fld ] && [ -s g.vsg ] || { fail "no maps or grid"; echo "$fails failure(s)"; exit 1; }

# 1. --placement flexible without --scoring vina: usage (2), naming --scoring vina and how to make the maps.
for t in m g.vsg a4.maps.fld; do
  expect_rc 2 "$vsgrid" screen "$t" "$lig" --placement flexible -o r.csv
  has "--scoring vina|vinardo" "screen $t --placement flexible"
  has "vsgrid maps REC.pdbqt --scoring vina" "screen $t --placement flexible"
  grep -q "is not as-is or rigid" err.txt && fail "screen $t --placement flexible: the old message"
done
expect_rc 2 "$vsgrid" rescore "$rec" "$lig" --placement flexible --around "$lig" -o r.csv --device cpu
has "--scoring vina|vinardo" "rescore --placement flexible without --scoring"

# 2. A Vina prefix without --scoring: exit 3, "is a Vina map set: add --scoring vina (or vinardo)".
expect_rc 3 "$vsgrid" screen m "$lig" -o r.csv --quiet
has "m is a Vina map set" "Vina prefix without --scoring"
has "add --scoring vina (or vinardo" "Vina prefix without --scoring"
one_line "Vina prefix without --scoring"
grep -q "unknown grid format" err.txt && fail "Vina prefix: still 'unknown grid format'"
expect_rc 3 "$vsgrid" screen a4 "$lig" -o r.csv --quiet                     # an AutoDock4 prefix
has "give a4.maps.fld" "AutoDock4 prefix without .maps.fld"
expect_rc 3 "$vsgrid" screen nothing_here "$lig" -o r.csv --quiet           # neither: the formats
has "unknown grid format" "no grid at all"
has "--scoring vina" "no grid at all"

# 3. dock on what is not a Vina map set: what it is, and the command that makes Vina maps.
expect_rc 3 "$vsgrid" dock g.vsg "$lig" -o d.pdbqt --quiet
has "g.vsg is a PB/Coulomb grid, not a Vina map set" "dock on a PB grid"
has "vsgrid maps REC.pdbqt --scoring vina --around LIG -o PREFIX" "dock on a PB grid"
one_line "dock on a PB grid"
expect_rc 3 "$vsgrid" dock a4.maps.fld "$lig" -o d.pdbqt --quiet
has "is an AutoDock4 map set, not a Vina map set" "dock on an AutoDock4 map set"
expect_rc 3 "$vsgrid" dock a4.C.map "$lig" -o d.pdbqt --quiet
has "is one map file, not a Vina map set" "dock on one map file"
# a Vina set's file given where its prefix goes: the prefix to give, not "what it is"
expect_rc 3 "$vsgrid" dock m.C_H.map "$lig" -o d.pdbqt --quiet
has "m.C_H.map is a file name, not a map set's prefix: give m " "dock on one of a Vina set's map files"
expect_rc 3 "$vsgrid" dock m.maps.fld "$lig" -o d.pdbqt --quiet
has "give m " "dock on PREFIX.maps.fld of a Vina set (no such file)"
expect_rc 3 "$vsgrid" dock nothere.maps.fld "$lig" -o d.pdbqt --quiet
has 'no Vina map set "nothere.maps.fld": no such file' "dock on a .maps.fld that does not exist"
expect_rc 3 "$vsgrid" dock nothere "$lig" -o d.pdbqt --quiet
has 'no Vina map with prefix "nothere"' "dock on nothing"
has "vsgrid maps REC.pdbqt --scoring vina" "dock on nothing"

# 4. A PDB file named .pdbqt: "looks like a PDB file", vsgrid prepare (receptor), the ligand formats.
awk '/^ATOM/ { nm = substr($0, 13, 4); gsub(/ /, "", nm); e = substr(nm, 1, 1)
               if (e != "H") printf "%-76s%2s\n", substr($0, 1, 66), e } END { print "END" }' "$rec" > rec_pdb.pdbqt
awk '/^(ATOM|HETATM)/ { printf "%-76s%2s\n", substr($0, 1, 66), substr($0, 78, 1) }' "$lig" > lig_pdb.pdbqt
expect_rc 3 "$vsgrid" maps rec_pdb.pdbqt --scoring vina --around "$lig" -o mp --device cpu --quiet
has "rec_pdb.pdbqt:1: looks like a PDB file, not PDBQT" "PDB receptor named .pdbqt"
has "vsgrid prepare rec_pdb.pdbqt -o REC.pdbqt" "PDB receptor named .pdbqt"
grep -q "missing charge" err.txt && fail "PDB receptor named .pdbqt: still 'missing charge'"
expect_rc 3 "$vsgrid" grid rec_pdb.pdbqt --method coulomb --around "$lig" --device cpu -o x.vsg --quiet
has "looks like a PDB file, not PDBQT" "grid on a PDB receptor named .pdbqt"
expect_rc 3 "$vsgrid" probe g.vsg lig_pdb.pdbqt                             # a ligand read as a molecule
has "looks like a PDB file, not PDBQT" "PDB ligand named .pdbqt"
has "PDB, SDF or MOL2" "PDB ligand named .pdbqt"
expect_rc 0 "$vsgrid" prepare rec_pdb.pdbqt -o rec_prepared.pdbqt                  # the advice works
expect_rc 0 "$vsgrid" screen m lig_pdb.pdbqt --scoring vina -o r.csv --quiet   # the ligand reader: by content
has "the content is PDB, not PDBQT" "ligand library: PDB named .pdbqt"

# 5. A PQR receptor for Vina or AutoDock4 maps: vsgrid prepare first (prepare_receptor4.py as an alternative).
for s in vina ad4; do
  expect_rc 3 "$vsgrid" maps "$src/data/fas2.pqr" --scoring $s --box -1.3,0.2,25.4,12,12,12 -o q$s --device cpu --quiet
  has "has no AutoDock type" "PQR for $s maps"
  has "make one with 'vsgrid prepare $src/data/fas2.pqr -o REC.pdbqt'" "PQR for $s maps"
  one_line "PQR for $s maps"
done
expect_rc 0 "$vsgrid" prepare "$src/data/fas2.pqr" -o fas2.pdbqt       # the advice works
expect_rc 0 "$vsgrid" maps fas2.pdbqt --scoring vina --box -1.3,0.2,25.4,12,12,12 -o qok --device cpu --quiet

# 6. Unsupported elements: the atom (number, line), the element, why, and which elements are typed.
cat > b_pt.sdf <<'EOF'
methylboronic_acid
     RDKit          3D

  9  8  0  0  0  0  0  0  0  0999 V2000
   14.9150    2.0360   -8.5620 C   0  0  0  0  0  0  0  0  0  0  0  0
   16.5070    1.9610   -8.6200 B   0  0  0  0  0  0  0  0  0  0  0  0
   17.3210    3.0680   -9.0750 O   0  0  0  0  0  0  0  0  0  0  0  0
   17.1290    0.9480   -7.7580 O   0  0  0  0  0  0  0  0  0  0  0  0
   14.5200    1.0130   -8.8010 H   0  0  0  0  0  0  0  0  0  0  0  0
   14.5180    2.6980   -9.3540 H   0  0  0  0  0  0  0  0  0  0  0  0
   14.5560    2.2970   -7.5570 H   0  0  0  0  0  0  0  0  0  0  0  0
   17.3150    3.8470   -8.4530 H   0  0  0  0  0  0  0  0  0  0  0  0
   17.2190    0.1310   -8.3200 H   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  2  4  1  0
  1  5  1  0
  1  6  1  0
  1  7  1  0
  3  8  1  0
  4  9  1  0
M  END
$$$$
cisplatin
     RDKit          3D

  9  8  0  0  0  0  0  0  0  0999 V2000
   14.3720    1.3780   -8.5710 N   0  0  0  0  0  0  0  0  0  0  0  0
   16.0370    2.5410   -8.6290 Pt  0  0  0  0  0  4  0  0  0  0  0  0
   17.4600    1.2090   -8.1600 N   0  0  0  0  0  0  0  0  0  0  0  0
   15.6970    3.3570   -6.4280 Cl  0  0  0  0  0  0  0  0  0  0  0  0
   16.2470    3.8430   -9.6440 Cl  0  0  0  0  0  0  0  0  0  0  0  0
   14.5840    0.7380   -9.3470 H   0  0  0  0  0  0  0  0  0  0  0  0
   13.6750    2.0850   -8.8380 H   0  0  0  0  0  0  0  0  0  0  0  0
   18.1890    1.8340   -7.7540 H   0  0  0  0  0  0  0  0  0  0  0  0
   17.7390    1.0150   -9.1300 H   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  2  4  1  0
  2  5  1  0
  1  6  1  0
  1  7  1  0
  3  8  1  0
  3  9  1  0
M  END
$$$$
EOF
expect_rc 8 "$vsgrid" screen m b_pt.sdf --scoring vina -o r.csv --quiet
row() { awk -v r="$1" 'NR == r + 2' r.csv; }
for k in 0 1; do
  case $k in 0) el=B at="atom 2 (line 6)" ;; 1) el=Pt at="atom 2 (line 29)" ;; esac
  row $k | grep -q ",untyped," || fail "element $el: row $(row $k)"
  row $k | grep -qF "$at: element $el has no AutoDock 4 type" || fail "element $el: atom and element not named: $(row $k)"
  row $k | grep -qF "H C N O F P S Cl Br I" || fail "element $el: the typed elements not named: $(row $k)"
done
expect_rc 8 "$vsgrid" screen m b_pt.sdf --scoring vina --placement flexible --search fast --threads 1 -o rf.csv --quiet
grep -qF "element Pt has no AutoDock 4 type" rf.csv || fail "flexible screen, Pt: $(cat rf.csv)"
awk '/\$\$\$\$/ { print; exit } { print }' b_pt.sdf > boron.sdf
expect_rc 3 "$vsgrid" dock m boron.sdf -o d.pdbqt --quiet
has "atom 2 (line 6): element B has no AutoDock 4 type" "dock, boron"
has "leave the molecule out or replace the atom" "dock, boron"
# a MOL2 atom keeps its name in the message
printf '@<TRIPOS>MOLECULE\nbor\n3 2\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n1 C1 14.9 2.0 -8.5 C.3 1 LIG 0.0\n2 B1 16.5 2.0 -8.6 B 1 LIG 0.0\n3 O1 17.3 3.0 -9.0 O.3 1 LIG 0.0\n@<TRIPOS>BOND\n1 1 2 1\n2 2 3 1\n' > bor.mol2
expect_rc 8 "$vsgrid" screen m bor.mol2 --scoring vina -o r.csv --quiet
grep -qF "atom 2 ('B1', line 9): element B" r.csv || fail "MOL2 boron: name not given: $(cat r.csv)"
# a receptor PDBQT with a platinum atom: its line, name, type and the types known
grep -v '^END' "$rec" > rec_pt.pdbqt
printf 'HETATM 9999 PT1  CPT A 200      15.000  10.000  -8.000  1.00  0.00     2.000 Pt\n' >> rec_pt.pdbqt
for s in vina ad4; do
  expect_rc 3 "$vsgrid" maps rec_pt.pdbqt --scoring $s --around "$lig" -o pt$s --device cpu --quiet
  has "unknown AutoDock atom type 'Pt' (atom 'PT1')" "receptor Pt, $s"
  has "receptor types: H HD C A N NA OA S SA" "receptor Pt, $s"
  has "remove the atom" "receptor Pt, $s"
  one_line "receptor Pt, $s"
done

echo "$fails failure(s)"
[ "$fails" = 0 ]
