#!/usr/bin/env bash
# gpu_release_check.sh — run ON the GPU machine from the repository root, before a release:
# a CUDA build with warnings as errors, the GPU tests one at a time (their free-memory checks
# must not see each other), the tests of the installable library and the API boundary, and the
# demo's docking step timed on the GPU (from the bundled INHA PDBQT: the device has no Open
# Babel for the PDB's preparation). Logs in $OUT (or ./gpu_release_logs); a table at the end.
#   VSG_SHARED_DATA=... bash scripts/gpu_release_check.sh
set -u
out=${OUT:-gpu_release_logs}
mkdir -p "$out" && out=$(cd "$out" && pwd)
jobs=$(nproc 2>/dev/null || echo 4)
nvidia-smi -L | tee "$out/gpu.txt"
t0=$SECONDS
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DVSG_WERROR=ON -DVSG_CUDA=ON > "$out/configure.log" 2>&1 &&
  cmake --build build-gpu -j "$jobs" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1; }
echo "build: $((SECONDS - t0)) s"
t0=$SECONDS
(cd build-gpu && ctest -L gpu --output-on-failure --timeout 300 > "$out/ctest_gpu.log" 2>&1)
echo "ctest -L gpu: $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" "$out/ctest_gpu.log" | tail -12
t0=$SECONDS
(cd build-gpu && ctest -R "install_package|python_module|api_boundary|cli_receptor_pdb|cli_screen_flexible|cli_dock" \
  --output-on-failure --timeout 300 > "$out/ctest_misc.log" 2>&1)
echo "library/API/CLI tests: $((SECONDS - t0)) s"; grep -E "Test +#|tests passed" "$out/ctest_misc.log" | tail -10
# the demo's docking step on the GPU (presets fast and balanced), then its enrichment
v=build-gpu/vsgrid d=data/inha w=$(mktemp -d)
$v maps $d/receptor.pdbqt --scoring vina --around $d/crystal_ligand.mol2 -o "$w/maps" --quiet
for s in fast balanced; do
  t0=$(date +%s.%N)
  $v screen "$w/maps" $d/library.mol2.gz --scoring vina --placement flexible --search $s -o "$w/$s.csv" \
    --poses-out "$w/$s.sdf" > "$out/demo_$s.log" 2>&1
  t1=$(date +%s.%N)
  auc=$($v enrich "$w/$s.csv" --actives $d/actives.txt --bootstrap 0 2>/dev/null | awk '/^ROC AUC/ { print $3 }')
  printf 'demo dock %-8s 124 records: %6.2f s (whole command), AUC %s; %s\n' $s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$auc" \
    "$(grep -o 'kernel[^;]*; [0-9.]* s ([^)]*)' "$out/demo_$s.log")"
done
rm -rf "$w"
