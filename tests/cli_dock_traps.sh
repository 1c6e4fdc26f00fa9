#!/usr/bin/env bash
# Issue 27, "never a meaningless answer with exit 0" in docking: a box too small for the ligand
# (dock exit 8, a flexible screen's row 'outside'), maps that are 0 everywhere (exit 3, and
# `maps` refuses to make them), maps of another scoring function than asked (the function
# recorded in every map vsgrid writes: exit 3), a HETATM group left at the box's centre (a
# warning with --box as with --around), an output whose extension is not what is written and a
# multi-record ligand (exit 2; --record N docks one), and an interrupted flexible screen (exit
# 130, whole rows, --resume completes it to the uninterrupted run's rows).
# Usage: cli_dock_traps.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_dock_traps
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt
quick=(--exhaustiveness 2 --steps 30 --devices cpu --threads 2)

expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" -o m --device cpu --quiet
head -1 m.C_H.map | grep -qx "GRID_PARAMETER_FILE vsgrid:vina" || fail "vina maps do not record their function: $(head -1 m.C_H.map)"
expect_rc 0 "$vsgrid" dock m "$lig" "${quick[@]}" -o ok.pdbqt --quiet

# 1. A box too small for the ligand: no pose keeps its atoms inside; exit 8, nothing written.
c=$(awk '/^CENTER/ { print $2 "," $3 "," $4; exit }' m.C_H.map)
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --box "$c,3,3,3" -o small --device cpu --quiet # (biotin folds into 5 A)
rm -f small.pdbqt
expect_rc 8 "$vsgrid" dock small "$lig" "${quick[@]}" -o small.pdbqt
grep -q "outside the maps' box" err.txt && grep -q -- "--padding" err.txt || fail "small box: $(cat err.txt)"
[ -e small.pdbqt ] && fail "small box: poses written"
expect_rc 8 "$vsgrid" screen small "$lig" --scoring vina --placement flexible "${quick[@]}" -o small.csv --quiet
grep -q "no record was docked inside the maps' box" err.txt || fail "small box, flexible screen: $(cat err.txt)"
grep -q ",outside,\"[0-9]* heavy atoms of the pose lie outside the maps" small.csv ||
  fail "small box, flexible screen: the row is not 'outside' with why: $(cat small.csv)"

# A box inside the protein (around the atom nearest the receptor's centre): a small ligand fits
# the box but not between the atoms: its best pose is repulsive, so dock refuses it too.
mid=$(awk '/^(ATOM|HETATM)/ { n++; x[n] = substr($0, 31, 8); y[n] = substr($0, 39, 8); z[n] = substr($0, 47, 8)
  sx += x[n]; sy += y[n]; sz += z[n] } END { cx = sx / n; cy = sy / n; cz = sz / n; best = 1e9
  for (i = 1; i <= n; i++) { d = (x[i] - cx) ^ 2 + (y[i] - cy) ^ 2 + (z[i] - cz) ^ 2; if (d < best) { best = d; k = i } }
  printf "%.3f,%.3f,%.3f", x[k], y[k], z[k] }' "$rec")
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --box "$mid,6,6,6" -o core --device cpu --quiet
printf 'methanol\n  vsgrid\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n%10.4f%10.4f%10.4f C   0  0  0  0  0  0  0  0  0  0  0  0\n%10.4f%10.4f%10.4f O   0  0  0  0  0  0  0  0  0  0  0  0\n  1  2  1  0\nM  END\n$$$$\n' \
  $(echo "$mid" | awk -F, '{ print $1, $2, $3, $1 + 1.43, $2, $3 }') > meoh.sdf
expect_rc 8 "$vsgrid" dock core meoh.sdf "${quick[@]}" -o core.pdbqt
grep -q "clashes with the receptor" err.txt || fail "a box inside the protein: $(cat err.txt)"

