#!/usr/bin/env bash
# PDBx/mmCIF receptors (engine/prepare/mmcif_model.c): `vsgrid prepare X.cif` gives what
# `vsgrid prepare X.pdb` gives for the same atoms, byte for byte but for the REMARK naming the
# input. A hand-made file of CIF edge cases (quotes with quotes inside, '.' and '?', a ';' text
# field, tags out of order and in capitals, a row over two lines, an insertion code, alternate
# locations, a two-character chain, a second model, a second data block) against its PDB twin;
# the real wwPDB entry 1MBO (data/1mbo.cif.gz) against the PDB entry (../shared/data/pdb/1mbo.pdb):
# 1601 atoms read, 10 alternate locations dropped, PQR and PDBQT equal. The reader is chosen by
# content (a .pdb name holding mmCIF, a .cif name holding PDB records) and reads .gz; grid,
# energy, surface and maps take a .cif receptor; malformed files (8 kinds) exit 3 naming file:line.
# Usage: cli_prepare_mmcif.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_prepare_mmcif
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

cat > edge.cif <<'EOF'
# hand-made PDBx/mmCIF edge cases
data_EDGE
#
_entry.id   EDGE
_struct.title 'a dipeptide's "edge" cases # not a comment'
_struct.pdbx_descriptor
;A text field: loop_ and _atom_site.Cartn_x here are text,
'unbalanced quotes' " too
;
loop_
_citation_author.name
_citation_author.ordinal
'O''Neil, A.'  1
"D'Arcy, B."   2
#
LOOP_
_atom_site.group_PDB
_atom_site.id
_atom_site.type_symbol
_atom_site.label_atom_id
_atom_site.label_alt_id
_atom_site.label_comp_id
_atom_site.label_asym_id
_atom_site.label_seq_id
_atom_site.pdbx_PDB_ins_code
_ATOM_SITE.CARTN_X
_atom_site.Cartn_y
_atom_site.Cartn_z
_atom_site.occupancy
_atom_site.B_iso_or_equiv
_atom_site.auth_seq_id
_atom_site.auth_comp_id
_atom_site.auth_asym_id
_atom_site.auth_atom_id
_atom_site.pdbx_PDB_model_num
ATOM   1  N N   . PRO A 1 ? -0.169 7.698 13.415 1.00 22.81 4 PRO A N   1
ATOM   2  C CA  . PRO A 1 ? 0.745 6.948 12.566 1.00 22.22 4 PRO A CA  1
ATOM   3  C C   . PRO A 1 ? 2.242 7.069 13.001 1.00 21.42 4 PRO A C   1
ATOM   4  O O   . PRO A 1 ? 2.527 6.607 14.110 1.00 21.79 4 PRO A O   1
ATOM   5  C CB  . 'PRO' A 1 ? 0.532 7.450 11.164 1.00 22.96 4 "PRO" A CB  1
ATOM   6  C CG  . PRO A 1 ? -0.343 8.686 11.221 1.00 24.22 4 PRO A CG  1
ATOM   7  C CD  . PRO A 1 ?
  -0.704 8.833 12.692 1.00 23.59 4 PRO A CD  1
ATOM   8  N N   . CYS A 2 A 3.194 7.584 12.163 1.00 20.42 5 CYS A N   1
ATOM   9  C CA  . CYS A 2 A 4.673 7.669 12.388 1.00 18.85 5 CYS A CA  1
ATOM   10 C C   . CYS A 2 A 5.169 8.640 13.469 1.00 18.26 5 CYS A C   1
ATOM   11 O O   . CYS A 2 A 4.462 9.578 13.844 1.00 18.46 5 CYS A O   1
ATOM   12 C CB  . CYS A 2 A 5.409 8.135 11.144 1.00 17.94 5 CYS A CB  1
ATOM   13 S SG  A CYS A 2 A 5.634 7.093 9.851 0.40 15.29 5 CYS A SG  1
ATOM   14 S SG  B CYS A 2 A 5.534 6.993 9.751 0.60 15.29 5 CYS A SG  1
HETATM 15 CA CA  . CA  B . ? 15.392 6.217 0.598 1.00 9.85 73 CA AA CA  1
HETATM 16 O "O" . HOH C . ? 7.399 1.385 11.146 1.00 24.99 74 HOH AA ? 1
ATOM   17 N N   . PRO A 1 ? 90.000 90.000 90.000 1.00 22.81 4 PRO A N   2
#
data_SECOND
loop_
_atom_site.group_PDB
_atom_site.Cartn_x
ATOM 1.0
EOF
# its PDB twin: chain AA is the first free character, B
cat > edge.pdb <<'EOF'
ATOM      1  N   PRO A   4      -0.169   7.698  13.415  1.00 22.81           N
ATOM      2  CA  PRO A   4       0.745   6.948  12.566  1.00 22.22           C
ATOM      3  C   PRO A   4       2.242   7.069  13.001  1.00 21.42           C
ATOM      4  O   PRO A   4       2.527   6.607  14.110  1.00 21.79           O
ATOM      5  CB  PRO A   4       0.532   7.450  11.164  1.00 22.96           C
ATOM      6  CG  PRO A   4      -0.343   8.686  11.221  1.00 24.22           C
ATOM      7  CD  PRO A   4      -0.704   8.833  12.692  1.00 23.59           C
ATOM      8  N   CYS A   5A      3.194   7.584  12.163  1.00 20.42           N
ATOM      9  CA  CYS A   5A      4.673   7.669  12.388  1.00 18.85           C
ATOM     10  C   CYS A   5A      5.169   8.640  13.469  1.00 18.26           C
ATOM     11  O   CYS A   5A      4.462   9.578  13.844  1.00 18.46           O
ATOM     12  CB  CYS A   5A      5.409   8.135  11.144  1.00 17.94           C
ATOM     13  SG ACYS A   5A      5.634   7.093   9.851  0.40 15.29           S
ATOM     14  SG BCYS A   5A      5.534   6.993   9.751  0.60 15.29           S
HETATM   15 CA    CA B  73      15.392   6.217   0.598  1.00  9.85          CA
HETATM   16  O   HOH B  74       7.399   1.385  11.146  1.00 24.99           O
END
EOF
# same_but_remark A B LABEL: the two files equal but for their first line (REMARK ... from IN)
same_but_remark() {
  if ! cmp -s <(tail -n +2 "$1") <(tail -n +2 "$2"); then
    fail "$3: $1 and $2 differ: $(diff <(tail -n +2 "$1") <(tail -n +2 "$2") | head -4)"
  fi
  grep -q "^REMARK .* from " "$1" || fail "$3: no REMARK naming the input in $1"
}
atoms() { grep -c '^\(ATOM\|HETATM\)' "$1"; }

