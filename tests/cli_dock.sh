#!/usr/bin/env bash
# `vsgrid dock PREFIX LIGAND -o OUT.pdbqt`: flexible docking on Vina maps, CPU twin (issue 18).
# Without extra data: --help, usage errors (2), a missing map set (3); biotin docked into 1STP
# maps made by `vsgrid maps` (data/): poses written as PDBQT models with `REMARK VINA RESULT`
# lines and the input's ROOT/BRANCH tree, the CSV, the same file for the same seed on 1 and 2
# threads, another for another seed.
# With ../shared/data (or $VSG_SHARED_DATA): the 1IEP crystal ligand (imatinib, 7 torsions)
# redocked from random starts (seed 1): the best pose within 2 A heavy-atom RMSD of the crystal
# pose, and, when vina is installed, its score within 0.01 kcal/mol of `vina --score_only` on the
# written pose; the 1IEP SDF record redocked (within 2 A) and written with its tree.
# Usage: cli_dock.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
lig=$src/data/biotin.pdbqt

expect_rc 0 "$vsgrid" dock --help
grep -q -- "--exhaustiveness" out.txt || fail "dock --help does not document --exhaustiveness"
grep -q "REMARK VINA RESULT" out.txt || fail "dock --help does not describe the output"
expect_rc 0 "$vsgrid" --help
grep -q "dock PREFIX LIGAND" out.txt || fail "vsgrid --help does not list dock"
expect_rc 2 "$vsgrid" dock m "$lig"                                  # no -o
expect_rc 2 "$vsgrid" dock m -o o.pdbqt                              # no ligand
expect_rc 3 "$vsgrid" dock m "$lig" --scoring ad4 -o o.pdbqt
# the AutoDock4 function on an AutoGrid map set (issue 28 item 4): poses, their terms, exit 0;
# SDF output is refused; --devices gpu runs the GPU search (exit 5 without a GPU)
expect_rc 0 "$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring ad4 --around "$lig" --device cpu --quiet -o a4
expect_rc 0 "$vsgrid" dock a4 "$lig" --scoring ad4 --devices cpu --exhaustiveness 4 --steps 40 --from-input --seed 1 --quiet -o a4.pdbqt --csv a4.csv
[ "$(grep -c '^MODEL' a4.pdbqt)" -ge 1 ] && awk -F, 'NR == 2 { exit !($2 < -6 && $12 < 1.5) }' a4.csv ||
  fail "dock --scoring ad4: $(head -3 a4.csv | tr '\n' ' ')"
# --local-only with the AutoDock4 function: the crystal pose minimised in place (one pose, near
# its input, scored no better than the search's best: the function's minimum there)
expect_rc 0 "$vsgrid" dock a4 "$lig" --scoring ad4 --local-only -o a4l.pdbqt --csv a4l.csv --json a4l.json
grep -q '"scoring": "ad4"' a4l.json && grep -q '"chains": 1,' a4l.json ||
  fail "dock --scoring ad4 --json: no summary, or not the AutoDock4 run's: $(head -c 300 a4l.json 2> /dev/null)"
awk -F, 'NR == 2 { print $2 + 0 }' a4l.csv > want.txt
awk '/"score":/ { gsub(/[",]/, "", $2); printf "%.4f\n", $2 }' a4l.json | cmp -s - want.txt ||
  fail "dock --scoring ad4 --json: score $(grep '"score"' a4l.json) against the CSV's $(cat want.txt)"
grep -q "minimised in place" out.txt || fail "ad4 --local-only summary: $(cat out.txt)"
[ "$(grep -c '^MODEL' a4l.pdbqt)" = 1 ] && awk -F, 'NR == 2 { exit !($2 < -6 && $12 < 0.5) }' a4l.csv ||
  fail "dock --scoring ad4 --local-only: $(head -3 a4l.csv | tr '\n' ' ')"
