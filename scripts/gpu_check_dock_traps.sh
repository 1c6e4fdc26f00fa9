#!/usr/bin/env bash
# gpu_check_dock_traps.sh — issue 27 on a GPU machine, from the repository root:
#     PART=build|check|final bash scripts/gpu_check_dock_traps.sh [OLD_SOURCE.tar.gz]
# build: configures and builds this tree (CUDA, Release) in $B/new and, when an older source
#   tarball is given, that tree in $B/old (the baseline), both outside the carried tree.
# check: the GPU tests (ctest -L gpu) and the docking CLI tests on this build; the traps on the
#   GPU search (a box too small: dock exit 8, screen rows 'outside'; an interrupted GPU flexible
#   screen: exit 130, whole rows, --resume equal to the uninterrupted CSV); the flexible screen
#   of DUD-E INHA (LIB_DIR: actives_final/decoys_final.mol2.gz) at fast and balanced, new and old
#   build on the same GPU (records/s, rows compared); the demo's 124 records at fast and balanced
#   (ROC AUC). Prints one table; logs and CSVs under $OUT (when set) as dock_traps_gpu.tgz.
# final: ctest -L gpu one test at a time, the docking trap tests and the 6 A box on the GPU.
set -u
B=${B:-/tmp/vsg27}
LIB_DIR=${LIB_DIR:-.bench_data}
PART=${PART:-check}
OLD=${1:-}
JOBS=$(nproc 2>/dev/null || echo 8)
mkdir -p "$B/logs"
log() { echo "$*" | tee -a "$B/logs/summary.txt"; }

if [ "$PART" = build ]; then
  cmake -S . -B "$B/new" -DCMAKE_BUILD_TYPE=Release -DVSG_WERROR=ON > "$B/logs/cmake_new.log" 2>&1 &&
    cmake --build "$B/new" -j "$JOBS" > "$B/logs/build_new.log" 2>&1 &
  pn=$!
  po=
  if [ -n "$OLD" ] && [ -f "$OLD" ]; then
    mkdir -p "$B/old_src" && tar xzf "$OLD" -C "$B/old_src"
    (cmake -S "$B/old_src" -B "$B/old" -DCMAKE_BUILD_TYPE=Release > "$B/logs/cmake_old.log" 2>&1 &&
      cmake --build "$B/old" -j "$JOBS" --target vsgrid > "$B/logs/build_old.log" 2>&1) &
    po=$!
  fi
  wait $pn; rn=$?
  ro=0; [ -n "$po" ] && { wait "$po"; ro=$?; }
  log "build new: exit $rn; old: exit $ro"
  tail -5 "$B/logs/build_new.log"
  exit $((rn || ro))
fi

V=$B/new/vsgrid
if [ "$PART" = final ]; then # the GPU tests one at a time (their memory checks), the traps on the GPU
  nvidia-smi --query-gpu=name --format=csv,noheader
  (cd "$B/new" && ctest -L gpu --output-on-failure -j 1 > "$B/logs/ctest_gpu_serial.log" 2>&1); echo "ctest -L gpu (serial): exit $?"
  grep -E "tests passed|\*\*\*" "$B/logs/ctest_gpu_serial.log"
  (cd "$B/new" && ctest -R 'cli_dock_traps|cli_dock$|cli_screen_flexible' --output-on-failure > "$B/logs/ctest_traps.log" 2>&1); echo "traps: exit $?"
  grep -E "tests passed|\*\*\*|FAIL" "$B/logs/ctest_traps.log"
  mkdir -p "$B/fin" && "$V" maps data/inha/receptor.pdbqt --scoring vina --around data/inha/crystal_ligand.mol2 -o "$B/fin/m" --quiet
  c=$(awk '/^CENTER/ { print $2 "," $3 "," $4; exit }' "$B/fin/m.C_H.map")
  "$V" maps data/inha/receptor.pdbqt --scoring vina --box "$c,6,6,6" -o "$B/fin/small" --quiet
  "$V" dock "$B/fin/small" data/inha/crystal_ligand.mol2 --search fast -o "$B/fin/s.pdbqt"; echo "GPU dock in a 6 A box: exit $? (want 8)"
  exit 0
fi
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee -a "$B/logs/summary.txt"
log "commit: ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}  date: $(date -u +%F)"
(cd "$B/new" && ctest -L gpu --output-on-failure -j 4 > "$B/logs/ctest_gpu.log" 2>&1); log "ctest -L gpu: exit $? ($(grep -c 'Passed' "$B/logs/ctest_gpu.log") passed)"
(cd "$B/new" && ctest -R 'cli_dock|cli_screen_flexible|test_polar' --output-on-failure -j 4 > "$B/logs/ctest_dock.log" 2>&1)
log "ctest cli_dock*, cli_screen_flexible, test_polar_hydrogens: exit $? ($(grep -c 'Passed' "$B/logs/ctest_dock.log") passed)"