# 2. Maps that are 0 everywhere (a box beyond the receptor): maps refuses, dock and screen too.
expect_rc 3 "$vsgrid" maps "$rec" --scoring vina --box 500,500,500,10,10,10 -o far --device cpu --quiet
grep -q "no receptor atom within 8 A" err.txt || fail "maps, far box: $(cat err.txt)"
ls far.*.map >/dev/null 2>&1 && fail "maps, far box: maps written"
for f in m.*.map; do awk 'NR <= 6 { print; next } { print 0 }' "$f" > "zero${f#m}"; done
expect_rc 3 "$vsgrid" dock zero "$lig" "${quick[@]}" -o z.pdbqt
grep -q "every value of its .* maps is 0" err.txt || fail "dock, all-zero maps: $(cat err.txt)"
expect_rc 3 "$vsgrid" screen zero "$lig" --scoring vina -o z.csv --quiet
expect_rc 3 "$vsgrid" screen zero "$lig" --scoring vina --placement flexible "${quick[@]}" -o z.csv --quiet

# 3. Maps of another function: Vinardo maps docked with --scoring vina (and the reverse); a set
# mixing both; maps without the record (vina --write_maps writes NULL) are taken as they are.
expect_rc 0 "$vsgrid" maps "$rec" --scoring vinardo --around "$lig" -o vd --device cpu --quiet
head -1 vd.C_H.map | grep -qx "GRID_PARAMETER_FILE vsgrid:vinardo" || fail "vinardo maps: $(head -1 vd.C_H.map)"
expect_rc 3 "$vsgrid" dock vd "$lig" "${quick[@]}" -o x.pdbqt
grep -q "these are Vinardo maps" err.txt && grep -q -- "--scoring vinardo" err.txt || fail "vinardo maps as vina: $(cat err.txt)"
expect_rc 3 "$vsgrid" dock m "$lig" --scoring vinardo "${quick[@]}" -o x.pdbqt
expect_rc 3 "$vsgrid" screen vd "$lig" --scoring vina -o x.csv --quiet
expect_rc 0 "$vsgrid" dock vd "$lig" --scoring vinardo "${quick[@]}" -o x.pdbqt --quiet
for f in m.*.map; do cp "$f" "mix${f#m}"; done
cp vd.N_D.map mix.N_D.map
expect_rc 3 "$vsgrid" dock mix "$lig" "${quick[@]}" -o x.pdbqt
grep -q "one map set holds one scoring function" err.txt || fail "mixed map set: $(cat err.txt)"
for f in vd.*.map; do sed '1s/.*/GRID_PARAMETER_FILE NULL/' "$f" > "anon${f#vd}"; done
expect_rc 0 "$vsgrid" dock anon "$lig" --scoring vinardo "${quick[@]}" -o x.pdbqt --quiet

# 4. A ligand left in the receptor (HETATM) at the box's centre: --box warns as --around does.
{ grep -v '^END' "$rec"; awk '/^(ATOM|HETATM)/ { printf "HETATM%s%s%s\n", substr($0, 7, 11), "BTN", substr($0, 21) }' "$lig"; } > holo.pdbqt
bc=$(awk '/^(ATOM|HETATM)/ { x += substr($0, 31, 8); y += substr($0, 39, 8); z += substr($0, 47, 8); n++ }
          END { printf "%.3f,%.3f,%.3f", x / n, y / n, z / n }' "$lig")
expect_rc 0 "$vsgrid" maps holo.pdbqt --scoring vina --box "$bc,20,20,20" --types C_H -o holo --device cpu
grep -q "the box's centre holds the HETATM group BTN" err.txt || fail "maps --box over a ligand: no warning: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --box "$bc,20,20,20" --types C_H -o apo --device cpu
grep -q "HETATM group" err.txt && fail "maps --box on the apo receptor warned: $(cat err.txt)"
expect_rc 0 "$vsgrid" grid holo.pdbqt --method coulomb --box "$bc,16,16,16" --spacing 1 --device cpu -o holo.vsg --quiet
grep -q "the box's centre holds the HETATM group BTN" err.txt || fail "grid --box over a ligand: no warning: $(cat err.txt)"

# 5. A ligand file without hydrogens (ethanolamine, heavy atoms only): its polar hydrogens are
# added at neutral valence, with a warning, so that its N and O are donors (N_D, O_DA), not
# acceptors only; the poses carry them (HD) and Gasteiger charges.
c=$(awk '/^CENTER/ { print $2, $3, $4; exit }' m.C_H.map)
awk -v c="$c" 'BEGIN { split(c, o, " "); print "ethanolamine\n  vsgrid\n\n  4  3  0  0  0  0  0  0  0  0999 V2000"
  n = split("-1.2 0.3 0 C|0.1 -0.4 0 C|1.2 0.5 0 O|-2.4 -0.5 0 N", a, "|")
  for (i = 1; i <= n; i++) { split(a[i], f, " "); printf "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", f[1] + o[1], f[2] + o[2], f[3] + o[3], f[4] }
  print "  1  2  1  0\n  2  3  1  0\n  1  4  1  0\nM  END\n$$$$" }' > noh.sdf