expect_rc 0 "$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring vina --around "$lig" --device cpu --quiet -o v4
expect_rc 3 "$vsgrid" dock v4 "$lig" --scoring ad4 --devices cpu -o a4v.pdbqt
grep -q "is a Vina map set; --scoring ad4 docks on an AutoDock4 map set" err.txt || fail "ad4 on Vina maps: $(cat err.txt)"
# the converse slip: an AutoDock4 map set docked with the Vina function
expect_rc 3 "$vsgrid" dock a4 "$lig" --devices cpu -o a4x.pdbqt
grep -q "a4.maps.fld is an AutoDock4 map set: dock on it with --scoring ad4" err.txt || fail "Vina on AD4 maps: $(cat err.txt)"
# a box inside the protein: the best AD4 pose is repulsive, a number that means nothing: exit 8, nothing written
mid=$(awk '/^(ATOM|HETATM)/ { n++; x[n] = substr($0, 31, 8); y[n] = substr($0, 39, 8); z[n] = substr($0, 47, 8)
  sx += x[n]; sy += y[n]; sz += z[n] } END { cx = sx / n; cy = sy / n; cz = sz / n; best = 1e9
  for (i = 1; i <= n; i++) { d = (x[i] - cx) ^ 2 + (y[i] - cy) ^ 2 + (z[i] - cz) ^ 2; if (d < best) { best = d; k = i } }
  printf "%.3f,%.3f,%.3f", x[k], y[k], z[k] }' "$src/data/1stp_receptor.pdbqt")
expect_rc 0 "$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring ad4 --box "$mid,12,12,12" --device cpu --quiet -o a4core
rm -f a4core.pdbqt
expect_rc 8 "$vsgrid" dock a4core "$lig" --scoring ad4 --devices cpu --exhaustiveness 4 --steps 30 -o a4core.pdbqt
grep -q "means nothing: the pose clashes" err.txt || fail "ad4, repulsive best pose: $(cat err.txt)"
[ -e a4core.pdbqt ] && fail "ad4, repulsive best pose: poses written"
cat "$lig" "$lig" > two.pdbqt # a file of two records: which one? (as with the Vina function)
expect_rc 2 "$vsgrid" dock a4 two.pdbqt --scoring ad4 --devices cpu -o a4two.pdbqt
grep -q "holds more than one record" err.txt || fail "ad4, two records: $(cat err.txt)"
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
  # the GPU search on the same record, settings and seed: as good as the CPU twin's (float, not to the bit)
  expect_rc 0 "$vsgrid" dock a4 "$lig" --scoring ad4 --devices gpu --exhaustiveness 4 --steps 40 --from-input --seed 1 -o a4g.pdbqt --csv a4g.csv
  grep -q "s on the GPU" out.txt || fail "ad4 --devices gpu: not on the GPU: $(cat out.txt)"
  awk -F, 'NR == FNR && FNR == 2 { c = $2 } NR > FNR && FNR == 2 { g = $2 } END { exit !(g != "" && g < c + 0.5) }' a4.csv a4g.csv ||
    fail "ad4 on the GPU: best $(sed -n 2p a4g.csv | cut -d, -f2) against the CPU's $(sed -n 2p a4.csv | cut -d, -f2)"
else
  expect_rc 5 "$vsgrid" dock a4 "$lig" --scoring ad4 --devices gpu -o a4g.pdbqt
  grep -q "no GPU found" err.txt || fail "ad4 --devices gpu without a GPU: $(cat err.txt)"
  [ -e a4g.pdbqt ] && fail "ad4 --devices gpu without a GPU: poses written"
