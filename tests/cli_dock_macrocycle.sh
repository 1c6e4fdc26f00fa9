#!/usr/bin/env bash
# Vina's macrocycle example as its documentation runs it (issue 28 item 1), on the CPU: Meeko's
# PDBQT of a BACE-1 ligand (15-membered ring opened at C9–C20, both CG0, each with a G0 pseudo-atom;
# data/macrocycle/) docked into `vsgrid maps` of the example's receptor and box
# (--search fast, seeded). The PDBQT poses keep the G0 atoms, as vina writes them, each on its
# partner CG0 (within 0.1 Å: the glue closed the ring); the SDF poses have the ring closed as
# Meeko's export writes it: 41 atoms (no G0), the C9–C20 bond restored, and RDKit (when
# /usr/bin/python3 has it) reads each as the same molecule with its 15-membered ring closed. Then
# the MOL2 of the same ligand, whose ring vsgrid opens itself (below), and --rigid-macrocycles.
# Usage: cli_dock_macrocycle.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_macrocycle
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
d=$src/data/macrocycle
zcat "$d/BACE_1_receptor.pdbqt.gz" > rec.pdbqt || fail "receptor"
expect_rc 0 "$vsgrid" maps rec.pdbqt --scoring vina --box 30.103,6.152,15.584,20,20,20 -o m --device cpu --quiet
run=(--devices cpu --search fast --seed 3 --threads 2 --poses 3)
expect_rc 0 "$vsgrid" dock m "$d/BACE_1_ligand.pdbqt" "${run[@]}" -o p.pdbqt
expect_rc 0 "$vsgrid" dock m "$d/BACE_1_ligand.pdbqt" "${run[@]}" -o p.sdf
# PDBQT: every model has 43 atoms, 2 of them G0, each on the other CG0 (file atoms 10 on 27, 28 on 9)
awk '
  /^MODEL/ { n = 0; m++ }
  /^ATOM|^HETATM/ { n++; x[n] = substr($0, 31, 8); y[n] = substr($0, 39, 8); z[n] = substr($0, 47, 8); t[n] = substr($0, 78) }
  /^ENDMDL/ {
    if (n != 43 || t[10] !~ /^G0/ || t[28] !~ /^G0/ || t[9] !~ /^CG0/ || t[27] !~ /^CG0/) { print "model " m ": atoms/types"; bad++ }
    d1 = sqrt((x[10] - x[27])^2 + (y[10] - y[27])^2 + (z[10] - z[27])^2)
    d2 = sqrt((x[28] - x[9])^2 + (y[28] - y[9])^2 + (z[28] - z[9])^2)
    if (d1 > 0.1 || d2 > 0.1) { print "model " m ": G0-CG0 " d1 " " d2; bad++ }
  }
  END { if (m < 1) { print "no model"; bad++ } exit bad > 0 }' p.pdbqt > pdbqt.txt || fail "PDBQT poses: $(cat pdbqt.txt)"
# SDF: 41 atoms, no G0 type, a bond 9–26 (C9–C20) of a C–C length
awk '
  /^\$\$\$\$/ { if (!closed) { print "record " r ": no C9-C20 bond"; bad++ } ; r++; l = 0; closed = 0; next }
  { l++ }
  l == 4 { na = substr($0, 1, 3) + 0; nb = substr($0, 4, 3) + 0; if (na != 41) { print "record " r ": " na " atoms"; bad++ } }
  l > 4 && l <= 4 + na { x[l - 4] = substr($0, 1, 10); y[l - 4] = substr($0, 11, 10); z[l - 4] = substr($0, 21, 10) }
  l > 4 + na && l <= 4 + na + nb {
    a = substr($0, 1, 3) + 0; b = substr($0, 4, 3) + 0
    if ((a == 9 && b == 26) || (a == 26 && b == 9)) {
      dd = sqrt((x[a] - x[b])^2 + (y[a] - y[b])^2 + (z[a] - z[b])^2)
      if (dd < 1.35 || dd > 1.65) { print "record " r ": C9-C20 " dd " A"; bad++ }
      closed = 1
    }
  }
  / G0( |$)/ { print "record " r ": a G0 type"; bad++ }
  END { if (r < 1) { print "no record"; bad++ } exit bad > 0 }' p.sdf > sdf.txt || fail "SDF poses: $(cat sdf.txt)"