for cmd in prepare grid maps surface; do
  expect_rc 0 "$vsgrid" "$cmd" --help
  grep -q "mmCIF" out.txt || fail "$cmd --help does not name mmCIF receptors"
done
have_ob=0
expect_rc 0 "$vsgrid" prepare edge.pdb -o edge_pdb.pqr
expect_rc 0 "$vsgrid" prepare edge.cif -o edge_cif.pqr
same_but_remark edge_cif.pqr edge_pdb.pqr "edge cases, PQR"
grep -q "prepared edge.cif: 15 atoms read" err.txt || fail "edge.cif: 15 atoms expected (model 2 and altloc A left out): $(head -1 err.txt)"
grep -q "1 alternate locations dropped" err.txt || fail "edge.cif: one alternate location dropped: $(sed -n 2p err.txt)"
grep -q "chain IDs longer than PDB's one character: AA as B" err.txt || fail "edge.cif: no note on chain AA: $(cat err.txt)"
grep -q "total charge +2.0000 e" err.txt || fail "edge.cif: total charge: $(grep total err.txt)"
[ "$(atoms edge_cif.pqr)" = 29 ] || fail "edge.cif: 29 atoms written expected, $(atoms edge_cif.pqr)"
grep -q '^ATOM.* SG  CYS A   5A      5\.534   6\.993   9\.751' edge_cif.pqr || fail "edge.cif: SG not altloc B's (occupancy 0.60)"
grep -q '^HETATM.* CA  CA  B  73 ' edge_cif.pqr || fail "edge.cif: the Ca ion (chain AA) is not B 73"
grep -q '90\.000' edge_cif.pqr && fail "edge.cif: an atom of model 2 was read"
if have_openbabel "$vsgrid"; then
  have_ob=1
  expect_rc 0 "$vsgrid" prepare edge.pdb -o edge_pdb.pdbqt
  expect_rc 0 "$vsgrid" prepare edge.cif -o edge_cif.pdbqt
  same_but_remark edge_cif.pdbqt edge_pdb.pdbqt "edge cases, PDBQT"
else
  skip_part "PDBQT comparisons and maps" "this vsgrid has no Open Babel (Gasteiger charges)"
fi
# the reader by content: gzipped, mmCIF named .pdb, PDB records named .cif
gzip -n -c edge.cif > edge_gz.cif.gz
cp edge.cif edge_cif_content.pdb
cp edge.pdb edge_pdb_content.cif
for f in edge_gz.cif.gz edge_cif_content.pdb edge_pdb_content.cif; do
  expect_rc 0 "$vsgrid" prepare "$f" -o "$f.pqr"
  same_but_remark "$f.pqr" edge_pdb.pqr "$f"
done

# a residue number PDB's four columns cannot hold: modulo 10000, counted in the summary
sed 's/ 73 CA AA CA  1$/ 12345 CA AA CA  1/' edge.cif > wrap.cif
expect_rc 0 "$vsgrid" prepare wrap.cif -o wrap.pqr
grep -q "1 atoms with residue numbers outside -999..9999: written modulo 10000" err.txt &&
  grep -q '^HETATM.* CA  CA  B2345 ' wrap.pqr || fail "residue 12345: $(grep -i modulo err.txt) $(grep HETATM wrap.pqr)"

