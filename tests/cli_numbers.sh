#!/usr/bin/env bash
# Numbers a chemist can read (issue 20, item 3), on the repository's own data (1STP receptor and
# biotin, the XIAP library): "charge outside the grid" says it is a sum of |q| and whether it
# matters (focusing or not); every printed energy says which terms it holds (energy, probe,
# rescore); the .vsg metadata writes the tolerance the solve used (1e-06, not 0); render labels an
# AutoGrid affinity map "affinity (kcal/mol)" and scales its colours to the data, not to the
# clamped 1e5 inside atoms; info summarises a whole ligand library and reads AutoGrid map sets
# (.maps.fld) and map prefixes.
# Usage: cli_numbers.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_numbers
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
. "$(dirname "$0")/lib_cli.sh"
rec=$src/data/1stp_receptor.pdbqt lig=$src/data/biotin.pdbqt

# 1, 2, 4. energy on a focused site grid: the charge outside the finest grid is a sum of |q| and
# harmless; each energy line names its terms; the .vsg holds the tolerance used.
expect_rc 0 "$vsgrid" energy "$rec" --ligand "$lig" --around "$lig" --padding 4 --spacing 0.6 --bc focus \
  -o site.vsg --json e.json --device cpu   # (a GPU's float solve records the tolerance float reaches)
grep -q "sum of |q|): harmless for the potential" err.txt || fail "focused grid: charge outside not explained: $(cat err.txt)"
grep -q "e of charge lies outside the grid" err.txt && fail "the old 'charge lies outside the grid' wording is back"
grep -q "^interaction energy .*electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)" out.txt ||
  fail "energy: interaction energy does not say it is electrostatic only: $(cat out.txt)"
grep -q "^total grid energy .*electrostatic only" out.txt || fail "energy: total grid energy names no terms"
grep -aq "^tol_kt_e = 1e-06$" site.vsg || fail ".vsg tol_kt_e is not 1e-06: $(grep -a '^tol_kt_e' site.vsg)"
[ "$(json_val e.json tol_kt_e)" = "1e-06" ] || fail "JSON tol_kt_e $(json_val e.json tol_kt_e), expected 1e-06"
expect_rc 0 "$vsgrid" info site.vsg
grep -q "tol_kt_e = 1e-06" out.txt || fail "info shows no tol_kt_e = 1e-06"
# a single small grid (no focusing): the boundary condition holds the outside charge, not the solve
expect_rc 0 "$vsgrid" grid "$rec" --box 11,1.5,-10.5,10,10,10 --spacing 0.8 -o box.vsg
grep -q "sum of |q|): the boundary values include them (mdh)" err.txt ||
  fail "single grid: charge outside not explained: $(cat err.txt)"
# solvation energy says it is the polar term only
expect_rc 0 "$vsgrid" energy "$lig" --solvation --spacing 0.6
grep -q "^solvation energy .*electrostatic (polar) solvation only" out.txt || fail "solvation energy names no terms: $(cat out.txt)"

# 2. probe and rescore say which terms their energies hold
expect_rc 0 "$vsgrid" probe site.vsg "$lig"
grep -q "electrostatic interaction energy only" out.txt || fail "probe: energy names no terms: $(cat out.txt)"
expect_rc 0 "$vsgrid" rescore "$rec" "$lig" --method coulomb -o r.csv
grep -q "score_kcal_mol: electrostatic interaction energy only" err.txt || fail "rescore: score names no terms: $(cat err.txt)"
# ... and so do screens: electrostatics only on a potential grid, AutoDock4's intermolecular
# energy on an AD4 map set, Vina's estimated free energy on Vina maps
expect_rc 0 "$vsgrid" screen site.vsg "$lig" -o s.csv --devices cpu
grep -q "score_kcal_mol: electrostatic interaction energy only .*, of each pose as given" err.txt ||
  fail "screen on a potential grid: score names no terms: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 2 --ligand-types A,C,OA,N,HD,SA --quiet -o ad4/p
expect_rc 0 "$vsgrid" screen ad4/p.maps.fld "$lig" -o s.csv --devices cpu
grep -q "score_kcal_mol: AutoDock4 intermolecular energy (vdW/H-bond + electrostatic + desolvation" err.txt ||
  fail "screen on an AD4 map set: score names no terms: $(cat err.txt)"
