#!/usr/bin/env bash
# SMILES libraries end to end (issue 29): `vsgrid prepare-ligands LIB.smi -o OUT.sdf` writes one
# record per input record (failures: an empty molecule with vsgrid_status, one line on stderr
# naming file:line), RDKit reads the SDF with its charges; -o OUT.pdbqt one MODEL per record
# (failures: REMARK lines only), .gz gzipped; `vsgrid screen` of a .smi (and a
# .csv) docks biotin from its SMILES on 1STP Vina maps with an ok row and a finite score, a bad
# SMILES is a bad_smiles row naming file:line, and 1 and 2 threads give the same rows but for
# the scores' last digits (Open Babel's builder is clock-seeded: docs/FORMATS.md). Without Open
# Babel: exit 7 (prepare-ligands) and unsupported rows (screen).
# Usage: cli_smiles.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_smiles
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

biotin='OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12'
cat > lib.smi <<EOF
# biotin, a salt, a broken SMILES, an element vsgrid does not dock
$biotin biotin

CC(=O)[O-].[Na+] sodium acetate
C1CC( broken
C[Se]C selenide
EOF
printf 'id,SMILES\nb1,%s\nb2,C1CC(\n' "$biotin" > lib.csv

# Help and usage.
expect_rc 0 "$vsgrid" prepare-ligands --help
for opt in -o --ph --stereo --minimize --embed --threads; do grep -q -- "$opt" out.txt || fail "prepare-ligands --help lacks $opt"; done
expect_rc 0 "$vsgrid" --help
grep -q "prepare-ligands" out.txt || fail "vsgrid --help does not list prepare-ligands"
expect_rc 0 "$vsgrid" screen --help
grep -q -- "--ph X|none" out.txt || fail "screen --help does not document --ph"
grep -q -- "--minimize N" out.txt || fail "screen --help does not document --minimize"
expect_rc 0 "$vsgrid" dock --help
grep -q -- "--ph X|none" out.txt || fail "dock --help does not document --ph"
grep -q -- "--minimize N" out.txt || fail "dock --help does not document --minimize"
expect_rc 2 "$vsgrid" prepare-ligands lib.smi                       # no -o
expect_rc 2 "$vsgrid" prepare-ligands lib.smi -o out.sdf --ph 15
expect_rc 2 "$vsgrid" prepare-ligands lib.smi -o out.sdf --ph basic
expect_rc 2 "$vsgrid" prepare-ligands lib.smi -o out.mol2          # the format from the extension: .sdf or .pdbqt
grep -q ".sdf or .pdbqt" err.txt || fail "-o .mol2: $(cat err.txt)"
expect_rc 0 "$vsgrid" prepare-ligands --help
grep -q "OUT.pdbqt" out.txt || fail "prepare-ligands --help does not document -o OUT.pdbqt"

if ! have_openbabel "$vsgrid"; then
  expect_rc 7 "$vsgrid" prepare-ligands lib.smi -o out.sdf
  skip_part "SMILES preparation, screens" "vsgrid built without Open Babel"
  [ "$fails" = 0 ] && exit 0 || { echo "$fails failure(s)"; exit 1; }
fi

# prepare-ligands: 4 records, 2 failed, one line each naming file:line.
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o out.sdf --threads 2
[ "$(grep -c '^\$\$\$\$' out.sdf)" = 4 ] || fail "4 records in, $(grep -c '^\$\$\$\$' out.sdf) out"
grep -q "bad_smiles: lib.smi:5: record 3 (broken)" err.txt || fail "bad SMILES line: $(cat err.txt)"
grep -q "bad_element: lib.smi:6: record 4 (selenide)" err.txt || fail "Se line: $(cat err.txt)"
grep -q "4 records, 2 prepared, 2 failed" err.txt || fail "summary: $(tail -1 err.txt)"
grep -q "dropped Na+" out.sdf || fail "the salt's note is missing"
expect_rc 3 "$vsgrid" prepare-ligands missing.smi -o m.sdf           # an unreadable input
# malformed SMILES Open Babel's parser would take anyway: an unclosed branch (it reads
# "c1ccccc1(C" as toluene); bracket atoms may hold parentheses-free charges, never counted
printf 'c1ccccc1(C open\nCC(C)([NH3+])C fine\n' > syntax.smi
expect_rc 0 "$vsgrid" prepare-ligands syntax.smi -o syntax.sdf
grep -q "bad_smiles: syntax.smi:1: record 1 (open): the SMILES 'c1ccccc1(C' leaves 1 branch '(' unclosed" err.txt &&
  grep -q "2 records, 1 prepared, 1 failed" err.txt || fail "an unclosed branch: $(cat err.txt)"
# what Open Babel's parser makes a molecule of and RDKit refuses (where built with it): a
# pentavalent carbon, an aromatic ring no Kekulé structure has, a doubled bond symbol; an old-
# style nitro (RDKit's sanitisation makes it charge-separated) still goes through
if "$vsgrid" --version | grep -q "RDKit (SMILES 3D) yes"; then
  printf 'C(C)(C)(C)(C)C five\nc1cccc1 kek\nC==C dbl\nO=N(=O)c1ccccc1 nitro\n' > strict.smi
  expect_rc 0 "$vsgrid" prepare-ligands strict.smi -o strict.sdf
  grep -q "strict.smi:1: record 1 (five): RDKit refuses the SMILES 'C(C)(C)(C)(C)C': Explicit valence for atom # 0 C, 5" err.txt &&
    grep -q "strict.smi:2: record 2 (kek): RDKit refuses the SMILES 'c1cccc1': Can't kekulize" err.txt &&
    grep -q "strict.smi:3: record 3 (dbl): RDKit refuses" err.txt && grep -q "4 records, 1 prepared, 3 failed" err.txt ||
    fail "SMILES RDKit refuses: $(cat err.txt)"
fi
: > empty.smi
expect_rc 8 "$vsgrid" prepare-ligands empty.smi -o e.sdf             # nothing prepared: not exit 0
grep -q "none of the 1 records could be prepared" err.txt || fail "an empty library: $(cat err.txt)"
# PDBQT (tests/peer_vina_prepare.sh has vina read and score it): one MODEL per record, in order,
# the failures as models of REMARK lines; gzipped from the extension, as SDF
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o out.pdbqt.gz --threads 2
[ "$(gzip -dc out.pdbqt.gz | grep -c '^MODEL')" = 4 ] || fail "4 records in, $(gzip -dc out.pdbqt.gz | grep -c '^MODEL') models out"
[ "$(gzip -dc out.pdbqt.gz | awk '/^REMARK VSGRID STATUS:/ { printf "%s ", $4 }')" = "ok ok bad_smiles bad_element " ] ||
  fail "PDBQT statuses: $(gzip -dc out.pdbqt.gz | grep 'VSGRID STATUS' | tr '\n' ' ')"
gzip -dc out.pdbqt.gz | grep -q "^TORSDOF 5" || fail "biotin's PDBQT lacks TORSDOF 5"
grep -q "bad_smiles: lib.smi:5: record 3 (broken)" err.txt || fail "PDBQT: bad SMILES line: $(cat err.txt)"
expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o out.sdf.gz --quiet
[ "$(gzip -dc out.sdf.gz | grep -c '^\$\$\$\$')" = 4 ] || fail "out.sdf.gz: not 4 gzipped records"
# a CSV from standard input (read by one thread: its header cannot be read again)
"$vsgrid" prepare-ligands - --format csv -o stdin.sdf --threads 2 --quiet < lib.csv 2>err.txt
[ "$(grep -c '^\$\$\$\$' stdin.sdf)" = 2 ] && grep -q "bad_smiles: <stdin>:3:" err.txt ||
  fail "CSV from standard input: $(grep -c '^\$\$\$\$' stdin.sdf) records; $(cat err.txt)"

# Stereo Open Babel's builder cannot keep: it inverts this steroid's ring-fusion centres in
# every build (RDKit's CIP labels from the coordinates agree). Checked against the SMILES after
# each build: --stereo specified fails the record, the default keeps the build and says so in
# the message and the vsgrid_inverted_stereo item. RDKit's ETKDG (the default when the build has
# RDKit) keeps every centre, and gives the same molecule in every run, to the byte.
steroid='CC(=O)O[C@H]1CC[C@H]2[C@H]3CC[C@H]4CCC(=O)C[C@]4(C)[C@@H]3CC[C@]12C'
echo "$steroid ZINC04369590" > steroid.smi
expect_rc 8 "$vsgrid" prepare-ligands steroid.smi -o steroid.sdf --stereo specified --embed openbabel  # its one record failed: exit 8
grep -q "stereo: steroid.smi:1: record 1 (ZINC04369590): Open Babel's 3D builder inverted" err.txt ||
  fail "--stereo specified, inverted centres: $(cat err.txt)"
expect_rc 0 "$vsgrid" prepare-ligands steroid.smi -o steroid.sdf --embed openbabel
grep -A1 "vsgrid_inverted_stereo" steroid.sdf | tail -1 | grep -q "^[1-9]" && grep -q "docked as built" steroid.sdf ||
  fail "inverted centres not said: $(grep -A1 vsgrid_ steroid.sdf)"
grep -q "3D: Open Babel" steroid.sdf || fail "--embed openbabel: the molfile does not say Open Babel built it"
expect_rc 2 "$vsgrid" prepare-ligands steroid.smi -o steroid.sdf --embed corina
grep -q "embed" err.txt || fail "--embed corina: $(cat err.txt)"
if "$vsgrid" --version | grep -q "RDKit (SMILES 3D) yes"; then
  expect_rc 0 "$vsgrid" prepare-ligands steroid.smi -o rd1.sdf --stereo specified
  grep -A1 "vsgrid_inverted_stereo" rd1.sdf | tail -1 | grep -qx 0 && grep -q "3D: RDKit ETKDGv3" rd1.sdf ||
    fail "RDKit: the steroid's centres: $(grep -A1 vsgrid_ rd1.sdf)"
  expect_rc 0 "$vsgrid" prepare-ligands steroid.smi lib.smi -o rd2.sdf --threads 2
  expect_rc 0 "$vsgrid" prepare-ligands steroid.smi lib.smi -o rd3.sdf --threads 1
  head -c "$(wc -c < rd1.sdf)" rd2.sdf | cmp -s - rd1.sdf && cmp -s rd2.sdf rd3.sdf ||
    fail "RDKit: not the same molecules in every run and thread count"
  # Heavy atoms and ring hydrogens embedded first, the other hydrogens placed after
  # (embed_rdkit.cpp): every hydrogen there, bonded at its length, no two atoms clashing, the
  # stereo as the SMILES says, and a saturated ring's substituent equatorial (2H7L's ligand: its
  # N-cyclohexyl; embedded without the ring's hydrogens, 27 of 40 seeds put it axial).
  printf '%s\n' 'O=C(Nc1cccc(Br)c1)[C@H]1CC(=O)N(C2CCCCC2)C1 2h7l' 'CC(C)(C)[C@H]1CC[C@@H](O)CC1 tbch' \
    'CC(=O)Nc1ccc(O)cc1 paracetamol' 'N[C@@H](Cc1ccccc1)C(=O)O phe' > geo.smi
  expect_rc 0 "$vsgrid" prepare-ligands geo.smi -o geo.sdf --ph none
  if /usr/bin/python3 -c 'import rdkit' 2> /dev/null; then
    /usr/bin/python3 - geo.smi geo.sdf > geo.txt 2>&1 <<'EOF' || fail "RDKit embedding's geometry: $(cat geo.txt)"
import sys
from rdkit import Chem
from rdkit.Chem import rdMolTransforms as T
smis = [l.split() for l in open(sys.argv[1])]
ms = list(Chem.SDMolSupplier(sys.argv[2], removeHs=False))
assert len(ms) == len(smis) and all(ms), "every record read"
for (smi, name), m in zip(smis, ms):
    ref = Chem.AddHs(Chem.MolFromSmiles(smi))
    assert m.GetNumAtoms() == ref.GetNumAtoms(), (name, "atoms", m.GetNumAtoms(), ref.GetNumAtoms())
    c = m.GetConformer()
    for b in m.GetBonds():
        a, z = b.GetBeginAtom(), b.GetEndAtom()
        if 1 in (a.GetAtomicNum(), z.GetAtomicNum()):
            d = T.GetBondLength(c, a.GetIdx(), z.GetIdx())
            assert 0.95 < d < 1.12, (name, "X-H bond", d)
    dm = Chem.Get3DDistanceMatrix(m)
    topo = Chem.GetDistanceMatrix(m)
    n = m.GetNumAtoms()
    close = min(dm[i][j] for i in range(n) for j in range(i + 1, n) if topo[i][j] >= 3)
    assert close > 1.7, (name, "atoms 3+ bonds apart", close)
    Chem.AssignStereochemistryFrom3D(m)
    assert Chem.MolToSmiles(Chem.RemoveHs(m)) == Chem.MolToSmiles(Chem.MolFromSmiles(smi)), (name, "stereo")
def equatorial(m, smarts):  # X-C1 in a ring, then two ring atoms: anti (> 120 degrees) is equatorial
    x, c1, c2, c3 = m.GetSubstructMatch(Chem.MolFromSmarts(smarts))
    return abs(T.GetDihedralDeg(m.GetConformer(), x, c1, c2, c3)) > 120
assert equatorial(ms[0], "[N;R][CH1;R][CH2;R][CH2;R]"), "2h7l: N-cyclohexyl axial"
assert equatorial(ms[1], "[CX4;H0;!R][CH1;R][CH2;R][CH2;R]"), "tbch: tert-butyl axial"
EOF
  fi
else
  expect_rc 2 "$vsgrid" prepare-ligands steroid.smi -o rd1.sdf --embed rdkit
  grep -q "without RDKit" err.txt || fail "--embed rdkit without RDKit: $(cat err.txt)"
fi

# A 2D SDF record (a drawing: header 2D, every z 0) is prepared as its SMILES would be: acetic
# acid becomes 3D acetate at pH 7.4 (its drawing's SMILES in vsgrid_smiles); L-alanine's wedge gives its
# stereo. Without Open Babel it stays a not_3d row.
cat > flat.sdf <<'EOF'
acetic acid
     RDKit          2D

  4  3  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    2.2500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  2  0
  2  4  1  0
M  END
$$$$
L-alanine
     RDKit          2D

  6  5  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    2.2500    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -1.5000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
    3.8971    0.7500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  2  1  1  6
  2  3  1  0
  2  4  1  0
  4  5  2  0
  4  6  1  0
M  END
$$$$
EOF
expect_rc 0 "$vsgrid" prepare-ligands flat.sdf -o flat3d.sdf
grep -q "2 records, 2 prepared" err.txt || fail "2D SDF: $(cat err.txt)"
grep -A1 "vsgrid_smiles" flat3d.sdf | grep -qx 'CC(=O)O' && grep -q "net charge +0 -> -1 at pH 7.4" flat3d.sdf ||
  fail "acetic acid's SMILES and note: $(grep -A1 vsgrid_ flat3d.sdf)"
awk 'NR == 4 { n = $1 } NR > 4 && NR <= 4 + n && $3 != 0 { z = 1 } END { exit !z }' flat3d.sdf || fail "2D record still flat"
if /usr/bin/python3 -c 'import rdkit' 2>/dev/null; then
  /usr/bin/python3 - flat3d.sdf > rdkit2d.txt 2>&1 <<'EOF' || fail "2D SDF through RDKit: $(cat rdkit2d.txt)"
import sys
from rdkit import Chem
ms = list(Chem.SDMolSupplier(sys.argv[1], removeHs=False))
assert ms[0].GetNumAtoms() == 7 and Chem.GetFormalCharge(ms[0]) == -1, Chem.MolToSmiles(ms[0])
ala = ms[1]
Chem.AssignStereochemistryFrom3D(ala)
ref = Chem.MolFromSmiles("C[C@H]([NH3+])C(=O)[O-]")  # L-alanine, the wedge's configuration
assert Chem.MolToSmiles(Chem.RemoveHs(ala)) == Chem.MolToSmiles(ref), Chem.MolToSmiles(Chem.RemoveHs(ala))
EOF
fi

# Protonation (ligands/prepare/protonation_rules.cpp after Open Babel's pH model): each record's
# net formal charge (M  CHG) at pH 7.4, at 6.8 and with --ph none. Columns: SMILES, name,
# expected charge at 7.4, at 6.8. The rules' pKa: piperazine's second N 5.3 (one cation),
# ethylenediamine's 6.9 (7.2 in the rules: one cation at 7.4, two at 6.8),
# 2,2,2-trifluoroethylamine 5.7 and aminoacetonitrile 5.3 (neutral), triethylamine 10.7;
# benzamidine 11.6, benzamidoxime 4.8, a 2-arylimino-thiazolidin-4-one and cyanoguanidine not
# basic; a 1,2,4-triazole-3-thiol ~6.5 (anion at both), pyrimidine-2-thiol 7.1 (anion at 7.4,
# neutral at 6.8), pyridine-2-thiol 10 (neutral); a 2-aminoimidazole 8.5 (cation);
# 2-aminobenzimidazole 7.5 has no rule of vsgrid's: Open Babel's imidazole (7.0) protonates it
# at 6.8 only.
cat > proton.txt <<'EOF'
C1CNCCN1 piperazine 1 1
NCCN ethylenediamine 1 2
NCC(F)(F)F trifluoroethylamine 0 0
NCC#N aminoacetonitrile 0 0
CCN(CC)CC triethylamine 1 1
NC(=N)c1ccccc1 benzamidine 1 1
NC(=NO)c1ccccc1 benzamidoxime 0 0
O=C1CSC(=Nc2ccccc2)N1 iminothiazolidinone 0 0
NC(=N)NC#N cyanoguanidine 0 0
Cn1c(C)nnc1S triazolethiol -1 -1
Sc1ncccn1 pyrimidinethiol -1 0
Sc1ccccn1 pyridinethiol 0 0
CNc1nccn1C aminoimidazole 1 1
Nc1nc2ccccc2[nH]1 aminobenzimidazole 0 1
EOF
cut -d' ' -f1,2 proton.txt > proton.smi
charges() { # the net formal charge of each record of an SDF, one a line
  awk '/^M  CHG/ { for (i = 5; i <= NF; i += 2) q += $i } /^\$\$\$\$/ { print q + 0; q = 0 }' "$1"
}
expect_rc 0 "$vsgrid" prepare-ligands proton.smi -o p74.sdf --minimize 0
expect_rc 0 "$vsgrid" prepare-ligands proton.smi -o p68.sdf --minimize 0 --ph 6.8
expect_rc 0 "$vsgrid" prepare-ligands proton.smi -o pnone.sdf --minimize 0 --ph none
charges p74.sdf > q74.txt && charges p68.sdf > q68.txt && charges pnone.sdf > qnone.txt
paste -d' ' proton.txt q74.txt q68.txt qnone.txt > proton_got.txt
awk 'NF != 7 || $3 != $5 || $4 != $6 || $7 != 0 { print "  " $0; bad = 1 } END { exit bad }' proton_got.txt > proton_bad.txt ||
  fail "protonation (SMILES name want7.4 want6.8 got7.4 got6.8 got-none):
$(cat proton_bad.txt)"
# --ph none keeps a SMILES's own charges, even where the rules would change them
printf 'C[NH+]1CC[NH+](C)CC1 dication\nCc1nnc([S-])n1C thiolate\n' > own.smi
expect_rc 0 "$vsgrid" prepare-ligands own.smi -o own.sdf --minimize 0 --ph none
[ "$(charges own.sdf | tr '\n' ' ')" = "2 -1 " ] || fail "--ph none changed charges: $(charges own.sdf | tr '\n' ' ')"
expect_rc 0 "$vsgrid" prepare-ligands own.smi -o own74.sdf --minimize 0
[ "$(charges own74.sdf | tr '\n' ' ')" = "1 -1 " ] || fail "pH 7.4 of charged SMILES: $(charges own74.sdf | tr '\n' ' ')"

# Preparing processes (ligands/prepare/prepare_workers.h): a molecule that crashes Open Babel,
# or hangs it, fails its own record (embed_failed, file:line, what happened) and no other; the
# worker is replaced and the records after it are prepared as before.
VSG_TEST_PREP_CRASH="$biotin" expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o crash.sdf --threads 2
grep -q "embed_failed: lib.smi:2: record 1 (biotin): Open Babel crashed on this molecule" err.txt ||
  fail "a crash in Open Babel: $(cat err.txt)"
grep -q "4 records, 1 prepared, 3 failed" err.txt || fail "after a crash: $(tail -1 err.txt)"
grep -q "dropped Na+" crash.sdf || fail "the record after the crash was not prepared"
VSG_PREP_TIMEOUT=2 VSG_TEST_PREP_HANG='CC(=O)[O-].[Na+]' expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o hang.sdf --threads 1
grep -q "embed_failed: lib.smi:4: record 2 (sodium acetate): Open Babel took more than 2 s" err.txt ||
  fail "a hang in Open Babel: $(cat err.txt)"
grep -q "4 records, 1 prepared, 3 failed" err.txt || fail "after a hang: $(tail -1 err.txt)"
# in this process (VSG_PREP_WORKERS=0): the same records
VSG_PREP_WORKERS=0 expect_rc 0 "$vsgrid" prepare-ligands lib.smi -o inproc.sdf --threads 2
[ "$(grep -c '^\$\$\$\$' inproc.sdf)" = 4 ] && grep -q "4 records, 2 prepared, 2 failed" err.txt ||
  fail "prepared in process: $(cat err.txt)"

# RDKit reads it: sanitized molecules, formal charges from M  CHG, Gasteiger charges as atom
# properties, the failed records empty.
if /usr/bin/python3 -c 'import rdkit' 2>/dev/null; then
  /usr/bin/python3 - out.sdf > rdkit.txt 2>&1 <<'EOF' || fail "RDKit: $(cat rdkit.txt)"
import sys
from rdkit import Chem
mols = list(Chem.SDMolSupplier(sys.argv[1], removeHs=False))
assert len(mols) == 4, len(mols)
assert all(m is not None for m in mols), [i for i, m in enumerate(mols) if m is None]
b, ac = mols[0], mols[1]
assert b.GetNumAtoms() == 31 and Chem.GetFormalCharge(b) == -1, (b.GetNumAtoms(), Chem.GetFormalCharge(b))
assert Chem.MolToSmiles(Chem.RemoveHs(ac)) == "CC(=O)[O-]", Chem.MolToSmiles(ac)
q = [a.GetDoubleProp("PartialCharge") for a in b.GetAtoms()]
assert abs(sum(q)) < 0.05 and max(q) > 0.2 and min(q) < -0.25, q
# the SMILES's stereo kept: the same canonical isomeric SMILES after the 3D build
ref = Chem.MolFromSmiles("[O-]C(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12")
Chem.AssignStereochemistryFrom3D(b)
assert Chem.MolToSmiles(Chem.RemoveHs(b)) == Chem.MolToSmiles(ref), (Chem.MolToSmiles(Chem.RemoveHs(b)), Chem.MolToSmiles(ref))
assert mols[2].GetNumAtoms() == 0 and mols[2].GetProp("vsgrid_status") == "bad_smiles"
print("ok")
EOF
else
  skip_part "RDKit reads prepare-ligands' SDF" "no RDKit for /usr/bin/python3"
fi

# The screen: biotin from its SMILES docked on 1STP's Vina maps (CPU, a short search).
rec=$src/data/1stp_receptor.pdbqt
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$src/data/biotin.pdbqt" -o m --device cpu --quiet
dock=(--scoring vina --placement flexible --seed 5 --exhaustiveness 2 --steps 4000 --devices cpu --quiet)
expect_rc 0 "$vsgrid" screen m lib.smi "${dock[@]}" --threads 1 -o a.csv
[ "$(sed 1d a.csv | wc -l)" = 4 ] || fail "4 records, $(sed 1d a.csv | wc -l) rows"
[ "$(sed 1d a.csv | awk -F, '{ printf "%s ", $14 }')" = "ok ok bad_smiles bad_element " ] ||
  fail "statuses: $(cut -d, -f14 a.csv | tr '\n' ' ')"
[ "$(sed -n 2p a.csv | cut -d, -f2)" = biotin ] || fail "name: $(sed -n 2p a.csv)"
s=$(sed -n 2p a.csv | cut -d, -f6)
awk -v s="$s" 'BEGIN { exit !(s < -4 && s > -15) }' || fail "biotin from SMILES scores '$s'"
sed -n 4p a.csv | grep -q "lib.smi:5:" || fail "bad_smiles row: $(sed -n 4p a.csv)"
# 2 threads: the same rows (index, name, source, record, atoms, status, message); not the same
# scores to the digit: Open Babel's builder is seeded from the clock, so the prepared coordinates
# differ slightly from run to run, and a 2-chain search ends elsewhere (docs/FORMATS.md)
expect_rc 0 "$vsgrid" screen m lib.smi "${dock[@]}" --threads 2 -o b.csv
[ "$(cut -d, -f1-5,14,15 a.csv)" = "$(cut -d, -f1-5,14,15 b.csv)" ] || fail "1 and 2 threads differ: $(diff a.csv b.csv)"
s=$(sed -n 3p b.csv | cut -d, -f6)
awk -v s="$s" 'BEGIN { exit !(s < -1 && s > -15) }' || fail "acetate from SMILES scores '$s' with 2 threads"
# a crash in a preparing process: that record's row says so, the screen goes on
VSG_TEST_PREP_CRASH="$biotin" expect_rc 0 "$vsgrid" screen m lib.smi "${dock[@]}" --threads 2 -o crash.csv
[ "$(sed 1d crash.csv | awk -F, '{ printf "%s ", $14 }')" = "embed_failed ok bad_smiles bad_element " ] ||
  fail "screen with a crash: $(cut -d, -f14,15 crash.csv)"
sed -n 2p crash.csv | grep -q "lib.smi:2: record 1 (biotin): Open Babel crashed" || fail "crash row: $(sed -n 2p crash.csv)"
# a CSV library with a smiles column; --ph none keeps biotin's acid neutral (its atom count: +1 H)
expect_rc 0 "$vsgrid" screen m lib.csv "${dock[@]}" --ph none -o c.csv
[ "$(sed 1d c.csv | awk -F, '{ printf "%s:%s ", $2, $14 }')" = "b1:ok b2:bad_smiles " ] || fail "CSV rows: $(cat c.csv)"
sed -n 3p c.csv | grep -q "lib.csv:3:" || fail "CSV bad_smiles row: $(sed -n 3p c.csv)"
expect_rc 2 "$vsgrid" screen m lib.csv "${dock[@]}" --ph x -o c.csv
expect_rc 2 "$vsgrid" screen m lib.csv "${dock[@]}" --minimize -1 -o c.csv
grep -q "minimize" err.txt || fail "--minimize -1: $(cat err.txt)"
# the generator's coordinates alone (--minimize 0): the same rows, biotin docked
expect_rc 0 "$vsgrid" screen m lib.csv "${dock[@]}" --minimize 0 -o d.csv
[ "$(sed 1d d.csv | awk -F, '{ printf "%s:%s ", $2, $14 }')" = "b1:ok b2:bad_smiles " ] || fail "--minimize 0 rows: $(cat d.csv)"
# --stereo specified in a screen: the steroid whose centres the builder inverts is a stereo row
expect_rc 2 "$vsgrid" screen m steroid.smi "${dock[@]}" --stereo maybe -o e.csv
expect_rc 8 "$vsgrid" screen m steroid.smi "${dock[@]}" --stereo specified --embed openbabel -o e.csv
sed -n 2p e.csv | grep -q ",stereo,.*steroid.smi:1: .*inverted" || fail "screen --stereo specified: $(cat e.csv)"

# --conformers N: ring conformers (RDKit only). A 4-substituted cyclohexanol gets several, each a
# record of prepare-ligands' SDF with the same atoms (vsgrid_conformer 2, 3, ...), phenol one; the
# flexible screen docks each and keeps the best, one row a record, phenol's row as without it.
expect_rc 2 "$vsgrid" prepare-ligands lib.smi -o c0.sdf --conformers 0
grep -q "conformers" err.txt || fail "--conformers 0: $(cat err.txt)"
expect_rc 2 "$vsgrid" screen m lib.smi "${dock[@]}" --conformers 21 -o c0.csv
if "$vsgrid" --version | grep -q "RDKit (SMILES 3D) yes"; then
  printf 'OC1CCC(CC1)NC(=O)c1ccccc1 cyc\nOc1ccccc1 phenol\n' > conf.smi
  expect_rc 0 "$vsgrid" prepare-ligands conf.smi -o conf.sdf --conformers 4
  n=$(grep -c '^\$\$\$\$' conf.sdf)
  [ "$n" -ge 3 ] && [ "$n" -le 5 ] || fail "--conformers 4: $n records for 2 molecules"
  [ "$(grep -A1 '> <vsgrid_conformer>' conf.sdf | grep -c '^[2-4]$')" = $((n - 2)) ] || fail "vsgrid_conformer items: $(grep -A1 vsgrid_conformer conf.sdf)"
  [ "$(grep -c '^phenol$' conf.sdf)" = 1 ] || fail "phenol has more than one conformer"
  grep -q "2 prepared (and $((n - 2)) further conformer record" err.txt || fail "the summary's conformers: $(cat err.txt)"
  # every record of cyc the same atoms, coordinates not all the same
  awk '/^cyc$/ { r++; getline; getline; getline; n = $1; for (i = 0; i < n; i++) { getline; el[r] = el[r] $4; xyz[r] = xyz[r] $1 $2 $3 } }
       END { for (k = 2; k <= r; k++) if (el[k] != el[1] || xyz[k] == xyz[1]) exit 1; exit r < 2 }' conf.sdf ||
    fail "cyc's conformers: not the same atoms with other coordinates"
  expect_rc 0 "$vsgrid" screen m conf.smi "${dock[@]}" --conformers 4 -o c4.csv --poses-out c4.sdf
  expect_rc 0 "$vsgrid" screen m conf.smi "${dock[@]}" -o c1.csv
  [ "$(sed 1d c4.csv | wc -l)" = 2 ] || fail "--conformers: not one row a record: $(cat c4.csv)"
  sed -n 2p c4.csv | grep -q "ok,.*conformer [1-4] of $((n - 1)) docked scored best" || fail "cyc's row: $(sed -n 2p c4.csv)"
  [ "$(sed -n 3p c4.csv)" = "$(sed -n 3p c1.csv)" ] || fail "phenol's row changed: $(sed -n 3p c4.csv) / $(sed -n 3p c1.csv)"
  s4=$(sed -n 2p c4.csv | cut -d, -f6) s1=$(sed -n 2p c1.csv | cut -d, -f6)
  awk -v a="$s4" -v b="$s1" 'BEGIN { exit !(a <= b + 1e-4) }' || fail "the best of the conformers ($s4) is worse than the first ($s1)"
  [ "$(grep -c '^\$\$\$\$' c4.sdf)" -ge 2 ] || fail "--conformers: poses missing"
  # rows do not depend on the chunk: 40 records, over 64 conformer copies in one chunk (the copies'
  # buffer grows while the chunk is filled) against 5 records a chunk
  for k in $(seq 40); do echo "OC1CCC(CC1)NC(=O)c1ccccc1 cyc$k"; done > many.smi
  VSG_FLEX_CHUNK=64 expect_rc 0 "$vsgrid" screen m many.smi "${dock[@]}" --steps 1000 --conformers 3 -o big.csv
  VSG_FLEX_CHUNK=5 expect_rc 0 "$vsgrid" screen m many.smi "${dock[@]}" --steps 1000 --conformers 3 -o small.csv
  [ "$(sed 1d big.csv | grep -c ',ok,.*of 3 docked')" = 40 ] || fail "--conformers, 40 records: $(head -3 big.csv)"
  cmp -s big.csv small.csv || fail "--conformers: rows differ with the chunk size: $(diff big.csv small.csv | head -5)"
  # what the options cannot do is said: Open Babel's builder makes one conformer (refused), a 3D
  # file's record is docked as read (a warning naming how many)
  expect_rc 2 "$vsgrid" screen m conf.smi "${dock[@]}" --conformers 3 --embed openbabel -o x.csv
  grep -q "needs RDKit's embedding" err.txt || fail "--conformers --embed openbabel: $(cat err.txt)"
  expect_rc 2 "$vsgrid" prepare-ligands conf.smi -o x.sdf --stereo enumerate --embed openbabel
  grep -q "needs RDKit's embedding" err.txt || fail "--stereo enumerate --embed openbabel: $(cat err.txt)"
  expect_rc 0 "$vsgrid" screen m "$src/data/biotin.pdbqt" conf.smi "${dock[@]}" --conformers 3 -o x.csv
  grep -q "1 record came from 3D files: .*docked as read" err.txt || fail "a 3D file with --conformers: $(cat err.txt)"
  # --stereo enumerate: the 4 isomers of an open centre and double bond, each a record of
  # prepare-ligands' SDF; the screen docks all and keeps the best
  printf 'CC=CC(N)CC ene\n' > ene.smi
  expect_rc 0 "$vsgrid" prepare-ligands ene.smi -o ene.sdf --stereo enumerate
  [ "$(grep -c '^\$\$\$\$' ene.sdf)" = 4 ] || fail "--stereo enumerate: $(grep -c '^\$\$\$\$' ene.sdf) records, not 4"
  grep -q "2 unassigned stereocentres: 4 stereoisomers (--stereo enumerate)" ene.sdf || fail "enumerate's note: $(grep -A1 vsgrid_note ene.sdf)"
  if /usr/bin/python3 -c 'import rdkit' 2> /dev/null; then
    /usr/bin/python3 -c '
import sys
from rdkit import Chem
s = set()
for m in Chem.SDMolSupplier("ene.sdf", removeHs=False):
    m = Chem.RemoveHs(m)
    Chem.AssignStereochemistryFrom3D(m)
    s.add(Chem.MolToSmiles(m))
sys.exit(len(s) != 4)' || fail "--stereo enumerate: not 4 different stereoisomers"
  fi
  # norbornane: its bridgeheads' open configurations include one no 3D structure has (the
  # first enumerated, as it happens): left out, the possible one is the record's (RDKit's, not
  # the whole record handed to Open Babel's builder as before)
  printf 'C1CC2CCC1C2 norbornane\n' > nb.smi
  expect_rc 0 "$vsgrid" prepare-ligands nb.smi -o nb.sdf --stereo enumerate
  [ "$(grep -c '^\$\$\$\$' nb.sdf)" = 1 ] && grep -q "2 unassigned stereocentres: 1 stereoisomer (--stereo enumerate)" nb.sdf &&
    ! grep -q "Open Babel's builder" nb.sdf || fail "norbornane enumerated: $(grep -A1 vsgrid_note nb.sdf)"
  expect_rc 0 "$vsgrid" screen m ene.smi "${dock[@]}" --stereo enumerate -o ene.csv
  sed -n 2p ene.csv | grep -q "4 stereoisomers (--stereo enumerate); .*conformer [1-4] of 4 docked scored best" ||
    fail "enumerate's row: $(sed -n 2p ene.csv)"
else
  expect_rc 2 "$vsgrid" prepare-ligands lib.smi -o ene.sdf --stereo enumerate
  grep -q "without RDKit" err.txt || fail "--stereo enumerate without RDKit: $(cat err.txt)"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"
