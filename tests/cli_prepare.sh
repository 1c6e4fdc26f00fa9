#!/usr/bin/env bash
# `vsgrid prepare IN.pdb -o OUT.pqr|OUT.pdbqt`: receptor preparation (engine/prepare/).
# Without extra data: --help, usage errors (2), a missing input (3), and a dipeptide of 1AJJ
# (Pro 4, Cys 5) with a Ca2+ ion and a water: NPRO + CCYS with pdb2pqr's atoms (28), AMBER
# charges +1 and -1, the ion +2, the water dropped (kept with --keep-waters); `vsgrid grid` and
# `surface` of the PDB itself (prepared on the way, net charge +2), with data `maps` of INHA's PDB.
# With ../shared/data (or $VSG_SHARED_DATA), against pdb2pqr's own regression outputs
# (pqr/pdb2pqr/, so pdb2pqr need not be installed): 1AFS (2 chains, NADP and testosterone,
# waters kept) with AMBER and PARSE, and 1AJJ with PARSE (its sulfate -2, its Ca2+ +2, kept):
# every residue's charge equal (1e-4 e),
# every residue's atom count equal, and (AMBER: pdb2pqr's names) every heavy atom's name; His
# tautomers may differ (reported). Protonation at a pH: 1AJJ at --ph 4 and 11 (the states and
# total charge); states named in the input (GLH, HIP, ASH, LYN) kept at pH 11; with pdb2pqr30
# installed, its charges of such named residues (and of INHA with CYM 243) equal ours.
# With Open Babel: the DUD-E INHA receptor (NAD cofactor kept) as PDBQT: AutoDock types only,
# total charge -5 +- 0.05 (protein -4, NAD -1), NAD's 44 atoms kept; read by autogrid4 (no atom
# without bonds) and vina when installed; 1MBO's haem kept (Fe +2); AutoDockTools' 2BRT receptor (adgpu_set42) prepared again
# from its heavy atoms: the same AutoDock types (up to 10 His atoms may differ) and >= 95 % of
# the residue charges within 0.01 e.
# Usage: cli_prepare.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_prepare
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

expect_rc 0 "$vsgrid" prepare --help
grep -q "usage: vsgrid prepare" out.txt || fail "prepare --help has no usage line"
for opt in --ff --ph --keep-waters; do grep -q -- "$opt" out.txt || fail "prepare --help lacks $opt"; done
expect_rc 2 "$vsgrid" prepare
expect_rc 2 "$vsgrid" prepare x.pdb
expect_rc 2 "$vsgrid" prepare x.pdb -o out.csv
expect_rc 2 "$vsgrid" prepare x.pdb -o out.pqr --ff charmm
expect_rc 2 "$vsgrid" prepare x.pdb -o out.pqr --ph 15
expect_rc 3 "$vsgrid" prepare nothere.pdb -o out.pqr

cp "$src/tests/data/1ajj_pro4_cys5.pdb" dipeptide.pdb   # 1AJJ Pro 4, Cys 5, a Ca2+ ion, a water
# resq FILE: "RESSEQ#K charge natoms RESNAME" per residue (K: the K-th residue with that
# number, so files without chain IDs compare chain by chain); whitespace PQR.
# fields FILE: "RESSEQ NAME RESNAME CHARGE" of every ATOM/HETATM record (waters left out: pdb2pqr
# gives them hydrogens, vsgrid does not); fixed or whitespace PQR, serials of 5 digits included.
fields() {
  awk '/^(ATOM|HETATM)/ { l = $0; sub(/^(ATOM|HETATM) */, "", l); n = split(l, f, " ")
         r = (n == 10) ? f[5] : f[4]
         if (f[3] != "HOH" && f[3] != "H2O" && f[3] != "WAT") print r, f[2], f[3], f[n - 1] }' "$1"
}
resq() {
  fields "$1" | awk '{ if ($1 != last) { seen[$1]++; last = $1; order[++nr] = $1 "#" seen[$1] }
         k = $1 "#" seen[$1]; q[k] += $4; cnt[k]++; name[k] = $3 }
       END { for (i = 1; i <= nr; i++) printf "%s %.4f %d %s\n", order[i], q[order[i]], cnt[order[i]], name[order[i]] }' |
    sort
}
# heavy-atom names per residue, for the naming check
heavy_names() {
  fields "$1" | awk '{ if ($1 != last) { seen[$1]++; last = $1 }
         if ($2 !~ /^[0-9]*H/) print $1 "#" seen[$1] "_" $2 }' | sort
}

