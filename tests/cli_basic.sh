#!/usr/bin/env bash
# Command-line behaviour: help texts, exit codes, outputs, JSON keys, bad input.
# Usage: cli_basic.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_basic
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"

# Help: every subcommand documents its options with defaults.
expect_rc 0 "$vsgrid" --help
grep -q "grid RECEPTOR" out.txt || fail "--help lists no grid command"
# every command main.c dispatches is listed in vsgrid --help
for cmd in $(grep -o '!strcmp(cmd, "[a-z]*")' "$src/engine/cli/main.c" | sed 's/.*"\([a-z]*\)".*/\1/'); do
  grep -q "^  $cmd " out.txt || fail "vsgrid --help does not list '$cmd'"
done
for cmd in grid energy probe info; do
  expect_rc 0 "$vsgrid" $cmd --help
  grep -q "usage: vsgrid $cmd" out.txt || fail "$cmd --help has no usage line"
done
"$vsgrid" grid --help > help.txt
for opt in --spacing --fill --box --around --padding --eps-in --eps-out --salt --ion --temp --surface \
           --probe --charge-spline --bc --nonlinear --tol --max-iter --device --threads --max-memory --json --dx; do
  grep -q -- "$opt" help.txt || fail "grid --help does not document $opt"
done
grep -q "default 0.5" help.txt || fail "grid --help gives no default spacing"
expect_rc 0 "$vsgrid" --version

# Usage errors → 2.
expect_rc 2 "$vsgrid"
expect_rc 2 "$vsgrid" frobnicate
expect_rc 2 "$vsgrid" grid
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr"
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --spacing -1
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --box 1,2,3
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --surface blobby
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --ion 1,0.1,2   # not electroneutral
grep -q "electroneutral" err.txt || fail "non-neutral ions: no clear message"
expect_rc 2 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --unknown-option

# Bad input → 3, one line naming the file and line.
printf 'ATOM      1  N   ALA     1      1.000   2.000   3.000 -0.3000 1.8500\nATOM      2  CA  ALA     1      1.000   abc   3.000 0.1000 1.9000\n' > bad.pqr
expect_rc 3 "$vsgrid" grid bad.pqr -o x.vsg
grep -q "bad.pqr:2" err.txt || fail "bad number: message does not name bad.pqr:2: $(cat err.txt)"
: > empty.pqr
expect_rc 3 "$vsgrid" grid empty.pqr -o x.vsg
expect_rc 3 "$vsgrid" grid missing-file.pqr -o x.vsg
expect_rc 3 "$vsgrid" info missing-grid.vsg
printf 'not a grid' > corrupt.vsg
expect_rc 3 "$vsgrid" info corrupt.vsg

# Memory limit → 4, refused before allocating.
expect_rc 4 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --spacing 0.1 --max-memory 64M
grep -q "max-memory" err.txt || fail "memory refusal does not name --max-memory"
# --device gpu without a GPU → 5 (only where no GPU is present).
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  expect_rc 5 "$vsgrid" grid "$src/data/fas2.pqr" -o x.vsg --device gpu --spacing 1.0
else
  skip_part "the --device gpu refusal (exit 5)" "a GPU is present"
fi

# A real run: coarse grid of fasciculin, all outputs, JSON keys.
expect_rc 0 "$vsgrid" grid "$src/data/fas2.pqr" -o fas.vsg --dx fas.dx.gz --spacing 1.0 --salt 0.15 \
  --json grid.json --device cpu
[ -s fas.vsg ] && [ -s fas.dx.gz ] || fail "grid wrote no files"
for key in '"total_energy_kt"' '"iterations"' '"seconds"' '"converged": true' '"bytes_per_node"' '"device"'; do
  grep -q "$key" grid.json || fail "grid.json lacks $key"
done
expect_rc 0 "$vsgrid" info fas.vsg --json info.json
grep -q "units    kT/e" out.txt || fail "info does not show units"
grep -q "receptor_crc32" out.txt || fail "info shows no receptor checksum"
expect_rc 0 "$vsgrid" info fas.dx.gz
expect_rc 0 "$vsgrid" probe fas.vsg "$src/data/fas2.pqr" --json probe.json --csv atoms.csv --quiet
grep -q '"interaction_energy_kcal_mol"' probe.json || fail "probe.json lacks interaction_energy_kcal_mol"
[ "$(wc -l < atoms.csv)" = 907 ] || fail "atoms.csv should have 906 rows + header"
# The .vsg and the .dx hold the same potential: same energy within print precision.
e1=$("$vsgrid" probe fas.vsg "$src/data/fas2.pqr" --quiet | awk '{print $3}')
e2=$("$vsgrid" probe fas.dx.gz "$src/data/fas2.pqr" --quiet | awk '{print $3}')
awk -v a="$e1" -v b="$e2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-4 * (a < 0 ? -a : a) + 1e-6) }' \
  || fail "probe on .vsg ($e1) and .dx.gz ($e2) differ"
# Energy command with solvation and a ligand.
expect_rc 0 "$vsgrid" energy "$src/data/1stp_receptor.pdbqt" --spacing 1.0 --solvation \
  --ligand "$src/data/biotin.pdbqt" --json energy.json --device cpu
for key in '"solvation_energy_kcal_mol"' '"interaction_energy_kcal_mol"' '"total_energy_kt"'; do
  grep -q "$key" energy.json || fail "energy.json lacks $key"
done
grep -q "solvation energy" out.txt || fail "energy prints no solvation energy"
# Focusing from a coarser grid file.
expect_rc 0 "$vsgrid" grid "$src/data/1stp_receptor.pdbqt" -o coarse.vsg --spacing 1.0 --fill 0.4 --device cpu --quiet
expect_rc 0 "$vsgrid" grid "$src/data/1stp_receptor.pdbqt" -o fine.vsg --around "$src/data/biotin.pdbqt" \
  --padding 4 --spacing 0.5 --bc focus:coarse.vsg --device cpu --quiet
expect_rc 2 "$vsgrid" grid "$src/data/1stp_receptor.pdbqt" -o bad.vsg --fill 0.3 --spacing 1.0 \
  --bc focus:fine.vsg --device cpu --quiet   # coarse grid smaller than the fine one

echo "cli_basic: $fails failed"
[ "$fails" = 0 ]
