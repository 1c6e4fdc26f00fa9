#!/usr/bin/env bash
# `vsgrid maps --scoring ad4` and `--elec pb` on the command line, on data/1stp_receptor.pdbqt:
# help, usage errors (2), bad input (3) with no files left behind, the box warnings, the files
# of an AutoDock4 map set and its gpf, the same maps as `vsgrid grid --gpf` on that gpf (one
# code path), --device cpu = auto, `vsgrid screen` on the set; --elec pb: the fld comment, only
# the e map changes, --elec-weight scales it, `grid --gpf --elec pb` gives the same e map, the
# Vina set's extra e map is the same potential, and the PB map against Coulomb's
# (tests/pb_coulomb_maps.py: Coulomb's law with a uniform dielectric, the sign pattern with the
# default model). The maps against autogrid4 itself: tests/peer_autogrid_box.sh.
# Usage: cli_maps_ad4.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_maps_ad4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$src/tests/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt
lig=$src/data/biotin.pdbqt
box=10.734,2.033,-11.537,9,8.25,12

expect_rc 0 "$vsgrid" maps --help
for opt in "--scoring S" ad4 --ligand-types --elec --elec-weight --eps-in --salt "A,C,NA,OA,N,SA,HD,F,Cl,Br,I,P,S" \
           "vina itself ignores" "Rii/2" "0.1406" "PREFIX.gpf" "autogrid4 -p" "--device" "CPU twin"; do
  grep -q -- "$opt" out.txt || fail "maps --help does not document $opt"
done

# Usage errors → 2.
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --ligand-types C,Qx -o m
grep -q "'Qx' has no AutoDock4 parameters" err.txt || fail "--ligand-types Qx: $(cat err.txt)"
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --elec none -o m
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --elec debye -o m
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --elec coulomb -o m           # vina has no Coulomb term
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --salt 0.15 -o m # a PB option without --elec pb
grep -q "needs --elec pb" err.txt || fail "--salt without --elec pb: $(cat err.txt)"
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --elec-weight 2 -o m
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --elec pb --elec-weight -1 -o m
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --types C_H -o m
expect_rc 2 "$vsgrid" maps "$rec" --box "$box" --ligand-types C -o m
expect_rc 2 "$vsgrid" maps "$rec" --scoring ad4 --box "$box" --fill 0.7 -o m
expect_rc 2 "$vsgrid" grid "$rec" --elec pb -o x.vsg                         # grid: only for a map set
expect_rc 2 "$vsgrid" grid "$rec" --gpf x.gpf --autogrid-maps x --elec pb --dielectric 4
ls m.* x.* > /dev/null 2>&1 && fail "a usage error left files behind: $(ls m.* x.*)"

# Bad input → 3, one line naming the file and line and what to do, nothing written.
awk '/^ATOM/ && !d && ++k == 20 { $0 = substr($0, 1, 77) "Qq"; d = 1 } { print }' "$rec" > badtype.pdbqt
expect_rc 3 "$vsgrid" maps badtype.pdbqt --scoring ad4 --box "$box" -o bad
grep -q "badtype.pdbqt:[0-9]*: .*'Qq'.*prepare_receptor4.py" err.txt || fail "receptor type Qq: $(cat err.txt)"
[ "$(grep -c . err.txt)" = 1 ] || fail "receptor type Qq: more than one line: $(cat err.txt)"
awk '/^(ATOM|HETATM)/ { $0 = substr($0, 1, 70) " 0.000" substr($0, 77) } { print }' "$rec" > zero.pdbqt
expect_rc 3 "$vsgrid" maps zero.pdbqt --scoring ad4 --box "$box" --elec pb -o zero
grep -q "zero.pdbqt: every atom charge is 0.*--elec pb" err.txt || fail "all charges 0, ad4: $(cat err.txt)"
expect_rc 3 "$vsgrid" maps zero.pdbqt --box "$box" --types C_H --elec pb -o zerov
grep -q "every atom charge is 0" err.txt || fail "all charges 0, vina: $(cat err.txt)"
printf 'npts 8 8 8\nspacing 0.375\ngridcenter 10.734 2.033 -11.537\nligand_types C\nreceptor_types C\n' > zero.gpf
printf 'map zg.C.map\nelecmap zg.e.map\ndsolvmap zg.d.map\ndielectric -0.1465\n' >> zero.gpf
expect_rc 3 "$vsgrid" grid zero.pdbqt --gpf zero.gpf --autogrid-maps zg --elec pb
grep -q "every atom charge is 0" err.txt || fail "all charges 0, grid --elec pb: $(cat err.txt)"
ls bad.* zero.*map zerov.* zg.* > /dev/null 2>&1 && fail "bad input left files behind: $(ls bad.* zero.*map zerov.* zg.*)"
# the default model's charges: the PB map of a receptor with charges exists and is not zero (below)

