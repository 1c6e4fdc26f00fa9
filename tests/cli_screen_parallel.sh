#!/usr/bin/env bash
# `vsgrid screen --parse-threads N` (the input cut into chunks of records parsed in parallel) writes
# the very bytes of the serial reader (--parse-threads 1): same rows, order, index, record
# numbers, statuses and "path:line" messages, and the same --sdf-out. Inputs: the test
# libraries, edge cases made here (bad records, blank lines, CRLF, "\r\r", no final $$$$,
# truncated gzip, empty and missing files, standard input; PDB/PDBQT models, names given
# outside any MODEL, TORSDOF-ended ligands), the libraries and pose files in ../shared/data;
# a small --batch-atoms makes chunks of a few records, so records cross chunk boundaries and
# long records are carried whole to the next chunk.
# Usage: cli_screen_parallel.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_screen_parallel
shared=${VSG_SHARED_DATA:-$src/../shared/data}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"

"$vsgrid" screen --help | grep -q -- --parse-threads || fail "screen --help does not document --parse-threads"
"$vsgrid" screen g.vsg x.sdf -o r.csv --parse-threads 0 >/dev/null 2>&1
[ $? = 2 ] || fail "--parse-threads 0 is not a usage error"

"$vsgrid" grid "$src/data/1stp_receptor.pdbqt" --method coulomb --dielectric 4r \
  --around "$src/data/biotin.pdbqt" --padding 6 --spacing 0.4 --device cpu -o g.vsg --quiet
[ -s g.vsg ] || { fail "no grid"; echo "$fails failure(s)"; exit 1; }

# ---- edge cases ----
zcat "$src/data/xiap_actives_docked.sdf.gz" >x.sdf
zcat "$src/data/xiap_actives_docked.mol2.gz" >x.mol2
awk '/^\$\$\$\$/ { n++ } n < 3' x.sdf >three.sdf  # three records, no final $$$$ line
{
  sed -n '1,/^\$\$\$\$/p' x.sdf                     # a good record
  printf '\n\n\n\n\n$$$$\n'                        # blank header, then $$$$
  printf '$$$$\n'                                  # a record that is only $$$$
  printf 'bad\n prog\n\nxx yy  0  0  0  0            999 V2000\nM  END\n$$$$\n' # bad counts
  printf 'nomend\n p\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0 0.0 0.0 C   0  0\n$$$$\n'
  printf 'empty\n p\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n'
  cat three.sdf
  echo '$$$$'
  printf '\n\n'                                    # blank lines after the last record
} >edge.sdf
sed 's/$/\r/' edge.sdf >crlf.sdf                   # CRLF
sed '5s/$/\r\r/' three.sdf >crcr.sdf               # a line that ends in \r\r
cat three.sdf >nolast.sdf                          # last record without $$$$
gzip -c x.sdf >x.sdf.gz && head -c 20000 x.sdf.gz >cut.sdf.gz
gzip -c x.mol2 >x.mol2.gz && head -c 20000 x.mol2.gz >cut.mol2.gz
# corrupt deflate data in a stream of several MiB: the records before the error must not depend
# on how the reader asks for bytes (ligands/readers/read_ahead.h)
for _ in 1 2 3 4 5 6; do cat x.mol2; done | gzip -c >big.mol2.gz
python3 -c "
import sys; b = bytearray(open('big.mol2.gz', 'rb').read()); b[len(b) * 3 // 4] ^= 0x5a
open('corrupt.mol2.gz', 'wb').write(b)"
: >empty.sdf
printf '\n\n\n' >blank.sdf
printf '\n\n' >blank.mol2
{
  echo "# a comment before the first molecule"
  awk '/^@<TRIPOS>MOLECULE/ { n++ } n <= 2' x.mol2
  printf '@<TRIPOS>MOLECULE\n\n'                   # no name or counts
  printf '@<TRIPOS>MOLECULE\nempty\n0 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n'
  printf '@<TRIPOS>MOLECULE\nbad\nx y\n'
  awk '/^@<TRIPOS>MOLECULE/ { n++ } n >= 3 && n <= 5' x.mol2
} >edge.mol2
sed 's/$/\r/' edge.mol2 >crlf.mol2
# records longer than a chunk holds (1500 lines > --batch-atoms 1024; the SDF counts line reads
# 150 atoms, the rest falls in its properties block): alone in their chunk,
# in the middle of a file and at its end (MOL2: ended by the end of the file)
awk 'BEGIN { print "big"; print " p"; print ""; print "1500  0  0  0  0  0  0  0  0  0999 V2000"
  for (i = 0; i < 1500; i++) printf "%10.4f%10.4f%10.4f C   0  0  0  0  0  0  0  0  0  0  0  0\n", i % 10, int(i / 10) % 10, int(i / 100)
  print "M  END"; print "$$$$" }' >bigrec.sdf