expect_rc 0 "$vsgrid" dock m noh.sdf "${quick[@]}" -o noh.pdbqt
grep -q "added 3 polar hydrogens to noh.sdf record 1" err.txt || fail "dock without hydrogens: no warning: $(cat err.txt)"
[ "$(awk '/^MODEL/ { n++ } n == 1 && / HD *$/' noh.pdbqt | wc -l)" = 3 ] || fail "dock without hydrogens: not 3 HD in the pose"
if have_openbabel "$vsgrid"; then
  awk '/^MODEL/ { n++ } n == 1 && /^(ATOM|HETATM)/ { q = substr($0, 71, 6) + 0; if (q != 0) nz++ } END { exit !(nz >= 4) }' noh.pdbqt ||
    fail "dock without charges: the PDBQT pose's charges are 0"
else
  skip_part "Gasteiger charges of a pose whose input had none" "vsgrid built without Open Babel"
fi
expect_rc 0 "$vsgrid" screen m noh.sdf "$lig" --scoring vina --placement flexible "${quick[@]}" -o noh.csv
grep -q "polar hydrogens added" err.txt && grep -q "1 records had polar hydrogens added" err.txt ||
  fail "flexible screen without hydrogens: $(cat err.txt)"

# 7. A ligand Gasteiger has no parameters for (zinc methoxide; a heme's Fe): the poses are
# still written, their charges 0 with a warning naming the atom, never a failed dock.
c=$(awk '/^CENTER/ { print $2, $3, $4; exit }' m.C_H.map)
awk -v c="$c" 'BEGIN { split(c, o, " "); print "zinc methoxide\n  vsgrid\n\n  3  2  0  0  0  0  0  0  0  0999 V2000"
  n = split("-1.2 0.3 0 C|0.1 -0.3 0 O|1.9 0.3 0 Zn", a, "|")
  for (i = 1; i <= n; i++) { split(a[i], f, " "); printf "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", f[1] + o[1], f[2] + o[2], f[3] + o[3], f[4] }
  print "  1  2  1  0\n  2  3  1  0\nM  END\n$$$$" }' > zn.sdf
rm -f zn_out.sdf
"$vsgrid" dock m zn.sdf "${quick[@]}" -o zn_out.sdf > out.txt 2> err.txt
rc=$?
case $rc in
  0) grep -q '^\$\$\$\$' zn_out.sdf || fail "zinc methoxide: exit 0 without poses"
     if have_openbabel "$vsgrid"; then
       grep -q "no Gasteiger charges for the poses (no Gasteiger charges: atom 3 .* is Zn" err.txt ||
         fail "zinc methoxide: no warning naming the Zn atom: $(cat err.txt)"
     fi ;;
  8) ;; # its best pose may clash or leave the box: refused, as any
  *) fail "zinc methoxide: exit $rc: $(cat err.txt)" ;;
esac