expect_rc 0 "$vsgrid" prepare dipeptide.pdb -o dip.pqr
grep -q "total charge +2.0000 e" err.txt || fail "dipeptide + Ca: total charge: $(cat err.txt)"
[ "$(grep -c '^ATOM' dip.pqr)" = 28 ] || fail "NPRO + CCYS: 28 atoms expected, $(grep -c '^ATOM' dip.pqr)"
grep -q '^HETATM.* CA  *CA ' dip.pqr || fail "the Ca ion was not kept"
grep -q HOH dip.pqr && fail "the water was not dropped"
grep -q ' OXT CYS' dip.pqr || fail "no OXT built on the C-terminal Cys"
grep -q ' HG  CYS' dip.pqr || fail "a free Cys has HG"
expect_rc 0 "$vsgrid" prepare dipeptide.pdb -o dipq.pqr --quiet
[ -s err.txt ] && fail "prepare --quiet wrote to stderr: $(head -3 err.txt)"
cmp -s dip.pqr dipq.pqr || fail "prepare --quiet wrote another PQR"
expect_rc 0 "$vsgrid" prepare dipeptide.pdb -o dipw.pqr --keep-waters --ff parse
grep -q HOH dipw.pqr || fail "--keep-waters dropped the water"

# a PDB receptor goes straight to grid (prepared into a PQR: the same charges as dip.pqr)
expect_rc 0 "$vsgrid" grid dipeptide.pdb --method coulomb --around dip.pqr -o dipc.vsg
grep -q "prepared dipeptide.pdb" err.txt || fail "grid of a PDB: no preparation summary: $(head -3 err.txt)"
grep -q "net charge +2.000 e" err.txt || fail "grid of a PDB: net charge: $(grep 'net charge' err.txt)"
expect_rc 0 "$vsgrid" surface dipeptide.pdb -o dip.ply
grep -q "prepared dipeptide.pdb" err.txt && [ -s dip.ply ] || fail "surface of a PDB: $(head -3 err.txt)"

have_ob=0
if have_openbabel "$vsgrid"; then # (a failed PDBQT preparation is a failure, not a skip)
  have_ob=1
  expect_rc 0 "$vsgrid" prepare dipeptide.pdb -o dip.pdbqt
fi

shared=${VSG_SHARED_DATA:-$src/../shared/data}
p=$shared/pqr/pdb2pqr
if [ ! -f "$p/1AFS.pdb.gz" ]; then
  skip_part "pdb2pqr comparisons" "no shared data at $shared; set VSG_SHARED_DATA"