cat three.sdf >big.sdf && echo '$$$$' >>big.sdf && cat bigrec.sdf three.sdf >>big.sdf
awk 'BEGIN { print "@<TRIPOS>MOLECULE"; print "bigmol"; print "1500 0"; print "SMALL"; print "USER_CHARGES"; print ""
  print "@<TRIPOS>ATOM"
  for (i = 1; i <= 1500; i++) printf "%d C %.4f %.4f %.4f C.3 1 UNL 0.0100\n", i, i % 10, int(i / 10) % 10, int(i / 100) }' >bigrec.mol2
cat x.mol2 bigrec.mol2 >big.mol2
# PDBQT/PDB: MODEL/ENDMDL poses with good and bad ones, a name given outside any MODEL (it
# names the later records), concatenated ligands ended by TORSDOF, END-ended records
b=$src/data/biotin.pdbqt
atoms() { grep -E "^(ATOM|HETATM)" "$b"; }
{
  echo "REMARK  a comment"
  for m in 1 2 3 4 5 6 7 8 9 10 11 12; do
    echo "MODEL $m"
    case $m in
      3) atoms | sed '3s/^\(.\{30\}\).\{8\}/\1   abcde/' ;;
      4) ;;
      6) echo "REMARK  Name = pose six" && atoms ;;
      9) atoms | head -5 ;; # and no ENDMDL: the next MODEL ends it (parse)
      *) atoms ;;
    esac
    [ "$m" = 9 ] || echo "ENDMDL"
    [ "$m" = 7 ] && echo "COMPND    named between models"
  done
  echo "MODEL 13"; atoms # the end of the file inside a MODEL
} >poses.pdbqt
{ cat "$b"; echo "TORSDOF 1"; cat "$b"; echo "TORSDOF 1"; echo "REMARK  Name = later"; cat "$b"; } >torsdof.pdbqt
# many records (several chunks at --batch-atoms 1024), names given between them, a long
# record carried alone to a chunk of its own
for m in $(seq 200); do
  [ "$m" = 60 ] && echo "COMPND    later name"
  [ "$m" = 130 ] && echo "REMARK  Name = best name"
  echo "MODEL $m"
  atoms
  [ "$m" = 100 ] && for k in $(seq 70); do atoms; done
  echo "ENDMDL"
done >many.pdbqt
for m in $(seq 150); do
  [ "$m" = 70 ] && echo "REMARK  Name = ligand seventy on"
  cat "$b"
  echo "TORSDOF 1"
done >manytors.pdbqt
{ atoms; echo "END"; atoms; echo "END"; echo "END"; atoms; } | sed 's/^\(.\{66\}\).*/\1/' >ends.pdb

# cmp_modes NAME [screen arguments...]: serial and parallel outputs must be the same bytes
cmp_modes() {
  local name=$1
  shift
  "$vsgrid" screen g.vsg "$@" -o "$name.1.csv" --sdf-out "$name.1.sdf" --devices cpu --quiet --parse-threads 1 \
    >/dev/null 2>"$name.1.err"
  local rc1=$?
  for n in 2 3; do
    "$vsgrid" screen g.vsg "$@" -o "$name.$n.csv" --sdf-out "$name.$n.sdf" --devices cpu --quiet --parse-threads $n \
      >/dev/null 2>"$name.$n.err"
    local rc=$?
    [ "$rc" = "$rc1" ] || fail "$name: exit $rc with $n parse threads, $rc1 with 1"
    cmp -s "$name.1.csv" "$name.$n.csv" ||
      fail "$name: CSV differs with $n parse threads: $(diff "$name.1.csv" "$name.$n.csv" | head -4)"
    cmp -s "$name.1.sdf" "$name.$n.sdf" || fail "$name: --sdf-out differs with $n parse threads"
  done
  [ "$(tail -n +2 "$name.1.csv" | wc -l)" -gt 0 ] || fail "$name: no rows"
}

