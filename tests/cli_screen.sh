#!/usr/bin/env bash
# `vsgrid screen` and `vsgrid bench` end to end on the CPU twin: one row per input record in
# input order whatever is wrong with it, the CSV columns, scores equal to `vsgrid probe`,
# SDF output (all, and the best N), several files and standard input, exit codes.
# Usage: cli_screen.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_screen
shared=${VSG_SHARED_DATA:-$src/../shared/data}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rows() { tail -n +2 "$1" | wc -l | tr -d ' '; }     # data rows of a CSV
col() { awk -F, -v c="$2" 'NR > 1 { print $c }' "$1"; } # column c (fields without commas)

# Help.
expect_rc 0 "$vsgrid" screen --help
for opt in -o --sdf-out --top --kernel --precision --charges --devices --max-gpu-memory --json --format --tolerance; do
  grep -q -- "$opt" out.txt || fail "screen --help does not document $opt"
done
expect_rc 0 "$vsgrid" bench --help
grep -q "usage: vsgrid bench" out.txt || fail "bench --help has no usage line"

# A Coulomb grid (kcal/mol/e) around biotin in streptavidin: the ELEC score is Σ q φ.
expect_rc 0 "$vsgrid" grid "$src/data/1stp_receptor.pdbqt" --method coulomb --dielectric 4r \
  --around "$src/data/biotin.pdbqt" --padding 6 --spacing 0.4 --device cpu -o g.vsg --quiet
[ -s g.vsg ] || { fail "no grid"; echo "$fails failure(s)"; exit 1; }

# Usage errors → 2, unreadable grid → 3.
expect_rc 2 "$vsgrid" screen
expect_rc 2 "$vsgrid" screen g.vsg
expect_rc 2 "$vsgrid" screen g.vsg "$src/data/biotin.pdbqt"              # no -o
expect_rc 2 "$vsgrid" screen g.vsg "$src/data/biotin.pdbqt" -o r.csv --kernel warp
expect_rc 2 "$vsgrid" screen g.vsg "$src/data/biotin.pdbqt" -o r.csv --top 3  # --top needs --sdf-out
expect_rc 2 "$vsgrid" screen g.vsg - -o r.csv                              # stdin needs --format
expect_rc 3 "$vsgrid" screen missing.vsg "$src/data/biotin.pdbqt" -o r.csv

# One PDBQT pose: header, one ok row, and the score equals probe's Σ q φ.
expect_rc 0 "$vsgrid" screen g.vsg "$src/data/biotin.pdbqt" -o r.csv --devices cpu --json r.json --quiet
head -1 r.csv | grep -qx "index,name,source,record,atoms,score_kcal_mol,elec_kcal_mol,atoms_outside,status,message" ||
  fail "CSV header: $(head -1 r.csv)"
[ "$(rows r.csv)" = 1 ] || fail "one record, $(rows r.csv) rows"
[ "$(col r.csv 9)" = ok ] || fail "biotin status: $(col r.csv 9)"
score=$(col r.csv 6)
"$vsgrid" probe g.vsg "$src/data/biotin.pdbqt" --quiet >probe.txt 2>&1
want=$(grep -oE "= *-?[0-9.]+ kcal/mol" probe.txt | grep -oE -- "-?[0-9.]+" | head -1)
[ -n "$want" ] || want=$(grep -oE -- "-?[0-9]+\.[0-9]+" probe.txt | head -1)
awk -v a="$score" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-3 + 1e-4 * (b < 0 ? -b : b)) }' ||
  fail "screen score $score vs probe $want ($(cat probe.txt))"
for key in records scored failed kernel device parse_seconds score_seconds molecules_per_second; do
  grep -q "\"$key\"" r.json || fail "screen --json lacks $key"
done

# A library with bad records in the middle: one row each, in input order, run completes (0).
b=$src/data/biotin.pdbqt
{
  echo "MODEL 1"; grep -E "^(ATOM|HETATM)" "$b"; echo "ENDMDL"
  echo "MODEL 2"; grep -E "^(ATOM|HETATM)" "$b" | sed '3s/^\(.\{30\}\).\{8\}/\1   abcde/'; echo "ENDMDL"
  echo "MODEL 3"; echo "ENDMDL"
  echo "MODEL 4"; grep -E "^(ATOM|HETATM)" "$b" | awk '{ print substr($0, 1, 70) " 0.000" substr($0, 77) }'; echo "ENDMDL"
  echo "MODEL 5"; grep -E "^(ATOM|HETATM)" "$b"; echo "ENDMDL"
} >poses.pdbqt
expect_rc 0 "$vsgrid" screen g.vsg poses.pdbqt -o p.csv --devices cpu --quiet
[ "$(rows p.csv)" = 5 ] || fail "5 models, $(rows p.csv) rows: $(cat p.csv)"
[ "$(col p.csv 1 | tr '\n' ' ')" = "0 1 2 3 4 " ] || fail "rows not in input order: $(col p.csv 1 | tr '\n' ' ')"
st=$(col p.csv 9 | tr '\n' ' ')
[ "$st" = "ok parse no_atoms zero_charges ok " ] || fail "statuses: '$st' (want 'ok parse no_atoms zero_charges ok ')"
grep -q "poses.pdbqt:" p.csv || fail "the parse error does not name the file"
[ "$(col p.csv 6 | sed -n 1p)" = "$(col p.csv 6 | sed -n 5p)" ] || fail "same pose, different scores"

