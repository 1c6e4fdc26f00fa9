#!/usr/bin/env bash
# Issue 27, item 10: the README cannot drift from the command. Every subcommand `vsgrid --help`
# lists appears in README's usage block (a line "vsgrid COMMAND ..." between "## Usage" and the
# block's end) and answers `--help` with exit 0; every package .ci/run installs (what the tests
# use) is in README's install line of the test suite.
# Usage: cli_readme.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_readme
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
readme=$src/README.md

expect_rc 0 "$vsgrid" --help
# the commands: lines "  NAME ..." of the "commands:" list, up to its first blank line
cmds=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' out.txt)
[ "$(echo "$cmds" | grep -c .)" -ge 10 ] || fail "vsgrid --help lists too few commands: $cmds"
usage=$(awk '/^## Usage/ { on = 1; next } on && /^```$/ { n++; if (n == 2) exit; next } on && n == 1' "$readme")
[ -n "$usage" ] || fail "README has no usage block after '## Usage'"
for c in $cmds; do
  echo "$usage" | grep -qE "^(mpirun .*)?vsgrid $c( |$)" || fail "README's usage block lacks 'vsgrid $c'"
  expect_rc 0 "$vsgrid" "$c" --help
  grep -q "usage: vsgrid $c" out.txt || fail "vsgrid $c --help: no usage line"
done
# and no command in the README that the binary does not know
for c in $(echo "$usage" | sed -n 's/^\(mpirun [^v]*\)\{0,1\}vsgrid \([a-z-]*\).*/\2/p' | sort -u); do
  echo "$cmds" | grep -qx "$c" || fail "README's usage block lists 'vsgrid $c', which vsgrid --help does not"
done

# every package CI installs for the tests is in README's install line
ci=$(awk '/apt-get install/ { on = 1 } on { print } on && !/\\$/ { exit }' "$src/.ci/run" |
  tr ' \\' '\n\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -vxE 'apt-get|install|on|dev|null' | grep -v '^-')
[ "$(echo "$ci" | grep -c .)" -ge 10 ] || fail ".ci/run: could not read its package list: $ci"
line=$(awk '/^sudo apt-get install -y cmake .*libisal-dev/ { on = 1 } on { print } on && !/\\$/ { exit }' "$readme")
[ -n "$line" ] || fail "README has no install line of the test suite's packages"
for p in $ci; do
  echo "$line" | tr ' \\' '\n\n' | grep -qx -- "$p" || fail "README's install line lacks '$p' (.ci/run installs it)"
done

echo "$fails failure(s)"
[ "$fails" = 0 ]
