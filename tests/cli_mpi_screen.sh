#!/usr/bin/env bash
# Screening over MPI ranks (issue 7): `mpirun -np 2|3 vsgrid screen` writes the single-rank CSV
# byte for byte (one row per record, input order, bad records included) and the same counts in
# --json. Small --batch-atoms so that the 100-molecule library makes many batches, which go
# round-robin over the ranks (grids/base/mpi_env.h). Both parse paths: parallel (splittable input)
# and serial (--parse-threads 1). Then --sdf-out (all molecules, and --top N) and --poses-out:
# the single-rank SDF/PDBQT byte for byte, on SDF and MOL2 libraries.
# Skips (77) when vsgrid was built without MPI or mpirun is absent.
# Usage: cli_mpi_screen.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$2 work=$3/cli_mpi_screen
. "$(dirname "$0")/lib_cli.sh"
mpi_launcher "$vsgrid"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

"$vsgrid" grid "$src/data/xiap_receptor.pqr.gz" --method coulomb --dielectric 4r --spacing 0.6 --fill 0.9 \
  --device cpu -o g.vsg --quiet 2>err.txt || { echo "FAIL: no grid: $(cat err.txt)"; exit 1; }

# A library with bad records between good ones: every record keeps its row.
b=$src/data/biotin.pdbqt
for i in $(seq 1 40); do
  echo "MODEL $i"
  case $((i % 4)) in
    1) grep -E "^(ATOM|HETATM)" "$b" | sed '3s/^\(.\{30\}\).\{8\}/\1   abcde/' ;;   # parse error
    2) ;;                                                                          # no atoms
    *) grep -E "^(ATOM|HETATM)" "$b" ;;
  esac
  echo "ENDMDL"
done >mixed.pdbqt

run_case() {  # run_case NAME screen-args...
  local name=$1; shift
  "$vsgrid" screen g.vsg "$@" -o $name.ref.csv --json $name.ref.json --devices cpu --quiet 2>$name.ref.err ||
    { fail "$name: single-rank run failed: $(head -c 400 $name.ref.err)"; return; }
  for np in 2 3; do
    "${mpi[@]}" -np $np "$vsgrid" screen g.vsg "$@" -o $name.$np.csv --json $name.$np.json --devices cpu --quiet \
      2>$name.$np.err || { fail "$name -np $np exited $?: $(head -c 600 $name.$np.err)"; continue; }
    cmp -s $name.ref.csv $name.$np.csv || fail "$name: -np $np CSV differs from the single-rank CSV: $(diff $name.ref.csv $name.$np.csv | head -5)"
    for key in records scored failed; do
      [ "$(json_val $name.ref.json $key)" = "$(json_val $name.$np.json $key)" ] ||
        fail "$name -np $np: json $key $(json_val $name.$np.json $key), single rank $(json_val $name.ref.json $key)"
    done
    ls $name.$np.csv.rank*.part >/dev/null 2>&1 && fail "$name -np $np: part files left behind"
    echo "$name -np $np: $(($(wc -l < $name.$np.csv) - 1)) rows identical to one rank;" \
         "scored $(json_val $name.$np.json scored), failed $(json_val $name.$np.json failed)"
  done
}

run_case xiap "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 400
run_case xiap_serial "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 400 --parse-threads 1
run_case mixed mixed.pdbqt "$src/data/xiap_actives_docked.mol2.gz" --batch-atoms 300
run_case onebatch "$b"   # one batch: ranks 1 and 2 have nothing to do

# --sdf-out (all, or --top N) and --poses-out over ranks: the single-rank files byte for byte
# (each rank writes its batches' records, or its own best N, to part files; rank 0 merges).
sdf_case() {  # sdf_case NAME POSES screen-args...   (POSES: pdbqt | sdf | - for no --poses-out)
  local name=$1 pext=$2; shift 2
  local po=()
  [ "$pext" != - ] && po=(--poses-out $name.ref.poses.$pext)
  "$vsgrid" screen ${grid:-g.vsg} "$@" -o $name.ref.csv --sdf-out $name.ref.sdf "${po[@]}" --devices cpu --quiet \
    2>$name.ref.err || { fail "$name: single-rank run failed: $(head -c 400 $name.ref.err)"; return; }
  for np in 2 3; do
    po=()
    [ "$pext" != - ] && po=(--poses-out $name.$np.poses.$pext)
    "${mpi[@]}" -np $np "$vsgrid" screen ${grid:-g.vsg} "$@" -o $name.$np.csv --sdf-out $name.$np.sdf "${po[@]}" --devices cpu \
      --quiet 2>$name.$np.err || { fail "$name -np $np exited $?: $(head -c 600 $name.$np.err)"; continue; }
    cmp -s $name.ref.csv $name.$np.csv || fail "$name: -np $np CSV differs from the single-rank CSV"
    cmp -s $name.ref.sdf $name.$np.sdf || fail "$name: -np $np SDF differs from the single-rank SDF: $(cmp $name.ref.sdf $name.$np.sdf)"
    if [ "$pext" != - ]; then
      cmp -s $name.ref.poses.$pext $name.$np.poses.$pext ||
        fail "$name: -np $np poses differ from the single-rank poses: $(cmp $name.ref.poses.$pext $name.$np.poses.$pext)"
    fi
    ls $name.$np.*.part >/dev/null 2>&1 && fail "$name -np $np: part files left behind"
    echo "$name -np $np: SDF identical to one rank ($(grep -c '^\$\$\$\$$' $name.$np.sdf) records)" \
         "$([ "$pext" != - ] && echo "and poses ($(wc -l < $name.$np.poses.$pext) lines)")"
  done
}

