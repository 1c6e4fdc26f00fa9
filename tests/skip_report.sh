#!/usr/bin/env bash
# skip_report.sh BUILD_DIR [--running | STATUS] — what the last ctest run in BUILD_DIR skipped, and why:
# every skipped test (exit 77) with its reason (its "skipped: ..." line, else its last line of
# output) and every "SKIPPED-PART: what (why)" line a passing test printed (tests/lib_cli.sh
# skip_part, tests/check.h VSG_SKIP_PART). Reads BUILD_DIR/Testing/Temporary/LastTest.log.
# Registered as ctest's last test (--running: the log of the run in progress; never fails),
# and run after ctest by the README's test command, which passes ctest's exit status as STATUS:
#   ctest --test-dir build --output-on-failure; bash tests/skip_report.sh build $?
# Exit: STATUS when given, else 0; 1 when there is no log.
set -u
build=${1:-build}
log=$build/Testing/Temporary/LastTest.log
# inside a ctest run, the run's log is still LastTest.log.tmp (renamed when the run ends)
[ "${2:-}" = --running ] && [ -f "$log.tmp" ] && log=$log.tmp
if [ ! -f "$log" ]; then
  echo "skip report: no $log (run ctest --test-dir $build first)"
  [ "${2:-}" = --running ] && exit 0
  [ -n "${2:-}" ] && [ "${2:-}" != 0 ] && exit "$2"
  exit 1
fi
# The log: per test "N/M Test: NAME", its output between "Output:" and "<end of output>",
# then "Test Passed." (ctest writes it for a skipped test too), "Test Failed." or "Test Not Run".
# A skipped test is one whose last line of output is its reason ("skipped: ...", "SKIP: ..."):
# a skip prints it, then exits 77.
awk -v self=skip_report '
  function flush() {
    if (name == "" || name == self) return
    if (state == "skipped" || last ~ /^([Ss]kipped|SKIP|SKIPPED)[: ]/) {
      why = last ~ /^([Ss]kipped|SKIP|SKIPPED)[: ]/ ? last : reason != "" ? reason : last
      sub(/^[Ss][Kk][Ii][Pp][Pp]?[Ee]?[Dd]?:? */, "", why)
      if (why == "") why = "(no reason printed)"
      skipped[++ns] = sprintf("  %-34s %s", name, why)
    }
    for (i = 1; i <= np; i++) parts[++nparts] = sprintf("  %-34s %s", name, part[i])
    name = ""; np = 0
  }
  /^[0-9]+\/[0-9]+ Test: / { flush(); name = $0; sub(/^[0-9]+\/[0-9]+ Test: /, "", name); inout = 0; reason = ""; last = ""; state = "" ; next }
  /^Output:$/ { inout = 1; next }
  /^<end of output>$/ { inout = 0; next }
  inout {
    if ($0 ~ /^SKIPPED-PART: /) { p = $0; sub(/^SKIPPED-PART: /, "", p); part[++np] = p }
    else if ($0 ~ /^([Ss]kipped|SKIP|SKIPPED)[: ]/) reason = $0
    if ($0 !~ /^-+$/ && $0 != "" && $0 !~ /^SKIPPED-PART: /) last = $0
    next
  }
  /^Test Skipped/ || /^Test Not Run/ { state = "skipped" }
  /end time:/ { flush() }
  END {
    flush()
    printf "skip report (%s):\n", FILENAME
    if (ns == 0) print "  no test skipped"
    else { printf "%d test(s) skipped:\n", ns; for (i = 1; i <= ns; i++) print skipped[i] }
    if (nparts == 0) print "  no test dropped part of its checks"
    else { printf "%d part(s) of passing tests skipped:\n", nparts; for (i = 1; i <= nparts; i++) print parts[i] }
  }' "$log"
case ${2:-} in
[0-9]*) exit "$2" ;;
esac
exit 0
