#!/usr/bin/env bash
# fuzz_run.sh TARGET FORMAT SECONDS SOURCE_DIR WORK [SEED] — one fuzz run (ctest -L fuzz,
# scripts/fuzz.sh): builds FORMAT's seed folder in WORK (small files: hand-written records,
# data/, ../shared/data or $VSG_SHARED_DATA when present, grids from the library's writers) and
# runs TARGET (built with tests/fuzz/fuzz_driver.c, or a libFuzzer build: name *_libfuzzer) for
# SECONDS from a fixed seed. A crash leaves crash-* in WORK and fails.
set -u
target=$1 fmt=$2 secs=$3 src=$4 work=$5 seed=${6:-1}
shared=${VSG_SHARED_DATA:-$src/../shared/data}
mkdir -p "$work/seeds_$fmt" && cd "$work" || exit 1
d=$work/seeds_$fmt
rm -f "$d"/*
[ -d "$shared" ] || echo "SKIPPED-PART: the ../shared/data seeds of $fmt (no $shared; set VSG_SHARED_DATA)"
# first records / lines of a file (plain or .gz), when it exists
cut_lines() { [ -f "$1" ] && { case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac; } | head -n "$2" > "$3"; true; }
first_records() { # first_records FILE N SEPARATOR_REGEX OUT: the first N records
  [ -f "$1" ] && { case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac; } |
    awk -v n="$2" -v re="$3" '$0 ~ re { k++ } k <= n' > "$4"; true; }
sdf_records() { [ -f "$1" ] && { case $1 in *.gz) zcat "$1" ;; *) cat "$1" ;; esac; } |
    awk -v n="$2" '{ print } /^\$\$\$\$/ && ++k >= n { exit }' > "$3"; true; }
case $fmt in
sdf|gz)
  printf 'water\n  test\n\n  3  2  0  0  0  0            999 V2000\n    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\n    0.0000    0.7572   -0.4692 H   0  0  0  0  0  0\n    0.0000   -0.7572   -0.4692 H   0  0  0  0  0  0\n  1  2  1  0\n  1  3  1  0\nM  CHG  1   1  -1\nM  END\n> <PUBCHEM_MMFF94_PARTIAL_CHARGES>\n2\n1 -0.8\n2 0.4\n\n$$$$\n' > "$d/v2000.sdf"
  printf 'v3\n\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 2 1 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0 CHG=1\nM  V30 2 O 1.2 0 -\nM  V30 0 0\nM  V30 END ATOM\nM  V30 BEGIN BOND\nM  V30 1 2 1 2\nM  V30 END BOND\nM  V30 END CTAB\nM  END\n> <atom.dprop.PartialCharge>\n0.1 -0.1\n\n$$$$\n' > "$d/v3000.sdf"
  sdf_records "$src/data/xiap_actives_docked.sdf.gz" 2 "$d/xiap.sdf"
  sdf_records "$shared/ligands_rdkit/egfr.sdf.gz" 2 "$d/egfr.sdf" ;;
esac
case $fmt in
mol2|gz)
  printf '@<TRIPOS>MOLECULE\nm\n 2 1 0 0 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n 1 C1 0 0 0 C.ar 1 L 0.1\n 2 N1 1.4 0 0 N.am 1 L -0.1\n@<TRIPOS>BOND\n 1 1 2 am\n' > "$d/small.mol2"
  first_records "$src/data/xiap_actives_docked.mol2.gz" 2 '^@<TRIPOS>MOLECULE' "$d/xiap.mol2"
  first_records "$shared/dude/inha/actives_final.mol2.gz" 2 '^@<TRIPOS>MOLECULE' "$d/inha.mol2" ;;
esac
case $fmt in
sdf|mol2) ;;
gz)
  for f in "$d"/*.sdf "$d"/*.mol2; do gzip -n -c "$f" > "$f.gz" && rm -f "$f"; done ;;
pdbqt)
  cp "$src/data/biotin.pdbqt" "$d/"
  printf 'REMARK  Name = x\nROOT\nATOM      1  N   UNL     1      16.714  51.912  14.876  1.00  0.00    -0.322 N \nENDROOT\nTORSDOF 0\n' > "$d/single.pdbqt"
  cut_lines "$shared/autodock_vina/1iep/1iep_ligand_vina_out.pdbqt" 120 "$d/vina_out.pdbqt"
  cut_lines "$src/data/1stp_receptor.pdbqt" 60 "$d/receptor.pdbqt" ;;
pdb)
  printf 'COMPND    x\nHETATM  904 FE   BTN A 300       8.147   5.373 -14.172  1.00 21.65\nEND\nMODEL 2\nATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00  0.00           C\nENDMDL\n' > "$d/small.pdb"
  [ -f "$shared/autodock_gpu/1stp/1stp_ligand.pdb" ] && cp "$shared/autodock_gpu/1stp/1stp_ligand.pdb" "$d/1stp_ligand.pdb"
  cut_lines "$shared/pdb/1mbo.pdb" 400 "$d/1mbo_head.pdb"
  [ -f "$d/1mbo_head.pdb" ] && grep -E '^(ATOM|HETATM|CONECT|END)' "$d/1mbo_head.pdb" | head -80 > "$d/1mbo.pdb" && rm -f "$d/1mbo_head.pdb" ;;
cif)
  # hand-written edge cases: quotes with quotes inside, '.' and '?', a ';' text field, columns
  # out of order, an insertion code, alternate locations, a two-character chain, two models,
  # a second data block; the head of the real 1MBO entry (data/) and its first 60 atoms
  printf "data_E\n_struct.title 'a dog's \"life\" # x'\n_struct.details\n;text loop_ _atom_site.x\n;\nloop_\n_atom_site.group_PDB\n_atom_site.label_atom_id\n_atom_site.label_alt_id\n_atom_site.label_comp_id\n_atom_site.auth_asym_id\n_atom_site.auth_seq_id\n_atom_site.pdbx_PDB_ins_code\n_atom_site.Cartn_z\n_atom_site.Cartn_y\n_atom_site.Cartn_x\n_atom_site.occupancy\n_atom_site.type_symbol\n_atom_site.pdbx_PDB_model_num\nATOM N . GLY A 1 ? 1.0 2.0 3.0 1.00 N 1\nATOM CA . GLY A 1 ? 1.5 2.1 4.4 1.00 C 1\nATOM C A GLY A 1 ? 2.9 2.0 4.9 0.40 C 1\nATOM C B GLY A 1 ? 2.8 2.2 4.8 0.60 C 1\nATOM O . GLY A 1 ?\n 3.3 1.0 5.5 1.00 O 1\nHETATM \"O\" . HOH AA 2 A 9.0 9.0 9.0 . O 1\nATOM N . GLY A 1 ? 0 0 0 1 N 2\ndata_F\n_atom_site.Cartn_x 1\n" > "$d/edge.cif"
  if [ -f "$src/data/1mbo.cif.gz" ]; then
    zcat "$src/data/1mbo.cif.gz" | head -n 120 > "$d/1mbo_head.cif"
    zcat "$src/data/1mbo.cif.gz" | awk 'NR == 1 { print; next } /^_atom_site\./ && !p { p = 1; print "loop_" }
                                        p && /^(ATOM|HETATM)/ && ++k > 60 { exit } p' > "$d/1mbo_atoms.cif"
  fi ;;
pqr)
  cut_lines "$src/data/fas2.pqr" 80 "$d/fas2.pqr"
  cut_lines "$src/data/1mbo.pqr.gz" 80 "$d/1mbo.pqr"
  printf 'ATOM 1 N MET 1 1.0 2.0 3.0 -0.3 1.8\nATOM      2  CA  MET A   1      -1.000   2.500   3.250  0.2100 1.9000\nTER\nEND\n' > "$d/small.pqr" ;;
dx|map|vsg)
  case $target in # the harness writes them with the library's writers, then runs nothing
  *_libfuzzer) VSG_FUZZ_WRITE_SEEDS=$d VSG_FUZZ_FORMAT=$fmt "$target" -runs=0 > /dev/null 2>&1 ;;
  *) VSG_FUZZ_WRITE_SEEDS=$d "$target" -seconds 0 -format "$fmt" > /dev/null ;;
  esac || { echo "FAIL: could not write the $fmt seeds"; exit 1; }
  case $fmt in dx) rm -f "$d/seed.vsg" "$d/seed.e.map" ;; map) rm -f "$d/seed.vsg" "$d/seed.dx" ;; vsg) rm -f "$d/seed.dx" "$d/seed.e.map" ;; esac ;;
fld)
  [ -f "$shared/autodock_gpu/1stp/1stp_protein.maps.fld" ] && cp "$shared/autodock_gpu/1stp/1stp_protein.maps.fld" "$d/1stp.maps.fld"
  printf '# AVS field file\n#SPACING 0.375\n#NELEMENTS 2 2 2\n#CENTER 0.0 0.0 0.0\n#MACROMOLECULE r.pdbqt\n#GRID_PARAMETER_FILE r.gpf\nndim=3\ndim1=3\ndim2=3\ndim3=3\nnspace=3\nveclen=3\ndata=float\nfield=uniform\ncoord 1 file=in.maps.xyz filetype=ascii offset=0\ncoord 2 file=in.maps.xyz filetype=ascii offset=2\ncoord 3 file=in.maps.xyz filetype=ascii offset=4\nlabel=C-affinity\nlabel=Electrostatics\nlabel=Desolvation\nvariable 1 file=in.C.map filetype=ascii skip=6\nvariable 2 file=in.e.map filetype=ascii skip=6\nvariable 3 file=in.d.map filetype=ascii skip=6\n' > "$d/small.maps.fld" ;;
gpf)
  for f in "$shared/autodock_gpu/1stp/1stp.gpf" "$shared/autodock_vina/1iep/1iep_receptor.gpf"; do [ -f "$f" ] && cp "$f" "$d/"; done
  printf 'npts 20 20 20\ngridfld r.maps.fld\nspacing 0.375\nreceptor_types A C HD N OA\nligand_types C HD OA\nreceptor r.pdbqt\ngridcenter 1.0 2.0 3.0\nsmooth 0.5\nmap r.C.map\nmap r.HD.map\nmap r.OA.map\nelecmap r.e.map\ndsolvmap r.d.map\ndielectric -0.1465\n' > "$d/small.gpf" ;;
*) echo "FAIL: unknown format $fmt"; exit 1 ;;
esac
# inputs that once crashed a reader (tests/fuzz/regressions/FORMAT) run first, as seeds
[ -d "$src/tests/fuzz/regressions/$fmt" ] && cp "$src/tests/fuzz/regressions/$fmt"/* "$d/"
n=$(find "$d" -type f | wc -l)
echo "$fmt: $n seed files in $d, $secs s from seed $seed"
export VSG_FUZZ_CRASH_DIR=$work
case $target in
*_libfuzzer) VSG_FUZZ_FORMAT=$fmt "$target" -max_total_time="$secs" -max_len=16384 -seed="$seed" -print_final_stats=1 "$d" ;;
*) "$target" -seconds "$secs" -seed "$seed" -max_len 16384 -format "$fmt" "$d" ;;
esac
