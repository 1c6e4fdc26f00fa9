#!/usr/bin/env bash
# gpu_ad4_dock.sh — the AutoDock4 function's GPU search (vsg_dock_ad4_gpu, issue 28 item 4) on a
# GPU host, side by side with AutoDock-GPU, one call a part, from the repository root. LIB_DIR
# holds what is carried in: shared/ (adgpu_set42 with its maps, autodock_vina/1iep) and
# bin/autodock_gpu_64wi (AutoDock-GPU built with `make DEVICE=CUDA NUMWI=64 TARGETS=90`; it needs
# only the CUDA runtime the host has).
#   PART=build   the tree as copied, built with CUDA outside it ($B), and the docking tests that
#                touch this search: test_gpu_dock_ad4 (the twins' energies, searches,
#                repeatability), test_gpu_dock, test_dock_ad4, cli_dock, cli_dock_hydrated
#   PART=vsgrid  bench_redock_set42.sh SCORING=ad4 (AD4 maps by vsgrid on each complex's box and
#                types), on the GPU, presets PRESETS (default "detail"), starts 0 1 2
#   PART=cpu     the same with the CPU twin on this host's cores (--devices cpu), start 0 only
#   PART=adgpu   bench_autodock_gpu_set42.sh: AutoDock-GPU's defaults on the same maps (PART=vsgrid's)
#                and starts
#   PART=pack    rows, tables and logs into $OUT/ad4.tar.gz
# Usage: LIB_DIR=.bench_data/c31 PART="build vsgrid" bash scripts/gpu_ad4_dock.sh
set -u
B=${B:-/tmp/vsg_ad4}
OUT=${OUT:-/tmp/vsg_ad4_out}
LIB_DIR=${LIB_DIR:-.bench_data/c31}
W=${W:-/tmp/vsg_ad4_work}
mkdir -p "$OUT" "$W"
shared=$(cd "$LIB_DIR/shared" && pwd)
export VSG_SHARED_DATA=$shared
for part in ${PART:-build vsgrid}; do
  echo "== $part ($(date +%T))"
  case $part in
  build)
    if [ -x "$B/vsgrid" ]; then
      echo "build: $B/vsgrid is there (warm machine)"
      continue
    fi
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    rm -rf "$B"
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release > "$OUT/build.log" 2>&1 && cmake --build "$B" -j "$(nproc)" >> "$OUT/build.log" 2>&1 ||
      { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    (cd "$B" && ctest -R "${TESTS:-test_gpu_dock|test_dock_ad4|cli_dock$|cli_dock_hydrated}" -j1 --output-on-failure > "$OUT/tests.log" 2>&1)
    grep -E "tests passed|Failed|\*\*\*|FAIL|Passed|AutoDock4 energy|outside the grid|detail from rand|over [0-9]+ complexes|search \(" "$OUT/tests.log" | tail -30
    ;;
  vsgrid)
    VSGRID=$B/vsgrid OUTDIR=$W/vsgrid_gpu SCORING=ad4 PRESETS="${PRESETS:-detail}" DOCK_ARGS="--devices gpu" \
      PART="vsgrid table" bash scripts/bench_redock_set42.sh 2>&1 | grep -v '^|  *[0-9]' | head -20
    ;;
  cpu)
    VSGRID=$B/vsgrid OUTDIR=$W/vsgrid_cpu SCORING=ad4 PRESETS="${PRESETS:-detail}" DOCK_ARGS="--devices cpu" STARTS=0 \
      PART="vsgrid table" bash scripts/bench_redock_set42.sh 2>&1 | grep -v '^|  *[0-9]' | head -20
    ;;
  adgpu)
    chmod +x "$LIB_DIR/bin/autodock_gpu_64wi" 2> /dev/null
    VSGRID=$B/vsgrid ADGPU=$(cd "$LIB_DIR/bin" && pwd)/autodock_gpu_64wi OUTDIR=$W/adgpu MAPS_DIR=$W/vsgrid_gpu STARTS="${STARTS:-0 1 2}" \
      bash scripts/bench_autodock_gpu_set42.sh 2>&1 | tail -40
    ;;
  pack)
    (cd "$W" && find . \( -name 'rows.tsv' -o -name '*.csv' -o -name '*.seconds' -o -name '*.energy' -o -name '*.rmsd' \
      -o -name 'vsgrid_ad4_*.log' -o -name 'adgpu_*.log' \) -print0 | tar -czf "$OUT/ad4.tar.gz" --null -T -)
    cp "$OUT/tests.log" "$OUT/tests.txt" 2> /dev/null
    ls -la "$OUT"
    ;;
  esac
done