if /usr/bin/python3 -c "import rdkit" 2> /dev/null; then
  /usr/bin/python3 - p.sdf > rdkit.txt 2>&1 <<'EOF' || fail "RDKit: $(tail -5 rdkit.txt)"
import sys
from rdkit import Chem
smiles = set()
n = 0
for m in Chem.SDMolSupplier(sys.argv[1], removeHs=False):
    assert m is not None, "a record RDKit cannot read"
    rings = sorted(len(r) for r in m.GetRingInfo().AtomRings())
    assert rings == [6, 15], "rings %s, expected the benzene and the 15-membered macrocycle" % rings
    h = Chem.RemoveHs(m)
    assert h.GetNumAtoms() == 38, h.GetNumAtoms()
    smiles.add(Chem.MolToSmiles(h))
    n += 1
assert n == 3, n
assert len(smiles) == 1, smiles
print("rdkit: %d poses, macrocycle closed, one molecule: %s" % (n, smiles.pop()))
EOF
  cat rdkit.txt
else
  skip_part "RDKit reading of the macrocycle SDF poses" "python3-rdkit not installed"
fi

# The same molecule from its MOL2 (ring closed, all hydrogens; issue 28 item 1): vsgrid opens the
# ring as Meeko would (C16-C19, atoms 6 and 7 of the file: both CG0, a G0 each, appended after the
# 41 merged atoms), the PDBQT poses keep CG0/G0 (43 atoms, each G0 within 0.1 A of its partner),
# the SDF poses are the MOL2's molecule (87 atoms, 88 bonds, no G0) with the C16-C19 bond within
# 0.1 A of the input's 1.551 A; --rigid-macrocycles gives the old tree (41 atoms, 11 BRANCHes).
m2=$d/BACE_1_ligand.mol2
expect_rc 0 "$vsgrid" dock m "$m2" "${run[@]}" -o o.pdbqt
expect_rc 0 "$vsgrid" dock m "$m2" "${run[@]}" -o o.sdf
expect_rc 0 "$vsgrid" dock m "$m2" "${run[@]}" --rigid-macrocycles -o r.pdbqt
awk '
  /^MODEL/ { n = 0; nb = 0; m++ }
  /^BRANCH/ { nb++ }
  /^ATOM|^HETATM/ { n++; k = substr($0, 7, 5) + 0; x[k] = substr($0, 31, 8); y[k] = substr($0, 39, 8); z[k] = substr($0, 47, 8); t[k] = substr($0, 78) }
  /^ENDMDL/ {
    if (n != 43 || t[6] !~ /^CG0/ || t[7] !~ /^CG0/ || t[42] !~ /^G0/ || t[43] !~ /^G0/ || nb != 21) { print "model " m ": atoms/types/branches " n " " nb; bad++ }
    d1 = sqrt((x[42] - x[7])^2 + (y[42] - y[7])^2 + (z[42] - z[7])^2)
    d2 = sqrt((x[43] - x[6])^2 + (y[43] - y[6])^2 + (z[43] - z[6])^2)
    if (d1 > 0.1 || d2 > 0.1) { print "model " m ": G0-CG0 " d1 " " d2; bad++ }
  }
  END { if (m < 1) { print "no model"; bad++ } exit bad > 0 }' o.pdbqt > o_pdbqt.txt || fail "MOL2 opened, PDBQT poses: $(cat o_pdbqt.txt)"
