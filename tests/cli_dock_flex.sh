#!/usr/bin/env bash
# Vina's flexible-docking example as its documentation runs it (issue 28 item 2), on the CPU (and on
# the GPU where there is one):
# 1FPU's rigid part mapped by `vsgrid maps`, THR A 315 flexible (data/flex/1fpu_receptor_flex.pdbqt),
# imatinib docked with `vsgrid dock --flex` (--search detail, seeded). Checked:
#   - each MODEL is the ligand (41 atoms) then BEGIN_RES ... END_RES with the residue's 5 atoms, its
#     CA (ROOT) and CB (on the CA-CB axis) where they were, as vina writes its poses;
#   - the best pose reaches vina's: at most -11.3 kcal/mol (vina's own pose 1 of the example,
#     data/flex/1fpu_vina_pose1_*, has inter -16.387, i.e. -11.627 as vina's docking reports it) and
#     lies within 2 A of that pose (ligand heavy atoms, `vsgrid rmsd`);
#   - with vina on the PATH: `vina --score_only --flex` of the written best pose gives the
#     intermolecular and intramolecular energies vsgrid wrote (to 0.002) and vsgrid's score is
#     vina's inter / (1 + w N_rot) with vina's own divisor;
#   - refused, with the reason: a flex file without END_RES (exit 3, file:line), maps made with the
#     side chain in (exit 3), a --receptor that holds the flex atoms (exit 3), SDF output with --flex
#     (exit 2); --devices gpu without a GPU (exit 5).
# Usage: cli_dock_flex.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_flex
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
d=$src/data/flex
zcat "$d/1fpu_receptor_rigid.pdbqt.gz" > rigid.pdbqt || fail "receptor"
box=15.190,53.903,16.917,20,20,20
expect_rc 0 "$vsgrid" maps rigid.pdbqt --scoring vina --box $box -o m --device cpu --quiet
run=(--devices cpu --search detail --seed 1 --threads 2 --poses 3)
expect_rc 0 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --receptor rigid.pdbqt \
  "${run[@]}" --csv p.csv -o p.pdbqt
cat out.txt
# the MODEL blocks: 41 ligand atoms, then the residue (5 atoms), CA and CB unmoved
awk '
  /^MODEL/ { m++; n = 0; f = 0; inres = 0; res = 0 }
  /^BEGIN_RES/ { inres = 1; res++ }
  /^ATOM|^HETATM/ { if (inres) { f++; if (f <= 2) xyz[f] = substr($0, 31, 24) } else n++ }
  /^END_RES/ { inres = 0 }
  /^ENDMDL/ {
    if (n != 41 || f != 5 || res != 1) { print "model " m ": " n " ligand atoms, " f " flex atoms, " res " residues"; bad++ }
    if (xyz[1] != "  13.079  52.503   8.093" || xyz[2] != "  13.429  52.900   9.553") { print "model " m ": CA/CB moved: " xyz[1] " / " xyz[2]; bad++ }
  }
  END { if (m < 1) { print "no model"; bad++ } exit bad > 0 }' p.pdbqt > models.txt || fail "models: $(cat models.txt)"
best=$(awk -F, 'NR == 2 { print $2 }' p.csv)
awk -v b="$best" 'BEGIN { exit !(b != "" && b <= -11.3) }' || fail "best score $best kcal/mol, expected <= -11.3 (vina's pose: -11.627)"
# model 1's ligand and residue, as two files (vina --score_only reads them so)
awk '/^MODEL/ { m++; next } m != 1 { next } /^ENDMDL/ { exit }
     /^BEGIN_RES/ { r = 1 } { print > (r ? "best_flex.pdbqt" : "best_lig.pdbqt") }' p.pdbqt
