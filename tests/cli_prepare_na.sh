#!/usr/bin/env bash
# DNA and RNA in `vsgrid prepare` (engine/prepare/nucleic_acids.c), as pdb2pqr 3.5.2 prepares them.
# Without extra data: three nucleotides of 1KX5's chain I (DA -73, DT -72, DC -71; heavy atoms,
# no 5' phosphate): AMBER DA5 -0.3079 e with 30 atoms (H5T), DT -1 (32), DC3 -0.6921 (31, H3T),
# total -2 exactly; a lone DA is AMBER's DAN (31 atoms, 0 e); the phosphate's OP1/OP2 written
# as read (O1P/O2P and O5*-style names read too, written O1P); as mmCIF the same PQR; the same strand as RNA (RA RU RC: thymine's C7 dropped, O2' rebuilt from
# the template), AMBER and PARSE, and named A U C (written RA RU RC); PARSE on DNA refused
# (exit 7: PARSE has no DNA); PDBQT (with Open Babel): AutoDock types of the bases and the
# phosphate, total -2, read by autogrid4 when installed. With pdb2pqr30: its charges and atom
# counts of every nucleotide of these pieces equal ours; with ../shared/data too, 1KX5 (protein and both 147-nt strands, HETATM and
# waters left out), AMBER: every residue's charge and atom count and the total equal.
# Usage: cli_prepare_na.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_prepare_na
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

