#!/usr/bin/env bash
# Docking poses that keep what they were scored with (issues 18 item 5, 19 item 4), on the CPU
# (--devices cpu --search fast): `screen --placement flexible --poses 3 --poses-out x.sdf` on
# 1STP Vina maps (data/) over a library of SDF (data/xiap_actives_docked.sdf.gz's first record),
# PDBQT (biotin) and, with ../shared/data (or $VSG_SHARED_DATA), MOL2 records (the first DUD-E
# INHA actives): 3 poses a record, the best pose's items = the CSV's row; the SDF re-read by
# `vsgrid screen m x.sdf --scoring vina` (as-is) scores every SDF/MOL2 pose to its
# vsgrid_inter_kcal_mol and each best pose to its vsgrid_score_kcal_mol (0.0001) and reads atom.dprop.PartialCharge (a short list fails the
# record: parse; an SDF record without charges gets none); the hydrogens the model merged keep
# their bond lengths; RDKit (when /usr/bin/python3 has it) sanitises every record, reads the
# charges (= the input's) and AutoDock types as atom properties, and the formal charges (M  CHG)
# add up to the partial charges (MOL2/SDF records). `--poses 3 --poses-out x.pdbqt`: 3 MODELs a record, each
# VINA RESULT (0.01) = Vina's docking output from `vina --score_only`'s terms (when installed): the
# best pose's --score_only total, a later one's relative to the best pose's intra. `dock -o d.sdf`:
# its poses' items = its --csv. `rescore REC LIB --placement flexible --around LIG` = `maps` +
# `screen --placement flexible` with the same seed (same CSV, same poses).
# Usage: cli_dock_poses.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_poses
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
lig=$src/data/biotin.pdbqt
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'; }

expect_rc 0 "$vsgrid" screen --scoring vina --placement flexible --help
grep -q -- "--poses K" out.txt && grep -q "atom.dprop.PartialCharge" out.txt || fail "--help: --poses / SDF items"
expect_rc 0 "$vsgrid" rescore --scoring vina --placement flexible --help
grep -q -- "--keep-maps" out.txt || fail "rescore --placement flexible --help"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet

libs=()
zcat "$src/data/xiap_actives_docked.sdf.gz" | awk '{ print } /^\$\$\$\$/ { exit }' > x1.sdf
libs+=(x1.sdf)
shared=${VSG_SHARED_DATA:-$src/../shared/data}
inha=$shared/dude/inha/actives_final.mol2.gz
if [ -f "$inha" ]; then
  zcat "$inha" | awk '/^@<TRIPOS>MOLECULE/ { n++ } n <= 3' > inha.mol2
  libs+=(inha.mol2)
else
  skip_part "the DUD-E INHA MOL2 records" "no shared data at $shared; set VSG_SHARED_DATA"
fi
awk '{ print } /^TORSDOF/ { exit }' "$lig" > biotin.pdbqt
libs+=(biotin.pdbqt)
run=(--scoring vina --placement flexible --devices cpu --search fast --seed 7 --quiet)
expect_rc 0 "$vsgrid" screen m "${libs[@]}" "${run[@]}" --poses 3 -o x.csv --poses-out x.sdf
expect_rc 0 "$vsgrid" screen m "${libs[@]}" "${run[@]}" --poses 3 -o p.csv --poses-out p.pdbqt
expect_rc 0 "$vsgrid" screen m "${libs[@]}" "${run[@]}" -o one.csv --poses-out one.sdf
n=$(($(wc -l < x.csv) - 1))
[ "$(sed 1d x.csv | cut -d, -f14 | sort -u)" = ok ] || fail "rows: $(cut -d, -f14 x.csv | tr '\n' ' ')"
cmp -s x.csv p.csv && cmp -s x.csv one.csv || fail "the CSV depends on --poses or the pose format"

