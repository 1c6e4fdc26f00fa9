#!/usr/bin/env bash
# Several receptors in one `vsgrid grid`: every receptor gets a row with its status, a bad one
# is skipped and sets the exit code, each grid equals the one a run of its own gives (on the
# GPU too, where one is present: the second receptor reuses the started context), and output
# names need {}.
# Usage: cli_grid_batch.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_grid_batch
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"

fas=$src/data/fas2.pqr stp=$src/data/1stp_receptor.pdbqt
printf 'ATOM      1  N   ALA A   1      1.000\n' > bad.pqr
printf '# two good receptors and a bad one\n%s\n\n  bad.pqr  \n%s\n' "$fas" "$stp" > list.txt
# the grid's numbers without the header (which names the receptor's path and the run)
body() { grep -v '^#' "$1"; }
has_gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then has_gpu=1; fi

# Usage errors: outputs without {}; two receptors of one name; energy takes one receptor.
expect_rc 2 "$vsgrid" grid "$fas" "$stp" -o x.vsg
grep -q "must contain {}" err.txt || fail "no {} message: $(cat err.txt)"
mkdir -p other && cp "$fas" other/fas2.pqr
expect_rc 2 "$vsgrid" grid "$fas" other/fas2.pqr -o '{}.vsg'
grep -q "same files" err.txt || fail "duplicate names not refused: $(cat err.txt)"
expect_rc 2 "$vsgrid" energy "$fas" "$stp"
expect_rc 3 "$vsgrid" grid --receptors missing-list.txt -o '{}.vsg'
printf '# nothing\n\n' > empty.txt
expect_rc 3 "$vsgrid" grid --receptors empty.txt -o '{}.vsg'

for dev in cpu gpu; do
  [ $dev = gpu ] && [ $has_gpu = 0 ] && { skip_part "the GPU batch" "no GPU"; continue; }
  # The batch: the bad receptor is reported and skipped, the exit code is its (3).
  expect_rc 3 "$vsgrid" grid --receptors list.txt -o "$dev/grids/{}.vsg" --dx "$dev/{}.dx" --json "$dev/{}.json" \
    --summary $dev.csv --spacing 1.0 --salt 0.15 --device $dev
  grep -q "receptor 2 of 3: bad.pqr" err.txt || fail "$dev: no progress line for the bad receptor"
  grep -q "bad.pqr:1:" err.txt || fail "$dev: the bad receptor's error names no file and line"
  grep -q "2 of 3 done" err.txt || fail "$dev: no totals line"
  [ "$(wc -l < $dev.csv)" = 4 ] || fail "$dev: summary has $(wc -l < $dev.csv) lines, expected header + 3"
  head -1 $dev.csv | grep -q '^receptor,name,status,exit_code,' || fail "$dev: summary header: $(head -1 $dev.csv)"
  sed -n 2p $dev.csv | grep -q ",fas2,ok,0,59,59,59," || fail "$dev: fas2 row: $(sed -n 2p $dev.csv)"
  sed -n 3p $dev.csv | grep -q "^bad.pqr,bad,bad input,3,0,0,0,.*bad.pqr:1:" || fail "$dev: bad row: $(sed -n 3p $dev.csv)"
  sed -n 4p $dev.csv | grep -q ",1stp_receptor,ok,0,71,71,71," || fail "$dev: 1stp row: $(sed -n 4p $dev.csv)"
  for n in fas2 1stp_receptor; do
    [ -s $dev/grids/$n.vsg ] && [ -s $dev/$n.dx ] && [ -s $dev/$n.json ] || fail "$dev: $n: files missing"
  done
  [ -e $dev/grids/bad.vsg ] && fail "$dev: a grid was written for the bad receptor"
  # Each grid equals the one from a run of its own, to the last digit (the second solve of the
  # process finds the GPU started and must still give the same bits).
  expect_rc 0 "$vsgrid" grid "$stp" --dx one_$dev.dx --json one_$dev.json --spacing 1.0 --salt 0.15 --device $dev --quiet
  cmp -s <(body one_$dev.dx) <(body $dev/1stp_receptor.dx) || fail "$dev: batch grid differs from a single run's"
  [ "$(json_val one_$dev.json total_energy_kt)" = "$(json_val $dev/1stp_receptor.json total_energy_kt)" ] ||
    fail "$dev: energies differ: $(json_val one_$dev.json total_energy_kt) vs $(json_val $dev/1stp_receptor.json total_energy_kt)"
  if [ $dev = gpu ]; then
    # The GPU starts once: the later receptors' start time is only the check that it is up.
    s=$(json_val gpu/1stp_receptor.json device_start_seconds)
    awk -v s="$s" 'BEGIN { exit !(s < 0.02) }' || fail "gpu: second receptor started the GPU again ($s s)"
  fi
done

# All good, a Coulomb batch too: exit 0, AutoGrid maps per receptor.
expect_rc 0 "$vsgrid" grid "$fas" "$stp" --method coulomb --autogrid-maps 'maps/{}' --spacing 1.0 --summary c.csv
for n in fas2 1stp_receptor; do
  [ -s maps/$n.e.map ] && [ -s maps/$n.maps.fld ] || fail "coulomb: maps/$n missing"
done
[ "$(grep -c ',ok,0,' c.csv)" = 2 ] || fail "coulomb summary: $(cat c.csv)"

[ $fails = 0 ] && echo "cli_grid_batch: all checks passed"
exit $((fails > 0))
