#!/usr/bin/env bash
# `vsgrid screen PREFIX LIBRARY --scoring vina|vinardo --placement flexible` (issue 18 item 5, CPU):
# every record docked (vsg_dock_cpu, as `vsgrid dock`), one CSV row per input record in input
# order. Without extra data: --help, usage errors (2: --placement rigid on a Vina map set, a
# --poses-out that is not .pdbqt or .sdf, options that do not apply); biotin on 1STP Vina maps made by
# `vsgrid maps` (data/): a library of biotin, biotin with an atom of no XS type, biotin again →
# rows ok/untyped/ok with the as-is columns; the same CSV and poses on 1 and 2 threads; record 0
# docked as `vsgrid dock --seed S` docks it (record i: seed S + i); the poses file has 2 MODELs
# that `vsgrid screen m POSES --scoring vina` rescores to the CSV's scores (0.001), each within
# 2 A heavy-atom RMSD of the crystal pose, and vina --score_only (when installed) agrees on the
# first; an SDF record (data/xiap_actives_docked.sdf.gz's first) after the PDBQT library: its
# row, its pose written with the tree searched and rescored to its score; bad input (a salt:
# disconnected; over --max-torsions: torsions) gets its row and the run goes on; a macrocycle is
# docked with its ring as in the input and its row says so; --json has the
# dock settings; --placement as-is stays the as-is screen. With ../shared/data (or $VSG_SHARED_DATA): the 1IEP ligand docked within 2 A.
# Usage: cli_screen_flexible.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_screen_flexible
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
lig=$src/data/biotin.pdbqt

# heavy-atom RMSD between model M (1-based) of a PDBQT file and the first record of another
# (atom lines in the same order; H and HD left out)
rmsd() {
  awk -v want="$3" 'FNR == 1 { f++; m = 0; on = 1 }
       /^MODEL/ { m++; on = (f == 1 ? m == want : m <= 1) }
       /^ENDMDL/ || /^TORSDOF/ { if (f == 2) on = 0 }
       on && /^(ATOM  |HETATM)/ { t = substr($0, 78, 2); gsub(/ /, "", t); if (t == "H" || t == "HD") next
         n[f]++; x[f, n[f]] = substr($0, 31, 8); y[f, n[f]] = substr($0, 39, 8); z[f, n[f]] = substr($0, 47, 8) }
       END { if (n[1] != n[2] || n[1] == 0) { print "nan"; exit }
             for (i = 1; i <= n[1]; i++) s += (x[1,i]-x[2,i])^2 + (y[1,i]-y[2,i])^2 + (z[1,i]-z[2,i])^2
             printf "%.3f\n", sqrt(s / n[1]) }' "$1" "$2"
}

expect_rc 0 "$vsgrid" screen --help
grep -q -- "--placement flexible" out.txt || fail "screen --help does not document --placement flexible"
grep -q -- "--exhaustiveness" out.txt || fail "screen --help does not document --exhaustiveness"
expect_rc 0 "$vsgrid" screen --scoring vina --placement flexible --help
grep -q -- "--poses-out" out.txt || fail "screen --placement flexible --help does not document --poses-out"

expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet
# a library: biotin, biotin with an atom of no XS type, biotin again
awk '{ print } /^TORSDOF/ { exit }' "$lig" > lib.pdbqt
awk '/HETATM    2 / { $0 = substr($0, 1, 77) "Xx" } { print } /^TORSDOF/ { exit }' "$lig" >> lib.pdbqt
awk '{ print } /^TORSDOF/ { exit }' "$lig" >> lib.pdbqt

# usage errors → 2
expect_rc 2 "$vsgrid" screen m lib.pdbqt --scoring vina --placement rigid -o r.csv
grep -q "AutoDock4 map set" err.txt || fail "--placement rigid with vina: $(cat err.txt)"
expect_rc 2 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible --poses-out p.txt -o r.csv
expect_rc 2 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible --rotations 10 -o r.csv
expect_rc 2 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible --exhaustiveness 0 -o r.csv
expect_rc 2 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible        # no -o
expect_rc 3 "$vsgrid" screen nothere lib.pdbqt --scoring vina --placement flexible -o r.csv

# the CPU twin: these checks are about the screen's rows, poses and seeds, with 2 chains a record
# (on a GPU the search runs in float and may end elsewhere; tests/test_gpu_dock.c checks it)
dock=(--seed 5 --exhaustiveness 2 --steps 6000 --devices cpu)
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible "${dock[@]}" --threads 1 \
  -o a.csv --poses-out a.pdbqt --json a.json
head -1 a.csv | grep -q "^index,name,source,record,atoms,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,unbound_kcal_mol,num_tors,torsdof,atoms_outside,status,message,posebusters_valid,posebusters_failed$" ||
  fail "header: $(head -1 a.csv)"
