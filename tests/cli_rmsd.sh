#!/usr/bin/env bash
# `vsgrid rmsd REF POSES... [--no-symmetry]`: symmetry-aware heavy-atom RMSD of each pose record.
# Without extra data: --help, usage errors (2), a missing reference (3), biotin against itself
# (0), biotin with its carboxylate's oxygens swapped (0 symmetric, > 0.5 A in file order), a
# pose of another molecule (its row empty, exit 3).
# With ../shared/data (or $VSG_SHARED_DATA): data/biotin.pdbqt against the 1STP crystal ligand
# as SDF (record bonds) and PDB (bonds from distances): 0; the 1IEP crystal ligand (PDBQT and
# SDF) against vina's and autodock4's poses: vina pose 1 < 2 A, poses 3 and 4 > 2 A, and, when
# Open Babel's obrms is installed, every RMSD within 1e-3 A of `obrms -f` (the same measure:
# heavy atoms, graph symmetry, no superposition).
# Usage: cli_rmsd.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_rmsd
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
lig=$src/data/biotin.pdbqt

expect_rc 0 "$vsgrid" rmsd --help
grep -q "usage: vsgrid rmsd" out.txt || fail "rmsd --help has no usage line"
grep -q -- "--no-symmetry" out.txt || fail "rmsd --help does not document --no-symmetry"
expect_rc 0 "$vsgrid" --help
grep -q "^  rmsd REF POSES" out.txt || fail "vsgrid --help does not list rmsd"
expect_rc 2 "$vsgrid" rmsd
expect_rc 2 "$vsgrid" rmsd "$lig"
expect_rc 2 "$vsgrid" rmsd "$lig" "$lig" --frobnicate
expect_rc 3 "$vsgrid" rmsd nothere.pdbqt "$lig"

# rmsd_of ROW: the rmsd column of CSV row ROW (1-based, header excluded) of out.txt
rmsd_of() { sed -n "$(($1 + 1))p" out.txt | awk -F, '{ print $NF }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 < b + 0) }'; }

expect_rc 0 "$vsgrid" rmsd "$lig" "$lig"
[ "$(head -1 out.txt)" = "index,name,rmsd" ] || fail "CSV header: $(head -1 out.txt)"
[ "$(wc -l < out.txt)" = 2 ] || fail "one row per record: $(cat out.txt)"
[ "$(rmsd_of 1)" = "0.0000" ] || fail "biotin against itself: $(rmsd_of 1)"

# the carboxylate's oxygens O11 and O12 exchange coordinates (columns 31-54)
awk '/ O11 / { o11 = substr($0, 31, 24) } / O12 / { o12 = substr($0, 31, 24) }
     { line[NR] = $0 } END { for (i = 1; i <= NR; i++) { s = line[i]
       if (s ~ / O11 /) s = substr(s, 1, 30) o12 substr(s, 55)
       else if (s ~ / O12 /) s = substr(s, 1, 30) o11 substr(s, 55)
       print s } }' "$lig" > swapped.pdbqt
cmp -s swapped.pdbqt "$lig" && fail "the oxygens were not swapped"
expect_rc 0 "$vsgrid" rmsd "$lig" swapped.pdbqt
[ "$(rmsd_of 1)" = "0.0000" ] || fail "oxygens swapped, symmetric: $(rmsd_of 1)"
expect_rc 0 "$vsgrid" rmsd --no-symmetry "$lig" swapped.pdbqt
lt 0.5 "$(rmsd_of 1)" || fail "oxygens swapped, --no-symmetry: $(rmsd_of 1) (2 of 16 atoms moved by 2.2 A: 0.78)"

shared=${VSG_SHARED_DATA:-$src/../shared/data}
x=$shared/autodock_gpu/1stp
d=$shared/autodock_vina/1iep
if [ ! -f "$d/1iep_ligand_vina_out.pdbqt" ] || [ ! -f "$x/1stp_ligand.pdb" ]; then
  skip_part "crystal-ligand checks" "no shared data at $shared; set VSG_SHARED_DATA"
else
  # another molecule: the row stays, empty, and the exit code says so
  expect_rc 3 "$vsgrid" rmsd "$lig" "$d/1iep_ligand.pdbqt"
  [ "$(wc -l < out.txt)" = 2 ] && [ "$(rmsd_of 1)" = "" ] || fail "another molecule: row $(sed -n 2p out.txt)"
  grep -q "heavy atoms" err.txt || fail "another molecule: no reason: $(cat err.txt)"

  expect_rc 0 "$vsgrid" rmsd "$lig" "$x/Ligands_noHydrogens_withMissing_1_Instances.sdf" "$x/1stp_ligand.pdb"
  [ "$(rmsd_of 1)" = "0.0000" ] && [ "$(rmsd_of 2)" = "0.0000" ] || fail "biotin against the 1STP crystal ligand: $(cat out.txt)"

  expect_rc 0 "$vsgrid" rmsd "$d/1iep_ligand.pdbqt" "$d/1iep_ligand_vina_out.pdbqt"
  cp out.txt vina.csv
  cat vina.csv
  [ "$(wc -l < vina.csv)" = 5 ] || fail "1IEP: 4 vina poses, $(($(wc -l < vina.csv) - 1)) rows"
  lt "$(rmsd_of 1)" 2 || fail "1IEP vina pose 1: $(rmsd_of 1) A from the crystal pose"
  lt 2 "$(rmsd_of 3)" && lt 2 "$(rmsd_of 4)" || fail "1IEP vina poses 3, 4: $(rmsd_of 3), $(rmsd_of 4) A"
  s1=$(rmsd_of 1)
  expect_rc 0 "$vsgrid" rmsd --no-symmetry "$d/1iep_ligand.pdbqt" "$d/1iep_ligand_vina_out.pdbqt"
  awk -v a="$s1" -v b="$(rmsd_of 1)" 'BEGIN { exit !(a + 0 <= b + 0) }' ||
    fail "1IEP pose 1: symmetric $s1 above file-order $(rmsd_of 1)"
  # the SDF crystal record (another atom order, record bonds) gives the same numbers
  expect_rc 0 "$vsgrid" rmsd "$d/1iep_ligand.sdf" "$d/1iep_ligand_vina_out.pdbqt"
  cmp -s out.txt vina.csv || fail "1IEP: SDF and PDBQT references disagree: $(cat out.txt)"

  if command -v obrms > /dev/null 2>&1; then
    for poses in 1iep_ligand_vina_out.pdbqt 1iep_ligand_ad4_out.pdbqt; do
      expect_rc 0 "$vsgrid" rmsd "$d/1iep_ligand.sdf" "$d/$poses"
      ours=$(tail -n +2 out.txt | awk -F, '{ print $NF }' | tr '\n' ' ')
      theirs=$(obrms -f "$d/1iep_ligand.sdf" "$d/$poses" 2>/dev/null | awk '{ print $NF }' | tr '\n' ' ')
      echo "1IEP $poses: vsgrid $ours; obrms $theirs"
      awk -v a="$ours" -v b="$theirs" 'BEGIN { n = split(a, x, " "); m = split(b, y, " "); if (n != m || n == 0) exit 1
        for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-3) exit 1 } }' ||
        fail "1IEP $poses: vsgrid $ours, obrms $theirs"
    done
  else
    skip_part "the comparison with Open Babel obrms" "obrms not installed"
  fi
fi
[ "$fails" = 0 ] && echo "cli_rmsd: all checks passed"
[ "$fails" = 0 ]