# receptors for the other commands, prepared on the way
expect_rc 0 "$vsgrid" grid edge.cif --method coulomb --around edge_pdb.pqr -o g.vsg --device cpu
grep -q "prepared edge.cif" err.txt && grep -q "receptor edge.cif: 29 atoms, net charge +2.000 e" err.txt ||
  fail "grid of a .cif: $(grep -E 'prepared|receptor' err.txt | head -3)"
expect_rc 0 "$vsgrid" energy edge.cif --spacing 0.8 --device cpu
e_cif=$(awk '/^total grid energy/ { print $4 }' out.txt)
expect_rc 0 "$vsgrid" energy edge_pdb.pqr --spacing 0.8 --device cpu
e_pqr=$(awk '/^total grid energy/ { print $4 }' out.txt)
[ -n "$e_cif" ] && [ "$e_cif" = "$e_pqr" ] || fail "energy of edge.cif ($e_cif kT) is not the prepared PQR's ($e_pqr kT)"
expect_rc 0 "$vsgrid" surface edge.cif -o s.ply
[ -s s.ply ] && grep -q "prepared edge.cif" err.txt || fail "surface of a .cif: $(head -3 err.txt)"
if [ "$have_ob" = 1 ]; then
  expect_rc 0 "$vsgrid" maps edge.cif --scoring vina --around edge_pdb.pqr -o vm
  [ -s vm.C_H.map ] && [ -s vm.O_A.map ] && grep -q "prepared edge.cif" err.txt || fail "maps of a .cif: $(head -3 err.txt)"
fi

# the real entry: wwPDB's 1MBO as mmCIF and as PDB
shared=$(shared_data "$src")
if [ ! -f "$shared/pdb/1mbo.pdb" ]; then
  skip_part "1MBO mmCIF against PDB" "no $shared/pdb/1mbo.pdb; set VSG_SHARED_DATA"
else
  expect_rc 0 "$vsgrid" prepare "$shared/pdb/1mbo.pdb" -o 1mbo_pdb.pqr
  expect_rc 0 "$vsgrid" prepare "$src/data/1mbo.cif.gz" -o 1mbo_cif.pqr
  grep -q ": 1601 atoms read" err.txt && grep -q "10 alternate locations dropped" err.txt ||
    fail "1MBO mmCIF: 1601 atoms read and 10 alternate locations dropped expected: $(head -2 err.txt)"
  same_but_remark 1mbo_cif.pqr 1mbo_pdb.pqr "1MBO PQR"
  if [ "$have_ob" = 1 ]; then
    expect_rc 0 "$vsgrid" prepare "$shared/pdb/1mbo.pdb" -o 1mbo_pdb.pdbqt
    expect_rc 0 "$vsgrid" prepare "$src/data/1mbo.cif.gz" -o 1mbo_cif.pdbqt
    same_but_remark 1mbo_cif.pdbqt 1mbo_pdb.pdbqt "1MBO PDBQT"
  fi
  echo "1MBO: $(atoms 1mbo_cif.pqr) atoms written from the mmCIF, $(atoms 1mbo_pdb.pqr) from the PDB"
fi

# malformed: exit 3 (bad input), the message naming file:line
printf 'data_X\n_entry.id X\n' > noatoms.cif
sed '/_atom_site.Cartn_z/d' edge.cif > nocartn.cif
head -n 40 edge.cif | sed '$ s/ A CB  1$//' > truncated.cif
sed 's/ 4.673 7.669 / 4.6.73 7.669 /' edge.cif > badnumber.cif
sed 's/^HETATM 16 O "O" /HETATM 16 O "O /' edge.cif > badquote.cif
printf 'data_X\n_struct.title\n;never closed\n' > opentext.cif
sed 's/ 5 CYS A CA  1$/ 5 CYSTEINE A CA  1/' edge.cif > longname.cif
sed 's/ 4.673 7.669 / -1234.5 7.669 /' edge.cif > farout.cif
for c in "noatoms.cif:2: no _atom_site table" "nocartn.cif:16: _atom_site without _atom_site.Cartn_z" \
         "truncated.cif:40: the _atom_site loop (line 16) ends after 92 values" \
         "badnumber.cif:45: _atom_site.Cartn_x: '4.6.73' is not a number" "badquote.cif:52: quoted value never closed" \
         "opentext.cif:3: ';' text field never closed" "longname.cif:45: residue name 'CYSTEINE' longer than" \
         "farout.cif:45: _atom_site.Cartn_x -1234.5 is outside the PDB format's -999.999..9999.999 A"; do
  f=${c%%:*}
  expect_rc 3 "$vsgrid" prepare "$f" -o bad.pqr
  grep -qF "$c" err.txt || fail "$f: expected '$c', got: $(cat err.txt)"
done
expect_rc 3 "$vsgrid" grid truncated.cif --method coulomb --around edge_pdb.pqr -o g2.vsg --device cpu
grep -qF "truncated.cif:40:" err.txt || fail "grid of a truncated .cif: $(cat err.txt)"

[ "$fails" = 0 ] || exit 1
echo "cli_prepare_mmcif: ok"
