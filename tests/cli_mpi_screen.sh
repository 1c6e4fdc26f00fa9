#!/usr/bin/env bash
# Screening over MPI ranks (issue 7): `mpirun -np 2|3 vsgrid screen` writes the single-rank CSV
# byte for byte (one row per record, input order, bad records included) and the same counts in
# --json. Small --batch-atoms so that the 100-molecule library makes many batches, which go
# round-robin over the ranks (engine/mpi_env.h). Both parse paths: parallel (splittable input)
# and serial (--parse-threads 1).
# Skips (77) when vsgrid was built without MPI or mpirun is absent.
# Usage: cli_mpi_screen.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_mpi_screen
"$vsgrid" --version | grep -q "(MPI)" || { echo "skipped: vsgrid built without MPI"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "skipped: mpirun not found"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mpi=(mpirun --oversubscribe -x OMP_NUM_THREADS=1)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)   # CI containers run as root
json_val() { grep -o "\"$2\": [^,}]*" "$1" | head -1 | sed 's/.*: //'; }

"$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --spacing 0.6 --fill 0.9 \
  --device cpu -o g.vsg --quiet 2>err.txt || { echo "FAIL: no grid: $(cat err.txt)"; exit 1; }

# A library with bad records between good ones: every record keeps its row.
b=$src/data/biotin.pdbqt
for i in $(seq 1 40); do
  echo "MODEL $i"
  case $((i % 4)) in
    1) grep -E "^(ATOM|HETATM)" "$b" | sed '3s/^\(.\{30\}\).\{8\}/\1   abcde/' ;;   # parse error
    2) ;;                                                                          # no atoms
    *) grep -E "^(ATOM|HETATM)" "$b" ;;
  esac
  echo "ENDMDL"
done >mixed.pdbqt

run_case() {  # run_case NAME screen-args...
  local name=$1; shift
  "$vsgrid" screen g.vsg "$@" -o $name.ref.csv --json $name.ref.json --devices cpu --quiet 2>$name.ref.err ||
    { fail "$name: single-rank run failed: $(head -c 400 $name.ref.err)"; return; }
  for np in 2 3; do
    "${mpi[@]}" -np $np "$vsgrid" screen g.vsg "$@" -o $name.$np.csv --json $name.$np.json --devices cpu --quiet \
      2>$name.$np.err || { fail "$name -np $np exited $?: $(head -c 600 $name.$np.err)"; continue; }
    cmp -s $name.ref.csv $name.$np.csv || fail "$name: -np $np CSV differs from the single-rank CSV: $(diff $name.ref.csv $name.$np.csv | head -5)"
    for key in records scored failed; do
      [ "$(json_val $name.ref.json $key)" = "$(json_val $name.$np.json $key)" ] ||
        fail "$name -np $np: json $key $(json_val $name.$np.json $key), single rank $(json_val $name.ref.json $key)"
    done
    ls $name.$np.csv.rank*.part >/dev/null 2>&1 && fail "$name -np $np: part files left behind"
    echo "$name -np $np: $(($(wc -l < $name.$np.csv) - 1)) rows identical to one rank;" \
         "scored $(json_val $name.$np.json scored), failed $(json_val $name.$np.json failed)"
  done
}

run_case xiap "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 400
run_case xiap_serial "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 400 --parse-threads 1
run_case mixed mixed.pdbqt "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 300
run_case onebatch "$b"   # one batch: ranks 1 and 2 have nothing to do

# Not (yet) over ranks: SDF output is refused with a clear message.
"${mpi[@]}" -np 2 "$vsgrid" screen g.vsg "$b" -o s.csv --sdf-out s.sdf --devices cpu --quiet 2>sdf.err
rc=$?
[ $rc = 2 ] || fail "--sdf-out over ranks: exit $rc, expected 2"
grep -q "MPI" sdf.err || fail "--sdf-out over ranks: no message naming MPI: $(cat sdf.err)"

echo "cli_mpi_screen: $fails failed"
[ "$fails" = 0 ]
