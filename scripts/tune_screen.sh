#!/usr/bin/env bash
# tune_screen.sh — run ON the GPU machine: the screening kernels' launch shape (SC_THREADS threads
# per block, SC_CHUNKS 32-atom runs per warp) swept over a few builds, each timed with
# `vsgrid bench` on the XIAP PB grid and its docked actives replicated to 1M ligands.
#     bash scripts/tune_screen.sh ["THREADS:CHUNKS ..."]
set -u
shapes=${1:-"256:2 256:4 128:4 512:1"}
g=$(mktemp -d)/x.vsg
for sh in $shapes; do
  t=${sh%%:*} c=${sh##*:} b=build-tune-$t-$c
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DVSG_CUDA=ON -DBUILD_TESTING=OFF \
    -DCMAKE_CUDA_FLAGS="-DSC_THREADS=$t -DSC_CHUNKS=$c" >/dev/null && cmake --build "$b" -j "$(nproc)" --target vsgrid >/dev/null &
done
wait
first=$(echo "$shapes" | awk '{ print $1 }')
bf=build-tune-${first%%:*}-${first##*:}
"$bf/vsgrid" grid data/xiap_receptor.pqr.gz -o "$g" --box 10.084,10.123,-21.096,36,36,36 --spacing 0.375 --salt 0.15 \
  --bc focus --quiet 2>/dev/null || exit 1
for sh in $shapes; do
  t=${sh%%:*} c=${sh##*:}
  echo "== SC_THREADS=$t SC_CHUNKS=$c"
  "build-tune-$t-$c/vsgrid" bench "$g" data/xiap_actives_docked.mol2.gz --replicate 10000 --repeat 5 \
    --kernels gm,tm,zip,roi-tm-zip --precision float | grep -E "^(gm|tm|zip|roi-tm-zip) "
done