cmp_modes edge_sdf edge.sdf
cmp_modes edge_mol2 edge.mol2
cmp_modes crlf crlf.sdf crlf.mol2
cmp_modes crcr crcr.sdf
cmp_modes nolast nolast.sdf
cmp_modes cut cut.sdf.gz cut.mol2.gz x.sdf.gz
cmp_modes corrupt corrupt.mol2.gz x.sdf --batch-atoms 3000
grep -q ",io," corrupt.2.csv || fail "corrupt gzip: no io row"
cmp_modes empties empty.sdf blank.sdf blank.mol2 missing.sdf missing.mol2 edge.sdf
cmp_modes libs "$src/data/xiap_actives_docked.sdf.gz" "$src/data/xiap_actives_docked.mol2.gz"
cmp_modes poses poses.pdbqt torsdof.pdbqt ends.pdb "$b"
cmp_modes poses_small poses.pdbqt torsdof.pdbqt ends.pdb many.pdbqt manytors.pdbqt poses.pdbqt --batch-atoms 1024
grep -q "best name" poses_small.2.csv && grep -q "ligand seventy on" poses_small.2.csv ||
  fail "names given between records are lost"
# small chunks: a few records each; longer records than a chunk holds go alone
for cap in 1024 3000; do
  cmp_modes "small$cap" edge.sdf edge.mol2 x.sdf x.mol2 big.sdf nolast.sdf big.mol2 cut.mol2.gz --batch-atoms $cap
done
cmp_modes top x.sdf edge.mol2 x.mol2 --top 7 --batch-atoms 1024 # best N: ties broken by index
# standard input
for f in edge.sdf x.mol2; do
  fmt=${f##*.}
  "$vsgrid" screen g.vsg - --format "$fmt" -o "stdin1.csv" --devices cpu --quiet --parse-threads 1 <"$f" 2>/dev/null
  "$vsgrid" screen g.vsg - --format "$fmt" -o "stdin2.csv" --devices cpu --quiet --parse-threads 2 --batch-atoms 1024 \
    <"$f" 2>/dev/null
  cmp -s stdin1.csv stdin2.csv || fail "stdin $f: CSV differs: $(diff stdin1.csv stdin2.csv | head -4)"
done
# --json: the stages' busy and waiting times (scripts/bench_screen_pipeline.sh reads them)
"$vsgrid" screen g.vsg x.sdf x.mol2 -o j.csv --devices cpu --quiet --parse-threads 2 --batch-atoms 3000 \
  --json j.json 2>/dev/null
python3 - j.json <<'PY' || fail "--json: stage times missing or inconsistent"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("parse_threads", "split_seconds", "split_wait_seconds", "scorer_busy_seconds", "scorer_wait_seconds",
          "write_wait_seconds", "parse_seconds", "score_seconds", "write_seconds", "pipeline_seconds"):
    assert k in d and d[k] >= 0, k
assert d["parse_threads"] == 2
assert d["split_seconds"] > 0 and d["parse_seconds"] > 0
assert d["scorer_busy_seconds"] >= d["score_seconds"] * 0.99   # the busy time includes the scoring
for k in ("split_seconds", "scorer_busy_seconds", "write_seconds"):
    assert d[k] <= d["pipeline_seconds"] * 1.01, k              # one thread's time within the wall time
PY
# the error messages still say the real path:line
grep -q "edge.sdf:[0-9]*: record [0-9]*" edge_sdf.2.csv || fail "no path:line in the parallel messages"

# ---- the real libraries ----
if [ -d "$shared" ]; then
  libs=$(find "$shared" \( -name "*.sdf" -o -name "*.sdf.gz" -o -name "*.mol2" -o -name "*.mol2.gz" \) | sort)
  poses=$(find "$shared" -name "*.pdbqt" ! -name "*protein*" ! -name "*receptor*" | sort)
  for f in $poses; do
    cmp_modes "shared_$(basename "$f")" "$f" --batch-atoms 1024
  done
  for f in $libs; do
    cmp_modes "shared_$(basename "$f")" "$f"
    cmp_modes "shared_small_$(basename "$f")" "$f" --batch-atoms 2000
  done
  # every library at once: index over all inputs
  # shellcheck disable=SC2086
  cmp_modes shared_all $libs
else
  skip_part "the real libraries" "no shared data at $shared; set VSG_SHARED_DATA"
fi

echo "$fails failure(s)"
[ "$fails" = 0 ]