fi
expect_rc 2 "$vsgrid" dock a4 "$lig" --scoring ad4 --devices cpu -o a4.sdf
# an SDF record docked with the AutoDock4 function: as the PDBQT prepare-ligands writes for it
# (types, its charges, the tree), written as that PDBQT; biotin's SDF (vsgrid's, with the PDBQT's
# charges as atom properties) docks as its PDBQT does; without charges it gets Gasteiger's, or is
# refused in a build without Open Babel (never all zeros)
expect_rc 0 "$vsgrid" dock v4 "$lig" --devices cpu --local-only --quiet -o bt.sdf
expect_rc 0 "$vsgrid" dock a4 bt.sdf --scoring ad4 --devices cpu --exhaustiveness 4 --steps 40 --from-input --seed 1 --quiet -o a4s.pdbqt --csv a4s.csv
grep -q '^ROOT' a4s.pdbqt && grep -q '^TORSDOF 5' a4s.pdbqt && [ "$(awk '/^ATOM/ && substr($0, 71, 6) + 0 != 0' a4s.pdbqt | wc -l)" -gt 10 ] ||
  fail "dock --scoring ad4 of an SDF: not a PDBQT with its tree and charges: $(head -12 a4s.pdbqt)"
awk -F, 'NR == FNR && FNR == 2 { a = $2 } NR > FNR && FNR == 2 { exit !($2 < -6 && $2 - a < 0.5 && a - $2 < 0.5) }' a4.csv a4s.csv ||
  fail "dock --scoring ad4: the SDF's best $(sed -n 2p a4s.csv | cut -d, -f2) against the PDBQT's $(sed -n 2p a4.csv | cut -d, -f2)"
awk '!skip { print } /^M  END/ { skip = 1 }' bt.sdf > btq.sdf && printf '$$$$\n' >> btq.sdf # the molfile alone: no charges
if have_openbabel "$vsgrid"; then
  expect_rc 0 "$vsgrid" dock a4 btq.sdf --scoring ad4 --devices cpu --exhaustiveness 4 --steps 40 --seed 1 --quiet -o a4g2.pdbqt
  [ "$(awk '/^ATOM/ && substr($0, 71, 6) + 0 != 0' a4g2.pdbqt | wc -l)" -gt 10 ] || fail "ad4, SDF without charges: no Gasteiger charges"
else
  expect_rc 7 "$vsgrid" dock a4 btq.sdf --scoring ad4 --devices cpu -o a4g2.pdbqt
  grep -q "no partial charges, and this build has no Open Babel" err.txt || fail "ad4, SDF without charges: $(cat err.txt)"
fi
expect_rc 2 "$vsgrid" dock m "$lig" --exhaustiveness 0 -o o.pdbqt
expect_rc 2 "$vsgrid" dock m "$lig" --seed -3 -o o.pdbqt
expect_rc 3 "$vsgrid" dock nothere "$lig" -o o.pdbqt
grep -q 'nothere' err.txt || fail "missing map set: $(cat err.txt)"

# heavy-atom RMSD between two PDBQT atom lists in the same order (first model of each)
rmsd() {
  awk 'FNR == 1 { f++ } /^ENDMDL/ { done[f] = 1 }
       !done[f] && /^(ATOM  |HETATM)/ && $NF != "H" && $NF != "HD" {
         n[f]++; x[f, n[f]] = substr($0, 31, 8); y[f, n[f]] = substr($0, 39, 8); z[f, n[f]] = substr($0, 47, 8) }
       END { if (n[1] != n[2] || n[1] == 0) { print "nan"; exit }
             for (i = 1; i <= n[1]; i++) s += (x[1,i]-x[2,i])^2 + (y[1,i]-y[2,i])^2 + (z[1,i]-z[2,i])^2
             printf "%.3f\n", sqrt(s / n[1]) }' "$1" "$2"
}

expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" --quiet -o bt
expect_rc 0 "$vsgrid" dock bt "$lig" --seed 7 --exhaustiveness 2 --steps 400 --poses 3 --threads 1 -o a.pdbqt --csv a.csv --json a.json
grep -q "^dock: .* poses (.*PoseBusters-valid.*), best" out.txt || fail "no summary line: $(cat out.txt)"
[ "$(grep -c '^MODEL' a.pdbqt)" = "$(grep -c '^ENDMDL' a.pdbqt)" ] || fail "MODEL/ENDMDL unbalanced"
n=$(grep -c '^MODEL' a.pdbqt)
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "--poses 3: $n models"
[ "$(grep -c '^REMARK VINA RESULT' a.pdbqt)" = "$n" ] || fail "a REMARK VINA RESULT per model"
[ "$(grep -c '^ROOT' a.pdbqt)" = "$n" ] && [ "$(grep -c '^BRANCH' a.pdbqt)" = $((5 * n)) ] ||
  fail "the input's tree is not kept: $(grep -c '^BRANCH' a.pdbqt) BRANCH lines"
