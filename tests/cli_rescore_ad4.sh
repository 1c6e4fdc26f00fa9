#!/usr/bin/env bash
# `vsgrid rescore REC.pdbqt POSES --scoring ad4`: the AutoDock4 map set made around the poses,
# then the poses scored on it. On data/ (1STP, biotin): help, usage errors (2), a non-PDBQT
# receptor (3, one line), a pose with an atom type without AutoDock4 parameters (its status row,
# the other poses scored), --keep-maps, no temporary folder left behind. On 1IEP (../shared, or
# $VSG_SHARED_DATA; skipped without): the rows equal, number for number, those of
# `vsgrid maps --scoring ad4 --around POSES -o P` then `vsgrid screen P.maps.fld POSES`; and,
# when autogrid4 and autodock4 are installed, the crystal ligand's and the three AD4 docked
# poses' scores within 0.01 kcal/mol of autodock4's epdb on the maps autogrid4 makes from the
# gpf rescore wrote (--keep-maps).
# Usage: cli_rescore_ad4.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_rescore_ad4
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
col() { awk -F, -v c="$2" 'NR > 1 { print $c }' "$1"; } # column c (fields without commas)
rec=$src/data/1stp_receptor.pdbqt
b=$src/data/biotin.pdbqt
export TMPDIR=$work/tmp # rescore's temporary map folder goes here: it must be gone afterwards
mkdir -p "$TMPDIR"

# Help.
expect_rc 0 "$vsgrid" rescore --help
for opt in "--scoring ad4" --keep-maps "epdb" "vdw_hb_kcal_mol" "desolv_kcal_mol" "untyped"; do
  grep -q -- "$opt" out.txt || fail "rescore --help does not document $opt"
done
expect_rc 0 "$vsgrid" rescore --scoring ad4 --help
grep -q -- "--keep-maps PREFIX" out.txt || fail "rescore --scoring ad4 --help: $(head -3 out.txt)"

# Usage errors → 2.
expect_rc 2 "$vsgrid" rescore "$rec" "$b" --scoring ad4                         # no -o
expect_rc 2 "$vsgrid" rescore "$rec" --scoring ad4 -o r.csv                     # no poses
expect_rc 2 "$vsgrid" rescore "$rec" - --scoring ad4 -o r.csv --format pdbqt    # stdin cannot be read twice
expect_rc 2 "$vsgrid" rescore "$rec" "$b" --scoring ad4 -o r.csv --method pb    # not an ad4 option
expect_rc 2 "$vsgrid" rescore "$rec" "$b" --scoring ad4 -o r.csv --padding -1
expect_rc 2 "$vsgrid" rescore "$rec" "$b" --scoring ad4 -o r.csv --kernel warp
expect_rc 2 "$vsgrid" rescore "$rec" "$b" --scoring ad4 -o r.csv --device warp

# Bad input → 3, one line: a receptor without AutoDock types (PQR), a missing receptor.
expect_rc 3 "$vsgrid" rescore "$src/data/fas2.pqr" "$b" --scoring ad4 -o r.csv --device cpu --devices cpu
grep -q "AutoDock type" err.txt || fail "PQR receptor: $(cat err.txt)"
[ "$(grep -c . err.txt)" = 1 ] || fail "PQR receptor: not one line: $(cat err.txt)"
expect_rc 3 "$vsgrid" rescore missing.pdbqt "$b" --scoring ad4 -o r.csv --device cpu --devices cpu
[ "$(grep -c . err.txt)" = 1 ] || fail "missing receptor: not one line: $(cat err.txt)"

# A pose with an atom type AutoDock4 has no parameters for: its row says untyped, the other is
# scored (and equals biotin alone), the run exits 0.
{ echo "MODEL 1"; grep -v '^END$' "$b"; echo "ENDMDL"; echo "MODEL 2"
  awk '/^(ATOM|HETATM)/ && !d && ++k == 3 { $0 = substr($0, 1, 77) "Qq"; d = 1 } { print }' "$b" | grep -v '^END$'
  echo "ENDMDL"; } > bad.pdbqt
expect_rc 0 "$vsgrid" rescore "$rec" bad.pdbqt --scoring ad4 -o bad.csv --device cpu --devices cpu --keep-maps km/bad
grep -q "warning: .*without AutoDock4 parameters.*Qq" err.txt || fail "Qq pose: no warning: $(cat err.txt)"
[ "$(col bad.csv 11 | tr '\n' ' ')" = "ok untyped " ] || fail "Qq pose: statuses $(col bad.csv 11 | tr '\n' ' ')"
grep -q "Qq" bad.csv || fail "Qq pose: the message does not name the type: $(cat bad.csv)"
grep -q "^ligand_types" km/bad.gpf && ! grep -q "^ligand_types.* Qq" km/bad.gpf || fail "gpf ligand types: $(grep ligand_types km/bad.gpf)"
for f in km/bad.maps.fld km/bad.maps.xyz km/bad.gpf km/bad.e.map km/bad.d.map km/bad.C.map; do
  [ -s "$f" ] || fail "--keep-maps: no $f"
done
# the kept set screened gives the same rows
expect_rc 0 "$vsgrid" screen km/bad.maps.fld bad.pdbqt -o bad2.csv --devices cpu --quiet
cmp -s bad.csv bad2.csv || fail "--keep-maps set screened differs: $(diff bad.csv bad2.csv | head -4)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary folder left behind: $(ls "$TMPDIR")"