sdf=$src/data/xiap_actives_docked.sdf.gz mol2=$src/data/xiap_actives_docked.mol2.gz
ob=1 twice=twice.sdf
if ! have_openbabel "$vsgrid"; then # the SDF has no charges: its MOL2 twin (Gasteiger charges) instead
  ob=0 sdf=$mol2 twice=twice.mol2
  skip_part "SDF library input in the MPI cases (its MOL2 twin instead), the rescreened --top SDF" \
    "vsgrid built without Open Babel"
fi
sdf_case sdf_all - "$sdf" --batch-atoms 400
sdf_case sdf_top - "$sdf" --batch-atoms 400 --top 7
sdf_case mol2_all - "$mol2" --batch-atoms 400
sdf_case mol2_top - "$mol2" --batch-atoms 400 --top 7
sdf_case mol2_top_serial - "$mol2" --batch-atoms 400 --top 7 --parse-threads 1
sdf_case mixed_top - mixed.pdbqt "$mol2" --batch-atoms 300 --top 7
# Every molecule twice: equal scores in different batches (often ranks), ordered by row as one rank does.
zcat "$sdf" "$sdf" >$twice
sdf_case ties_top - $twice --batch-atoms 400 --top 9
# An input that already carries vsgrid_rank tags (a --top output screened again).
[ -f sdf_top.ref.sdf ] && [ $ob = 1 ] && sdf_case rescreen_top - sdf_top.ref.sdf --batch-atoms 100 --top 3
sdf_case onebatch_top - "$b" --top 3   # ranks 1 and 2 have no molecule
# Two molecules of 1008 atoms, the best scores, too large for a V2000 molfile: not written, and
# their rank numbers left unused, as one rank does.
{ for m in 1 2; do echo MODEL; for i in $(seq 56); do grep -E "^(ATOM|HETATM)" "$b"; done; echo ENDMDL; done; } >big.pdbqt
sdf_case unwritable_top - "$mol2" big.pdbqt --top 5
# Rigid placement: the best pose per molecule (PDBQT MODEL numbers renumbered by rank 0), or two (SDF),
# on an AutoDock4 map set (placement needs its steric terms: an electrostatic grid is refused).
"$vsgrid" maps "$src/data/1stp_receptor.pdbqt" --scoring ad4 --around "$b" --device cpu -o m --quiet 2>err.txt ||
  fail "no map set: $(head -c 400 err.txt)"
grid=m.maps.fld
rigid=(--placement rigid --rotations 8 --site-step 4 --batch-atoms 400)
sdf_case poses_pdbqt pdbqt "$sdf" "${rigid[@]}" --top 5
sdf_case poses_sdf sdf "$mol2" "${rigid[@]}" --top-poses 2

# Flexible docking (issue 26): chunks of 3 records (VSG_FLEX_CHUNK, the same on every rank) go
# round-robin over the ranks; the CSV and the PDBQT and SDF poses equal one process's byte for byte.
"$vsgrid" maps "$src/data/inha/receptor.pdbqt" --scoring vina --around "$src/data/inha/crystal_ligand.mol2" -o inha \
  --quiet 2>err.txt || fail "no Vina maps: $(head -c 400 err.txt)"
zcat "$src/data/inha/library.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { n++ } n <= 10' >flex.mol2
flex=(screen inha flex.mol2 mixed.pdbqt --scoring vina --placement flexible --search fast --exhaustiveness 8 --devices cpu --quiet)
for ext in pdbqt sdf; do
  VSG_FLEX_CHUNK=3 "$vsgrid" "${flex[@]}" -o flex.ref.csv --poses-out flex.ref.$ext --poses 2 --json flex.ref.json 2>err.txt ||
    { fail "flexible, one rank: $(head -c 400 err.txt)"; continue; }
  for np in 2 3; do
    "${mpi[@]}" -x VSG_FLEX_CHUNK=3 -np $np "$vsgrid" "${flex[@]}" -o flex.$np.csv --poses-out flex.$np.$ext --poses 2 \
      --json flex.$np.json 2>err.txt || { fail "flexible -np $np: $(head -c 600 err.txt)"; continue; }
    # the pose checks' counts summed over the ranks, as one process counts them
    for key in poses_checked poses_posebusters_valid; do
      [ -n "$(json_val flex.ref.json $key)" ] && [ "$(json_val flex.$np.json $key)" = "$(json_val flex.ref.json $key)" ] ||
        fail "flexible -np $np: $key $(json_val flex.$np.json $key), one rank $(json_val flex.ref.json $key)"
    done
    cmp -s flex.ref.csv flex.$np.csv || fail "flexible -np $np: CSV differs from one rank: $(diff flex.ref.csv flex.$np.csv | head -4)"
    cmp -s flex.ref.$ext flex.$np.$ext || fail "flexible -np $np: $ext poses differ from one rank"
    ls flex.$np.*.part >/dev/null 2>&1 && fail "flexible -np $np: part files left behind"
    echo "flexible -np $np: $(($(wc -l < flex.$np.csv) - 1)) rows and the $ext poses identical to one rank"
  done
done

echo "cli_mpi_screen: $fails failed"
[ "$fails" = 0 ]