expect_rc 0 "$vsgrid" maps "$rec" --scoring vina --around "$lig" --quiet -o vina/p
expect_rc 0 "$vsgrid" screen vina/p "$lig" --scoring vina -o s.csv
grep -q "score_kcal_mol: Vina's estimated free energy of binding of each pose as given" err.txt ||
  fail "screen --scoring vina: score names no terms: $(cat err.txt)"

# 5. render: an AutoGrid affinity map is labelled affinity, kcal/mol, and its colours come from
# the slice's percentiles (the clamped 1e5 inside atoms would give a blank picture)
mkdir -p maps
expect_rc 0 "$vsgrid" maps "$rec" --scoring ad4 --around "$lig" --padding 2 --ligand-types C,OA --quiet -o maps/p
expect_rc 0 "$vsgrid" render maps/p.C.map --slice z=center -o c.png --no-outline
grep -q "affinity .* kcal/mol, colours .*(2nd percentile of the slice, symmetric about 0; repulsion clamped)" err.txt ||
  fail "render of an affinity map: label or range rule missing: $(cat err.txt)"
hi=$(grep -o 'colours [^ ]*' err.txt | sed 's/.*\.\.//')
awk -v h="$hi" 'BEGIN { exit !(h > 0.05 && h < 5) }' || fail "affinity map colour range up to '$hi', not the data's scale"
expect_rc 0 "$vsgrid" render maps/p.e.map --slice z=center -o e.png --no-outline
grep -q "potential .* kcal/mol/e, colours .*(2nd-98th percentile of the slice, symmetric about 0)" err.txt ||
  fail "render of an e map: label or range rule missing: $(cat err.txt)"
expect_rc 0 "$vsgrid" render site.vsg --slice z=center -o s.png --range -3,3
grep -q "potential .* kT/e, colours -3..3 (--range)" err.txt || fail "render --range not said: $(cat err.txt)"

# 6. info: a whole library, a .maps.fld and a map prefix
expect_rc 0 "$vsgrid" info "$src/data/xiap_actives_docked.sdf.gz" --json lib.json
grep -q "ligand library, 100 records: 100 ok, 0 failed" out.txt || fail "info library: $(cat out.txt)"
grep -q "molecules  36 distinct names" out.txt || fail "info library: molecules by name: $(cat out.txt)"
grep -q "atoms      per record min 33, mean 43.6, max 55" out.txt || fail "info library: atoms: $(cat out.txt)"
grep -q "formats    sdf 100" out.txt || fail "info library: formats: $(cat out.txt)"
grep -q "charges    in the file for 0 of 100" out.txt || fail "info library: charges: $(cat out.txt)"
grep -q "statuses   ok 100" out.txt || fail "info library: statuses: $(cat out.txt)"
[ "$(json_val lib.json molecules)" = 36 ] || fail "info --json: molecules $(json_val lib.json molecules)"
expect_rc 0 "$vsgrid" info "$lig"   # one record: the molecule summary as before
grep -q "18 atoms" out.txt || fail "info of one molecule: $(cat out.txt)"
expect_rc 0 "$vsgrid" info maps/p.maps.fld --json fld.json
grep -q "AutoGrid map set, 4 maps" out.txt || fail "info .maps.fld: $(cat out.txt)"
grep -q "maps     C OA e d" out.txt || fail "info .maps.fld: map list: $(cat out.txt)"
grep -q "spacing  0.375 Å" out.txt || fail "info .maps.fld: spacing: $(cat out.txt)"
rm maps/p.OA.map
expect_rc 3 "$vsgrid" info maps/p.maps.fld
grep -q "OA (missing)" out.txt || fail "info .maps.fld: a missing map not named: $(cat out.txt)"
expect_rc 0 "$vsgrid" info maps/p
grep -q "map set (Vina or AutoGrid prefix), 3 maps" out.txt || fail "info PREFIX: $(cat out.txt)"

[ "$fails" = 0 ] && echo "cli_numbers: all checks passed"
exit $((fails > 0))