[ "$(wc -l < a.csv)" = 4 ] || fail "3 records: $(($(wc -l < a.csv) - 1)) rows"
[ "$(cut -d, -f1 a.csv | tail -3 | tr '\n' ' ')" = "0 1 2 " ] || fail "rows not in input order"
[ "$(sed 1d a.csv | awk -F, '{ printf "%s ", $14 }')" = "ok untyped ok " ] || fail "statuses: $(cut -d, -f14 a.csv | tr '\n' ' ')"
sed -n 3p a.csv | grep -q "Xx" || fail "the untyped row does not name the type: $(sed -n 3p a.csv)"
[ "$(sed -n 2p a.csv | cut -d, -f12)" = 5 ] || fail "biotin TORSDOF: $(sed -n 2p a.csv)"
for r in 2 4; do
  s=$(sed -n ${r}p a.csv | cut -d, -f6)
  awk -v s="$s" 'BEGIN { exit !(s < -5 && s > -15) }' || fail "docked biotin scores $s"
done
[ "$(json_val a.json placement)" = '"flexible"' ] || fail "json: placement $(json_val a.json placement)"
[ "$(json_val a.json seed)" = 5 ] && [ "$(json_val a.json exhaustiveness)" = 2 ] && [ "$(json_val a.json steps)" = 6000 ] ||
  fail "json: dock settings"
[ "$(json_val a.json records)" = 3 ] && [ "$(json_val a.json scored)" = 2 ] || fail "json: records/scored"
# PoseBusters' checks of each ok row's best pose (last two columns; none for the untyped row)
[ "$(sed 1d a.csv | awk -F, '{ printf "%s:%s ", $(NF - 1), $NF }')" = "1: : 1: " ] ||
  fail "posebusters columns: $(sed 1d a.csv | awk -F, '{ printf "%s:%s ", $(NF - 1), $NF }')"
[ "$(json_val a.json poses_checked)" = 2 ] && [ "$(json_val a.json poses_posebusters_valid)" = 2 ] ||
  fail "json: poses checked $(json_val a.json poses_checked), valid $(json_val a.json poses_posebusters_valid)"
# with the receptor: its clash and distance checks join; SDF poses carry the items, pose by pose
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible "${dock[@]}" --receptor "$rec" \
  --poses 3 -o pb.csv --poses-out pb.sdf
grep -q "^  2 of 2 best poses PoseBusters-valid (100.0%)$" err.txt || fail "summary: $(grep -i posebusters err.txt)"
grep -q "^  refined and scored on the receptor's atoms; " err.txt && grep -q "'vina --score_only' on the receptor's atoms" err.txt ||
  fail "summary with --receptor does not say where the scores come from: $(cat err.txt)"
[ "$(sed 1d pb.csv | awk -F, '{ printf "%s ", $(NF - 1) }')" = "1  1 " ] || fail "posebusters with --receptor: $(cat pb.csv)"
n_poses=$(grep -c '^\$\$\$\$' pb.sdf)
[ "$n_poses" -ge 2 ] && [ "$(grep -c '^> <vsgrid_posebusters_valid>' pb.sdf)" = "$n_poses" ] ||
  fail "SDF poses without vsgrid_posebusters_valid: $n_poses poses, $(grep -c vsgrid_posebusters_valid pb.sdf) items"
awk '/^> <vsgrid_posebusters_valid>/ { getline; n[$1]++ } END { exit !(n[1] >= 2) }' pb.sdf ||
  fail "the best poses in pb.sdf are not valid"

# the default devices (the GPU where there is one): the same rows and statuses (scores may differ)
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible --seed 5 --exhaustiveness 2 --steps 6000 \
  --quiet -o auto.csv
[ "$(cut -d, -f1-5,14 auto.csv)" = "$(cut -d, -f1-5,14 a.csv)" ] || fail "default devices: rows differ: $(cat auto.csv)"

# the thread count changes nothing
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina --placement flexible "${dock[@]}" --threads 2 --quiet \
  -o b.csv --poses-out b.pdbqt
cmp -s a.csv b.csv || fail "1 and 2 threads: different CSVs"
cmp -s a.pdbqt b.pdbqt || fail "1 and 2 threads: different poses"

# record 0 docks as `vsgrid dock --seed 5` (record i: seed 5 + i)
expect_rc 0 "$vsgrid" dock m "$lig" "${dock[@]}" --poses 1 --quiet -o d.pdbqt --csv d.csv
[ "$(sed -n 2p d.csv | cut -d, -f2)" = "$(sed -n 2p a.csv | cut -d, -f6 | awk '{ printf "%.3f", $1 }')" ] ||
  fail "record 0: $(sed -n 2p a.csv | cut -d, -f6), vsgrid dock --seed 5: $(sed -n 2p d.csv | cut -d, -f2)"