"$vsgrid" rmsd "$d/1fpu_vina_pose1_ligand.pdbqt" best_lig.pdbqt > rmsd.csv 2> /dev/null || fail "vsgrid rmsd"
r=$(awk -F, 'NR == 2 { print $3 }' rmsd.csv)
awk -v r="$r" 'BEGIN { exit !(r != "" && r < 2.0) }' || fail "best pose $r A from vina's pose 1, expected < 2"
echo "best $best kcal/mol, $r A from vina's pose 1 of the example"
if command -v vina > /dev/null; then
  c=($(echo "$box" | tr , ' '))
  vina --score_only --receptor rigid.pdbqt --flex best_flex.pdbqt --ligand best_lig.pdbqt --center_x ${c[0]} \
    --center_y ${c[1]} --center_z ${c[2]} --size_x 20 --size_y 20 --size_z 20 > vina.txt 2>&1 || fail "vina --score_only: $(tail -3 vina.txt)"
  # vina prints (1) inter, (2) intra, (4) unbound and the total (1)+(2)+(3)+(4), its divisor ((1)+(2)-(4))/total
  awk -F, -v csv=p.csv '
    /Estimated Free Energy/ { tot = $0; sub(/.*: */, "", tot); tot += 0 }
    /^\(1\)/ { i1 = $0; sub(/.*: */, "", i1); i1 += 0 }
    /^\(2\)/ { i2 = $0; sub(/.*: */, "", i2); i2 += 0 }
    /^\(4\)/ { i4 = $0; sub(/.*: */, "", i4); i4 += 0 }
    END {
      getline hdr < csv; getline row < csv; split(row, v, ",")
      div = (i1 + i2 - i4) / tot
      printf "vina --score_only: inter %.3f intra %.3f total %.3f; vsgrid: inter %.3f intra %.3f score %.3f (vina inter / its divisor: %.3f)\n", i1, i2, tot, v[3], v[4], v[2], i1 / div
      bad = (v[3] - i1) ^ 2 > 0.002 ^ 2 || (v[4] - i2) ^ 2 > 0.002 ^ 2 || (v[2] - i1 / div) ^ 2 > 0.005 ^ 2
      exit bad
    }' vina.txt > peer.txt
  rc=$?
  cat peer.txt
  [ $rc = 0 ] || fail "vsgrid's terms differ from vina --score_only's"
else
  skip_part "vina --score_only of the pose" "vina not on the PATH"
fi
# refusals
head -n 12 "$d/1fpu_receptor_flex.pdbqt" > no_end.pdbqt
expect_rc 3 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex no_end.pdbqt --devices cpu -o x.pdbqt
grep -q "no_end.pdbqt:12: the file ends inside the residue begun at line 1" err.txt || fail "missing END_RES: $(cat err.txt)"
(cat rigid.pdbqt; grep '^ATOM' "$d/1fpu_receptor_flex.pdbqt") > full.pdbqt
expect_rc 3 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --receptor full.pdbqt --devices cpu -o x.pdbqt
grep -q "1fpu_receptor_flex.pdbqt:8: flex atom CG2 lies on receptor atom CG2 THR 315" err.txt || fail "full receptor: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps full.pdbqt --scoring vina --box $box -o full --device cpu --quiet
expect_rc 3 "$vsgrid" dock full "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --devices cpu -o x.pdbqt
grep -q "maps were made with the flexible side chains" err.txt || fail "maps of the full receptor: $(cat err.txt)"
# maps whose box leaves the flex residue out (another receptor's, or a box elsewhere): every pose
# would score the out-of-box penalty (once printed as "intra 66060799", exit 0)
expect_rc 0 "$vsgrid" maps rigid.pdbqt --scoring vina --box 45.190,53.903,16.917,20,20,20 -o away --device cpu --quiet
expect_rc 3 "$vsgrid" dock away "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --devices cpu -o x.pdbqt
grep -q "lies outside the maps' box" err.txt || fail "flex residue outside the box: $(cat err.txt)"
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L > /dev/null 2>&1; then
  # the GPU search with the residue: the same checks as the CPU's (score, pose, CA/CB unmoved)
  expect_rc 0 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --receptor rigid.pdbqt \
    --devices gpu --search detail --seed 1 --poses 3 --csv g.csv -o g.pdbqt
  grep -q "s on the GPU" out.txt || fail "--flex --devices gpu: not on the GPU: $(cat out.txt)"
  gbest=$(awk -F, 'NR == 2 { print $2 }' g.csv)
  awk -v b="$gbest" 'BEGIN { exit !(b != "" && b <= -11.3) }' || fail "GPU: best score $gbest kcal/mol, expected <= -11.3"
  awk '/^MODEL/ { m++; next } m != 1 { next } /^ENDMDL/ { exit } /^BEGIN_RES/ { r = 1 }
       !r { print > "gbest_lig.pdbqt" } r && /^ATOM/ && ++f <= 2 { print substr($0, 31, 24) > "gca.txt" }' g.pdbqt
  printf '  13.079  52.503   8.093\n  13.429  52.900   9.553\n' | cmp -s - gca.txt || fail "GPU: CA/CB moved: $(cat gca.txt)"
  "$vsgrid" rmsd "$d/1fpu_vina_pose1_ligand.pdbqt" gbest_lig.pdbqt > grmsd.csv 2> /dev/null || fail "vsgrid rmsd (GPU)"
  gr=$(awk -F, 'NR == 2 { print $3 }' grmsd.csv)
  awk -v r="$gr" 'BEGIN { exit !(r != "" && r < 2.0) }' || fail "GPU: best pose $gr A from vina's pose 1, expected < 2"
  echo "GPU: best $gbest kcal/mol, $gr A from vina's pose 1"
