#!/usr/bin/env bash
# `vsgrid merge` (issue 26): the shards of a campaign joined into the files one uninterrupted
# screen writes. Real single runs on data/ are cut into shard parts by record index (each part:
# header and its rows, its poses numbered as a shard run numbers them, a hand-written PATH.done
# marker) and merged back:
#   - a Coulomb-grid screen of XIAP's 100 docked actives and of a copy whose file name holds a
#     comma, quotes and a line break (so every row of the copy carries a quoted multi-line field):
#     4 parts (one gzipped, one of two ranges apart), given in any order, as a folder, as a quoted
#     glob → the single run's CSV byte for byte (plain, .gz, standard output); the .gz the same
#     bytes whatever the parts' order and compression; --best-per-molecule → the single run's
#     `screen --best-per-molecule` CSV; --top K → the K best rows of the full CSV sorted on
#     (score, index); with --best-per-molecule the K best names of that CSV;
#   - a flexible Vina screen (1STP, biotin records, 2 poses a record) with --poses-out PDBQT and
#     SDF: the merged poses are the single run's (PDBQT MODELs renumbered), .gz in and out;
#     --poses-top K → the K best records' poses (first pose's score), best first, renumbered;
#   - refusals (exit 3, the message naming the part or the records): a missing shard, a doubled
#     one, a marker of another fingerprint, a part whose rows are not its ranges', a truncated
#     part, an unfinished shard (PATH.partial, no PATH.done: listed or not); --allow-partial
#     merges the rest and --json says how many records are missing; usage errors exit 2, an
#     output that cannot be written 1.
# Usage: cli_merge.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_merge
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"