cat > dna.pdb <<'PDB'
ATOM      1  O5' DA  I -73      24.126 139.747  27.198  1.00 82.07           O
ATOM      2  C5' DA  I -73      23.021 138.939  27.631  1.00 81.38           C
ATOM      3  C4' DA  I -73      21.699 139.503  27.164  1.00 79.59           C
ATOM      4  O4' DA  I -73      21.833 139.892  25.780  1.00 78.96           O
ATOM      5  C3' DA  I -73      20.539 138.512  27.208  1.00 79.76           C
ATOM      6  O3' DA  I -73      19.302 139.189  27.436  1.00 81.26           O
ATOM      7  C2' DA  I -73      20.543 137.916  25.817  1.00 79.39           C
ATOM      8  C1' DA  I -73      21.022 139.070  24.951  1.00 77.84           C
ATOM      9  N9  DA  I -73      21.853 138.618  23.840  1.00 75.36           N
ATOM     10  C8  DA  I -73      23.021 137.899  23.915  1.00 74.41           C
ATOM     11  N7  DA  I -73      23.542 137.617  22.749  1.00 72.41           N
ATOM     12  C5  DA  I -73      22.662 138.192  21.845  1.00 73.30           C
ATOM     13  C6  DA  I -73      22.651 138.244  20.448  1.00 72.03           C
ATOM     14  N6  DA  I -73      23.591 137.687  19.682  1.00 72.74           N
ATOM     15  N1  DA  I -73      21.631 138.895  19.853  1.00 74.34           N
ATOM     16  C2  DA  I -73      20.689 139.454  20.623  1.00 74.59           C
ATOM     17  N3  DA  I -73      20.589 139.473  21.948  1.00 74.09           N
ATOM     18  C4  DA  I -73      21.619 138.816  22.505  1.00 74.33           C
ATOM     19  P   DT  I -72      17.935 138.346  27.497  1.00 81.39           P
ATOM     20  OP1 DT  I -72      17.096 138.913  28.587  1.00 83.01           O
ATOM     21  OP2 DT  I -72      18.293 136.903  27.519  1.00 81.88           O
ATOM     22  O5' DT  I -72      17.224 138.662  26.108  1.00 78.75           O
ATOM     23  C5' DT  I -72      16.745 139.974  25.829  1.00 76.16           C
ATOM     24  C4' DT  I -72      15.862 139.969  24.604  1.00 73.86           C
ATOM     25  O4' DT  I -72      16.655 139.696  23.424  1.00 72.08           O
ATOM     26  C3' DT  I -72      14.730 138.943  24.615  1.00 72.67           C
ATOM     27  O3' DT  I -72      13.536 139.547  24.108  1.00 74.99           O
ATOM     28  C2' DT  I -72      15.240 137.835  23.708  1.00 72.24           C
ATOM     29  C1' DT  I -72      16.155 138.563  22.730  1.00 70.83           C
ATOM     30  N1  DT  I -72      17.321 137.768  22.265  1.00 68.45           N
ATOM     31  C2  DT  I -72      17.654 137.805  20.926  1.00 66.41           C
ATOM     32  O2  DT  I -72      17.032 138.451  20.101  1.00 67.86           O
ATOM     33  N3  DT  I -72      18.749 137.048  20.585  1.00 63.58           N
ATOM     34  C4  DT  I -72      19.523 136.270  21.426  1.00 62.36           C
ATOM     35  O4  DT  I -72      20.477 135.636  20.972  1.00 54.82           O
ATOM     36  C5  DT  I -72      19.116 136.274  22.815  1.00 63.16           C
ATOM     37  C7  DT  I -72      19.891 135.458  23.800  1.00 63.38           C
ATOM     38  C6  DT  I -72      18.053 137.014  23.159  1.00 65.84           C
ATOM     39  P   DC  I -71      12.194 138.674  23.960  1.00 77.79           P
ATOM     40  OP1 DC  I -71      11.034 139.600  23.975  1.00 75.15           O
ATOM     41  OP2 DC  I -71      12.244 137.546  24.925  1.00 77.53           O
ATOM     42  O5' DC  I -71      12.322 138.079  22.491  1.00 76.65           O
ATOM     43  C5' DC  I -71      12.398 138.955  21.371  1.00 73.78           C
ATOM     44  C4' DC  I -71      12.340 138.168  20.086  1.00 71.43           C
ATOM     45  O4' DC  I -71      13.609 137.513  19.848  1.00 69.00           O
ATOM     46  C3' DC  I -71      11.273 137.073  20.064  1.00 70.64           C
ATOM     47  O3' DC  I -71      10.569 137.100  18.826  1.00 71.66           O
ATOM     48  C2' DC  I -71      12.066 135.784  20.209  1.00 67.83           C
ATOM     49  C1' DC  I -71      13.402 136.136  19.572  1.00 66.44           C
ATOM     50  N1  DC  I -71      14.560 135.394  20.101  1.00 60.82           N
ATOM     51  C2  DC  I -71      15.522 134.906  19.199  1.00 59.50           C
ATOM     52  O2  DC  I -71      15.349 135.087  17.982  1.00 58.25           O
ATOM     53  N3  DC  I -71      16.606 134.250  19.679  1.00 54.07           N
ATOM     54  C4  DC  I -71      16.743 134.063  20.997  1.00 57.34           C
ATOM     55  N4  DC  I -71      17.834 133.425  21.432  1.00 57.16           N
ATOM     56  C5  DC  I -71      15.770 134.529  21.932  1.00 58.21           C
ATOM     57  C6  DC  I -71      14.707 135.187  21.444  1.00 59.36           C
END
PDB
# resq FILE: "CHAIN RESSEQ RESNAME charge natoms" per residue (fixed columns of both writers)
resq() {
  awk '/^(ATOM|HETATM)/ { k = substr($0, 22, 5) " " substr($0, 18, 3); if (!(k in n)) o[++nr] = k
         n[k]++; m = split($0, f, " "); q[k] += f[m - 1] }
       END { for (i = 1; i <= nr; i++) { v = q[o[i]]; if (v > -5e-5 && v < 5e-5) v = 0
                                         printf "%s %.4f %d\n", o[i], v, n[o[i]] } }' "$1" | tr -s ' '
}
total() { awk '/^(ATOM|HETATM)/ { m = split($0, f, " "); t += f[m - 1] } END { printf "%.4f", t }' "$1"; }