# the SDF: 3 poses a record, in input order, ranked; the best's items are the CSV's
items() { awk -v key="$2" '$0 == "> <" key ">" { getline; print }' "$1"; }
[ "$(items x.sdf vsgrid_record | tr '\n' ' ')" = "$(for i in $(seq 0 $((n - 1))); do printf '%s %s %s ' $i $i $i; done)" ] ||
  fail "vsgrid_record items: $(items x.sdf vsgrid_record | tr '\n' ' ')"
[ "$(items x.sdf vsgrid_pose | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "1:$n 2:$n 3:$n " ] ||
  fail "vsgrid_pose items: $(items x.sdf vsgrid_pose | tr '\n' ' ')"
[ "$(grep -c '^\$\$\$\$' one.sdf)" = "$n" ] || fail "--poses 1 (the default): $(grep -c '^\$\$\$\$' one.sdf) records"
[ "$(items x.sdf vsgrid_score_kcal_mol | awk 'NR % 3 == 1')" = "$(sed 1d x.csv | cut -d, -f6)" ] ||
  fail "best poses' scores: $(items x.sdf vsgrid_score_kcal_mol | awk 'NR % 3 == 1' | tr '\n' ' ') vs the CSV's $(sed 1d x.csv | cut -d, -f6 | tr '\n' ' ')"
[ "$(items x.sdf vsgrid_intra_kcal_mol | awk 'NR % 3 == 1')" = "$(sed 1d x.csv | cut -d, -f8)" ] || fail "best poses' intra terms"
grep '^REMARK VINA RESULT' p.pdbqt | awk '{ printf "%.3f\n", $4 }' > pdbqt_scores.txt
items x.sdf vsgrid_score_kcal_mol | awk '{ printf "%.3f\n", $1 }' > sdf_scores.txt
# (the SDF item has 4 decimals, the PDBQT remark 3: one rounding apart at most)
[ "$(wc -l < pdbqt_scores.txt)" = "$(wc -l < sdf_scores.txt)" ] &&
  paste sdf_scores.txt pdbqt_scores.txt | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0.0011) bad = 1 } END { exit bad }' ||
  fail "the SDF and PDBQT poses differ: $(paste -d/ sdf_scores.txt pdbqt_scores.txt | tr '\n' ' ')"

# the SDF read back as-is: every SDF/MOL2 pose rescored to its item (the PDBQT record's bonds
# are inferred, so its tree may differ from the PDBQT's own: its poses are left out)
expect_rc 0 "$vsgrid" screen m x.sdf --scoring vina -o re.csv --quiet
last=$((n - 1))
items x.sdf vsgrid_record > rec_of.txt
# (the best pose's score is its --score_only score; a later pose's is Vina's docking output,
# relative to the best pose's intra, so every pose's inter term is compared and the best's score)
paste -d, rec_of.txt <(items x.sdf vsgrid_score_kcal_mol) <(sed 1d re.csv | cut -d, -f6,14) <(items x.sdf vsgrid_inter_kcal_mol) \
  <(sed 1d re.csv | cut -d, -f7) > cmp.txt
awk -F, -v last=$last '$1 != last { k++; d = $2 - $3; if (d < 0) d = -d; e = $5 - $6; if (e < 0) e = -e
    if ($4 != "ok" || e > 0.0001 || ($1 != prev && d > 0.0001)) bad++ } { prev = $1 }
  END { exit !(k > 0 && bad == 0) }' cmp.txt || fail "SDF poses rescored as-is (record,item,rescored,status,inter,rescored inter): $(tr '\n' ' ' < cmp.txt)"
echo "SDF poses rescored as-is: $(awk -F, -v last=$last '$1 != last' cmp.txt | wc -l) poses = their inter terms, best poses = their vsgrid_score_kcal_mol"
# vsgrid reads the charges: a list one value short fails the record (every pose has a list: an
# input without charges gets Gasteiger's, issue 27), so none is scored: exit 8
awk 'f { n = split($0, w, " "); s = w[1]; for (i = 2; i < n; i++) s = s " " w[i]; print s; f = 0; next }
     $0 == "> <atom.dprop.PartialCharge>" { f = 1 } { print }' one.sdf > short.sdf
