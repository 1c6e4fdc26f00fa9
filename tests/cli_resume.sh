#!/usr/bin/env bash
# `vsgrid screen --resume` (issue 19 item 5): an interrupted screen (its CSV cut inside a row, its
# SDF inside a record) goes on from the rows written and ends byte for byte as an uninterrupted
# run; a resume file of another library or other options is refused (exit 3, file untouched).
# As-is screen with --sdf-out, rigid placement with --poses-out (../shared/data), the flexible
# Vina screen (docking seeds follow the record index, so resumed rows are the same), the Vina
# as-is screen.
# Usage: cli_resume.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_resume
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
sum() { cksum "$@" | awk '{ printf "%s %s ", $1, $2 }'; }
# cut_at FILE FRACTION: FILE cut inside its bytes (never at a line end)
cut_at() {
  local n
  n=$(awk -v f="$2" -v s="$(wc -c < "$1")" 'BEGIN { printf "%d", s * f }')
  while [ "$(tail -c +"$n" "$1" | head -c 1 | od -An -c | tr -d ' ')" = '\n' ]; do n=$((n + 1)); done
  head -c "$n" "$1" > cut.tmp && mv cut.tmp "$1"
}

expect_rc 0 "$vsgrid" screen --help
grep -q -- "--resume" out.txt || fail "screen --help does not document --resume"

# A Coulomb grid on XIAP; a library of three files: 40 actives, a broken record, 60 actives.
zcat "$src/data/xiap_actives_docked.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { if (++n == 2) exit } { print }' > first.mol2
expect_rc 0 "$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --around first.mol2 \
  --padding 6 --spacing 0.5 --device cpu -o g.vsg --quiet
have_openbabel "$vsgrid" || skip_test "its libraries are SDF without charges: Gasteiger charges need Open Babel"
zcat "$src/data/xiap_actives_docked.sdf.gz" | awk '{ print > (n < 40 ? "a.sdf" : "c.sdf") } /^\$\$\$\$/ { n++ }'
printf 'broken\n  vsgrid\n\n  x  y  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n' > b.sdf
scr=(screen g.vsg a.sdf b.sdf c.sdf --devices cpu --quiet --sdf-out r.sdf -o r.csv)
expect_rc 0 "$vsgrid" "${scr[@]}"
cp r.csv full.csv && cp r.sdf full.sdf
[ "$(wc -l < full.csv)" = 102 ] || fail "101 records: $(($(wc -l < full.csv) - 1)) rows"
[ "$(awk -F, 'NR > 1 && $9 != "ok"' full.csv | wc -l)" = 1 ] || fail "one failed row expected"

# 1. the CSV cut inside row 71, the SDF inside its 31st record: rows after the 30th SDF record
#    are done again
cut_at r.csv 0.7
awk '/^\$\$\$\$/ { if (++n == 30) { print; printf "x\n  vsgrid\n"; exit } } { print }' full.sdf > r.sdf
expect_rc 0 "$vsgrid" "${scr[@]}" --resume
cmp -s r.csv full.csv || fail "resumed CSV differs from the full run's: $(diff r.csv full.csv | head -5)"
cmp -s r.sdf full.sdf || fail "resumed SDF differs from the full run's"
# 2. the SDF whole, the CSV cut inside row 21: the SDF is cut back to the kept rows
cut_at r.csv 0.2
expect_rc 0 "$vsgrid" "${scr[@]}" --resume --json r.json
cmp -s r.csv full.csv || fail "resumed CSV (2) differs: $(diff r.csv full.csv | head -5)"
cmp -s r.sdf full.sdf || fail "resumed SDF (2) differs"
n=$(json_val r.json records)
[ "$n" -ge 80 ] && [ "$n" -le 82 ] || fail "resume screened $n records, expected about 81 (the rest skipped)"
# 3. a finished screen: nothing to do, nothing changes
expect_rc 0 "$vsgrid" "${scr[@]}" --resume
cmp -s r.csv full.csv && cmp -s r.sdf full.sdf || fail "resuming a finished screen changed it"
# 4. the header only, and a cut header
head -1 full.csv > r.csv && : > r.sdf
expect_rc 0 "$vsgrid" "${scr[@]}" --resume
cmp -s r.csv full.csv && cmp -s r.sdf full.sdf || fail "resume from the header differs"

# 5. a run with parallel parsing (--parse-threads, not part of the options checked), resumed
expect_rc 0 "$vsgrid" "${scr[@]}" --parse-threads 3
cmp -s r.csv full.csv || fail "--parse-threads 3 rows differ"
cut_at r.csv 0.55 && cut_at r.sdf 0.5
expect_rc 0 "$vsgrid" "${scr[@]}" --parse-threads 3 --resume
cmp -s r.csv full.csv && cmp -s r.sdf full.sdf || fail "resume with --parse-threads 3 differs"