awk '
  /^\$\$\$\$/ { if (!closed) { print "record " r ": no C16-C19 bond"; bad++ } ; r++; l = 0; closed = 0; next }
  { l++ }
  l == 4 { na = substr($0, 1, 3) + 0; nb = substr($0, 4, 3) + 0; if (na != 87 || nb != 88) { print "record " r ": " na " atoms " nb " bonds"; bad++ } }
  l > 4 && l <= 4 + na { x[l - 4] = substr($0, 1, 10); y[l - 4] = substr($0, 11, 10); z[l - 4] = substr($0, 21, 10) }
  l > 4 + na && l <= 4 + na + nb {
    a = substr($0, 1, 3) + 0; b = substr($0, 4, 3) + 0
    if ((a == 6 && b == 7) || (a == 7 && b == 6)) {
      dd = sqrt((x[a] - x[b])^2 + (y[a] - y[b])^2 + (z[a] - z[b])^2)
      if (dd < 1.451 || dd > 1.651) { print "record " r ": C16-C19 " dd " A (input 1.551)"; bad++ }
      closed = 1
    }
  }
  / G0( |$)/ { print "record " r ": a G0 type"; bad++ }
  END { if (r < 1) { print "no record"; bad++ } exit bad > 0 }' o.sdf > o_sdf.txt || fail "MOL2 opened, SDF poses: $(cat o_sdf.txt)"
awk '
  /^MODEL/ { n = 0; nb = 0; g = 0; m++ }
  /^BRANCH/ { nb++ }
  /^ATOM|^HETATM/ { n++; if (substr($0, 78) ~ /G0/) g++ }
  /^ENDMDL/ { if (n != 41 || nb != 11 || g) { print "model " m ": " n " atoms, " nb " branches, " g " G atoms"; bad++ } }
  END { if (m < 1) { print "no model"; bad++ } exit bad > 0 }' r.pdbqt > r_pdbqt.txt || fail "MOL2 --rigid-macrocycles: $(cat r_pdbqt.txt)"
if /usr/bin/python3 -c "import rdkit" 2> /dev/null; then
  /usr/bin/python3 - o.sdf > rdkit2.txt 2>&1 <<'EOF' || fail "RDKit, MOL2 poses: $(tail -5 rdkit2.txt)"
import sys
from rdkit import Chem
n = 0
for m in Chem.SDMolSupplier(sys.argv[1], removeHs=False):
    assert m is not None, "a record RDKit cannot read"
    rings = sorted(len(r) for r in m.GetRingInfo().AtomRings())
    assert rings == [6, 15], "rings %s" % rings
    n += 1
assert n == 3, n
print("rdkit: %d MOL2 poses, macrocycle closed" % n)
EOF
  cat rdkit2.txt
fi

# screen (flexible placement) and rescore (--scoring vina) take the switch too (a screen-job key):
# the torsdof column is 21 opened, 11 rigid; the rigid row keeps its note, the opened one has none
expect_rc 0 "$vsgrid" screen m "$m2" --scoring vina --placement flexible "${run[@]}" -o so.csv --quiet
expect_rc 0 "$vsgrid" screen m "$m2" --scoring vina --placement flexible "${run[@]}" --rigid-macrocycles -o sr.csv --quiet
expect_rc 0 "$vsgrid" rescore rec.pdbqt "$m2" --scoring vina -o ro.csv --quiet
expect_rc 0 "$vsgrid" rescore rec.pdbqt "$m2" --scoring vina --rigid-macrocycles -o rr.csv --quiet
for f in so:21 sr:11 ro:21 rr:11; do
  n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "torsdof") c = i } NR == 2 { print $c }' "${f%:*}.csv")
  [ "$n" = "${f#*:}" ] || fail "${f%:*}.csv: torsdof $n, expected ${f#*:}"
done
grep -q "kept rigid as in the input" sr.csv || fail "screen --rigid-macrocycles: no macrocycle note"
grep -q "kept rigid as in the input" so.csv && fail "screen, ring opened: the rigid-ring note"

[ "$fails" = 0 ] && echo "cli_dock_macrocycle: ok"
exit "$fails"
