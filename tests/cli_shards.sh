#!/usr/bin/env bash
# A campaign cut into shards (issue 26): `vsgrid screen ... --shard K/N` of every screen kind
# (flexible docking, Vina pose scores, as-is electrostatics, rigid placement) writes the rows of
# its slice of the libraries, in files that `vsgrid merge` joins into exactly the single run's
# (CSV, poses; gzip), with nothing lost or doubled whatever happens to a task:
#  - shards with and without library indexes (vsgrid index), bad records in whichever shard they
#    land, --records A:B equal to the single run's rows A..B-1;
#  - a task killed at any point (simulated exactly: its files cut mid-row and mid-record, the
#    marker gone; and a real SIGKILL) goes on from its .partial files when run again; a finished
#    task exits 0 at once and changes nothing; another screen's files under the same name are
#    refused (exit 3);
#  - merge refuses a missing, unfinished or foreign shard (exit 3), keeps a global top K.
# Usage: cli_shards.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_shards
. "$(dirname "$0")/lib_cli.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

"$vsgrid" maps "$src/data/inha/receptor.pdbqt" --scoring vina --around "$src/data/inha/crystal_ligand.mol2" -o inha \
  --quiet 2>err.txt || { echo "FAIL: no Vina maps: $(head -c 400 err.txt)"; exit 1; }
zcat "$src/data/inha/library.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { n++ } n <= 9' >a.mol2
# bad records between good ones: a broken atom line, an empty model
b=$src/data/biotin.pdbqt
{ echo "MODEL 1"; grep -E "^(ATOM|HETATM)" "$b" | sed '3s/^\(.\{30\}\).\{8\}/\1   abcde/'; echo ENDMDL;
  echo "MODEL 2"; echo ENDMDL; } >bad.pdbqt
zcat "$src/data/inha/library.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { n++ } n > 20 && n <= 25' | gzip >b.mol2.gz
libs=(a.mol2 bad.pdbqt b.mol2.gz)
flex=(screen inha "${libs[@]}" --scoring vina --placement flexible --search fast --exhaustiveness 6 --devices cpu --quiet)

# --- the single run
expect_rc 0 "$vsgrid" "${flex[@]}" -o one.csv --poses-out one.sdf
total=$(($(wc -l < one.csv) - 1))
[ "$total" = 16 ] || fail "single run: $total rows, expected 16 (9 + 2 + 5 records)"

# --- shards without an index, then with one; their CSVs (headers once) and poses concatenated are the single run's
run_shards() { # N prefix extra-args...
  local n=$1 p=$2; shift 2
  for k in $(seq 0 $((n - 1))); do
    expect_rc 0 "$vsgrid" "${flex[@]}" --shard $k/$n -o $p$k.csv --poses-out $p$k.sdf "$@"
    [ -f $p$k.csv.done ] || fail "shard $k/$n: no marker $p$k.csv.done"
    ls $p$k.*partial* >/dev/null 2>&1 && fail "shard $k/$n: partial files left"
  done
}
concat() { # N prefix -> joined.csv joined.sdf
  local n=$1 p=$2
  head -1 ${p}0.csv >joined.csv
  for k in $(seq 0 $((n - 1))); do tail -n +2 $p$k.csv >>joined.csv; done
  : >joined.sdf
  for k in $(seq 0 $((n - 1))); do cat $p$k.sdf >>joined.sdf; done
}
run_shards 4 s
concat 4 s
cmp -s joined.csv one.csv || fail "4 shards (no index): CSV differs from the single run: $(diff joined.csv one.csv | head -4)"
cmp -s joined.sdf one.sdf || fail "4 shards (no index): poses differ from the single run"
grep -q "^range 4 4$" s1.csv.done || fail "shard 1/4's marker: $(cat s1.csv.done)"
expect_rc 0 "$vsgrid" index a.mol2 bad.pdbqt b.mol2.gz --every 2 --quiet
[ -f b.mol2.gz.vsgidx ] || fail "vsgrid index wrote no b.mol2.gz.vsgidx"
run_shards 3 x
concat 3 x
cmp -s joined.csv one.csv || fail "3 shards (indexed): CSV differs from the single run: $(diff joined.csv one.csv | head -4)"
cmp -s joined.sdf one.sdf || fail "3 shards (indexed): poses differ from the single run"
grep -q "no index" err.txt && fail "indexed shards still warn of a missing index"
# --records A:B: the single run's rows A..B-1
expect_rc 0 "$vsgrid" "${flex[@]}" --records 7:12 -o r.csv
[ "$(tail -n +2 r.csv)" = "$(sed -n '9,13p' one.csv)" ] || fail "--records 7:12 are not the single run's rows 7..11"

