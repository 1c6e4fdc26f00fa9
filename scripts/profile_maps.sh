#!/usr/bin/env bash
# profile_maps.sh BUILD_DIR — run ON the GPU machine after a CUDA build (scripts/gpu_check.sh):
# where the GPU map kernels spend their time. Prints registers/spills of gpu/maps (ptxas -v),
# bench_ad4_maps on a whole-receptor 193³ box (13 ligand types: every type a drug-like library
# needs) and a pocket box, bench_vina_maps, then Nsight Compute sections of one launch of each
# map kernel (when ncu can read the counters). Logs to $OUT when set.
set -u
B=${1:-build-gpu-check}
O=${OUT:-/tmp}
REC=${VSG_SHARED_DATA:-../shared/data}/autodock_gpu/1stp/1stp_protein.pdbqt
T13="A C NA OA N SA HD F Cl Br I P S"
{
  for f in gpu/maps/ad4_maps_gpu.cu gpu/maps/vina_maps_gpu.cu; do
    echo "== ptxas $f"
    nvcc -O3 -arch=sm_90 -I . -Xptxas -v -c "$f" -o /tmp/x.o 2>&1 | grep -E "registers|spill|stack" | head -8
  done
} 2>&1 | tee "$O/ptxas_maps.log"
echo "== bench_ad4_maps whole receptor 193^3, 13 types" | tee "$O/bench_ad4_maps.log"
timeout 300 "$B/bench_ad4_maps" -r 3 -n 192 -t "$T13" "$REC" 2>&1 | tee -a "$O/bench_ad4_maps.log"
echo "== bench_ad4_maps pocket 64^3 (24 Å), 13 types" | tee -a "$O/bench_ad4_maps.log"
timeout 120 "$B/bench_ad4_maps" -r 5 -n 64 -t "$T13" "$REC" 2>&1 | tee -a "$O/bench_ad4_maps.log"
echo "== bench_vina_maps" | tee "$O/bench_vina_maps.log"
timeout 200 "$B/bench_vina_maps" -r 3 2>&1 | tee -a "$O/bench_vina_maps.log"
if command -v ncu > /dev/null; then
  SECS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats"
  timeout 200 ncu --clock-control none $SECS -k regex:ad4_kernel -c 1 "$B/bench_ad4_maps" -r 1 -n 128 -t "$T13" "$REC" > "$O/ncu_ad4.log" 2>&1
  timeout 200 ncu --clock-control none $SECS -k regex:vina_kernel -c 1 "$B/bench_vina_maps" -r 1 > "$O/ncu_vina.log" 2>&1
  grep -E "Duration|Throughput|Occupancy|Registers|Stall|Issue|Eligible|Local|L1|L2|DRAM|Pipe|FP64" "$O/ncu_ad4.log" | head -60
fi