expect_rc 0 "$vsgrid" prepare dna.pdb -o dna.pqr
[ "$(resq dna.pqr | tr '\n' '|')" = "I -73 DA -0.3079 30|I -72 DT -1.0000 32|I -71 DC -0.6921 31|" ] ||
  fail "DNA AMBER per nucleotide: $(resq dna.pqr | tr '\n' '|')"
[ "$(total dna.pqr)" = "-2.0000" ] || fail "DNA total charge $(total dna.pqr), expected -2"
grep -q "3 nucleotides (3 DNA, 0 RNA): 1 5' ends (phosphate removed, H5T), 1 3' ends (H3T)" err.txt ||
  fail "summary: $(grep nucleotides err.txt)"
grep -q " H5T DA  I -73 .* 0.4422 0.0000" dna.pqr || fail "no H5T (+0.4422) on the 5' O5'"
grep -q " H3T DC  I -71 .* 0.4396 0.0000" dna.pqr || fail "no H3T (+0.4396) on the 3' O3'"
grep -q " P   DA" dna.pqr && fail "a 5' phosphate was built"
grep -q " OP1 DT  I -72 .*-0.7761 1.6612" dna.pqr || fail "OP1 not kept with AMBER's O1P charge"
grep -q "H2'' DT  I -72 .* 0.0718 1.4870" dna.pqr || fail "DNA H2'' (AMBER H2'2) missing"
nh=$(awk '/^ATOM/ && substr($0, 13, 4) ~ /^ *H/' dna.pqr | wc -l)
[ "$nh" = 36 ] || fail "36 hydrogens expected (pdb2pqr's), $nh"
# a lone nucleotide is both ends: AMBER's DAN (pdb2pqr names it DA53, which AMBER.DAT lacks)
head -18 dna.pdb > lone.pdb
expect_rc 0 "$vsgrid" prepare lone.pdb -o lone.pqr
[ "$(resq lone.pqr)" = "I -73 DA 0.0000 31" ] || fail "lone DA (DAN): $(resq lone.pqr)"
grep -q " H3T DA  I -73 .* 0.4396 0.0000" lone.pqr || fail "lone DA: no H3T"
# other names on input: O1P/O2P and the old '*' for the prime
sed -e 's/ OP\([12]\) / O\1P /' -e "s/\([CO][1-5]\)'/\1*/" dna.pdb > dna_star.pdb
expect_rc 0 "$vsgrid" prepare dna_star.pdb -o dna_star.pqr
[ "$(resq dna_star.pqr | tr '\n' '|')" = "$(resq dna.pqr | tr '\n' '|')" ] || fail "O1P/O5* names: $(resq dna_star.pqr)"
grep -q " O1P DT " dna_star.pqr && grep -q " O5' DT " dna_star.pqr || fail "O1P not kept or O5* not renamed O5'"
# the same strand as PDBx/mmCIF, primes quoted as wwPDB writes them ("O5'"): the same PQR
{ printf 'data_DNA\nloop_\n'
  for c in group_PDB id type_symbol label_atom_id label_comp_id label_asym_id label_seq_id Cartn_x Cartn_y \
           Cartn_z occupancy auth_seq_id auth_comp_id auth_asym_id auth_atom_id pdbx_PDB_model_num; do
    echo "_atom_site.$c"
  done
  awk '/^ATOM/ { n = substr($0, 13, 4); gsub(/ /, "", n); if (n ~ /\047/) n = "\"" n "\""
         r = substr($0, 18, 3); gsub(/ /, "", r); s = substr($0, 23, 4) + 0; c = substr($0, 22, 1)
         print "ATOM", NR, substr($0, 78, 1), n, r, c, s, substr($0, 31, 8) + 0, substr($0, 39, 8) + 0,
               substr($0, 47, 8) + 0, "1.00", s, r, c, n, 1 }' dna.pdb; } > dna.cif