else
  compare() { # MINE REF LABEL [names]: residues by number (the K-th residue numbered N)
    resq "$1" > mine.res; resq "$2" > ref.res
    join mine.res ref.res > both.res
    local nref common badq badn
    nref=$(wc -l < ref.res); common=$(wc -l < both.res)
    badq=$(awk '{ d = $2 - $5; if (d < 0) d = -d; if (d > 1e-4) n++ } END { print n + 0 }' both.res)
    badn=$(awk '$3 != $6' both.res | wc -l)
    local hn=0
    if [ "${4:-}" = names ]; then
      heavy_names "$1" > mine.hn; heavy_names "$2" > ref.hn
      hn=$(comm -13 mine.hn ref.hn | wc -l)
    fi
    echo "$3: $common of $nref residues in common, charge differences $badq, atom-count differences $badn, heavy atoms named differently $hn"
    [ "$common" = "$nref" ] || fail "$3: $((nref - common)) of pdb2pqr's residues missing"
    [ "$badq" = 0 ] || fail "$3: $badq residue charges differ from pdb2pqr's: $(awk '{ d = $2 - $5; if (d * d > 1e-8) print }' both.res | head -3)"
    [ "$badn" = 0 ] || fail "$3: $badn residues with other atom counts: $(awk '$3 != $6' both.res | head -3)"
    [ "$hn" = 0 ] || fail "$3: $hn heavy atoms of pdb2pqr's output not in ours"
  }
  expect_rc 0 "$vsgrid" prepare "$p/1AFS.pdb.gz" -o 1afs_amber.pqr --keep-waters
  grep -q "4 other groups kept" err.txt || fail "1AFS: NADP and testosterone not kept: $(head -3 err.txt)"
  zcat "$p/1AFS_chain_whitespace_ff=AMBER.pqr.gz" > 1afs_ref_amber.pqr
  compare 1afs_amber.pqr 1afs_ref_amber.pqr "1AFS AMBER" names
  expect_rc 0 "$vsgrid" prepare "$p/1AFS.pdb.gz" -o 1afs_parse.pqr --keep-waters --ff parse
  zcat "$p/1AFS_whitespace_ff=PARSE.pqr.gz" > 1afs_ref_parse.pqr
  compare 1afs_parse.pqr 1afs_ref_parse.pqr "1AFS PARSE"
  expect_rc 0 "$vsgrid" prepare "$p/1AJJ.pdb" -o 1ajj_parse.pqr --keep-waters --ff parse
  compare 1ajj_parse.pqr "$p/1AJJ_pH7_PARSE.pqr" "1AJJ PARSE"
  if [ "$have_ob" = 1 ]; then
    grep -q "SO4 A72 (5 atoms): kept, Gasteiger charges (sum -2.000)" err.txt || fail "1AJJ: sulfate not -2: $(cat err.txt)"
  else
    grep -q "SO4 A72 (5 atoms): kept with charges 0 (no Open Babel" err.txt || fail "1AJJ: sulfate note: $(cat err.txt)"
  fi
  grep -q "CA A73: ion, formal charge +2" err.txt || fail "1AJJ: Ca2+ not +2: $(cat err.txt)"
  # protonation at a pH (model pKa values): 1AJJ has 2 His, 4 Asp, 4 Glu, 2 Lys, no free Cys,
  # none at a chain end; -5 at pH 7.4, +5 at pH 4 (HIP, ASH, GLH), -7 at pH 11 (LYN); the totals
  # hold the sulfate's -2, which needs Open Babel's Gasteiger charges (else it is kept at 0: +2)
  q4=+5.0000 q11=-7.0000 qn=-4.0000
  [ "$have_ob" = 1 ] || q4=+7.0000 q11=-5.0000 qn=-2.0000
  for case in "4|2 HIP, 4 ASH, 4 GLH, 0 LYN, 0 CYM|$q4" "11|0 HIP, 0 ASH, 0 GLH, 2 LYN, 0 CYM|$q11"; do
    IFS='|' read -r ph states charge <<< "$case"
    expect_rc 0 "$vsgrid" prepare "$p/1AJJ.pdb" -o "1ajj_ph$ph.pqr" --ph "$ph" --json "1ajj_ph$ph.json"
    grep -q "pH $ph.0 (model pKa values, no titration): $states;" err.txt ||
      fail "1AJJ at pH $ph: states: $(grep 'pH' err.txt)"
    grep -q "total charge $charge e" err.txt || fail "1AJJ at pH $ph: $(grep 'total charge' err.txt), expected $charge"
    hip=$(json_val "1ajj_ph$ph.json" HIP) lyn=$(json_val "1ajj_ph$ph.json" LYN)
    [ "$hip $lyn" = "$([ "$ph" = 4 ] && echo "2 0" || echo "0 2")" ] && [ "$(json_val "1ajj_ph$ph.json" ph)" = "$ph" ] ||
      fail "1AJJ at pH $ph: --json states HIP $hip, LYN $lyn, ph $(json_val "1ajj_ph$ph.json" ph)"
  done
  # states named in the input win at any pH: GLH 9, HIP 11, ASH 25, LYN 31 (-5 + 3 - 1 = -3)
  awk 'BEGIN { m[9] = "GLH"; m[11] = "HIP"; m[25] = "ASH"; m[31] = "LYN" }
       /^ATOM/ { r = substr($0, 23, 4) + 0; if (r in m) $0 = substr($0, 1, 17) m[r] substr($0, 21) } { print }' \
    "$p/1AJJ.pdb" > 1ajj_named.pdb
  expect_rc 0 "$vsgrid" prepare 1ajj_named.pdb -o 1ajj_named.pqr --ph 11
  grep -q "0 HIP, 0 ASH, 0 GLH, 1 LYN, 0 CYM; states kept as named in the input: 4" err.txt ||
    fail "1AJJ with named states at pH 11: $(grep 'pH' err.txt)"
  grep -q "total charge $qn e" err.txt || fail "1AJJ with named states at pH 11: $(grep 'total charge' err.txt)"
  [ "$(awk '$4 == "ASH" && $3 == "HD2"' 1ajj_named.pqr | wc -l)" = 1 ] || fail "the named ASH 25 has no HD2"
  # pdb2pqr honours such names without an option: its charges of the named residues (and of
  # INHA with its one free Cys named CYM) against ours, AMBER and PARSE
  if command -v pdb2pqr30 > /dev/null 2>&1; then
    awk '/^ATOM/ { if (substr($0, 18, 3) == "CYS" && substr($0, 23, 4) + 0 == 243) $0 = substr($0, 1, 17) "CYM" substr($0, 21)
                   print } END { print "END" }' "$shared/dude/inha/receptor.pdb" > inha_cym.pdb
    for ff in AMBER PARSE; do
      lc=$(echo "$ff" | tr A-Z a-z)
      pdb2pqr30 --ff "$ff" --keep-chain 1ajj_named.pdb "1ajj_named_ref_$lc.pqr" > pdb2pqr.log 2>&1 ||
        fail "pdb2pqr30 --ff $ff on 1ajj_named.pdb: $(tail -2 pdb2pqr.log)"
      expect_rc 0 "$vsgrid" prepare 1ajj_named.pdb -o "1ajj_named_$lc.pqr" --ff "$lc"
      compare "1ajj_named_$lc.pqr" "1ajj_named_ref_$lc.pqr" "1AJJ with GLH, HIP, ASH, LYN, $ff"
      pdb2pqr30 --ff "$ff" inha_cym.pdb "inha_cym_ref_$lc.pqr" > pdb2pqr.log 2>&1 ||
        fail "pdb2pqr30 --ff $ff on inha_cym.pdb: $(tail -2 pdb2pqr.log)"
      expect_rc 0 "$vsgrid" prepare inha_cym.pdb -o "inha_cym_$lc.pqr" --ff "$lc"
      compare "inha_cym_$lc.pqr" "inha_cym_ref_$lc.pqr" "INHA with CYM 243, $ff"
      resq "inha_cym_$lc.pqr" | grep -q '^243#1 -1.0000 10 CYM$' || fail "INHA $ff: CYM 243 not -1 with 10 atoms"
    done
  else
    skip_part "pdb2pqr with named protonation states" "pdb2pqr30 not installed"
  fi
  his() { fields "$1" | awk '{ if ($1 != last) { seen[$1]++; last = $1 } }
                              ($2 == "HD1" || $2 == "HE2") && $3 == "HIS" { print $1 "#" seen[$1], $2 }' | sort; }
  his 1afs_amber.pqr > h1; his 1afs_ref_amber.pqr > h2
  echo "1AFS His tautomers as pdb2pqr's: $(join h1 h2 | awk '$2 == $3' | wc -l) of $(wc -l < h2)"
fi

if [ "$have_ob" = 0 ]; then
  skip_part "PDBQT checks" "this vsgrid has no Open Babel (Gasteiger charges)"
elif [ ! -f "$shared/dude/inha/receptor.pdb" ]; then
  skip_part "INHA PDBQT checks" "no shared data at $shared; set VSG_SHARED_DATA"
else
  expect_rc 0 "$vsgrid" prepare "$shared/dude/inha/receptor.pdb" -o inha.pdbqt
  bad=$(awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); sub(/ +$/, "", t)
             if (t !~ /^(C|A|N|NA|OA|SA|S|HD|P|Mg|Ca|Zn|Fe|Mn)$/) print }' inha.pdbqt | wc -l)
  [ "$bad" = 0 ] || fail "INHA PDBQT: $bad atoms without an AutoDock type"
  q=$(awk '/^(ATOM|HETATM)/ { s += substr($0, 71, 6) } END { printf "%.3f", s }' inha.pdbqt)
  awk -v q="$q" 'BEGIN { exit !(q > -5.05 && q < -4.95) }' || fail "INHA PDBQT total charge $q, expected -5"
  [ "$(grep -c ' NAD ' inha.pdbqt)" = 44 ] || fail "INHA: the NAD cofactor's 44 atoms not all kept"
  awk '/^ATOM/ && substr($0, 13, 4) ~ /^ H[A-Z]?[0-9]? *$/ && substr($0, 78, 2) == "H "' inha.pdbqt | grep -q . &&
    fail "INHA: non-polar hydrogens not merged"
  # AutoDockTools' own receptor preparation of 2BRT (AutoDock-GPU's benchmark set: all H,
  # Gasteiger): its heavy atoms as a PDB, prepared again; AutoDock types of the heavy atoms
  # equal but for His tautomers, and nearly every residue's charge within 0.01 e
  adt=$shared/adgpu_set42/2brt/protein.pdbqt
  if [ -f "$adt" ]; then
    awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); sub(/ +$/, "", t); if (t == "H" || t == "HD") next
           e = t; if (t == "A") e = "C"; if (t == "NA") e = "N"; if (t == "OA") e = "O"; if (t == "SA") e = "S"
           printf "%-76s%2s\n", substr($0, 1, 66), e } END { print "END" }' "$adt" > 2brt.pdb
    expect_rc 0 "$vsgrid" prepare 2brt.pdb -o 2brt.pdbqt
    key() { awk '/^(ATOM|HETATM)/ { t = substr($0, 78, 2); sub(/ +$/, "", t)
                 if (t != "H" && t != "HD") print substr($0, 22, 5) "_" substr($0, 13, 4) "|" t }' "$1" | tr -d ' ' | sort; }
    key 2brt.pdbqt > mine.types; key "$adt" > adt.types
    ntypes=$(wc -l < adt.types); diff_types=$(comm -13 mine.types adt.types | wc -l)
    awk '/^(ATOM|HETATM)/ { k = substr($0, 22, 5); gsub(/ /, "", k); q[k] += substr($0, 71, 6) }
         END { for (k in q) printf "%s %.4f\n", k, q[k] }' 2brt.pdbqt | sort > mine.rq
    awk '/^(ATOM|HETATM)/ { k = substr($0, 22, 5); gsub(/ /, "", k); q[k] += substr($0, 71, 6) }
         END { for (k in q) printf "%s %.4f\n", k, q[k] }' "$adt" | sort > adt.rq
    read -r nres close <<< "$(join mine.rq adt.rq | awk '{ d = $2 - $3; if (d < 0) d = -d; n++; if (d <= 0.01) c++ } END { print n, c + 0 }')"
    echo "2BRT against AutoDockTools: AutoDock types of $((ntypes - diff_types)) of $ntypes heavy atoms equal; $close of $nres residue charges within 0.01 e"
    [ "$diff_types" -le 10 ] || fail "2BRT: $diff_types heavy atoms typed unlike AutoDockTools: $(comm -13 mine.types adt.types | head -5)"
    awk -v n="$nres" -v c="$close" 'BEGIN { exit !(n > 300 && c >= 0.95 * n) }' ||
      fail "2BRT: only $close of $nres residue charges within 0.01 e of AutoDockTools'"
  fi
  # myoglobin (1MBO): a haem with its Fe (no Gasteiger parameters for Fe: the ion charge +2)
  if [ -f "$shared/pdb/1mbo.pdb" ]; then
    expect_rc 0 "$vsgrid" prepare "$shared/pdb/1mbo.pdb" -o 1mbo.pdbqt
    grep -q '^HETATM.* FE  HEM .* 2\.000 Fe' 1mbo.pdbqt || fail "1MBO: the haem Fe is not +2 type Fe"
    [ "$(grep -c ' HEM ' 1mbo.pdbqt)" = 43 ] || fail "1MBO: the haem's 43 atoms not kept"
    expect_rc 0 "$vsgrid" prepare "$shared/pdb/1mbo.pdb" -o 1mbo.pqr
    grep -q "HEM A155 (43 atoms): kept, Gasteiger charges, metal atoms their ion charge" err.txt ||
      fail "1MBO PQR: haem: $(grep HEM err.txt)"
  else
    skip_part "1MBO haem checks" "no $shared/pdb/1mbo.pdb"
  fi
  # and to maps (prepared into a PDBQT)
  expect_rc 0 "$vsgrid" maps "$shared/dude/inha/receptor.pdb" --scoring vina --box 9.5,32.6,60.7,8,8,8 -o vm
  grep -q "prepared .*receptor.pdb" err.txt || fail "maps of a PDB: no preparation summary: $(head -3 err.txt)"
  if command -v autogrid4 > /dev/null 2>&1; then
    expect_rc 0 "$vsgrid" maps inha.pdbqt --scoring ad4 --box 9.5,32.6,60.7,12,12,12 -o ag
    if [ -f ag.gpf ]; then
      autogrid4 -p ag.gpf -l ag.glg > /dev/null 2>&1 && grep -q "Successful Completion" ag.glg ||
        fail "autogrid4 did not read the INHA PDBQT: $(tail -3 ag.glg 2>/dev/null)"
      grep -q "no bonded atoms" ag.glg && fail "autogrid4 found atoms without bonds: $(grep -m1 'no bonded' ag.glg)"
    fi
  else
    skip_part "autogrid4 reading the INHA PDBQT" "autogrid4 not installed"
  fi
  if command -v vina > /dev/null 2>&1; then
    vina --receptor inha.pdbqt --ligand "$src/data/biotin.pdbqt" --score_only --autobox > vina.txt 2>&1 ||
      fail "vina did not read the INHA PDBQT: $(tail -3 vina.txt)"
  else
    skip_part "vina reading the INHA PDBQT" "vina not installed"
  fi
fi
[ "$fails" = 0 ] || exit 1
echo "cli_prepare: ok"
