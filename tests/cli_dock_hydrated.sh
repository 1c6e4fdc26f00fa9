#!/usr/bin/env bash
# Vina 1.2's hydrated-docking example as its documentation runs it (issue 28 item 3):
# Meeko's nicotine PDBQT with two W waters (data/hydrated/), AutoDock4 maps of AChBP (1UW6) on the
# example's box with the W map (`maps --hydrated`), `dock --scoring ad4`, the dry step.
#  - the W map: 20 nodes checked against mapwater.py's formula recomputed here from the OA and HD
#    files (awk: -0.2 if either > 0, else 0.6 × the lower), to the printed 4 decimals;
#  - dock writes its poses with the kept waters labelled (REMARK STRONG/WEAK, B-factor 30/80),
#    each model holding as many W lines as the CSV's strong + weak count; --no-dry writes both;
#  - the scores as Vina's documentation reports them (best −8.261 kcal/mol there: within 0.3
#    here) and a pose of the top three within 2.5 Å of the crystal ligand (Vina's top pose is
#    2.09 Å away; its second 1.0 Å);
#  - the same on the GPU (where there is one; else --devices gpu exits 5);
#  - refusals: the Vina function with W atoms, a misplaced W (file:line), no W map,
#    --hydrated with --scoring vina.
# Usage: cli_dock_hydrated.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_hydrated
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
d=$src/data/hydrated
zcat "$d/1uw6_receptor.pdbqt.gz" > rec.pdbqt || fail "receptor"
cp "$d/1uw6_ligand.pdbqt" lig.pdbqt
box=83.640,69.684,-10.124,15,15,15
expect_rc 0 "$vsgrid" maps rec.pdbqt --scoring ad4 --hydrated --box $box -o m/rec --device cpu
grep -q "91.66% OA points, 8.34% HD points, values -0.98 to -0.01" err.txt ||
  fail "W map summary (Vina's documentation: OA 91.66%, HD 8.34%, -0.98 .. -0.01): $(grep W.map err.txt)"
[ -s m/rec.W.map ] || fail "no m/rec.W.map"
cmp <(head -6 m/rec.OA.map) <(head -6 m/rec.W.map) >/dev/null || fail "W map header is not the OA map's"
[ "$(wc -l < m/rec.W.map)" = "$(wc -l < m/rec.OA.map)" ] || fail "W map length"
# 20 nodes spread over the grid (and the two nodes of each kind of rule) against the formula
paste -d' ' <(tail -n +7 m/rec.OA.map) <(tail -n +7 m/rec.HD.map) <(tail -n +7 m/rec.W.map) | awk '
  function want(o, h) { if (o > 0 || h > 0) return -0.2; return 0.6 * (o < h ? o : h) }
  (NR % 3400 == 1) || ($1 > 0 && pos++ < 2) || ($1 < 0 && $2 < 0 && neg++ < 2) {
    n++; w = want($1 + 0, $2 + 0); if ((w - $3) > 0.00005 || ($3 - w) > 0.00005) { print "node " NR ": OA " $1 " HD " $2 " W " $3 " want " w; bad++ } }
  END { if (n < 20) { print "only " n " nodes checked"; bad++ } exit bad > 0 }' > wmap.txt || fail "W map values: $(head -3 wmap.txt)"

# the W map comes by itself when the --around ligand (vina's docked pose: its first model) has W atoms
expect_rc 0 "$vsgrid" maps rec.pdbqt --scoring ad4 --around "$d/1uw6_ligand_ad4_out.pdbqt" -o a/rec --device cpu --quiet
[ -s a/rec.W.map ] || fail "maps --around a ligand with W: no a/rec.W.map"

run=(--devices cpu --seed 1 --threads 2)
expect_rc 0 "$vsgrid" dock m/rec lig.pdbqt --scoring ad4 "${run[@]}" -o p.pdbqt --csv p.csv
grep -q "hydrated: 2 W atoms a pose" out.txt || fail "no hydrated summary: $(cat out.txt)"
best=$(awk -F, 'NR == 2 { print $2 }' p.csv)
awk -v b="$best" 'BEGIN { exit !(b > -8.561 && b < -7.961) }' || fail "best score $best, Vina's documented -8.261"
head -1 p.csv | grep -q ",waters_strong,waters_weak,waters_removed$" || fail "CSV water columns: $(head -1 p.csv)"
# each model: W lines = strong + weak of its CSV row, each after its REMARK, with B-factor 30 or 80
awk -F, 'NR > 1 { print $13 + $14 }' p.csv > kept.txt
awk '
  /^MODEL/ { m++; w = 0; prev = "" }
  /^ATOM|^HETATM/ && substr($0, 78) ~ /^W/ {
    w++; bf = substr($0, 61, 6) + 0
    if (!((prev ~ /^REMARK  STRONG water/ && bf == 30) || (prev ~ /^REMARK  WEAK   water/ && bf == 80))) { print "model " m ": unlabelled water"; bad++ } }
  /^ENDMDL/ { print w > "written.txt" }
  { prev = $0 }
  END { exit bad > 0 }' p.pdbqt > lab.txt || fail "water labels: $(head -2 lab.txt)"
