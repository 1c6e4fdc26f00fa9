#!/usr/bin/env bash
# `vsgrid screen --best-per-molecule` (issue 20 item 4): records grouped by name (protomers,
# tautomers, conformers) give one row per name, its best-scored record's row plus a last column
# `records`, in the order of first appearance; --top N then lists N different molecules.
# Usage: cli_best_per_molecule.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_best_per_molecule
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

expect_rc 0 "$vsgrid" screen --help
grep -q -- "--best-per-molecule" out.txt || fail "screen --help does not document --best-per-molecule"

zcat "$src/data/xiap_actives_docked.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { if (++n == 2) exit } { print }' > first.mol2
expect_rc 0 "$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --around first.mol2 \
  --padding 6 --spacing 0.5 --device cpu -o g.vsg --quiet
# 14 records named m0 m1 m2 m3 m0 m1 ... (m0 and m1 four times, m2 and m3 three), and a broken
# record named m9 alone (no score: its own row, records 1)
have_openbabel "$vsgrid" || skip_test "its library is SDF without charges: Gasteiger charges need Open Babel"
zcat "$src/data/xiap_actives_docked.sdf.gz" |
  awk 'start { print "m" (n % 4); start = 0; next } { print } /^\$\$\$\$/ { if (++n == 14) exit; start = 1 }
       BEGIN { start = 1 }' > lib.sdf
printf 'm9\n  vsgrid\n\n  x  y  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n' >> lib.sdf
expect_rc 0 "$vsgrid" screen g.vsg lib.sdf --devices cpu --quiet -o all.csv
expect_rc 0 "$vsgrid" screen g.vsg lib.sdf --devices cpu --quiet -o best.csv --best-per-molecule --sdf-out top.sdf --top 4
[ "$(head -1 best.csv)" = "$(head -1 all.csv),records" ] || fail "header: $(head -1 best.csv)"
[ "$(wc -l < best.csv)" = 6 ] || fail "5 molecules: $(($(wc -l < best.csv) - 1)) rows"
# expected: per name the lowest score's row (the first on ties), names in first-appearance order
awk -F, 'NR > 1 { n = $2; c[n]++; if (!(n in o)) { o[n] = ++k; row[n] = $0; s[n] = $6 }
         else if ($6 != "" && (s[n] == "" || $6 + 0 < s[n] + 0)) { row[n] = $0; s[n] = $6 } }
         END { for (n in o) print o[n] "\t" row[n] "," c[n] }' all.csv | sort -n | cut -f2 > want.csv
tail -n +2 best.csv | cmp -s - want.csv || fail "best rows differ: $(tail -n +2 best.csv | diff - want.csv | head -6)"
[ "$(cut -d, -f2 best.csv | tail -n +2 | tr '\n' ' ')" = "m0 m1 m2 m3 m9 " ] || fail "names: $(cut -d, -f2 best.csv | tr '\n' ' ')"
[ "$(awk -F, 'NR > 1 { printf "%s ", $NF }' best.csv)" = "4 4 3 3 1 " ] || fail "records column: $(awk -F, '{ printf "%s ", $NF }' best.csv)"
# --top 4: four different molecules (without grouping m0 would come twice), the best names, best first
names=$(awk 'NR == 1 || prev ~ /^\$\$\$\$/ { print } { prev = $0 }' top.sdf | tr '\n' ' ')
want=$(awk -F, '$6 != "" { print $6, $2 }' want.csv | sort -g | head -4 | awk '{ printf "%s ", $2 }')
[ "$names" = "$want" ] || fail "--top 4 --best-per-molecule: '$names', expected '$want'"
expect_rc 2 "$vsgrid" screen g.vsg lib.sdf --devices cpu -o r.csv --best-per-molecule --resume

echo "$fails failure(s)"
[ "$fails" = 0 ]