# cut_csv FULL.csv OUT "FIRST COUNT ..." : the header and the rows of those ranges (records as RFC
# 4180 has them: a quoted field may hold line breaks); OUT ending in .gz is gzipped
cut_csv() {
  awk -v ranges="$3" 'BEGIN { n = split(ranges, r, " ") }
    { rec = rec $0 "\n"; q += gsub(/"/, "\""); if (q % 2) next
      if (!hdr) { printf "%s", rec; hdr = 1 }
      else { i = substr(rec, 1, index(rec, ",") - 1) + 0
             for (k = 1; k < n; k += 2) if (i >= r[k] && i < r[k] + r[k + 1]) { printf "%s", rec; break } }
      rec = ""; q = 0 }' "$1" | if [[ $2 == *.gz ]]; then gzip -n > "$2"; else cat > "$2"; fi
}
# cut_poses FULL OUT "FIRST COUNT ...": the poses of those records (PDBQT: MODEL blocks by REMARK
# VSGRID RECORD, renumbered from 1 as a shard writes them; SDF: records by vsgrid_record)
cut_poses() {
  awk -v ranges="$3" -v sdf="$([[ $1 == *.sdf* ]] && echo 1 || echo 0)" 'BEGIN { n = split(ranges, r, " ") }
    { blk = blk $0 "\n" }
    want { idx = $0 + 0; want = 0 }
    sdf && /^> <vsgrid_record>/ { want = 1 }
    !sdf && /^REMARK VSGRID RECORD:/ { idx = $4 + 0 }
    (sdf && /^\$\$\$\$/) || (!sdf && /^ENDMDL/) {
      keep = 0; for (k = 1; k < n; k += 2) if (idx >= r[k] && idx < r[k] + r[k + 1]) keep = 1
      if (keep) { m++; if (!sdf) sub(/^MODEL [0-9]+/, "MODEL " m, blk); printf "%s", blk }
      blk = "" }' <(if [[ $1 == *.gz ]]; then zcat "$1"; else cat "$1"; fi) |
    if [[ $2 == *.gz ]]; then gzip -n > "$2"; else cat > "$2"; fi
}
# shard NAME FULL.csv FINGERPRINT TOTAL POSES|- "FIRST COUNT ...": a finished shard part (CSV,
# poses NAME.poses.EXT when POSES is a full pose file, and the marker NAME.done)
shard() {
  local name=$1 full=$2 fp=$3 total=$4 poses=$5 ranges=$6 pname=- rows=0 f c
  cut_csv "$full" "$name" "$ranges"
  if [ "$poses" != - ]; then
    pname=$(basename "$name").poses.${poses#*.}
    cut_poses "$poses" "$(dirname "$name")/$pname" "$ranges"
  fi
  set -- $ranges
  { echo "vsgrid-shard 1"; echo "fingerprint $fp"; echo "records_total $total"
    while [ $# -gt 0 ]; do echo "range $1 $2"; rows=$((rows + $2)); shift 2; done
    echo "rows $rows"; echo "csv $(basename "$name")"; echo "poses $pname"; echo "poses_select all"; } > "$name.done"
}
# top_rows CSV K [from_end_offset]: the K best scored rows (lowest score, ties by lower index) of a
# screen CSV whose scored rows end ",SCORE,ELEC,OUTSIDE,STATUS,MESSAGE" (+ ",RECORDS": offset 1)
top_rows() {
  awk -v off="${3:-0}" '{ rec = rec $0 "\n"; q += gsub(/"/, "\""); if (q % 2) next
      if (!hdr) { hdr = 1; rec = ""; q = 0; next }
      n = split(substr(rec, 1, length(rec) - 1), f, ",")
      if (f[n - 1 - off] == "ok" || f[n - 1 - off] == "outside") {
        x = rec; gsub(/\n/, "\001", x); print f[n - 4 - off] "\t" substr(rec, 1, index(rec, ",") - 1) "\t" x }
      rec = ""; q = 0 }' "$1" | sort -t "$(printf '\t')" -k1,1g -k2,2n | head -n "$2" | cut -f3 | tr -d '\n' | tr '\001' '\n'
}

# ---- usage ----
expect_rc 0 "$vsgrid" merge --help
for o in --poses-out --best-per-molecule --top-out --poses-top --allow-partial PATH.done Memory; do
  grep -q -- "$o" out.txt || fail "merge --help does not mention $o"
done
expect_rc 2 "$vsgrid" merge -o x.csv
expect_rc 2 "$vsgrid" merge a.csv
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --top 3
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --top-out t.csv
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --top 0 --top-out t.csv
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --poses-top 3
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --poses-out p.txt
expect_rc 2 "$vsgrid" merge a.csv -o x.csv --frobnicate

# ---- a Coulomb screen of two libraries, the second's name quoted in every row ----
zcat "$src/data/xiap_actives_docked.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { if (++n == 2) exit } { print }' > first.mol2
expect_rc 0 "$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --around first.mol2 \
  --padding 6 --spacing 0.5 --device cpu -o g.vsg --quiet
odd=$'x,"y"\nz.mol2.gz'
cp "$src/data/xiap_actives_docked.mol2.gz" "$odd"
lib=("$src/data/xiap_actives_docked.mol2.gz" "$odd")
expect_rc 0 "$vsgrid" screen g.vsg "${lib[@]}" --devices cpu --quiet -o all.csv
expect_rc 0 "$vsgrid" screen g.vsg "${lib[@]}" --devices cpu --quiet -o best.csv --best-per-molecule
T=200
[ "$(grep -c '^1[0-9][0-9],' all.csv)" = 100 ] || fail "the single run has not 200 rows"
grep -q '"x,""y""$' all.csv || fail "the copy's rows do not carry a quoted multi-line source field"
mkdir sh
shard sh/s0.csv all.csv 0a1b2c "$T" - "0 37"
shard sh/s1.csv all.csv 0a1b2c "$T" - "37 53 171 29"      # two ranges apart
shard sh/s2.csv.gz all.csv 0a1b2c "$T" - "90 40"           # gzipped, across the two libraries
shard sh/s3.csv all.csv 0a1b2c "$T" - "130 41"
parts=(sh/s2.csv.gz sh/s3.csv sh/s0.csv sh/s1.csv)
expect_rc 0 "$vsgrid" merge "${parts[@]}" -o m.csv --json m.json
cmp -s m.csv all.csv || fail "merge: not the single run's CSV: $(diff m.csv all.csv | head -5)"
grep -q "merge: 4 parts, 200 rows" err.txt || fail "summary line: $(cat err.txt)"
grep -q "rows/s" err.txt || fail "summary line has no rate: $(cat err.txt)"
[ "$(json_val m.json rows)" = 200 ] && [ "$(json_val m.json missing)" = 0 ] || fail "--json: $(cat m.json)"
expect_rc 0 "$vsgrid" merge sh -o m_dir.csv --quiet                       # a folder
cmp -s m_dir.csv all.csv || fail "merge FOLDER: not the single run's CSV"
[ -s err.txt ] && fail "--quiet printed: $(cat err.txt)"
touch sh/s0.csv.resume sh/s3.csv.resume                                   # as screens leave them
expect_rc 0 "$vsgrid" merge 'sh/*' -o m_glob.csv --quiet                  # a quoted glob (markers met too)
cmp -s m_glob.csv all.csv || fail "merge 'sh/*': not the single run's CSV"
expect_rc 0 "$vsgrid" merge sh/s1.csv.done sh/s0.csv sh/s3.csv sh/s2.csv.gz.done -o - --quiet   # markers named; stdout
cmp -s out.txt all.csv || fail "merge -o -: not the single run's CSV"
# gzip out: the same text; the same bytes from gzipped or plain parts in any order
expect_rc 0 "$vsgrid" merge "${parts[@]}" -o m.csv.gz --quiet
zcat m.csv.gz | cmp -s - all.csv || fail "merge -o .gz: not the single run's CSV"
gzip -t m.csv.gz || fail "m.csv.gz is not a valid gzip file"
mkdir sh2 && cp sh/s0.csv sh/s0.csv.done sh/s1.csv sh/s1.csv.done sh2/
gzip -n -c sh/s3.csv > sh2/s3.csv.gz && sed 's/^csv s3.csv$/csv s3.csv.gz/' sh/s3.csv.done > sh2/s3.csv.gz.done
zcat sh/s2.csv.gz > sh2/s2.csv && sed 's/^csv s2.csv.gz$/csv s2.csv/' sh/s2.csv.gz.done > sh2/s2.csv.done
expect_rc 0 "$vsgrid" merge sh2/s3.csv.gz sh2/s1.csv sh2/s2.csv sh2/s0.csv -o m2.csv.gz --quiet
cmp -s m.csv.gz m2.csv.gz || fail "merge -o .gz: other bytes from other parts' order and compression"
ls m*.merging* > /dev/null 2>&1 && fail "a .merging file was left: $(ls m*.merging*)"
# best per molecule, top K
expect_rc 0 "$vsgrid" merge "${parts[@]}" -o mb.csv --best-per-molecule --quiet
cmp -s mb.csv best.csv || fail "--best-per-molecule: not screen --best-per-molecule's CSV: $(diff mb.csv best.csv | head -4)"
expect_rc 0 "$vsgrid" merge "${parts[@]}" -o m.csv --top 12 --top-out top.csv --quiet
{ head -1 all.csv; top_rows all.csv 12; } > want_top.csv
[ "$(wc -l < top.csv)" -ge 13 ] || fail "--top 12: $(wc -l < top.csv) lines"
cmp -s top.csv want_top.csv || fail "--top 12: not the full CSV's 12 best: $(diff top.csv want_top.csv | head -6)"
expect_rc 0 "$vsgrid" merge "${parts[@]}" -o mb.csv --best-per-molecule --top 7 --top-out topn.csv --quiet
{ head -1 best.csv; top_rows best.csv 7 1; } > want_topn.csv
cmp -s topn.csv want_topn.csv || fail "--best-per-molecule --top 7: not the 7 best names: $(diff topn.csv want_topn.csv | head -6)"
[ "$(cut -d, -f2 want_topn.csv | sort | uniq -d)" = "" ] || fail "the 7 best names repeat a name"

# ---- refusals (exit 3), --allow-partial ----
expect_rc 3 "$vsgrid" merge sh/s0.csv sh/s2.csv.gz sh/s3.csv -o bad.csv
grep -q "records 37 to 89 (53)" err.txt || fail "a missing shard: $(cat err.txt)"
[ -e bad.csv ] && fail "a refused merge left bad.csv"
expect_rc 3 "$vsgrid" merge "${parts[@]}" sh/s3.csv -o bad.csv
grep -q "two shards: .*s3.csv and .*s3.csv" err.txt || fail "a doubled shard: $(cat err.txt)"
cp sh/s3.csv s3b.csv && sed 's/^fingerprint .*/fingerprint ffff/; s/^csv .*/csv s3b.csv/' sh/s3.csv.done > s3b.csv.done
expect_rc 3 "$vsgrid" merge sh/s0.csv sh/s1.csv sh/s2.csv.gz s3b.csv -o bad.csv
grep -q "s3b.csv.done: fingerprint ffff" err.txt || fail "another fingerprint: $(cat err.txt)"
shard s3c.csv all.csv 0a1b2c "$T" - "131 40"                # rows 131..170 under a marker of 130..170
sed -i 's/^range 131 40$/range 130 41/; s/^rows 40$/rows 41/' s3c.csv.done
expect_rc 3 "$vsgrid" merge sh/s0.csv sh/s1.csv sh/s2.csv.gz s3c.csv -o bad.csv
grep -q "s3c.csv: row 1 has index 131" err.txt || fail "rows not of the ranges: $(cat err.txt)"
head -c $(($(wc -c < sh/s3.csv) / 2)) sh/s3.csv > s3t.csv && sed 's/^csv .*/csv s3t.csv/' sh/s3.csv.done > s3t.csv.done
expect_rc 3 "$vsgrid" merge sh/s0.csv sh/s1.csv sh/s2.csv.gz s3t.csv -o bad.csv
grep -q "s3t.csv: ends.*truncated\|s3t.csv: ends inside a row" err.txt || fail "a truncated part: $(cat err.txt)"
[ -e bad.csv ] && fail "a refused merge left bad.csv"
mkdir un && cp sh/s0.csv sh/s0.csv.done sh/s1.csv sh/s1.csv.done sh/s2.csv.gz sh/s2.csv.gz.done un/
head -c $(($(wc -c < sh/s3.csv) / 2)) sh/s3.csv > un/s3.csv.partial                  # the task still running (or killed)
expect_rc 3 "$vsgrid" merge un -o bad.csv
grep -q "records 130 to 170 (41).*unfinished: un/s3.csv.partial (its rows start at 130)" err.txt ||
  fail "an unfinished shard (not listed): $(cat err.txt)"
expect_rc 3 "$vsgrid" merge un/s0.csv un/s1.csv un/s2.csv.gz un/s3.csv -o bad.csv
grep -q "un/s3.csv: unfinished shard" err.txt || fail "an unfinished shard (listed): $(cat err.txt)"
expect_rc 0 "$vsgrid" merge un -o part.csv --allow-partial --json part.json
[ "$(json_val part.json missing)" = 41 ] && [ "$(json_val part.json rows)" = 159 ] || fail "--allow-partial --json: $(cat part.json)"
grep -q "warning: records 130 to 170 (41)" err.txt || fail "--allow-partial does not say what is missing: $(cat err.txt)"
cut_csv all.csv want_part.csv "0 130 171 29"
cmp -s part.csv want_part.csv || fail "--allow-partial: not the finished shards' rows"
# outputs that cannot be written: 1
expect_rc 1 "$vsgrid" merge "${parts[@]}" -o no/such/dir/m.csv
if [ -w /dev/full ]; then
  expect_rc 1 "$vsgrid" merge "${parts[@]}" -o /dev/full
  grep -q "cannot write /dev/full" err.txt || fail "-o /dev/full: $(cat err.txt)"
else
  skip_part "a full disk (exit 1)" "no writable /dev/full"
fi

# ---- a flexible Vina screen with poses (PDBQT, SDF) ----
rec=$src/data/1stp_receptor.pdbqt blig=$src/data/biotin.pdbqt
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$blig" -o m --device cpu --quiet
for i in 1 2 3 4 5; do awk '{ print } /^TORSDOF/ { exit }' "$blig"; done > lib.pdbqt
awk '/HETATM    2 / { $0 = substr($0, 1, 77) "Xx" } { print } /^TORSDOF/ { exit }' "$blig" >> lib.pdbqt   # untyped: no pose
awk '{ print } /^TORSDOF/ { exit }' "$blig" >> lib.pdbqt
flex=(screen m lib.pdbqt --scoring vina --placement flexible --seed 5 --exhaustiveness 2 --steps 3000 --devices cpu --poses 2 --quiet)
expect_rc 0 "$vsgrid" "${flex[@]}" --poses-out fx.pdbqt -o fx.csv
expect_rc 0 "$vsgrid" "${flex[@]}" --poses-out fx.sdf -o fxs.csv
cmp -s fx.csv fxs.csv || fail "the flexible screen's rows differ between its PDBQT and SDF runs"
[ "$(grep -c '^MODEL' fx.pdbqt)" -gt 6 ] || fail "the flexible screen wrote $(grep -c '^MODEL' fx.pdbqt) poses"
mkdir fp
shard fp/f0.csv fx.csv 5eed 7 fx.pdbqt "0 2"
shard fp/f1.csv fx.csv 5eed 7 fx.pdbqt "2 3"
shard fp/f2.csv fx.csv 5eed 7 fx.pdbqt "5 2"
[ "$(grep -c '^MODEL 1$' fp/f1.csv.poses.pdbqt)" = 1 ] || fail "the shard's poses are not numbered from 1"
expect_rc 0 "$vsgrid" merge fp/f2.csv fp/f0.csv fp/f1.csv -o fm.csv --poses-out fm.pdbqt
cmp -s fm.csv fx.csv || fail "flexible: not the single run's CSV"
cmp -s fm.pdbqt fx.pdbqt || fail "flexible: not the single run's PDBQT poses: $(diff fm.pdbqt fx.pdbqt | head -4)"
grep -q ", $(grep -c '^MODEL' fx.pdbqt) poses" err.txt || fail "summary: $(cat err.txt)"
expect_rc 0 "$vsgrid" merge 'fp/*' -o fm.csv --poses-out fm.pdbqt.gz --quiet   # the glob meets pose files too
zcat fm.pdbqt.gz | cmp -s - fx.pdbqt || fail "flexible: --poses-out .gz is not the single run's poses"
# --poses-top 3: the 3 best records by their first pose's score, best first, MODELs from 1
awk '{ b = b $0 "\001" } /^REMARK VINA RESULT:/ && s == "" { s = $4 } /^REMARK VSGRID RECORD:/ { i = $4 }
     /^ENDMDL/ { if (i != cur) { if (g != "") print gs "\t" cur "\t" g; g = ""; cur = i; gs = s } g = g b; b = ""; s = "" }
     END { if (g != "") print gs "\t" cur "\t" g }' fx.pdbqt | sort -t "$(printf '\t')" -k1,1g -k2,2n | head -3 |
  cut -f3 | tr -d '\n' | tr '\001' '\n' | awk '/^MODEL/ { print "MODEL " ++m; next } { print }' > want_top.pdbqt
expect_rc 0 "$vsgrid" merge fp -o fm.csv --poses-out top.pdbqt --poses-top 3 --quiet
cmp -s top.pdbqt want_top.pdbqt || fail "--poses-top 3: $(diff top.pdbqt want_top.pdbqt | head -6)"
[ "$(grep -c '^REMARK VSGRID RECORD' top.pdbqt)" -ge 3 ] || fail "--poses-top 3: $(grep -c '^MODEL' top.pdbqt) poses"
# SDF, its shards' poses gzipped
mkdir fs
shard fs/f0.csv fx.csv 5eed 7 fx.sdf "0 3"
shard fs/f1.csv.gz fx.csv 5eed 7 fx.sdf "3 4"
gzip -n fs/f0.csv.poses.sdf && sed -i 's/^poses .*/poses f0.csv.poses.sdf.gz/' fs/f0.csv.done
expect_rc 0 "$vsgrid" merge fs -o fsm.csv --poses-out fsm.sdf --quiet
cmp -s fsm.csv fx.csv || fail "flexible SDF: not the single run's CSV"
cmp -s fsm.sdf fx.sdf || fail "flexible SDF: not the single run's poses: $(diff fsm.sdf fx.sdf | head -4)"
expect_rc 2 "$vsgrid" merge fs -o fsm.csv --poses-out fsm.pdbqt       # the parts' poses are SDF
expect_rc 3 "$vsgrid" merge sh -o x.csv --poses-out x.sdf             # parts without poses
grep -q "poses -" err.txt || fail "parts without poses: $(cat err.txt)"
head -c 2000 fp/f1.csv.poses.pdbqt > cut.pdbqt && mv cut.pdbqt fp/f1.csv.poses.pdbqt
expect_rc 3 "$vsgrid" merge fp -o fm.csv --poses-out fm.pdbqt
grep -q "f1.csv.poses.pdbqt" err.txt || fail "a cut pose file: $(cat err.txt)"

echo "$fails failure(s)"
[ "$fails" = 0 ]