# --- killed tasks: shard 1 of 3's files cut mid-row and mid-record, its marker gone; run again: the same files
cp x1.csv x1.full.csv && cp x1.sdf x1.full.sdf
rm x1.csv.done && mv x1.csv x1.csv.partial && mv x1.sdf x1.sdf.partial
truncate -s $(($(head -3 x1.csv.partial | wc -c) + 17)) x1.csv.partial # header, two rows and a cut third
truncate -s $(($(stat -c %s x1.sdf.partial) / 3)) x1.sdf.partial
expect_rc 0 "$vsgrid" "${flex[@]}" --shard 1/3 -o x1.csv --poses-out x1.sdf
cmp -s x1.csv x1.full.csv && cmp -s x1.sdf x1.full.sdf || fail "a cut shard run again: its files differ from the uninterrupted shard's"
[ -f x1.csv.done ] || fail "a resumed shard wrote no marker"
# ... and a real SIGKILL at some point of the run (any point: the rerun must end the same)
rm -f x2.csv x2.csv.done x2.sdf
VSG_FLEX_CHUNK=1 "$vsgrid" "${flex[@]}" --shard 2/3 -o x2.csv --poses-out x2.sdf &
pid=$!
sleep 1.5
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
expect_rc 0 "$vsgrid" "${flex[@]}" --shard 2/3 -o x2.csv --poses-out x2.sdf
concat 3 x
cmp -s joined.csv one.csv && cmp -s joined.sdf one.sdf || fail "a shard killed (SIGKILL) and run again: the joined files differ from the single run"
# a finished shard run again: exit 0 at once, nothing changed
before=$(cksum x0.csv x0.sdf x0.csv.done)
expect_rc 0 "$vsgrid" "${flex[@]}" --shard 0/3 -o x0.csv --poses-out x0.sdf
grep -q "done already" err.txt || fail "a finished shard run again does not say so: $(cat err.txt)"
[ "$(cksum x0.csv x0.sdf x0.csv.done)" = "$before" ] || fail "a finished shard run again changed its files"
# another screen's shard under the same name: refused, nothing changed
expect_rc 3 "$vsgrid" "${flex[@]}" --seed 7 --shard 0/3 -o x0.csv --poses-out x0.sdf
grep -q "another screen" err.txt || fail "a foreign shard marker: no explanation: $(cat err.txt)"
[ "$(cksum x0.csv x0.sdf x0.csv.done)" = "$before" ] || fail "a refused shard changed the files"
# usage errors
expect_rc 2 "$vsgrid" "${flex[@]}" --shard 3/3 -o z.csv
expect_rc 2 "$vsgrid" "${flex[@]}" --shard 0/3 -o -
expect_rc 2 "$vsgrid" "${flex[@]}" --shard 0/3 --records 0:2 -o z.csv
expect_rc 2 "$vsgrid" "${flex[@]}" --records 5:2 -o z.csv

# --- gzip outputs: the shard's CSV and poses written through gzip once complete
expect_rc 0 "$vsgrid" "${flex[@]}" --shard 1/3 -o g1.csv.gz --poses-out g1.sdf.gz
zcat g1.csv.gz | cmp -s - x1.full.csv && zcat g1.sdf.gz | cmp -s - x1.full.sdf || fail "gzipped shard outputs differ from the plain ones"