# Resume files that do not match: exit 3, nothing written over.
cut_at r.csv 0.5
before=$(sum r.csv r.sdf)
expect_rc 3 "$vsgrid" screen g.vsg c.sdf b.sdf a.sdf --devices cpu --quiet --sdf-out r.sdf -o r.csv --resume
[ "$(sum r.csv r.sdf)" = "$before" ] || fail "a refused resume (libraries) changed the files"
expect_rc 3 "$vsgrid" "${scr[@]}" --kernel cpu --resume
grep -q "other options" err.txt || fail "options mismatch message: $(cat err.txt)"
[ "$(sum r.csv r.sdf)" = "$before" ] || fail "a refused resume (options) changed the files"
# the same command line on another library of the same file names
mkdir -p other && cp c.sdf other/a.sdf && cp b.sdf c.sdf other/ && cp g.vsg other/
(cd other && cp ../r.csv ../r.csv.resume ../r.sdf . && "$vsgrid" "${scr[@]}" --resume > ../out.txt 2> ../err.txt)
rc=$?
[ "$rc" = 3 ] || fail "another library under the same names: exit $rc, expected 3"
grep -q "not the same library" err.txt || fail "library mismatch message: $(cat err.txt)"
[ "$(cd other && sum r.csv r.sdf)" = "$before" ] || fail "a refused resume (same names) changed the files"
rm -f r.csv.resume && expect_rc 3 "$vsgrid" "${scr[@]}" --resume
expect_rc 2 "$vsgrid" screen g.vsg a.sdf --devices cpu -o - --resume
expect_rc 2 "$vsgrid" screen g.vsg a.sdf --devices cpu -o r.csv --sdf-out r.sdf --top 3 --resume

# Rigid placement: --poses-out SDF with 3 poses a molecule, resumed.
d=$(shared_data "$src")/autodock_gpu/1stp
if [ -f "$d/1stp_protein.maps.fld" ]; then
  lig=$d/1stp_ligand.pdbqt
  for i in 1 2 3 4 5; do cat "$lig"; done > five.pdbqt
  pl=(screen "$d/1stp_protein.maps.fld" five.pdbqt --placement rigid --rotations 20 --site-step 2 --devices cpu
      --quiet --top-poses 3 --poses-out p.sdf --sdf-out s.sdf -o p.csv)
  expect_rc 0 "$vsgrid" "${pl[@]}"
  cp p.csv pfull.csv && cp p.sdf pfull.sdf && cp s.sdf sfull.sdf
  cut_at p.csv 0.75 && cut_at p.sdf 0.4
  expect_rc 0 "$vsgrid" "${pl[@]}" --resume
  cmp -s p.csv pfull.csv && cmp -s p.sdf pfull.sdf && cmp -s s.sdf sfull.sdf || fail "resumed placement differs"
else
  skip_part "rigid placement resume" "no ../shared/data"
fi

# The flexible Vina screen: record i docks with seed + i, so the resumed rows and poses are the
# uninterrupted run's; 2 poses a record in SDF (the last record's group is done again).
expect_rc 0 "$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring vina --around "$src/data/biotin.pdbqt" -o m \
  --device cpu --quiet
awk '{ print } /^TORSDOF/ { exit }' "$src/data/biotin.pdbqt" > one.pdbqt
awk '/HETATM    2 / { $0 = substr($0, 1, 77) "Xx" } { print } /^TORSDOF/ { exit }' one.pdbqt > bad.pdbqt
cat one.pdbqt one.pdbqt bad.pdbqt one.pdbqt > lib.pdbqt
fx=(screen m lib.pdbqt --scoring vina --placement flexible --devices cpu --search fast --seed 7 --threads 2
    --poses 2 --poses-out f.sdf -o f.csv --quiet)
expect_rc 0 "$vsgrid" "${fx[@]}"
cp f.csv ffull.csv && cp f.sdf ffull.sdf
[ "$(wc -l < ffull.csv)" = 5 ] || fail "flexible: 4 records, $(($(wc -l < ffull.csv) - 1)) rows"
cut_at f.csv 0.6 && cut_at f.sdf 0.3
expect_rc 0 "$vsgrid" "${fx[@]}" --resume
cmp -s f.csv ffull.csv || fail "resumed flexible CSV differs: $(diff f.csv ffull.csv | head -5)"
cmp -s f.sdf ffull.sdf || fail "resumed flexible poses differ"
cut_at f.csv 0.9
expect_rc 0 "$vsgrid" "${fx[@]}" --resume
cmp -s f.csv ffull.csv && cmp -s f.sdf ffull.sdf || fail "resumed flexible screen (2) differs"
before=$(sum f.csv f.sdf)
expect_rc 3 "$vsgrid" "${fx[@]/--seed/--exhaustiveness}" --resume
[ "$(sum f.csv f.sdf)" = "$before" ] || fail "a refused flexible resume changed the files"

# The Vina as-is screen (--scoring vina, CPU): 4 records, resumed from a cut row.
vs=(screen m lib.pdbqt --scoring vina -o v.csv --quiet)
expect_rc 0 "$vsgrid" "${vs[@]}"
cp v.csv vfull.csv
[ "$(wc -l < vfull.csv)" = 5 ] || fail "vina: 4 records, $(($(wc -l < vfull.csv) - 1)) rows"
cut_at v.csv 0.7
expect_rc 0 "$vsgrid" "${vs[@]}" --resume
cmp -s v.csv vfull.csv || fail "resumed Vina CSV differs: $(diff v.csv vfull.csv | head -5)"
cut_at v.csv 0.5
before=$(sum v.csv)
expect_rc 3 "$vsgrid" screen m one.pdbqt --scoring vina -o v.csv --quiet --resume
[ "$(sum v.csv)" = "$before" ] || fail "a refused Vina resume changed the file"

echo "$fails failure(s)"
[ "$fails" = 0 ]
