#!/usr/bin/env bash
# `vsgrid rescore` end to end on the CPU: the grid built around the poses (Coulomb and PB) gives
# the same scores as `vsgrid grid --box` (the box rescore prints) then `vsgrid screen`, and as
# screening its own --grid-out; one row per record whatever is wrong with it, the box made from
# the records that parsed only; the XIAP docked actives (100 MOL2 poses, charges in the file)
# as a realistic run; usage errors and exit codes.
# Usage: cli_rescore.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_rescore
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rows() { tail -n +2 "$1" | wc -l | tr -d ' '; }     # data rows of a CSV
col() { awk -F, -v c="$2" 'NR > 1 { print $c }' "$1"; } # column c (fields without commas)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'; }
# The box rescore printed: "'vsgrid grid' box: --box ... --spacing H [--bc focus]".
box_args() { sed -n "s/.*'vsgrid grid' box: //p" "$1"; }
json_int() { grep -oE "\"$2\": *[0-9]+" "$1" | grep -oE "[0-9]+$"; }

rec=$src/data/1stp_receptor.pdbqt
b=$src/data/biotin.pdbqt

# Help, and the command in the top-level usage.
expect_rc 0 "$vsgrid" rescore --help
for opt in -o --padding --spacing --method --grid-out --dielectric --autogrid --sdf-out --top --kernel --precision \
  --charges --devices --device --max-gpu-memory --json --quiet --format --max-atoms --threads --salt --eps-in --surface \
  "default 0.375" "Exit codes"; do
  grep -q -- "$opt" out.txt || fail "rescore --help does not document $opt"
done
expect_rc 0 "$vsgrid" --help
grep -q "rescore RECEPTOR POSES" out.txt || fail "vsgrid --help does not list rescore"

# Usage errors → 2, AD4 maps → 7, unreadable receptor or no pose atoms → 3.
expect_rc 2 "$vsgrid" rescore
expect_rc 2 "$vsgrid" rescore "$rec"
expect_rc 2 "$vsgrid" rescore "$rec" "$b"                                       # no -o
expect_rc 2 "$vsgrid" rescore "$rec" - -o r.csv --format pdbqt                  # stdin cannot be read twice
grep -q "twice" err.txt || fail "stdin refusal does not say why: $(cat err.txt)"
expect_rc 2 "$vsgrid" rescore "$rec" "$b" -o r.csv --box 0,0,0,10,10,10         # the box comes from the poses
expect_rc 2 "$vsgrid" rescore "$rec" "$b" -o r.csv --dielectric 4r              # needs --method coulomb
expect_rc 2 "$vsgrid" rescore "$rec" "$b" -o r.csv --method warp
expect_rc 2 "$vsgrid" rescore "$rec" "$b" -o r.csv --kernel warp
expect_rc 7 "$vsgrid" rescore "$rec" "$b" -o r.csv --method ad4
grep -q "autogrid4" err.txt || fail "--method ad4 does not point to autogrid4: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore missing.pdbqt "$b" -o r.csv --device cpu --devices cpu
printf 'MODEL 1\nENDMDL\n' >empty.pdbqt
expect_rc 3 "$vsgrid" rescore "$rec" empty.pdbqt -o r.csv --device cpu --devices cpu
grep -q "no atoms" err.txt || fail "no pose atoms: $(cat err.txt)"

# Coulomb (4r, fast on the CPU): rescore == its --grid-out screened == `grid --box` + screen.
expect_rc 0 "$vsgrid" rescore "$rec" "$b" -o c.csv --method coulomb --dielectric 4r --spacing 0.5 \
  --device cpu --devices cpu --grid-out c.vsg --json c.json
cp err.txt c.err
[ "$(rows c.csv)" = 1 ] && [ "$(col c.csv 9)" = ok ] || fail "coulomb rescore: $(cat c.csv)"
score=$(col c.csv 6)
expect_rc 0 "$vsgrid" screen c.vsg "$b" -o c2.csv --devices cpu --quiet
near "$score" "$(col c2.csv 6)" 1e-4 || fail "coulomb: rescore $score, its grid screened $(col c2.csv 6)"
boxc=$(box_args c.err)
[ -n "$boxc" ] || fail "rescore printed no box: $(cat c.err)"
# shellcheck disable=SC2086
expect_rc 0 "$vsgrid" grid "$rec" --method coulomb --dielectric 4r $boxc --device cpu -o c3.vsg --quiet
expect_rc 0 "$vsgrid" screen c3.vsg "$b" -o c3.csv --devices cpu --quiet
near "$score" "$(col c3.csv 6)" 1e-4 || fail "coulomb: rescore $score, grid $boxc + screen $(col c3.csv 6)"
for key in records scored failed kernel device score_seconds method nodes node_count spacing box grid_seconds; do
  grep -q "\"$key\"" c.json || fail "rescore --json lacks $key"