# the poses: 2 models, rescored to the CSV's scores, near the crystal pose
[ "$(grep -c '^MODEL' a.pdbqt)" = 2 ] && [ "$(grep -c '^ENDMDL' a.pdbqt)" = 2 ] || fail "poses: $(grep -c '^MODEL' a.pdbqt) models"
[ "$(grep -c '^REMARK VSGRID RECORD: 0 ' a.pdbqt)" = 1 ] && [ "$(grep -c '^REMARK VSGRID RECORD: 2 ' a.pdbqt)" = 1 ] ||
  fail "poses: REMARK VSGRID RECORD lines"
[ "$(grep -c '^BRANCH' a.pdbqt)" = 10 ] || fail "poses: the tree is not kept"
expect_rc 0 "$vsgrid" screen m a.pdbqt --scoring vina -o re.csv --quiet
[ "$(wc -l < re.csv)" = 3 ] || fail "rescoring the poses: $(($(wc -l < re.csv) - 1)) rows"
for k in 1 2; do
  r=$([ $k = 1 ] && echo 2 || echo 4)
  want=$(sed -n ${r}p a.csv | cut -d, -f6) got=$(sed -n $((k + 1))p re.csv | cut -d, -f6)
  awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.001) }' ||
    fail "pose $k rescored $got, the CSV says $want"
  grep -q "REMARK VINA RESULT: *$(awk -v s="$want" 'BEGIN { printf "%.3f", s }') " a.pdbqt || fail "pose $k: no VINA RESULT $want"
  d=$(rmsd a.pdbqt "$lig" $k)
  echo "biotin record $((r - 2)): $want kcal/mol, $d A heavy-atom RMSD from the crystal pose"
  awk -v d="$d" 'BEGIN { exit !(d != "nan" && d < 2) }' || fail "pose $k at $d A from the crystal pose (2 A allowed)"
done

# vina itself rescores the first pose to its score
if command -v vina > /dev/null 2>&1; then
  awk '/^MODEL 1$/ { on = 1; next } /^ENDMDL/ { on = 0 } on' a.pdbqt > a1.pdbqt
  vs=$(vina --maps m --ligand a1.pdbqt --score_only 2>&1 | awk -F: '/Estimated Free Energy of Binding/ { split($2, w, " "); print w[1] }')
  want=$(sed -n 2p a.csv | cut -d, -f6)
  awk -v a="$want" -v b="$vs" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 0.01) }' ||
    fail "pose 1: vsgrid $want, vina --score_only $vs"
else
  skip_part "pose 1 against vina --score_only" "vina not installed"
fi

# an SDF record after the PDBQT library (a second input): docked, written with the tree searched
zcat "$src/data/xiap_actives_docked.sdf.gz" | awk '{ print } /^\$\$\$\$/ { exit }' > x1.sdf
expect_rc 0 "$vsgrid" screen m lib.pdbqt x1.sdf --scoring vina --placement flexible --exhaustiveness 1 --steps 1000 \
  -o mix.csv --poses-out mix.pdbqt --quiet
[ "$(sed -n 5p mix.csv | cut -d, -f1,3,14)" = "3,x1.sdf,ok" ] || fail "the SDF record's row: $(sed -n 5p mix.csv)"
# its pose checked on the record's atoms (non-polar hydrogens merged in the model, mapped back)
[ "$(sed -n 5p mix.csv | awk -F, '{ print $(NF - 1) ":" $NF }')" = "1:" ] || fail "the SDF record's pose checks: $(sed -n 5p mix.csv)"
awk '/^MODEL 3$/,/^ENDMDL/' mix.pdbqt > x3.pdbqt
grep -q "^REMARK VSGRID RECORD: 3 " x3.pdbqt && grep -q "^ROOT" x3.pdbqt && grep -q "^TORSDOF $(sed -n 5p mix.csv | cut -d, -f12)$" x3.pdbqt ||
  fail "the SDF record's pose is not written with its tree"
expect_rc 0 "$vsgrid" screen m x3.pdbqt --scoring vina -o x3.csv --quiet
awk -v a="$(sed -n 2p x3.csv | cut -d, -f6)" -v b="$(sed -n 5p mix.csv | cut -d, -f6)" \
  'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.001) }' ||
  fail "the SDF record's pose rescored $(sed -n 2p x3.csv | cut -d, -f6), the CSV says $(sed -n 5p mix.csv | cut -d, -f6)"

# bad input, each its row and the run goes on: a salt (an SDF record of two molecules), more
# torsions than --max-torsions, then biotin
n1=$(sed -n 4p x1.sdf | cut -c1-3)
awk -v n="$n1" 'NR == 4 { printf "%3d%s\n", n + 1, substr($0, 4); next } { print } NR == 4 + n { print "   20.0000   20.0000   20.0000 Cl  0  0  0  0  0  0  0  0  0  0  0  0" }' x1.sdf > salt.sdf
expect_rc 0 "$vsgrid" screen m salt.sdf x1.sdf "$lig" --scoring vina --placement flexible --exhaustiveness 1 --steps 300 \
  --max-torsions 8 -o bad.csv --json bad.json --quiet
