#!/usr/bin/env bash
# `vsgrid index LIBRARY... [--every N] [--format F] [-o INDEX]`: library indexes for shards
# (issue 26). --help and usage errors (2); data/inha/library.mol2.gz (124 records, counted
# here with grep) and its inflated copy: LIBRARY.vsgidx beside each with the count, the size,
# the compression, the format and an entry every N records at the byte where a record starts
# (checked against the file with dd); -o for one library; --format; --json; an unreadable
# library among good ones (exit 3, the others indexed); an index that cannot be written (1);
# the entries of a PDBQT pose file keep the name given outside its MODELs.
# Usage: cli_index.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_index
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
lib_gz=$work/library.mol2.gz
cp "$src/data/inha/library.mol2.gz" "$lib_gz"
gzip -dc "$lib_gz" > library.mol2
n=$(grep -c '^@<TRIPOS>MOLECULE' library.mol2)
[ "$n" = 124 ] || fail "data/inha/library.mol2.gz has $n molecules, expected 124"

expect_rc 0 "$vsgrid" index --help
grep -q "usage: vsgrid index LIBRARY" out.txt || fail "index --help has no usage line"
for opt in --every --format -o --json --quiet "Exit codes"; do
  grep -q -- "$opt" out.txt || fail "index --help does not document $opt"
done
expect_rc 2 "$vsgrid" index
expect_rc 2 "$vsgrid" index library.mol2 --every 0
expect_rc 2 "$vsgrid" index library.mol2 --every x
expect_rc 2 "$vsgrid" index library.mol2 --every
expect_rc 2 "$vsgrid" index library.mol2 --format xyz
expect_rc 2 "$vsgrid" index library.mol2 --frobnicate
expect_rc 2 "$vsgrid" index -
expect_rc 2 "$vsgrid" index library.mol2 "$lib_gz" -o both.vsgidx
[ -e both.vsgidx ] && fail "-o with two libraries wrote an index"
echo "not a molecule" > unknown.xyz
expect_rc 2 "$vsgrid" index unknown.xyz

# key VALUE of an index file
key() { sed -n "s/^$2 //p" "$1" | head -1; }

expect_rc 0 "$vsgrid" index library.mol2 "$lib_gz" --every 10
for f in library.mol2 "$lib_gz"; do
  ix=$f.vsgidx
  [ -s "$ix" ] || { fail "no $ix"; continue; }
  [ "$(head -1 "$ix")" = "vsgrid-index 1" ] || fail "$ix: first line $(head -1 "$ix")"
  [ "$(key "$ix" records)" = 124 ] || fail "$ix: records $(key "$ix" records), expected 124"
  [ "$(key "$ix" entries)" = 13 ] || fail "$ix: entries $(key "$ix" entries), expected 13 (every 10 of 124)"
  [ "$(grep -c '^e ' "$ix")" = 13 ] || fail "$ix: $(grep -c '^e ' "$ix") entry lines"
  [ "$(key "$ix" every)" = 10 ] || fail "$ix: every $(key "$ix" every)"
  [ "$(key "$ix" format)" = mol2 ] || fail "$ix: format $(key "$ix" format)"
  [ "$(key "$ix" size)" = "$(wc -c < "$f")" ] || fail "$ix: size $(key "$ix" size), the file has $(wc -c < "$f")"
  [ "$(tail -1 "$ix")" = end ] || fail "$ix: last line $(tail -1 "$ix")"
  grep -q "^$f: 124 records, 13 entries (every 10), .* MB/s -> $ix\$" err.txt || fail "no summary line for $f: $(cat err.txt)"
done
[ "$(key library.mol2.vsgidx compression)" = none ] || fail "plain library: compression $(key library.mol2.vsgidx compression)"
[ "$(key "$lib_gz.vsgidx" compression)" = gzip ] || fail "gzipped library: compression $(key "$lib_gz.vsgidx" compression)"
# the same offsets (of the inflated text) for the file and its gzip
diff <(grep '^e ' library.mol2.vsgidx) <(grep '^e ' "$lib_gz.vsgidx") > /dev/null ||
  fail "the entries of the gzipped library differ from the plain one's"