done
grep -q '"method": "coulomb"' c.json || fail "json method: $(grep method c.json)"
# a direct sum: a larger padding only adds far nodes, so the score stays (to interpolation)
expect_rc 0 "$vsgrid" rescore "$rec" "$b" -o c4.csv --method coulomb --dielectric 4r --spacing 0.5 --padding 10 \
  --device cpu --devices cpu --quiet
near "$score" "$(col c4.csv 6)" 0.05 || fail "coulomb: padding 8 gives $score, padding 10 $(col c4.csv 6)"

# PB (focusing by default; --spacing 0.5 to keep it fast): same three-way equality.
expect_rc 0 "$vsgrid" rescore "$rec" "$b" -o p.csv --spacing 0.5 --device cpu --devices cpu --grid-out p.vsg \
  --json p.json
cp err.txt p.err
[ "$(rows p.csv)" = 1 ] && [ "$(col p.csv 9)" = ok ] || fail "PB rescore: $(cat p.csv)"
score=$(col p.csv 6)
expect_rc 0 "$vsgrid" screen p.vsg "$b" -o p2.csv --devices cpu --quiet
near "$score" "$(col p2.csv 6)" 1e-4 || fail "PB: rescore $score, its grid screened $(col p2.csv 6)"
boxp=$(box_args p.err)
echo "$boxp" | grep -q -- "--bc focus" || fail "PB box line does not say --bc focus: $boxp"
# shellcheck disable=SC2086
expect_rc 0 "$vsgrid" grid "$rec" $boxp --device cpu -o p3.vsg --quiet
expect_rc 0 "$vsgrid" screen p3.vsg "$b" -o p3.csv --devices cpu --quiet
near "$score" "$(col p3.csv 6)" 1e-4 || fail "PB: rescore $score, grid $boxp + screen $(col p3.csv 6)"
grep -q '"method": "pb"' p.json || fail "json method: $(grep method p.json)"
grep -q '"converged": true' p.json || fail "PB json: not converged"

# A multi-record PDBQT with bad records: one row each, in order; the bad ones (one with an
# atom 1000 Å away) take no part in the box, so the grid is biotin's alone.
{
  echo "MODEL 1"; grep -E "^(ATOM|HETATM)" "$b"; echo "ENDMDL"
  echo "MODEL 2"; grep -E "^(ATOM|HETATM)" "$b" | sed -e '1s/^\(.\{30\}\).\{8\}/\1 999.000/' -e '3s/^\(.\{30\}\).\{8\}/\1   abcde/'
  echo "ENDMDL"
  echo "MODEL 3"; echo "ENDMDL"
  echo "MODEL 4"; grep -E "^(ATOM|HETATM)" "$b"; echo "ENDMDL"
} >poses.pdbqt
expect_rc 0 "$vsgrid" rescore "$rec" poses.pdbqt -o m.csv --method coulomb --dielectric 4r --spacing 0.5 \
  --device cpu --devices cpu --json m.json
[ "$(rows m.csv)" = 4 ] || fail "4 models, $(rows m.csv) rows: $(cat m.csv)"
[ "$(col m.csv 1 | tr '\n' ' ')" = "0 1 2 3 " ] || fail "rows not in input order: $(col m.csv 1 | tr '\n' ' ')"
st=$(col m.csv 9 | tr '\n' ' ')
[ "$st" = "ok parse no_atoms ok " ] || fail "statuses: '$st' (want 'ok parse no_atoms ok ')"
grep -q "poses.pdbqt:" m.csv || fail "the parse error does not name the file"
[ "$(json_int m.json node_count)" = "$(json_int c.json node_count)" ] ||
  fail "the bad records changed the box: $(json_int m.json node_count) nodes vs $(json_int c.json node_count)"
near "$(col m.csv 6 | sed -n 1p)" "$(col c.csv 6)" 1e-4 || fail "biotin in the pose file: $(col m.csv 6 | sed -n 1p) vs $(col c.csv 6)"

# XIAP: 100 docked actives (MOL2, charges in the file) on a PB grid of the PQR receptor, CPU.
t0=$(date +%s.%N)
expect_rc 0 "$vsgrid" rescore "$src/data/xiap_receptor.pqr.gz" "$src/data/xiap_actives_docked.mol2.gz" -o x.csv \
  --device cpu --devices cpu --json x.json
t1=$(date +%s.%N)
[ "$(rows x.csv)" = 100 ] || fail "xiap: $(rows x.csv) rows for 100 poses"
bad=$(col x.csv 9 | grep -vcE "^(ok|outside)$")
[ "$bad" = 0 ] || fail "xiap: $bad rows neither ok nor outside: $(col x.csv 9 | sort | uniq -c | tr '\n' ' ')"
awk -F, 'NR > 1 && $9 == "ok" && ($6 + 0 != $6 || $6 == "") { exit 1 }' x.csv || fail "xiap: a non-numeric score"
echo "xiap rescore (PB, CPU, $(nproc) cores): $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s wall;" \
  "grid $(grep -oE '"grid_seconds": *[0-9.e+-]+' x.json | grep -oE '[0-9.e+-]+$') s"

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "cli_rescore: all checks passed"