shared=${VSG_SHARED_DATA:-$src/../shared/data}
d=$shared/autodock_vina/1iep
if [ ! -f "$d/1iep_receptor.pdbqt" ]; then
  skip_part "the 1IEP checks" "no shared data at $shared; set VSG_SHARED_DATA"
else
  # (1) rescore == maps --around POSES + screen P.maps.fld POSES, exactly: maps on the default
  # device (the GPU where there is one), scores on the CPU twin (on a GPU the fastest kernel is
  # chosen by timing, and the texture kernel's 9-bit weights move scores by ~0.002 kcal/mol)
  poses=$d/1iep_ligand_ad4_out.pdbqt
  expect_rc 0 "$vsgrid" rescore "$d/1iep_receptor.pdbqt" "$poses" --scoring ad4 --devices cpu -o r.csv --json r.json
  cp err.txt r.err
  [ "$(col r.csv 11 | tr '\n' ' ')" = "ok ok ok " ] || fail "1iep rescore: $(cat r.csv)"
  [ "$(json_val r.json scored)" = 3 ] || fail "1iep rescore --json: scored $(json_val r.json scored)"
  expect_rc 0 "$vsgrid" maps "$d/1iep_receptor.pdbqt" --scoring ad4 --around "$poses" -o P/rec
  expect_rc 0 "$vsgrid" screen P/rec.maps.fld "$poses" --devices cpu -o s.csv
  cmp -s r.csv s.csv || fail "1iep: rescore and maps --around + screen differ: $(diff r.csv s.csv | head -6)"
  echo "1iep AD4 poses (rescore = maps + screen):"; col r.csv 6 | tr '\n' ' '; echo
  # the last column: autodock4's internal energy of each pose (its epdb "Ligand Intramolecular
  # Energy Analysis" total, 4 decimals; tests/test_ad4_intra.c compares it with autodock4 itself)
  [ "$(head -1 r.csv | awk -F, '{ print $NF }')" = ad4_intra ] || fail "1iep: no ad4_intra column: $(head -1 r.csv)"
  [ "$(col r.csv 13 | tr '\n' ' ')" = "-1.1381 -1.0536 -1.1680 " ] || fail "1iep ad4_intra: $(col r.csv 13 | tr '\n' ' ')"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "temporary folder left behind: $(ls "$TMPDIR")"

  # (2) against autodock4's epdb on autogrid4's maps from the gpf rescore wrote: the crystal
  # ligand and the 3 poses, one box around all of them.
  if command -v autogrid4 > /dev/null 2>&1 && command -v autodock4 > /dev/null 2>&1; then
    expect_rc 0 "$vsgrid" rescore "$d/1iep_receptor.pdbqt" "$d/1iep_ligand.pdbqt" "$poses" --scoring ad4 \
      -o x.csv --keep-maps k/rec --device cpu --devices cpu --quiet
    mkdir ag && cp k/rec.gpf ag/ || fail "no k/rec.gpf"
    ( cd ag && autogrid4 -p rec.gpf -l rec.glg > ag.out 2>&1 ) || fail "autogrid4 failed: $(tail -3 ag/rec.glg)"
    types=$(awk '$1 == "ligand_types" { for (i = 2; i <= NF; i++) printf "%s ", $i }' ag/rec.gpf)
    cp "$d/1iep_ligand.pdbqt" ag/pose1.pdbqt
    awk '/^MODEL/ { k++; f = "ag/pose" (k + 1) ".pdbqt"; next } /^ENDMDL/ { f = ""; next } f { print > f }' "$poses"
    maxd=0
    for k in 1 2 3 4; do
      { echo "autodock_parameter_version 4.2"; echo "outlev 1"; echo "ligand_types $types"; echo "fld rec.maps.fld"
        for t in $types; do echo "map rec.$t.map"; done
        echo "elecmap rec.e.map"; echo "desolvmap rec.d.map"; echo "move pose$k.pdbqt"; echo "epdb"; } > ag/e$k.dpf
      ( cd ag && autodock4 -p e$k.dpf -l e$k.dlg > e$k.out 2>&1 ) || fail "autodock4 failed on pose $k"
      a=$(sed -n 's/^Total Intermolecular Interaction Energy *= *\([-+0-9.]*\).*/\1/p' ag/e$k.dlg | head -1)
      v=$(awk -F, -v r=$((k + 1)) 'NR == r { print $6 }' x.csv)
      dev=$(awk -v a="$a" -v b="$v" 'BEGIN { d = a - b; if (d < 0) d = -d; print (a == "" || b == "") ? 99 : d }')
      echo "  pose $k: autodock4 epdb $a, vsgrid rescore --scoring ad4 $v kcal/mol (|diff| $dev)"
      awk -v x="$dev" 'BEGIN { exit !(x <= 0.01) }' || fail "pose $k: autodock4 $a vs rescore $v"
      maxd=$(awk -v a="$maxd" -v b="$dev" 'BEGIN { print (b > a) ? b : a }')
    done
    echo "1iep: rescore --scoring ad4 against autodock4 epdb (autogrid4's maps): max |diff| $maxd kcal/mol"
  else
    skip_part "the autodock4 epdb comparison" "autogrid4 or autodock4 not installed"
  fi
fi

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "cli_rescore_ad4: all checks passed"