# every entry: RECORD LINE OFFSET: the bytes at OFFSET start molecule RECORD+1, after LINE lines
while read -r _ rec line off _; do
  start=$(dd if=library.mol2 bs=1 skip="$off" count=17 2>/dev/null)
  [ "$start" = "@<TRIPOS>MOLECULE" ] || { fail "entry $rec: byte $off holds '$start'"; break; }
  [ "$(head -c "$off" library.mol2 | wc -l)" = "$line" ] || { fail "entry $rec: $line lines before byte $off"; break; }
  before=$(head -n "$line" library.mol2 | grep -c '^@<TRIPOS>MOLECULE')
  [ "$before" = "$rec" ] || { fail "entry $rec: $before molecules before it"; break; }
done < <(grep '^e ' library.mol2.vsgidx)

# -o, --format, --json, --quiet
expect_rc 0 "$vsgrid" index library.mol2 -o custom.vsgidx --format mol2 --json index.json --quiet
[ -s custom.vsgidx ] || fail "-o wrote no index"
[ -s err.txt ] && fail "--quiet printed: $(cat err.txt)"
[ "$(key custom.vsgidx every)" = 1024 ] || fail "default every: $(key custom.vsgidx every)"
[ "$(key custom.vsgidx entries)" = 1 ] || fail "124 records every 1024: $(key custom.vsgidx entries) entries"
[ "$(json_val index.json records)" = 124 ] || fail "--json records: $(json_val index.json records)"
[ "$(json_val index.json entries)" = 1 ] || fail "--json entries: $(json_val index.json entries)"
grep -q '"mb_per_second"' index.json || fail "--json has no mb_per_second"
expect_rc 0 "$vsgrid" index library.mol2 -o custom_sdf.vsgidx --format sdf
[ "$(key custom_sdf.vsgidx format)" = sdf ] || fail "--format sdf: format $(key custom_sdf.vsgidx format)"

# an unreadable library among good ones: exit 3, the others indexed
rm -f library.mol2.vsgidx "$lib_gz.vsgidx"
expect_rc 3 "$vsgrid" index library.mol2 missing.mol2 "$lib_gz"
grep -q "missing.mol2" err.txt || fail "the missing library is not named: $(cat err.txt)"
[ -s library.mol2.vsgidx ] && [ -s "$lib_gz.vsgidx" ] || fail "the readable libraries were not indexed"
[ -e missing.mol2.vsgidx ] && fail "an index for a missing library"
mkdir -p folder.mol2
expect_rc 3 "$vsgrid" index folder.mol2
# an index that cannot be written
expect_rc 1 "$vsgrid" index library.mol2 -o no/such/dir/x.vsgidx

# a pose file: the name given outside any MODEL travels in the entries
{
  echo "REMARK  Name = the ligand"
  for i in 1 2 3 4 5; do
    echo "MODEL $i"
    printf 'ATOM      1  N   UNL     1      16.714  51.912  14.87%d  1.00  0.00    -0.322 N \n' "$i"
    echo "ENDMDL"
  done
} > poses.pdbqt
expect_rc 0 "$vsgrid" index poses.pdbqt --every 2
[ "$(key poses.pdbqt.vsgidx records)" = 5 ] || fail "poses: records $(key poses.pdbqt.vsgidx records)"
[ "$(grep -c '^e [0-9]* [0-9]* [0-9]* 2 the ligand$' poses.pdbqt.vsgidx)" = 2 ] ||
  fail "poses: entries 2 and 4 do not carry the name: $(grep '^e ' poses.pdbqt.vsgidx)"
grep -q '^e 0 0 0 0$' poses.pdbqt.vsgidx || fail "poses: entry 0: $(grep '^e 0 ' poses.pdbqt.vsgidx)"

[ "$fails" = 0 ] && echo "cli_index: all checks passed"
[ "$fails" = 0 ]