expect_rc 8 "$vsgrid" screen m short.sdf --scoring vina -o short.csv --quiet
tail -1 short.csv | grep -q "parse.*atom.dprop.PartialCharge" || fail "a short charge list is not refused: $(tail -1 short.csv)"

# merged hydrogens moved with their heavy atom: the bond lengths of the input
awk 'function d(i, j) { return sqrt((x[i]-x[j])^2 + (y[i]-y[j])^2 + (z[i]-z[j])^2) }
     FNR == 1 { f++; line = 0 } { line++ }
     line == 4 { na = substr($0, 1, 3) + 0; nb = substr($0, 4, 3) + 0 }
     line > 4 && line <= 4 + na { i = line - 4; x[i] = substr($0, 1, 10); y[i] = substr($0, 11, 10); z[i] = substr($0, 21, 10); el[i] = substr($0, 32, 2) }
     line > 4 + na && line <= 4 + na + nb { a = substr($0, 1, 3) + 0; b = substr($0, 4, 3) + 0
       if (el[a] ~ /^H/ || el[b] ~ /^H/) { L = d(a, b); h++; if (L < 0.9 || L > 1.15) bad++ } }
     /^\$\$\$\$/ { line = 0 }
     END { print h " X-H bonds"; exit !(h > 0 && bad == 0) }' one.sdf || fail "hydrogens of the SDF poses not at bond length"

# RDKit: every record sanitises; the charges and types are atom properties
if /usr/bin/python3 -c "import rdkit" 2> /dev/null; then
  /usr/bin/python3 - x.sdf "$n" > rdkit.txt 2>&1 <<'EOF' || fail "RDKit: $(tail -5 rdkit.txt)"
import sys
from rdkit import Chem
sup = Chem.SDMolSupplier(sys.argv[1], removeHs=False)
mols = list(sup)
assert len(mols) == 3 * int(sys.argv[2]), len(mols)
assert all(m is not None for m in mols), "a record does not sanitise"
for m in mols:
    if not m.HasProp("atom.dprop.PartialCharge"):  # an SDF record without charges
        continue
    q = [a.GetDoubleProp("PartialCharge") for a in m.GetAtoms()]
    t = [a.GetProp("AutoDockType") for a in m.GetAtoms()]
    want = [float(v) for v in m.GetProp("atom.dprop.PartialCharge").split()]
    assert q == want and len(t) == m.GetNumAtoms(), m.GetProp("_Name")
    if not m.GetProp("_MolFileComments").startswith("pdbqt"):  # PDBQT: bonds inferred, all single
        assert abs(sum(q) - Chem.GetFormalCharge(m)) < 0.6, (m.GetProp("_Name"), sum(q), Chem.GetFormalCharge(m))
print("RDKit read", len(mols), "poses with charges and AutoDock types")
EOF
  cat rdkit.txt
  if [ -f inha.mol2 ]; then # the charges are the MOL2's, in its atom order
    awk '/^@<TRIPOS>ATOM/ { on = 1; next } /^@<TRIPOS>/ { on = 0 } on { printf "%s%g", (s++ ? " " : ""), $9 } /^@<TRIPOS>BOND/ && s { exit }' inha.mol2 > q_in.txt
    awk '$0 == "> <vsgrid_record>" { getline; r = $0 } $0 == "> <atom.dprop.PartialCharge>" { getline; if (r == 1) { print; exit } }' x.sdf > q_out.txt
    [ "$(awk '{ for (i = 1; i <= NF; i++) printf "%g ", $i }' q_in.txt)" = "$(awk '{ for (i = 1; i <= NF; i++) printf "%g ", $i }' q_out.txt)" ] ||
      fail "the first MOL2 record's charges are not the input's"
  fi
else
  skip_part "the RDKit checks" "RDKit not installed for /usr/bin/python3"
fi