# Several files, a truncated gzip, standard input.
cp poses.pdbqt whole.pdbqt && gzip -c whole.pdbqt >whole.pdbqt.gz
head -c 300 whole.pdbqt.gz >cut.pdbqt.gz
# (a record with status io is exit 3, the rows still written: issue 20)
expect_rc 3 "$vsgrid" screen g.vsg whole.pdbqt.gz cut.pdbqt.gz "$b" -o m.csv --devices cpu --quiet
grep -q "status io" err.txt || fail "truncated gzip: no final line: $(cat err.txt)"
n=$(rows m.csv)
[ "$n" -ge 7 ] || fail "three files: $n rows"
grep -q ",io," m.csv || fail "truncated gzip gives no io row: $(cat m.csv)"
[ "$(tail -1 m.csv | cut -d, -f9)" = ok ] || fail "the file after the truncated one was not read"
expect_rc 0 "$vsgrid" screen g.vsg - -o s.csv --format pdbqt --devices cpu --quiet <poses.pdbqt
[ "$(rows s.csv)" = 5 ] || fail "stdin: $(rows s.csv) rows"
expect_rc 0 "$vsgrid" screen g.vsg poses.pdbqt -o - --devices cpu --quiet
[ "$(tail -n +2 out.txt | wc -l | tr -d ' ')" = 5 ] || fail "-o - wrote $(wc -l <out.txt) lines"

# SDF output: every scored molecule, then the best 1 with a rank.
expect_rc 0 "$vsgrid" screen g.vsg poses.pdbqt -o a.csv --sdf-out all.sdf --devices cpu --quiet
[ "$(grep -c '^\$\$\$\$' all.sdf)" = 2 ] || fail "all.sdf holds $(grep -c '^\$\$\$\$' all.sdf) molecules, want 2"
grep -q "<vsgrid_score_kcal_mol>" all.sdf || fail "no score tag in all.sdf"
grep -q "V2000" all.sdf || fail "PDBQT input not written as a V2000 molfile"

# Real libraries (skipped without ../shared): SDF poses and gzipped MOL2, one row per record.
# They are not in the streptavidin grid's pocket: every record outside, exit 8 (issue 20).
if [ -d "$shared" ]; then
  sdf=$shared/dude_xiap_docked/actives_docked.sdf
  want=$(grep -c '^\$\$\$\$' "$sdf")
  expect_rc 8 "$vsgrid" screen g.vsg "$sdf" -o x.csv --devices cpu --quiet --sdf-out top.sdf --top 5
  [ "$(rows x.csv)" = "$want" ] || fail "xiap: $(rows x.csv) rows for $want records"
  if have_openbabel "$vsgrid"; then # the SDF has no charges: Gasteiger's, or no score at all
    [ "$(grep -c '^\$\$\$\$' top.sdf)" = 5 ] || fail "--top 5 wrote $(grep -c '^\$\$\$\$' top.sdf)"
    grep -A1 "<vsgrid_rank>" top.sdf | grep -qx 1 || fail "no rank 1 in top.sdf"
    # the best first: scores ascending
    grep -A1 "<vsgrid_score_kcal_mol>" top.sdf | grep -vE "^(>|--)" | sort -g -c || fail "top.sdf not sorted by score"
  else
    skip_part "--top 5 of an SDF library without charges, bench on it" "vsgrid built without Open Babel"
  fi
  mol2=$shared/dude/inha/actives_final.mol2.gz
  want=$(gzip -dc "$mol2" | grep -c "@<TRIPOS>MOLECULE")
  expect_rc 8 "$vsgrid" screen g.vsg "$mol2" -o i.csv --devices cpu --quiet
  [ "$(rows i.csv)" = "$want" ] || fail "inha actives: $(rows i.csv) rows for $want records"
  if have_openbabel "$vsgrid"; then
    expect_rc 0 "$vsgrid" bench g.vsg "$sdf" --repeat 1
    grep -qE "^cpu +double" out.txt || fail "bench prints no CPU row: $(cat out.txt)"
  fi
  # AD4 on an AutoGrid map set: the three terms, and the crystal ligand scores (inside the box).
  fld=$shared/autodock_gpu/1stp/1stp_protein.maps.fld
  expect_rc 0 "$vsgrid" screen "$fld" "$shared/autodock_gpu/1stp/1stp_ligand.pdbqt" -o ad.csv --devices cpu --quiet
  head -1 ad.csv | grep -q "vdw_hb_kcal_mol,elec_kcal_mol,desolv_kcal_mol" || fail "AD4 header: $(head -1 ad.csv)"
  [ "$(cut -d, -f11 ad.csv | tail -1)" = ok ] || fail "AD4 crystal pose: $(tail -1 ad.csv)"
else
  skip_part "the real-library part" "no shared data at $shared; set VSG_SHARED_DATA"
fi

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "cli_screen: all checks passed"
