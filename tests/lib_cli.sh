# lib_cli.sh — what the tests/cli_*.sh scripts share (sourced; not a test itself): a failure
# counter, an exit-code check, a --json reader and the MPI launcher of the MPI tests.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_rc CODE command...: runs the command with stdout in out.txt and stderr in err.txt; any
# other exit code is a failure that shows the start of stderr.
expect_rc() {
  local want=$1
  shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  [ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(head -c 600 err.txt)"
}
# json_val FILE KEY: the first "KEY": value of a --json summary.
json_val() { grep -o "\"$2\": [^,}]*" "$1" | head -1 | sed 's/.*: //'; }
# mpi_launcher VSGRID: exits 77 (skipped) unless vsgrid was built with MPI and mpirun is on the
# PATH; otherwise sets the array `mpi` to the launcher (CI containers run as root, which Open
# MPI refuses without the flag).
mpi_launcher() {
  "$1" --version | grep -q "(MPI)" || { echo "skipped: vsgrid built without MPI"; exit 77; }
  command -v mpirun >/dev/null 2>&1 || { echo "skipped: mpirun not found"; exit 77; }
  mpi=(mpirun --oversubscribe -x OMP_NUM_THREADS=1)
  [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
}
