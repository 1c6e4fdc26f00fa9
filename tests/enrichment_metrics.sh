#!/usr/bin/env bash
# scripts/enrichment.py: its --self-test (a hand-computed case, ties, perfect/reversed/random),
# then whole runs on crafted CSVs: perfect ranking (AUC 1, EF1% = molecules / actives), reversed
# (AUC 0), repeated names (best score per name), failed rows and unscored molecules (rank last).
# Usage: enrichment_metrics.sh SOURCE_DIR BINARY_DIR
set -u
src=$1 work=$2/enrichment_metrics
py=$(command -v python3 || echo /usr/bin/python3)
[ -x "$py" ] || { echo "skipped: no python3"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
e() { "$py" "$src/scripts/enrichment.py" "$@"; }
fail=0
expect() { # what, output, pattern
  if grep -q -- "$3" <<< "$2"; then echo "ok   $1"; else echo "FAIL $1: expected '$3' in: $2"; fail=1; fi
}
out=$(e --self-test) || { echo "$out"; echo "FAIL self-test"; fail=1; }
# 100 molecules, 4 actives (a0..a3) then 96 decoys (d0..d95).
{ echo name,active; for i in 0 1 2 3; do echo "a$i,1"; done; for i in $(seq 0 95); do echo "d$i,0"; done; } > labels.csv
# Perfect: actives best; EF1% (top 1) = 1 / (4/100) = 25.
{ echo name,score_kcal_mol,status; for i in 0 1 2 3; do echo "a$i,-$((20 - i)),ok"; done
  for i in $(seq 0 95); do echo "d$i,-$((100 - i)).5e-1,ok"; done; } > perfect.csv
out=$(e perfect.csv labels.csv --label perfect)
expect "perfect AUC 1" "$out" "AUC 1.000 "
expect "perfect EF1% 25" "$out" "EF1% 25.00 (top 1)"
expect "perfect adjusted logAUC 85.5" "$out" "adjusted logAUC 85.5%"
# Reversed: actives worst. Also a repeated name (d0 twice: its best, -15, counts).
{ echo name,score; for i in 0 1 2 3; do echo "a$i,$i"; done
  for i in $(seq 0 95); do echo "d$i,-$i"; done; echo "d0,-15"; } > reversed.csv
out=$(e reversed.csv labels.csv --label reversed)
expect "reversed AUC 0" "$out" "AUC 0.000 "
expect "reversed counts" "$out" "100 molecules (4 actives, 96 decoys) from 101 rows (0 failed, 0 not in labels)"
# Actives a0 and a1 failed (status), a2 absent, a3 best; decoys all scored; one unknown name:
# a0, a1, a2 tie last with each other, below every decoy: AUC = (1 x 96 + 0) / (4 x 96) = 0.25.
{ echo name,score_kcal_mol,status; echo "a0,-50,no_pose"; echo "a1,nan,ok"; echo "a3,-99,ok"
  for i in $(seq 0 95); do echo "d$i,-$i,ok"; done; echo "zz,-1,ok"; } > failed.csv
out=$(e failed.csv labels.csv --label failed --json failed.json)
expect "failed AUC 0.25" "$out" "AUC 0.250 "
expect "failed counts" "$out" "from 100 rows (2 failed, 1 not in labels); 3 molecules without a valid score rank last (3 actives): a0 a1 a2"
expect "failed json" "$(cat failed.json)" '"unscored": 3'
exit $fail
