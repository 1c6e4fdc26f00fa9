#!/usr/bin/env bash
# Tuning sweep for the GPU PB kernels, run ON the GPU machine from the repository root:
#   bash scripts/tune_sor.sh [SIZES]        (default sizes: 297 513)
# Builds bench_sor once per variant of the launch constants in gpu/pb/sor_gpu.cu (overridden
# through CMAKE_CUDA_FLAGS) and prints one table: variant, N, precision, ms/iteration, % of
# the device copy bandwidth. The winner goes back into sor_gpu.cu's defaults with its numbers.
set -u
sizes=${1:-"297 513"}
variants=(
  "32 8 1"
  "32 8 4"
  "64 4 1"
  "64 4 4"
  "128 2 2"
  "32 4 8"
)
printf '%-14s %5s %-6s %9s %7s\n' "X Y Zper" N prec "ms/iter" "%copy"
for v in "${variants[@]}"; do
  set -- $v
  dir=build-tune-$1-$2-$3
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DVSG_CUDA=ON \
    -DCMAKE_CUDA_FLAGS="-DSOR_BLOCK_X=$1 -DSOR_BLOCK_Y=$2 -DSOR_Z_PER_THREAD=$3" > /dev/null 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" --target bench_sor > /dev/null 2>&1 || { echo "$v: build failed"; continue; }
  # shellcheck disable=SC2086
  timeout 120 "$dir/bench_sor" $sizes 2>/dev/null |
    awk -v v="$1 $2 $3" '$1 ~ /^[0-9]+$/ && ($2 == "double" || $2 == "float") { printf "%-14s %5s %-6s %9s %7s\n", v, $1, $2, $4, $7 }'
done