[ "$(grep -c '^TORSDOF 5' a.pdbqt)" = "$n" ] || fail "TORSDOF missing"
[ "$(awk '/^MODEL 1$/,/^ENDMDL/' a.pdbqt | grep -c '^ATOM\|^HETATM')" = "$(grep -c '^ATOM\|^HETATM' "$lig")" ] ||
  fail "model 1 has not the input's atoms"
head -1 a.csv | grep -q "^pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,search_energy_kcal_mol,num_tors,rmsd_best_A,rmsd_input_A,posebusters_valid,posebusters_failed$" ||
  fail "CSV header: $(head -1 a.csv)"
[ "$(($(wc -l < a.csv) - 1))" = "$n" ] || fail "CSV: a row per pose"
s1=$(sed -n 2p a.csv | cut -d, -f2)
grep -q "REMARK VINA RESULT: *$s1 " a.pdbqt || fail "the CSV's best score $s1 is not model 1's"
awk -v s="$s1" 'BEGIN { exit !(s < -4) }' || fail "biotin's best pose scores $s1"
[ "$(json_val a.json chains)" = 2 ] || fail "json: chains $(json_val a.json chains)"
# a map set without one of the ligand's types: bad input (3), the type named
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" --types C_H,C_P --quiet -o few
expect_rc 3 "$vsgrid" dock few "$lig" --steps 10 -o f.pdbqt
grep -q "has no .* map" err.txt || fail "a missing map: $(cat err.txt)"
# the same seed: the same file, whatever the thread count; another seed: another search
expect_rc 0 "$vsgrid" dock bt "$lig" --seed 7 --exhaustiveness 2 --steps 400 --poses 3 --threads 2 --quiet -o b.pdbqt
cmp -s a.pdbqt b.pdbqt || fail "seed 7 on 1 and 2 threads gives different poses"
expect_rc 0 "$vsgrid" dock bt "$lig" --seed 8 --exhaustiveness 2 --steps 400 --poses 3 --quiet -o c.pdbqt
cmp -s a.pdbqt c.pdbqt && fail "seeds 7 and 8 give the same poses"
shared=${VSG_SHARED_DATA:-$src/../shared/data}
d=$shared/autodock_vina/1iep
if [ ! -f "$d/1iep_receptor.pdbqt" ]; then
  skip_part "1IEP redocking" "no shared data at $shared; set VSG_SHARED_DATA"