# the PDBQT poses: 3 MODELs a record, vina --score_only rescores each to its VINA RESULT
[ "$(grep -c '^MODEL' p.pdbqt)" = $((3 * n)) ] || fail "PDBQT: $(grep -c '^MODEL' p.pdbqt) models"
if command -v vina > /dev/null 2>&1; then
  for k in $(seq 1 $((3 * n))); do
    awk -v k=$k '$0 == "MODEL " k { on = 1; next } /^ENDMDL/ { on = 0 } on' p.pdbqt > pk.pdbqt
    want=$(awk '/^REMARK VINA RESULT/ { print $4; exit }' pk.pdbqt)
    # --score_only's total, inter (1) and intra (2); a record's first pose gives the unbound intra
    read -r tot inter intra <<< "$(vina --maps m --ligand pk.pdbqt --score_only 2>&1 | awk -F: '
      /Estimated Free Energy of Binding/ { split($2, w, " "); t = w[1] } /\(1\) Final Intermolecular/ { split($2, w, " "); i = w[1] }
      /\(2\) Final Total Internal/ { split($2, w, " "); a = w[1] } END { print t, i, a }')"
    [ $(((k - 1) % 3)) = 0 ] && intra1=$intra
    # Vina's docking output: (inter + intra - the best pose's intra) / (1 + w N_rot), the divisor
    # being --score_only's inter / total
    vs=$(awk -v t="$tot" -v i="$inter" -v a="$intra" -v a1="$intra1" 'BEGIN { printf "%.3f", (i + a - a1) * (t / i) }')
    close "$want" "$vs" 0.01 || fail "PDBQT pose $k: VINA RESULT $want, from vina --score_only $vs (total $tot)"
  done
  echo "vina --score_only's terms give the $((3 * n)) PDBQT poses' VINA RESULT"
else
  skip_part "PDBQT poses against vina --score_only" "vina not installed"
fi

# vsgrid dock -o OUT.sdf: the poses of its --csv
expect_rc 0 "$vsgrid" dock m x1.sdf --devices cpu --search fast --poses 3 --seed 7 --quiet -o d.sdf --csv d.csv
# (the SDF tag has 4 decimals, the CSV 3: equal to 0.0005 plus the SDF's own rounding, not as text:
# -7.1715 and -7.172 are one score)
paste -d' ' <(items d.sdf vsgrid_score_kcal_mol) <(sed 1d d.csv | cut -d, -f2) |
  awk 'NF != 2 || ($1 - $2 > 0.00051 || $2 - $1 > 0.00051) { bad = 1 } END { exit bad || NR != 3 }' ||
  fail "dock -o d.sdf: $(items d.sdf vsgrid_score_kcal_mol | tr '\n' ' ') vs its CSV $(sed 1d d.csv | cut -d, -f2 | tr '\n' ' ')"
[ "$(sed -n 1p d.sdf)" = "$(sed -n 1p x1.sdf)" ] || fail "dock -o d.sdf: the title is not the record's name"

# rescore --placement flexible = maps + screen --placement flexible --receptor (the receptor at hand:
# poses refined and scored on its atoms, its clashes checked)
expect_rc 0 "$vsgrid" rescore "$rec" "${libs[@]}" "${run[@]}" --around "$lig" -o r.csv --poses-out r.sdf --poses 2
expect_rc 0 "$vsgrid" screen m "${libs[@]}" "${run[@]}" --receptor "$rec" -o s.csv --poses-out s.sdf --poses 2
cmp -s r.csv s.csv || fail "rescore --placement flexible: its CSV differs from maps + screen's"
cmp -s r.sdf s.sdf || fail "rescore --placement flexible: its poses differ from maps + screen's"
expect_rc 0 "$vsgrid" rescore "$rec" x1.sdf "${run[@]}" --around "$lig" --keep-maps kept/m -o k.csv
[ -f kept/m.C_H.map ] || fail "--keep-maps: no kept/m.C_H.map"
expect_rc 2 "$vsgrid" rescore "$rec" x1.sdf "${run[@]}" -o k.csv # no box
expect_rc 2 "$vsgrid" screen m x1.sdf "${run[@]}" --poses 0 -o k.csv

[ "$fails" = 0 ] && echo "cli_dock_poses: ok"
exit "$fails"
