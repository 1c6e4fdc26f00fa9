#!/usr/bin/env bash
# PB over MPI (issue 7): `mpirun -np N vsgrid grid` gives the single-process grid. For -np 1, 2
# and 3 (CPU ranks, --oversubscribe): the same iteration counts (finest level and all levels) in
# --json, the same energy (printed to 10 digits, computed in double), the same potential in the
# .dx (every value, 7 digits; tests/test_sor_mpi.c checks the double potential bit for bit), and
# the JSON's ranks / mpi timings. Linear, nonlinear (salt) and focusing.
# Skips (77) when vsgrid was built without MPI or mpirun is absent.
# Usage: cli_mpi_grid.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_mpi_grid
. "$(dirname "$0")/lib_cli.sh"
mpi_launcher "$vsgrid"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

run_case() {  # run_case NAME vsgrid-grid-args...
  local name=$1; shift
  for np in 1 2 3; do
    "${mpi[@]}" -np $np "$vsgrid" grid "$@" -o $name.$np.vsg --dx $name.$np.dx --json $name.$np.json \
      --device cpu --quiet > $name.$np.out 2> $name.$np.err
    local rc=$?
    [ $rc = 0 ] || { fail "$name -np $np exited $rc: $(head -c 600 $name.$np.err)"; continue; }
    [ "$(json_val $name.$np.json ranks)" = $np ] || fail "$name -np $np: json ranks is $(json_val $name.$np.json ranks)"
    if [ $np -gt 1 ]; then
      grep -q '"comm_seconds"' $name.$np.json || fail "$name -np $np: json has no mpi comm_seconds"
      tr -d " \n" < $name.$np.json | grep -q "\"devices\":\[-1\(,-1\)\{$((np - 1))\}\]" || fail "$name -np $np: json devices is not one -1 per rank"
      grep -q "MPI ranks" $name.$np.json || fail "$name -np $np: device does not name the MPI ranks"
    fi
  done
  for np in 2 3; do
    [ -s $name.$np.json ] && [ -s $name.1.json ] || continue
    for key in iterations total_iterations total_energy_kt final_change_kt_e; do
      a=$(json_val $name.1.json $key) b=$(json_val $name.$np.json $key)
      [ "$a" = "$b" ] || fail "$name: $key $a with 1 rank, $b with $np"
    done
    cmp -s <(grep -v '^#' $name.1.dx) <(grep -v '^#' $name.$np.dx) || fail "$name: .dx values differ between -np 1 and -np $np"
    echo "$name -np $np: $(json_val $name.$np.json iterations) iterations, energy $(json_val $name.$np.json total_energy_kt) kT," \
         "$(json_val $name.$np.json seconds_per_iteration) s/iteration, comm $(json_val $name.$np.json comm_seconds) s" \
         "(1 rank: $(json_val $name.1.json seconds_per_iteration) s/iteration)"
  done
}

run_case linear "$src/data/fas2.pqr" --spacing 0.8
run_case nonlinear "$src/data/fas2.pqr" --spacing 1.0 --salt 0.15 --nonlinear
run_case focus "$src/data/1stp_receptor.pdbqt" --around "$src/data/biotin.pdbqt" --padding 6 --spacing 0.5 --bc focus

# A plain run (no launcher) and -np 1 never start MPI: no mpi block in the JSON.
"$vsgrid" grid "$src/data/fas2.pqr" --spacing 1.2 -o plain.vsg --json plain.json --device cpu --quiet 2>/dev/null \
  || fail "plain run failed"
grep -q '"mpi"' plain.json && fail "plain run reports an mpi block"
grep -q '"mpi"' linear.1.json 2>/dev/null && fail "-np 1 reports an mpi block"

echo "cli_mpi_grid: $fails failed"
[ "$fails" = 0 ]