expect_rc 0 "$vsgrid" prepare dna.cif -o dna_cif.pqr
[ "$(grep -v REMARK dna_cif.pqr)" = "$(grep -v REMARK dna.pqr)" ] || fail "mmCIF DNA differs from the PDB's"
# PARSE has no DNA
expect_rc 7 "$vsgrid" prepare dna.pdb -o dna_parse.pqr --ff parse
grep -q "PARSE has no DNA parameters" err.txt || fail "PARSE on DNA: $(head -2 err.txt)"

# RNA from the same strand: RA RU RC (thymine's C7 dropped), O2' rebuilt from the template
awk '/^ATOM/ { r = substr($0, 18, 3); if (r == "DT " && substr($0, 13, 4) == " C7 ") next
       sub(/^D/, "R", r); if (r == "RT ") r = "RU "; $0 = substr($0, 1, 17) r substr($0, 21) } { print }' dna.pdb > rna.pdb
awk '/^ATOM/ { $0 = substr($0, 1, 17) "  " substr($0, 19, 1) substr($0, 21) } { print }' rna.pdb > rna1.pdb
for ff in amber parse; do
  [ $ff = amber ] && want="I -73 RA -0.3081 31|I -72 RU -1.0000 30|I -71 RC -0.6919 32|" ||
    want="I -73 RA -0.3400 31|I -72 RU -1.0000 30|I -71 RC -0.6600 32|"
  for f in rna rna1; do
    expect_rc 0 "$vsgrid" prepare $f.pdb -o ${f}_$ff.pqr --ff $ff
    [ "$(resq ${f}_$ff.pqr | tr '\n' '|')" = "$want" ] || fail "$f $ff: $(resq ${f}_$ff.pqr | tr '\n' '|')"
    grep -q "3 nucleotides (0 DNA, 3 RNA)" err.txt || fail "$f $ff summary: $(grep nucleotides err.txt)"
    grep -q "missing O2' of [RU]* I-72: rebuilt" err.txt || fail "$f $ff: O2' not rebuilt: $(head -5 err.txt)"
  done
done
grep -q " O2' RU  I -72" rna1_amber.pqr || fail "U not written as RU (pdb2pqr's name)"

# PDBQT: the bases' acceptor N (NA), aromatic C (A), the phosphate's charge on its residue
if have_openbabel "$vsgrid"; then # (a failed PDBQT preparation is a failure, not a skip)
  expect_rc 0 "$vsgrid" prepare dna.pdb -o dna.pdbqt
  types=$(awk '/^ATOM/ { printf "%s:%s ", substr($0, 13, 4), $NF }' dna.pdbqt | tr -s ' ')
  for t in " N9 :N " " N7 :NA " " N1 :NA " " N6 :N " " C8 :A " " P :P " " OP1:OA " " H61:HD " " N3 :NA " " H5T:HD "; do
    case " $types" in *"$t"*) ;; *) fail "PDBQT type $t missing: $types" ;; esac
  done
  awk '/^ATOM/ { t += substr($0, 71, 6); if (substr($0, 18, 2) == "DT") d += substr($0, 71, 6) }
       END { exit !(t > -2.01 && t < -1.99 && d > -1.1 && d < -0.9) }' dna.pdbqt ||
    fail "PDBQT: total -2 and DT about -1 expected: $(grep 'total charge' err.txt)"
  # polar H only (H61 H62 H5T, H3, H41 H42 H3T): the non-polar ones merged into their C
  [ "$(awk '/^ATOM/ && substr($0, 13, 2) ~ /H/' dna.pdbqt | wc -l)" = 7 ] && ! grep -q ' H $' dna.pdbqt ||
    fail "PDBQT: 7 polar H (HD) expected, non-polar ones merged"
  if command -v autogrid4 > /dev/null 2>&1; then # autogrid4 reads it: the P type, every atom bonded
    expect_rc 0 "$vsgrid" maps dna.pdbqt --scoring ad4 --box 18,138,22,10,10,10 -o ag
    autogrid4 -p ag.gpf -l ag.glg > /dev/null 2>&1 && grep -q "Successful Completion" ag.glg ||
      fail "autogrid4 did not read the DNA PDBQT: $(tail -3 ag.glg 2>/dev/null)"
    grep -q "no bonded atoms" ag.glg && fail "autogrid4: atoms without bonds: $(grep -m1 'no bonded' ag.glg)"
    grep -q "receptor_types OA C N A NA HD P" ag.glg || fail "autogrid4 receptor types: $(grep -m1 receptor_types ag.glg)"
  else
    skip_part "autogrid4 reading the DNA PDBQT" "autogrid4 not installed"
  fi