[ "$(sed 1d bad.csv | awk -F, '{ printf "%s ", $14 }')" = "disconnected torsions ok " ] ||
  fail "salt / 9 torsions / biotin: $(sed 1d bad.csv | cut -d, -f14 | tr '\n' ' ')"
sed -n 2p bad.csv | grep -q "2 fragments" || fail "the salt's message: $(sed -n 2p bad.csv)"
sed -n 3p bad.csv | grep -q "9 torsions, over --max-torsions 8" || fail "the torsion limit's message: $(sed -n 3p bad.csv)"
[ "$(json_val bad.json max_torsions)" = 8 ] || fail "json: max_torsions"

# a macrocycle (cyclododecane, one ring of 12 atoms): docked with its ring opened as Meeko opens it
# (11 torsions, no note); with --rigid-macrocycles docked rigid (0 torsions) and its row says the
# ring was kept rigid as in the input
awk 'BEGIN { print "cyclododecane"; print "  made by cli_screen_flexible.sh"; print "";
  print " 12 12  0  0  0  0  0  0  0  0999 V2000";
  for (i = 0; i < 12; i++) { a = i * 3.14159265 / 6; printf "%10.4f%10.4f%10.4f C   0  0  0  0  0  0  0  0  0  0  0  0\n", 2.955 * cos(a), 2.955 * sin(a), (i % 2) * 0.5 }
  for (i = 1; i <= 12; i++) printf "%3d%3d  1  0\n", i, i % 12 + 1;
  print "M  END"; print "$$$$" }' > macro.sdf
expect_rc 0 "$vsgrid" screen m macro.sdf --scoring vina --placement flexible --exhaustiveness 1 --steps 100 --devices cpu \
  -o macro.csv --quiet
[ "$(sed -n 2p macro.csv | cut -d, -f14)" = ok ] || fail "the macrocycle's row: $(sed -n 2p macro.csv)"
[ "$(sed -n 2p macro.csv | cut -d, -f12)" = 11 ] || fail "the opened macrocycle's torsions: $(sed -n 2p macro.csv)"
sed -n 2p macro.csv | grep -q "kept rigid" && fail "a note on the opened macrocycle: $(sed -n 2p macro.csv)"
expect_rc 0 "$vsgrid" screen m macro.sdf --scoring vina --placement flexible --exhaustiveness 1 --steps 100 --devices cpu \
  --rigid-macrocycles -o macro_rigid.csv --quiet
[ "$(sed -n 2p macro_rigid.csv | cut -d, -f12)" = 0 ] || fail "the rigid macrocycle's torsions: $(sed -n 2p macro_rigid.csv)"
sed -n 2p macro_rigid.csv | grep -q "macrocycle (ring of 12 atoms) kept rigid" || fail "the macrocycle's note: $(sed -n 2p macro_rigid.csv)"
grep -q "macrocycle" bad.csv && fail "a note on a molecule without a macrocycle"

# --placement as-is: the as-is Vina screen
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina --placement as-is -o asis.csv --quiet
expect_rc 0 "$vsgrid" screen m lib.pdbqt --scoring vina -o plain.csv --quiet
cmp -s asis.csv plain.csv || fail "--placement as-is differs from the plain Vina screen"

shared=${VSG_SHARED_DATA:-$src/../shared/data}
d=$shared/autodock_vina/1iep
if [ ! -f "$d/1iep_receptor.pdbqt" ]; then
  skip_part "1IEP flexible docking" "no shared data at $shared; set VSG_SHARED_DATA"
else
  expect_rc 0 "$vsgrid" maps "$d/1iep_receptor.pdbqt" --scoring vina --around "$d/1iep_ligand.pdbqt" --quiet -o m1
  expect_rc 0 "$vsgrid" screen m1 "$d/1iep_ligand.pdbqt" --scoring vina --placement flexible --seed 1 \
    --exhaustiveness 4 --steps 3000 -o 1iep.csv --poses-out 1iep.pdbqt --quiet
  r=$(rmsd 1iep.pdbqt "$d/1iep_ligand.pdbqt" 1)
  echo "1IEP screened flexibly: $(sed -n 2p 1iep.csv | cut -d, -f6) kcal/mol at $r A heavy-atom RMSD"
  awk -v r="$r" 'BEGIN { exit !(r != "nan" && r < 2) }' || fail "1IEP: best pose at $r A from the crystal pose"
fi

[ "$fails" = 0 ] && echo "cli_screen_flexible: ok"
exit "$fails"
