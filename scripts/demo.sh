#!/usr/bin/env bash
# Demo on the bundled data. First, a chemist's first use, from a PDB file to ranked molecules:
# INHA's PDB (NAD cofactor kept) prepared, its Vina maps around the crystal ligand, 124 DUD-E
# records (20 actives, 80 decoys) docked flexibly, the poses as SDF, and how well the screen
# ranks the actives (ROC AUC, enrichment, an ROC picture). Then the PB potential of
# streptavidin (1STP) around its biotin site and biotin's electrostatic interaction energy in
# kcal/mol; the PB grid of XIAP and a screen of its 100 docked actives (CSV, the best 10 as SDF);
# the electrostatic potential on myoglobin's molecular surface (PLY mesh, per-residue table, PNG
# picture) and a slice of the 1STP grid as a picture, with biotin drawn over it. GPU where
# present, else CPU (the docking step then takes about 45 s on 2 cores).
# Builds vsgrid into build/ first if needed (its progress shown). Outputs land in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -x "$d/nvcc" ] && export PATH="$PATH:$d" && break; done
if [ ! -x build/vsgrid ]; then
  echo "demo: building vsgrid into build/ (a few minutes the first time)"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build build -j "$(nproc 2>/dev/null || echo 2)" --target vsgrid
fi
mkdir -p out
set -x
# from a PDB file to ranked molecules (vsgrid prepare shows what it did; maps and screen take
# the PDB directly too)
build/vsgrid prepare data/inha/receptor.pdb.gz -o out/inha_receptor.pdbqt
build/vsgrid maps out/inha_receptor.pdbqt --scoring vina --around data/inha/crystal_ligand.mol2 -o out/inha/maps
build/vsgrid screen out/inha/maps data/inha/library.mol2.gz --scoring vina --placement flexible --search fast \
  -o out/inha_docked.csv --poses-out out/inha_poses.sdf
build/vsgrid enrich out/inha_docked.csv --actives data/inha/actives.txt --png out/inha_roc.png
build/vsgrid grid data/1stp_receptor.pdbqt -o out/1stp.vsg --dx out/1stp.dx.gz \
  --around data/biotin.pdbqt --padding 10 --spacing 0.4 --bc focus --salt 0.15 --json out/grid.json
build/vsgrid probe out/1stp.vsg data/biotin.pdbqt
build/vsgrid grid data/xiap_receptor.pqr.gz -o out/xiap.vsg --box 10.08,10.12,-21.10,36,36,36 \
  --spacing 0.375 --salt 0.15 --bc focus --quiet
build/vsgrid screen out/xiap.vsg data/xiap_actives_docked.mol2.gz -o out/xiap_scores.csv \
  --sdf-out out/xiap_best10.sdf --top 10 --json out/screen.json
head -4 out/xiap_scores.csv
build/vsgrid surface data/1mbo.pqr.gz -o out/1mbo_surface.ply --residues out/1mbo_residues.csv \
  --png out/1mbo_surface.png
build/vsgrid render out/1stp.vsg --slice z=ligand --ligand data/biotin.pdbqt -o out/1stp_slice.png \
  --receptor data/1stp_receptor.pdbqt