cmp -s kept.txt written.txt || fail "waters written per model ($(tr '\n' ' ' < written.txt)) differ from the CSV ($(tr '\n' ' ' < kept.txt))"
grep -q "^REMARK  STRONG water" p.pdbqt || fail "no strong water kept in any pose (Vina's example keeps one a pose)"
# the crystal ligand: a top-three pose within 2.5 A (waters are not ligand atoms to vsgrid rmsd)
expect_rc 0 "$vsgrid" rmsd "$d/1uw6_ligand.sdf" p.pdbqt
awk -F, 'NR > 1 && NR <= 4 && $3 != "" && $3 < 2.5 { ok = 1 } END { exit !ok }' out.txt || fail "no top-3 pose within 2.5 A: $(tr '\n' ' ' < out.txt)"
# --no-dry: both waters in every model, no labels
expect_rc 0 "$vsgrid" dock m/rec lig.pdbqt --scoring ad4 "${run[@]}" --poses 3 --no-dry -o wet.pdbqt
awk '/^MODEL/ { w = 0 } /^ATOM/ && substr($0, 78) ~ /^W/ { w++ } /^ENDMDL/ { if (w != 2) bad++ } END { exit bad > 0 }' wet.pdbqt ||
  fail "--no-dry: a model without its 2 waters"
grep -q "water ( score" wet.pdbqt && fail "--no-dry labelled waters"
# the receptor named explicitly gives the same poses
expect_rc 0 "$vsgrid" dock m/rec lig.pdbqt --scoring ad4 "${run[@]}" --receptor rec.pdbqt -o p2.pdbqt
cmp -s p.pdbqt p2.pdbqt || fail "--receptor REC changed the dry poses"

# refusals
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
  # hydrated docking on the GPU: the same waters judged, a top-3 pose within 2.5 A as on the CPU
  expect_rc 0 "$vsgrid" dock m/rec lig.pdbqt --scoring ad4 --devices gpu --seed 1 -o g.pdbqt --csv g.csv
  grep -q "s on the GPU" out.txt || fail "hydrated, --devices gpu: not on the GPU: $(cat out.txt)"
  grep -q "hydrated: 2 W atoms a pose" out.txt || fail "hydrated, GPU: no hydrated summary: $(cat out.txt)"
  best=$(awk -F, 'NR == 2 { print $2 }' g.csv)
  awk -v b="$best" 'BEGIN { exit !(b > -8.561 && b < -7.961) }' || fail "hydrated, GPU: best score $best, Vina's documented -8.261"
  expect_rc 0 "$vsgrid" rmsd "$d/1uw6_ligand.sdf" g.pdbqt
  awk -F, 'NR > 1 && NR <= 4 && $3 != "" && $3 < 2.5 { ok = 1 } END { exit !ok }' out.txt || fail "hydrated, GPU: no top-3 pose within 2.5 A: $(tr '\n' ' ' < out.txt)"
else
  expect_rc 5 "$vsgrid" dock m/rec lig.pdbqt --scoring ad4 --devices gpu -o x.pdbqt
  grep -q "no GPU found" err.txt || fail "hydrated, --devices gpu without a GPU: $(cat err.txt)"
fi
expect_rc 0 "$vsgrid" maps rec.pdbqt --scoring vina --box 83.640,69.684,-10.124,8,8,8 -o v --device cpu --quiet
expect_rc 3 "$vsgrid" dock v lig.pdbqt --devices cpu -o x.pdbqt
grep -q "lig.pdbqt:19: .*W is a hydrated-docking water.*--scoring ad4" err.txt || fail "Vina function with W: $(cat err.txt)"
[ -e x.pdbqt ] && fail "x.pdbqt written after a refusal"
expect_rc 2 "$vsgrid" maps rec.pdbqt --scoring vina --hydrated --box $box -o v2
# a W moved 5 A off its nitrogen (line 19, atom 13): named with its line
awk 'NR == 19 { $0 = substr($0, 1, 30) sprintf("%8.3f", substr($0, 31, 8) + 5) substr($0, 39) } { print }' lig.pdbqt > bad.pdbqt
expect_rc 3 "$vsgrid" dock m/rec bad.pdbqt --scoring ad4 "${run[@]}" -o x.pdbqt
grep -q "bad.pdbqt:19: .*misplaced W" err.txt || fail "misplaced W: $(cat err.txt)"
# no W map
mkdir -p dry && cp m/rec.* dry/ && rm dry/rec.W.map
expect_rc 3 "$vsgrid" dock dry/rec lig.pdbqt --scoring ad4 "${run[@]}" -o x.pdbqt
grep -q "no W map.*--hydrated" err.txt || fail "no W map message: $(cat err.txt)"
[ $fails = 0 ] && echo "cli_dock_hydrated: ok"
exit $((fails > 0))