else
  skip_part "PDBQT of DNA" "vsgrid built without Open Babel"
fi

# pdb2pqr: the same charges and atom counts, nucleotide by nucleotide
if command -v pdb2pqr30 > /dev/null 2>&1; then
  for spec in dna:AMBER rna:AMBER rna:PARSE rna1:AMBER; do
    f=${spec%:*} ff=${spec#*:} lc=$(echo "${spec#*:}" | tr A-Z a-z)
    pdb2pqr30 --ff=$ff --keep-chain $f.pdb ${f}_ref_$lc.pqr > p2p.log 2>&1 || fail "pdb2pqr30 on $f.pdb: $(tail -1 p2p.log)"
    "$vsgrid" prepare $f.pdb -o ${f}_$lc.pqr --ff $lc 2> /dev/null
    [ "$(resq ${f}_$lc.pqr)" = "$(resq ${f}_ref_$lc.pqr)" ] ||
      fail "$f $ff against pdb2pqr: $(resq ${f}_$lc.pqr | tr '\n' '|') vs $(resq ${f}_ref_$lc.pqr | tr '\n' '|')"
  done
  shared=$(shared_data "$src")
  if [ -f "$shared/pdb/1kx5.pdb.gz" ]; then
    gzip -dc "$shared/pdb/1kx5.pdb.gz" | awk '/^ENDMDL|^END/ { exit } /^ATOM|^TER/ { print }' > 1kx5.pdb
    pdb2pqr30 --ff=AMBER --keep-chain 1kx5.pdb 1kx5_ref.pqr > p2p.log 2>&1 || fail "pdb2pqr30 on 1KX5: $(tail -1 p2p.log)"
    expect_rc 0 "$vsgrid" prepare 1kx5.pdb -o 1kx5.pqr
    grep -q "294 nucleotides (294 DNA, 0 RNA): 2 5' ends (phosphate removed, H5T), 2 3' ends (H3T)" err.txt ||
      fail "1KX5 summary: $(grep nucleotides err.txt)"
    resq 1kx5.pqr | sort > ours.txt # pdb2pqr writes the protein's chains first
    resq 1kx5_ref.pqr | sort > ref.txt
    [ "$(wc -l < ours.txt)" = 1268 ] || fail "1KX5: $(wc -l < ours.txt) residues, expected 1268"
    diff ours.txt ref.txt > d.txt || fail "1KX5 AMBER: $(grep -c '^<' d.txt) residues differ from pdb2pqr's: $(head -4 d.txt | tr '\n' '|')"
    [ "$(total 1kx5.pqr)" = "$(total 1kx5_ref.pqr)" ] || fail "1KX5 total $(total 1kx5.pqr) vs pdb2pqr $(total 1kx5_ref.pqr)"
  else
    skip_part "1KX5 against pdb2pqr" "no $shared/pdb/1kx5.pdb.gz"
  fi
else
  skip_part "DNA/RNA against pdb2pqr (pieces and 1KX5)" "pdb2pqr30 not installed"
fi

[ "$fails" = 0 ] || exit 1
echo "cli_prepare_na: all checks passed"