# 9. The receptor given as the ligand (arguments swapped): a PDBQT without ROOT/ENDROOT is
# no ligand (vina refuses it); read as one rigid body it docked 1,000+ atoms for minutes. dock:
# exit 3 at once naming the file and line; a flexible screen: its row 'torsions', the others docked.
SECONDS=0
expect_rc 3 "$vsgrid" dock m "$rec" "${quick[@]}" -o swapped.pdbqt
grep -q "1stp_receptor.pdbqt:[0-9]*: record 1: torsion tree: no ROOT/ENDROOT: not a ligand PDBQT (a receptor?" err.txt ||
  fail "dock of a receptor as the ligand: $(cat err.txt)"
expect_rc 0 "$vsgrid" screen m "$rec" "$lig" --scoring vina --placement flexible "${quick[@]}" -o swapped.csv --quiet
[ "$(awk -F, 'NR > 1 && /,torsions,"[^"]*no ROOT\/ENDROOT/' swapped.csv | wc -l)" = 1 ] ||
  fail "flexible screen of a receptor as a ligand: no torsions row: $(cut -c1-300 swapped.csv)"
# the same as a PDB (no tree to miss): refused by its torsion count (--max-torsions, 32 as screens)
expect_rc 3 "$vsgrid" dock m "$src/data/inha/receptor.pdb.gz" "${quick[@]}" -o swapped.pdbqt
grep -q "torsions, over --max-torsions 32 (a receptor given as the ligand?" err.txt || fail "dock of a receptor PDB: $(cat err.txt)"
expect_rc 2 "$vsgrid" dock m "$lig" --max-torsions x "${quick[@]}" -o swapped.pdbqt
expect_rc 3 "$vsgrid" dock m "$lig" --max-torsions 4 "${quick[@]}" -o swapped.pdbqt # biotin has 5
[ "$SECONDS" -lt 60 ] || fail "a receptor as the ligand took $SECONDS s to refuse"

# 6. Outputs named for what they hold; one record per dock, or --record N.
expect_rc 2 "$vsgrid" dock m "$lig" "${quick[@]}" -o out.mol2
grep -q "dock writes PDBQT (.pdbqt) or SDF (.sdf)" err.txt || fail "dock -o out.mol2: $(cat err.txt)"
[ -e out.mol2 ] && fail "dock -o out.mol2 wrote it"
expect_rc 0 "$vsgrid" dock m "$lig" "${quick[@]}" -o out.pdbqt.gz --quiet
gzip -t out.pdbqt.gz 2>/dev/null && zcat out.pdbqt.gz | grep -q "^MODEL" || fail "dock -o out.pdbqt.gz is not gzipped PDBQT"
{ cat "$lig"; sed 's/^REMARK  Name = .*/REMARK  Name = second/' "$lig"; } > two.pdbqt
expect_rc 2 "$vsgrid" dock m two.pdbqt "${quick[@]}" -o two_out.pdbqt
grep -q "more than one record" err.txt && grep -q -- "--record N" err.txt && grep -q "placement flexible" err.txt ||
  fail "dock of a two-record file: $(cat err.txt)"
expect_rc 0 "$vsgrid" dock m two.pdbqt --record 2 "${quick[@]}" -o two_out.pdbqt --quiet
cmp -s <(grep -v "^REMARK" two_out.pdbqt) <(grep -v "^REMARK" ok.pdbqt) ||
  fail "dock --record 2 of two copies differs from the single record's poses"
expect_rc 2 "$vsgrid" dock m two.pdbqt --record 3 "${quick[@]}" -o x.pdbqt
grep -q "no record 3 (the file has 2)" err.txt || fail "dock --record 3: $(cat err.txt)"

# 8. Ctrl-C on a flexible CPU screen: exit 130, whole rows, and --resume ends with the rows of an
# uninterrupted run.
inha=$src/data/inha
expect_rc 0 "$vsgrid" maps "$inha/receptor.pdbqt" --scoring vina --around "$inha/crystal_ligand.mol2" -o im --device cpu --quiet
flex=(--scoring vina --placement flexible --exhaustiveness 2 --steps 20 --devices cpu --threads 1)
"$vsgrid" screen im "$inha/library.mol2.gz" "${flex[@]}" -o full.csv --quiet 2>/dev/null || fail "uninterrupted screen: exit $?"
"$vsgrid" screen im "$inha/library.mol2.gz" "${flex[@]}" -o part.csv 2> part.err &
pid=$!
for _ in $(seq 100); do [ -f part.csv ] && [ "$(wc -l < part.csv)" -gt 1 ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] || fail "interrupted flexible screen: exit $rc, not 130"
grep -q "interrupted after .* records; their rows are in part.csv: run the same command with --resume" part.err ||
  fail "interrupted screen: $(cat part.err)"
n=$(($(wc -l < part.csv) - 1))
[ "$n" -ge 1 ] && [ "$n" -lt 124 ] || fail "interrupted screen: $n rows"
cmp -s <(head -n $((n + 1)) full.csv) part.csv || fail "the interrupted screen's rows are not the uninterrupted run's first $n"
expect_rc 0 "$vsgrid" screen im "$inha/library.mol2.gz" "${flex[@]}" -o part.csv --resume --quiet
cmp -s full.csv part.csv || fail "interrupted + --resume differs from the uninterrupted screen"

# A box several times the ligand's own (AutoDock-GPU's 30 A cubes): the pocket-tuned presets miss
# poses there, so dock searches with thorough when no effort is given (and says so), and says to
# use it when a smaller effort is given; a box around the ligand gets detail and says nothing.
c=$(awk '/^CENTER/ { print $2 "," $3 "," $4; exit }' m.C_H.map)
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --box "$c,30,30,30" -o big --device cpu --quiet
expect_rc 0 "$vsgrid" dock big "$lig" --devices cpu --exhaustiveness 2 --steps 5 -o big.pdbqt --quiet
grep -q "times the ligand's own: the search presets.*--search thorough" err.txt || fail "30 A box: no advice: $(cat err.txt)"
expect_rc 0 "$vsgrid" dock big "$lig" --devices cpu --poses 1 -o big.pdbqt --json big.json
grep -q "the box (30.0 x 30.0 x 30.0 A) is [0-9.]* times the ligand's own: searching with thorough (512 chains x 240 steps" err.txt ||
  fail "30 A box, no --search: not said: $(cat err.txt)"
grep -q '"search": "thorough"' big.json && grep -q '"chains": 512' big.json && grep -q '"steps": 240' big.json ||
  fail "30 A box, no --search: not thorough: $(cat big.json)"
expect_rc 0 "$vsgrid" dock m "$lig" --devices cpu --exhaustiveness 2 --steps 5 -o m5.pdbqt --quiet
grep -q "search thorough" err.txt && fail "a box around the ligand: advice given: $(cat err.txt)"
# a screen keeps its preset and says so once, from its first records
expect_rc 0 "$vsgrid" screen big "$lig" "$lig" --scoring vina --placement flexible --devices cpu --exhaustiveness 2 --steps 5 \
  -o bigs.csv --quiet
[ "$(grep -c "times the records' own box (the median of the first 2).*--search thorough" err.txt)" = 1 ] ||
  fail "30 A box screen: not said once: $(cat err.txt)"
expect_rc 0 "$vsgrid" screen m "$lig" --scoring vina --placement flexible --devices cpu --exhaustiveness 2 --steps 5 -o ms.csv --quiet
grep -q "own box" err.txt && fail "a screen in a box around the ligand: advice given: $(cat err.txt)"
expect_rc 0 "$vsgrid" dock m "$lig" --devices cpu --search fast --poses 1 -o m5.pdbqt --json m5.json
grep -q "thorough" err.txt m5.json && fail "a box around the ligand, --search fast: thorough said: $(cat err.txt)"
expect_rc 0 "$vsgrid" dock m "$lig" --devices cpu --poses 1 -o m5.pdbqt --json m5.json
grep -q '"search": "detail"' m5.json && grep -q '"chains": 128' m5.json || fail "a box around the ligand: not detail: $(cat m5.json)"
grep -q "thorough" err.txt && fail "a box around the ligand: thorough said: $(cat err.txt)"
echo "$fails failure(s)"
exit $((fails > 0))
