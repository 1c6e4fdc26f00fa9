#!/usr/bin/env bash
# Demo on the bundled data: the PB potential of streptavidin (1STP) around its biotin site,
# then biotin's electrostatic interaction energy in kcal/mol. GPU where present, else CPU.
# Builds vsgrid into build/ first if needed. Outputs land in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -x "$d/nvcc" ] && export PATH="$PATH:$d" && break; done
if [ ! -x build/vsgrid ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build build -j "$(nproc 2>/dev/null || echo 2)" > /dev/null
fi
mkdir -p out
set -x
build/vsgrid grid data/1stp_receptor.pdbqt -o out/1stp.vsg --dx out/1stp.dx.gz \
  --around data/biotin.pdbqt --padding 10 --spacing 0.4 --bc focus --salt 0.15 --json out/grid.json
build/vsgrid probe out/1stp.vsg data/biotin.pdbqt