else
  expect_rc 0 "$vsgrid" maps "$d/1iep_receptor.pdbqt" --scoring vina --around "$d/1iep_ligand.pdbqt" --quiet -o m
  t0=$(date +%s.%N)
  expect_rc 0 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --seed 1 --exhaustiveness 4 --steps 3000 -o 1iep.pdbqt --csv 1iep.csv
  t1=$(date +%s.%N)
  cat out.txt
  awk '/^MODEL 1$/ { on = 1; next } /^ENDMDL/ { on = 0 } on' 1iep.pdbqt > best.pdbqt
  r=$(rmsd best.pdbqt "$d/1iep_ligand.pdbqt")
  s=$(sed -n 2p 1iep.csv | cut -d, -f2)
  echo "1IEP redocked from random starts (seed 1, 4 chains x 3000 steps): best $s kcal/mol at $r A heavy-atom RMSD, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
  awk -v r="$r" 'BEGIN { exit !(r < 2) }' || fail "1IEP: best pose at $r A from the crystal pose (2 A allowed)"
  # an SDF record: written with the tree the search used, scored again by vsgrid as written
  # (its tree rooted at the centre, as ligand preparation roots it: redocked like the PDBQT)
  expect_rc 0 "$vsgrid" dock m "$d/1iep_ligand.sdf" --seed 1 --exhaustiveness 4 --steps 3000 --poses 1 --quiet -o s.pdbqt --csv s.csv
  rs=$(sed -n 2p s.csv | cut -d, -f9)
  echo "1IEP from its SDF record: best $(sed -n 2p s.csv | cut -d, -f2) kcal/mol at $rs A heavy-atom RMSD"
  awk -v r="$rs" 'BEGIN { exit !(r != "" && r < 2) }' || fail "1IEP SDF: best pose at $rs A from the crystal pose"
  grep -q '^ROOT' s.pdbqt && [ "$(grep -c '^BRANCH' s.pdbqt)" = 7 ] && grep -q '^TORSDOF 7' s.pdbqt ||
    fail "SDF input: the tree is not written"
  awk '/^MODEL/ || /^ENDMDL/ { next } { print }' s.pdbqt > s1.pdbqt
  expect_rc 0 "$vsgrid" screen m s1.pdbqt --scoring vina -o s1.csv --quiet
  awk -v a="$(sed -n 2p s1.csv | cut -d, -f6)" -v b="$(sed -n 2p s.csv | cut -d, -f2)" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 0.0006) }' ||
    fail "SDF input: the written pose scores $(sed -n 2p s1.csv | cut -d, -f6), dock said $(sed -n 2p s.csv | cut -d, -f2)"
  if command -v vina > /dev/null 2>&1; then
    vs=$(vina --maps m --ligand best.pdbqt --score_only 2>&1 | awk -F: '/Estimated Free Energy of Binding/ { split($2, w, " "); print w[1] }')
    echo "vina --score_only on the written pose: $vs kcal/mol"
    awk -v a="$s" -v b="$vs" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != "" && d <= 0.01) }' ||
      fail "1IEP: vsgrid's score $s, vina --score_only $vs"
  else
    skip_part "1IEP score against vina --score_only" "vina not installed"
  fi
fi
# --local-only (vina --local_only, issue 28): biotin's crystal pose minimised in place on bt: one
# pose, near the input, scoring at or below the input pose, and the written pose rescores to it
expect_rc 0 "$vsgrid" dock bt "$lig" --local-only --csv loc.csv -o loc.pdbqt --json loc.json
[ "$(grep -c '^MODEL' loc.pdbqt)" = 1 ] || fail "--local-only wrote $(grep -c '^MODEL' loc.pdbqt) poses, not 1"
# the summary and --json say no search ran (not the preset's chains and focus chains)
grep -q "the input pose minimised in place (no search)" out.txt && [ "$(json_val loc.json focus_chains)" = 0 ] ||
  fail "--local-only's summary: $(cat out.txt); json focus_chains $(json_val loc.json focus_chains)"
expect_rc 0 "$vsgrid" screen bt "$lig" --scoring vina -o in.csv --quiet
awk '/^MODEL/ { n++ } n == 1 && !/^(MODEL|ENDMDL)/' loc.pdbqt > loc1.pdbqt
expect_rc 0 "$vsgrid" screen bt loc1.pdbqt --scoring vina -o loc_rescored.csv --quiet
awk -F, -v a="$(sed -n 2p loc.csv | cut -d, -f2)" -v b="$(sed -n 2p in.csv | cut -d, -f6)" -v c="$(sed -n 2p loc_rescored.csv | cut -d, -f6)" \
  -v r="$(sed -n 2p loc.csv | cut -d, -f9)" \
  'BEGIN { d = a - c; if (d < 0) d = -d; exit !(a != "" && a <= b + 1e-9 && d < 0.0006 && r < 1.0) }' ||
  fail "--local-only: score $(sed -n 2p loc.csv | cut -d, -f2), input $(sed -n 2p in.csv | cut -d, -f6), rescored $(sed -n 2p loc_rescored.csv | cut -d, -f6), moved $(sed -n 2p loc.csv | cut -d, -f9) A"

[ "$fails" = 0 ] && echo "cli_dock: all checks passed"
[ "$fails" = 0 ]