W=$B/work; rm -rf "$W"; mkdir -p "$W"
rec=data/inha/receptor.pdbqt xtal=data/inha/crystal_ligand.mol2
"$V" maps "$rec" --scoring vina --around "$xtal" -o "$W/m" --quiet
c=$(awk '/^CENTER/ { print $2 "," $3 "," $4; exit }' "$W/m.C_H.map")
"$V" maps "$rec" --scoring vina --box "$c,6,6,6" -o "$W/small" --quiet
"$V" dock "$W/small" "$xtal" --search fast -o "$W/small.pdbqt" 2> "$W/small.err"; rc=$?
log "GPU dock, 6 A box: exit $rc (want 8): $(head -c 160 "$W/small.err")"
"$V" screen "$W/small" data/inha/library.mol2.gz --scoring vina --placement flexible --search fast -o "$W/small.csv" --quiet 2>/dev/null
log "GPU flexible screen, 6 A box: $(grep -c ',outside,' "$W/small.csv") of 124 rows 'outside'"

libs=("$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz")
for s in fast balanced; do
  for b in new old; do
    [ -x "$B/$b/vsgrid" ] || continue
    t0=$(date +%s.%N)
    "$B/$b/vsgrid" screen "$W/m" "${libs[@]}" --scoring vina --placement flexible --search $s -o "$W/inha_${s}_$b.csv" --quiet 2> "$W/inha_${s}_$b.err"
    rc=$?
    t1=$(date +%s.%N)
    n=$(($(wc -l < "$W/inha_${s}_$b.csv") - 1))
    log "$(awk -v s=$s -v b=$b -v rc=$rc -v n=$n -v t0="$t0" -v t1="$t1" 'BEGIN { printf "INHA flexible %-8s %-3s: exit %d, %d rows, %.2f s, %.0f records/s", s, b, rc, n, t1 - t0, n / (t1 - t0) }')"
  done
  if [ -f "$W/inha_${s}_old.csv" ]; then
    same=$(paste -d'|' <(cut -d, -f1-13 "$W/inha_${s}_new.csv") <(cut -d, -f1-13 "$W/inha_${s}_old.csv") | awk -F'|' '$1 == $2' | wc -l)
    log "  $s: rows whose columns 1-13 equal the old build's: $same of $(wc -l < "$W/inha_${s}_new.csv")"
  fi
done
# interrupted GPU screen: exit 130, whole rows, resume equals the uninterrupted run
"$V" screen "$W/m" "${libs[@]}" --scoring vina --placement flexible --search balanced -o "$W/part.csv" 2> "$W/part.err" &
pid=$!
sleep 4
kill -INT $pid; wait $pid; rc=$?
n=$(($(wc -l < "$W/part.csv") - 1))
pre=$(cmp -s <(head -n $((n + 1)) "$W/inha_balanced_new.csv") "$W/part.csv" && echo yes || echo no)
"$V" screen "$W/m" "${libs[@]}" --scoring vina --placement flexible --search balanced -o "$W/part.csv" --resume --quiet 2>> "$W/part.err"
same=$(cmp -s "$W/inha_balanced_new.csv" "$W/part.csv" && echo yes || echo no)
log "GPU flexible screen interrupted at 4 s: exit $rc (want 130), $n rows, a prefix of the full run: $pre; resumed = uninterrupted: $same"
# the demo's records (124: 20 actives) on its receptor: ROC AUC at fast and balanced
for s in fast balanced; do
  "$V" screen "$W/m" data/inha/library.mol2.gz --scoring vina --placement flexible --search $s -o "$W/demo_$s.csv" --quiet 2>/dev/null
  "$V" enrich "$W/demo_$s.csv" --actives data/inha/actives.txt --json "$W/demo_$s.json" > "$W/demo_$s.txt" 2>&1
  log "demo library, $s: $(grep -o '"roc_auc": [0-9.]*' "$W/demo_$s.json" | head -1)"
done
cat "$B/logs/summary.txt"
if [ -n "${OUT:-}" ]; then
  tar czf "$OUT/dock_traps_gpu.tgz" -C "$B" logs work/small.err work/part.err work/demo_fast.txt work/demo_balanced.txt \
    $(cd "$B" && ls work/inha_*.err 2>/dev/null) 2>/dev/null
fi
