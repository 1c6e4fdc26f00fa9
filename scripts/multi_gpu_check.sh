#!/usr/bin/env bash
# multi_gpu_check.sh — run ON a machine with several GPUs, from the repository root:
#     bash scripts/multi_gpu_check.sh [BUILD_DIR]
# Screens 10,000 docked poses (XIAP, 100 copies of the bundled library) on one GPU and on all of
# them with the same kernel, and checks that the rows are the same records in the same order with
# the same statuses and scores equal within float round-off; prints both wall times.
set -u
B=${1:-build-gpu-check}
if [ ! -x "$B/vsgrid" ]; then
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DVSG_CUDA=ON >/dev/null && cmake --build "$B" -j "$(nproc)" >/dev/null || exit 1
fi
v=$B/vsgrid
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
echo "GPUs: $ngpu"
nvidia-smi -L
"$v" grid data/xiap_receptor.pqr.gz -o "$w/x.vsg" --box 10.084,10.123,-21.096,36,36,36 --spacing 0.375 --salt 0.15 \
  --bc focus --quiet || exit 1
for i in $(seq 1 100); do cat data/xiap_actives_docked.mol2.gz; done >"$w/lib.mol2.gz"
fails=0
for k in gm roi-tm-zip; do
  # small batches, so that every GPU gets several
  "$v" screen "$w/x.vsg" "$w/lib.mol2.gz" -o "$w/one.csv" --devices 0 --kernel "$k" --batch-atoms 20000 \
    --json "$w/one.json" --quiet || exit 1
  "$v" screen "$w/x.vsg" "$w/lib.mol2.gz" -o "$w/all.csv" --devices all --kernel "$k" --batch-atoms 20000 \
    --json "$w/all.json" --quiet || exit 1
  t1=$(awk -F': ' '/"pipeline_seconds"/ { gsub(/,/, "", $2); print $2 }' "$w/one.json")
  ta=$(awk -F': ' '/"pipeline_seconds"/ { gsub(/,/, "", $2); print $2 }' "$w/all.json")
  dev=$(awk -F'"' '/"device"/ { print $4 }' "$w/all.json")
  res=$(paste -d'|' "$w/one.csv" "$w/all.csv" | awk -F'|' '
    NR == 1 { next }
    { split($1, a, ","); split($2, b, ",")
      if (a[1] != b[1] || a[4] != b[4] || a[9] != b[9]) bad++
      d = a[6] - b[6]; if (d < 0) d = -d; if (d > m) m = d; n++ }
    END { printf "%d rows, %d with a different record/status, max |score diff| %.2e", n, bad, m; exit (bad > 0 || m > 1e-4) }')
  rc=$?
  echo "kernel $k: one GPU ${t1}s, all GPUs ${ta}s ($dev): $res"
  [ "$rc" = 0 ] || fails=$((fails + 1))
done
[ "$fails" = 0 ] && echo "multi_gpu_check: ok" || { echo "multi_gpu_check: FAILED"; exit 1; }