# A box partly past the receptor (its x edge 30 A beyond the last atom + 8 A): a warning, maps made.
"$vsgrid" maps "$rec" --scoring ad4 --box 30,2.033,-11.537,40,8.25,12 --ligand-types C -o part > part.out 2> part.err ||
  fail "box partly outside: exit $?"
grep -q "warning: .*the box reaches .* along x past the receptor's atoms" part.err || fail "box partly outside: no warning"
[ -s part.C.map ] || fail "box partly outside: no part.C.map"
"$vsgrid" maps "$rec" --scoring ad4 --box 500,500,500,6,6,6 --ligand-types C -o far > far.out 2> far.err
rc=$?; [ "$rc" = 3 ] || fail "far box: exit $rc, not 3 (every map would be zero)"
grep -q "no receptor atom within 8 A of the box" far.err || fail "far box: no error saying every map would be zero"
[ -e far.C.map ] && fail "far box: maps written"

# The map set around biotin: default types + biotin's, npts from vina's autobox made even.
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" -o ad4/rec
grep -q "ad4 map set of 13 ligand types" err.txt || fail "--around biotin: $(tail -2 err.txt)"
grep -q "warning: .*box reaches" err.txt && fail "the biotin site's box warned that it reaches past the receptor"
for t in A C NA OA N SA HD F Cl Br I P S e d; do
  [ -s ad4/rec.$t.map ] || fail "no ad4/rec.$t.map"
done
for f in ad4/rec.maps.fld ad4/rec.maps.xyz ad4/rec.gpf; do [ -s $f ] || fail "no $f"; done
grep -q "^ligand_types A C NA OA N SA HD F Cl Br I P S$" ad4/rec.gpf || fail "gpf ligand_types: $(grep ligand_types ad4/rec.gpf)"
grep -q "^npts 40 44 48$" ad4/rec.gpf || fail "gpf npts: $(grep npts ad4/rec.gpf)"
grep -q "^receptor /" ad4/rec.gpf || fail "gpf receptor is not an absolute path: $(grep '^receptor ' ad4/rec.gpf)"
grep -q "^map rec.A.map$" ad4/rec.gpf || fail "gpf map names carry a directory"
sed -n 5p ad4/rec.A.map | grep -q "^NELEMENTS 40 44 48" || fail "A map header: $(sed -n 5p ad4/rec.A.map)"
[ "$(wc -l < ad4/rec.A.map)" = $((6 + 41 * 45 * 49)) ] || fail "ad4/rec.A.map has $(wc -l < ad4/rec.A.map) lines"
# one code path: `vsgrid grid --gpf` on the written gpf gives the same files
(cd ad4 && "$vsgrid" grid "$rec" --gpf rec.gpf --autogrid-maps g --quiet > g.out 2>&1) || fail "grid --gpf rec.gpf: $(cat ad4/g.out)"
for t in A C NA OA N SA HD F Cl Br I P S e d; do
  cmp -s <(tail -n +4 ad4/rec.$t.map) <(tail -n +4 ad4/g.$t.map) || fail "map $t differs from grid --gpf's"
done
# the CPU twin gives the same maps as the default device (the GPU where there is one); the GPU's
# e map (float sums) may round the other way at a few nodes: 0.001 apart at most, at <= 0.1 %
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --device cpu --threads 1 -o cpu/rec
# (without a GPU both runs are the CPU twin: the e map must be the same file)
if "$vsgrid" --version | grep -q "GPUs 0$"; then
  cmp -s <(tail -n +4 ad4/rec.e.map) <(tail -n +4 cpu/rec.e.map) || fail "--device cpu: map e differs from --device auto (no GPU)"
else
  cmp -s <(sed -n 4,6p ad4/rec.e.map) <(sed -n 4,6p cpu/rec.e.map) || fail "--device cpu: the e map's header differs"
  paste <(tail -n +7 ad4/rec.e.map) <(tail -n +7 cpu/rec.e.map) |
    awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0) n++; if (d > 0.00101) bad++ } END { exit !(bad == 0 && n <= 0.001 * NR) }' ||
    fail "--device cpu: the e map is more than 0.001 from --device auto's, or at more than 0.1 % of the nodes"
fi
for t in A C NA OA N SA HD F Cl Br I P S d; do
  cmp -s <(tail -n +4 ad4/rec.$t.map) <(tail -n +4 cpu/rec.$t.map) || fail "--device cpu: map $t differs from --device auto"