else
  expect_rc 5 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --devices gpu -o x.pdbqt
  grep -q "no GPU found" err.txt || fail "--flex --devices gpu without a GPU: $(cat err.txt)"
fi
expect_rc 2 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex "$d/1fpu_receptor_flex.pdbqt" --devices cpu -o x.sdf
[ ! -e x.pdbqt ] || fail "a refused run wrote x.pdbqt"
# --flex-residues: the full receptor cut as prepare_flexreceptor cut the example (the flex file equal to
# the example's but for its REMARK, the rigid part equal to the example's), then two residues (LYS A 271
# and THR A 315: pairs within and between residues) docked on maps of the new rigid part
expect_rc 3 "$vsgrid" dock full "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A:THR:315 --devices cpu -o fr.pdbqt
grep -q "vsgrid maps fr_rigid.pdbqt" err.txt || fail "--flex-residues with maps of the full receptor: $(cat err.txt)"
diff <(grep -v REMARK fr_flex.pdbqt) <(grep -v REMARK "$d/1fpu_receptor_flex.pdbqt") > /dev/null || fail "fr_flex.pdbqt is not the example's flex file"
cmp -s fr_rigid.pdbqt rigid.pdbqt || fail "fr_rigid.pdbqt is not the example's rigid part"
expect_rc 3 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A:ARG:315 --devices cpu -o fr.pdbqt
grep -q "full.pdbqt:[0-9]*: residue A 315 is THR, not ARG" err.txt || fail "a residue of another name: $(cat err.txt)"
expect_rc 3 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A:THR:999 --devices cpu -o fr.pdbqt
grep -q "full.pdbqt: no residue THR 999 in chain A" err.txt || fail "a missing residue: $(cat err.txt)"
expect_rc 2 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A-THR --devices cpu -o fr.pdbqt
expect_rc 2 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --flex-residues A:THR:315 --devices cpu -o fr.pdbqt
expect_rc 3 "$vsgrid" dock m "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A:LYS:271,A:THR:315 --devices cpu -o two.pdbqt
grep -c BEGIN_RES two_flex.pdbqt | grep -q '^2$' || fail "two_flex.pdbqt: not two residues"
expect_rc 0 "$vsgrid" maps two_rigid.pdbqt --scoring vina --box $box -o m2 --device cpu --quiet
expect_rc 0 "$vsgrid" dock m2 "$d/1iep_ligand.pdbqt" --receptor full.pdbqt --flex-residues A:LYS:271,A:THR:315 \
  --devices cpu --search fast --seed 2 --threads 2 --poses 1 --csv two.csv -o two.pdbqt
awk -F, 'NR == 2 && $10 + 0 == 0 { print "no flex-flex energy"; exit 1 }' two.csv || fail "two residues: $(cat two.csv)"
if command -v vina > /dev/null; then
  awk '/^MODEL/ { m++; next } m != 1 { next } /^ENDMDL/ { exit }
       /^BEGIN_RES/ { r = 1 } { print > (r ? "two_best_flex.pdbqt" : "two_best_lig.pdbqt") }' two.pdbqt
  vina --score_only --receptor two_rigid.pdbqt --flex two_best_flex.pdbqt --ligand two_best_lig.pdbqt --center_x ${c[0]} \
    --center_y ${c[1]} --center_z ${c[2]} --size_x 20 --size_y 20 --size_z 20 > vina2.txt 2>&1 || fail "vina --score_only (two residues)"
  awk -F, -v csv=two.csv '
    /^\(1\)/ { i1 = $0; sub(/.*: */, "", i1); i1 += 0 }
    /^\(2\)/ { i2 = $0; sub(/.*: */, "", i2); i2 += 0 }
    /Flex   - Flex/ { ff = $0; sub(/.*: */, "", ff); ff += 0 }
    END { getline hdr < csv; getline row < csv; split(row, v, ",")
          printf "two residues: vina inter %.3f intra %.3f flex-flex %.3f; vsgrid %.3f %.3f %.3f\n", i1, i2, ff, v[3], v[4], v[10]
          exit (v[3] - i1) ^ 2 > 0.002 ^ 2 || (v[4] - i2) ^ 2 > 0.002 ^ 2 || (v[10] - ff) ^ 2 > 0.002 ^ 2 }' vina2.txt > peer2.txt
  rc=$?
  cat peer2.txt
  [ $rc = 0 ] || fail "two residues: vsgrid's terms differ from vina --score_only's"
fi

[ "$fails" = 0 ] && echo "cli_dock_flex: ok"
exit "$fails"
