# lib_cli.sh — what the tests/cli_*.sh scripts share (sourced; not a test itself): a failure
# counter, an exit-code check, a --json reader, the MPI launcher of the MPI tests and the skip
# helpers (every check a test drops is named in a line that tests/skip_report.sh lists).
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
  "$1" --version | grep -q "(MPI)" || skip_test "vsgrid built without MPI"
  command -v mpirun >/dev/null 2>&1 || skip_test "mpirun not found"
  mpi=(mpirun --oversubscribe -x OMP_NUM_THREADS=1)
  [ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
}
# have_openbabel VSGRID: 0 (true) when this vsgrid has Open Babel, which Gasteiger charges of
# ligands without charges (SDF) and PDBQT preparation need; the checks that need it go with
# skip_part otherwise.
have_openbabel() { "$1" --version | grep -q "Open Babel (.*) yes"; }
# shared_data SOURCE_DIR: the real-data folder, $VSG_SHARED_DATA or SOURCE_DIR/../shared/data
# (README, "Tests"); it may not exist.
shared_data() { echo "${VSG_SHARED_DATA:-$1/../shared/data}"; }
# skip_part WHAT WHY: the test goes on without the checks WHAT; one line ctest's log keeps and
# tests/skip_report.sh lists, e.g. skip_part "1IEP redocking" "no ../shared/data".
skip_part() { echo "SKIPPED-PART: $1 ($2)"; }
# skip_test WHY: the whole test is skipped (exit 77), its reason on stdout first.
skip_test() { echo "skipped: $1"; exit 77; }