done
# --ligand-types, and a type of the --around ligand not in the default list joins it
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --ligand-types C,OA --quiet -o two
[ "$(LC_ALL=C ls two.*.map | tr '\n' ' ')" = "two.C.map two.OA.map two.d.map two.e.map " ] || fail "--ligand-types C,OA wrote $(ls two.*.map)"
awk '/^(ATOM|HETATM)/ && !d && substr($0, 78, 2) == "C " { $0 = substr($0, 1, 77) "Mg"; d = 1 } { print }' "$lig" > lig_mg.pdbqt
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around lig_mg.pdbqt --quiet -o mg
grep -q "^ligand_types A C NA OA N SA HD F Cl Br I P S Mg$" mg.gpf || fail "--around ligand's Mg type: $(grep ligand_types mg.gpf)"
# vsgrid screen reads the set
expect_rc 0 "$vsgrid" screen ad4/rec.maps.fld "$lig" -o ad4.csv
grep -q ",ok," ad4.csv || fail "screen on the map set: $(cat ad4.csv)"

# --elec pb: only the e map changes; the fld says so; --elec-weight scales it
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 8 --ligand-types C,OA --elec pb -o pb/rec
grep -q "e map: PB potential" err.txt || fail "--elec pb printed no PB line"
grep -q "^# vsgrid: the e map is the Poisson-Boltzmann potential" pb/rec.maps.fld || fail "fld has no PB comment"
grep -q "^# .*Poisson-Boltzmann" pb/rec.gpf || fail "gpf has no PB comment"
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 8 --ligand-types C,OA -o co/rec
for t in C OA d; do cmp -s <(tail -n +4 pb/rec.$t.map) <(tail -n +4 co/rec.$t.map) || fail "--elec pb changed the $t map"; done
cmp -s pb/rec.e.map co/rec.e.map && fail "--elec pb wrote the Coulomb e map"
awk 'NR > 6 && $1 != 0 { nz = 1 } END { exit !nz }' pb/rec.e.map || fail "the PB e map is all zero"
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 8 --ligand-types C --elec pb --elec-weight 0.2812 -o pb2/rec
paste <(tail -n +7 pb/rec.e.map) <(tail -n +7 pb2/rec.e.map) |
  awk '{ d = $2 - 2 * $1; if (d < 0) d = -d; if (d > 0.0021) bad++ } END { exit bad > 0 }' ||
  fail "--elec-weight 0.2812 is not twice the default 0.1406 map"
# grid --gpf ... --elec pb makes the same e map from the same gpf
(cd pb && "$vsgrid" grid "$rec" --gpf rec.gpf --autogrid-maps g --elec pb > g.out 2>&1) || fail "grid --elec pb: $(cat pb/g.out)"
cmp -s <(tail -n +4 pb/rec.e.map) <(tail -n +4 pb/g.e.map) || fail "grid --gpf --elec pb gives another e map"
grep -q "Poisson-Boltzmann" pb/g.maps.fld || fail "grid --elec pb: fld has no PB comment"
# the Vina set's extra e map is the same potential (weight 0.1406 here; the lattice of the same box)
c=$(awk '$1 == "gridcenter" { printf "%s,%s,%s", $2, $3, $4 }' pb/rec.gpf)
s=$(awk '$1 == "npts" { printf "%s,%s,%s", $2 * 0.375, $3 * 0.375, $4 * 0.375 }' pb/rec.gpf)
expect_rc 0 "$vsgrid" maps "$rec" --box "$c,$s" --types C_H --elec pb --elec-weight 0.1406 -o vina/rec
[ -s vina/rec.e.map ] || fail "vina --elec pb wrote no PREFIX.e.map"
paste <(tail -n +7 pb/rec.e.map) <(tail -n +7 vina/rec.e.map) |
  awk '{ d = $2 - $1; if (d < 0) d = -d; a = $1 < 0 ? -$1 : $1; if (d > 0.0006 + 5e-4 * a) bad++; n++ }
       END { exit bad > 0 || n < 1000 }' || fail "vina's e map is not the ad4 PB e map"
grep -q "PB potential x 0.1406" err.txt || fail "vina --elec pb printed no PB line"

# PB against Coulomb (python3)
if command -v python3 > /dev/null 2>&1; then
  python3 "$src/tests/pb_coulomb_maps.py" pb/rec.e.map co/rec.e.map "$rec" sign || fail "PB vs Coulomb sign pattern"
  expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 8 --ligand-types C --elec pb \
    --eps-in 20 --eps-out 20 -o uni/rec
  (cd uni && "$vsgrid" grid "$rec" --gpf rec.gpf --autogrid-maps c --method coulomb --dielectric 20 > c.out 2>&1) ||
    fail "Coulomb eps 20: $(cat uni/c.out)"
  python3 "$src/tests/pb_coulomb_maps.py" uni/rec.e.map uni/c.e.map "$rec" uniform || fail "PB vs Coulomb, uniform eps 20"
else
  skip_part "the PB-against-Coulomb checks" "python3 not found"
fi

[ "$fails" = 0 ] && echo "cli_maps_ad4: ok"
exit $((fails > 0))