# --- merge: the single run's files from the shards, in any order; refusals; a global top K
if "$vsgrid" merge --help >/dev/null 2>&1; then
  expect_rc 0 "$vsgrid" merge x2.csv x0.csv x1.csv -o m.csv --poses-out m.sdf
  cmp -s m.csv one.csv && cmp -s m.sdf one.sdf || fail "merge of 3 shards: not the single run's files"
  expect_rc 0 "$vsgrid" merge s0.csv s1.csv s2.csv s3.csv -o m.csv.gz --poses-out m.sdf
  zcat m.csv.gz | cmp -s - one.csv || fail "merge into a .gz: not the single run's CSV"
  expect_rc 3 "$vsgrid" merge x0.csv x2.csv -o m2.csv      # shard 1 missing
  grep -q "1" err.txt || fail "merge with a shard missing: no message"
  expect_rc 3 "$vsgrid" merge x0.csv x1.csv x1.csv x2.csv -o m2.csv # shard 1 twice
  expect_rc 3 "$vsgrid" merge s0.csv x1.csv x2.csv -o m2.csv       # another cut of the library
  expect_rc 0 "$vsgrid" merge x0.csv x1.csv x2.csv -o m3.csv --top 5 --top-out top.csv
  want=$(tail -n +2 one.csv | awk -F, '$14 == "ok" || $14 == "outside"' | sort -t, -k6,6g -k1,1n | head -5 | cut -d, -f1)
  got=$(tail -n +2 top.csv | cut -d, -f1)
  [ "$(echo $got)" = "$(echo $want)" ] || fail "merge --top 5: indices $(echo $got), expected $(echo $want)"
  # --best-per-molecule of a flexible screen (the rows grouped by name as they stream) = merge's of its shards
  expect_rc 0 "$vsgrid" "${flex[@]}" --best-per-molecule -o bpm.csv
  expect_rc 0 "$vsgrid" merge x0.csv x1.csv x2.csv --best-per-molecule -o bpm.m.csv
  cmp -s bpm.csv bpm.m.csv || fail "flexible --best-per-molecule differs from merge --best-per-molecule: $(diff bpm.csv bpm.m.csv | head -4)"
  [ "$(($(wc -l < bpm.csv) - 1))" -lt "$total" ] && head -1 bpm.csv | grep -q ",records$" ||
    fail "flexible --best-per-molecule: $(($(wc -l < bpm.csv) - 1)) rows for $total records, header $(head -1 bpm.csv)"
else
  fail "vsgrid merge --help failed"
fi
# --resume of a screen stopped before its header reached the disk (an empty CSV): it starts from the first record
: >e.csv
expect_rc 0 "$vsgrid" "${flex[@]}" --resume -o e.csv --poses-out e.sdf
cmp -s e.csv one.csv && cmp -s e.sdf one.sdf || fail "--resume of an empty CSV: not the single run's files"

# --- the other kinds: Vina pose scores, as-is electrostatics, rigid placement; shards joined = the single run
kind_case() { # name shards screen-args...
  local name=$1 n=$2; shift 2
  expect_rc 0 "$vsgrid" screen "$@" -o $name.csv --quiet
  for k in $(seq 0 $((n - 1))); do expect_rc 0 "$vsgrid" screen "$@" --shard $k/$n -o $name.$k.csv --quiet; done
  { head -1 $name.0.csv; for k in $(seq 0 $((n - 1))); do tail -n +2 $name.$k.csv; done; } | cmp -s - $name.csv ||
    fail "$name: $n shards joined differ from the single run"
}
"$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --spacing 0.6 --fill 0.9 --device cpu \
  -o g.vsg --quiet 2>err.txt || fail "no grid: $(head -c 300 err.txt)"
kind_case vina 3 inha one.sdf bad.pdbqt --scoring vina
# Vina pose scores --best-per-molecule (the docked poses: several a name) = merge's of their shards
expect_rc 0 "$vsgrid" screen inha one.sdf bad.pdbqt --scoring vina --best-per-molecule -o vbpm.csv --quiet
expect_rc 0 "$vsgrid" merge vina.0.csv vina.1.csv vina.2.csv --best-per-molecule -o vbpm.m.csv
cmp -s vbpm.csv vbpm.m.csv || fail "Vina --best-per-molecule differs from merge --best-per-molecule: $(diff vbpm.csv vbpm.m.csv | head -4)"
kind_case elec 4 g.vsg "$src/data/xiap_actives_docked.mol2.gz" bad.pdbqt --devices cpu
"$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring ad4 --around "$b" --device cpu -o m --quiet 2>err.txt ||
  fail "no AD4 map set: $(head -c 300 err.txt)"
kind_case rigid 2 m.maps.fld "$b" bad.pdbqt "$b" --placement rigid --rotations 8 --site-step 4 --devices cpu

echo "cli_shards: $fails failed"
[ "$fails" = 0 ]
