#!/usr/bin/env bash
# bench_dock_h100.sh — the flexible-docking measurements of docs/PERFORMANCE.md in one call on
# the GPU machine (from the repository root): build, the GPU test, INHA throughput for each
# preset (scripts/bench_dock_gpu.sh), the CPU twin on the actives, and redocking accuracy of the
# crystal complexes for each preset and SEEDS (scripts/bench_dock_accuracy.sh, symmetric RMSD).
# Results under $OUT (default out). Knobs: PRESETS, SEEDS, ACC_PRESETS (the accuracy runs' dock
# arguments, ';'-separated), SKIP_BUILD=1.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
export VSG_SHARED_DATA=${VSG_SHARED_DATA:-$PWD/.shared_data}
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    cmake -S . -B build-dock -DVSG_WERROR=ON -DCMAKE_BUILD_TYPE=Release > /dev/null &&
        cmake --build build-dock -j "$(nproc)" 2>&1 | grep -E "error|warning" | head -20
fi
{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null) (the device's checkout may lag: see the caller)"
    ./build-dock/tests/test_gpu_dock 2>&1 | grep -E "energy|search|twins|FAIL|CHECK"
    PRESETS=${PRESETS:-"fast balanced detail"} CPU_PRESET=fast SKIP_REDOCK=1 VSGRID=build-dock/vsgrid OUT="$OUT" \
        bash scripts/bench_dock_gpu.sh
    IFS=';' read -r -a acc <<< "${ACC_PRESETS:---search fast;--search balanced}"
    for a in "${acc[@]}"; do
        echo
        echo "### redocking, dock $a --devices gpu"
        VSGRID=build-dock/vsgrid DOCK_ARGS="$a --devices gpu" SEEDS=${SEEDS:-"0 1 2 3 4"} OUTDIR=/tmp/acc \
            bash scripts/bench_dock_accuracy.sh 2>&1 | grep -E "^\||success|Success"
    done
} 2>&1 | tee "$OUT/bench_dock_h100.md"
