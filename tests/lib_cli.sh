# lib_cli.sh — what the tests/cli_*.sh scripts share (sourced; not a test itself): a failure
# counter and an exit-code check.
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
