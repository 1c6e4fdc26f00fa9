#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer harness of the ligand readers (tests/fuzz/fuzz_ligand_reader.c)
# with clang, AddressSanitizer and UndefinedBehaviorSanitizer against the ligand sources, and
# fuzzes each format for SECONDS seconds (default 60) from a small seed corpus (hand-written
# records plus the first records of the shared/data libraries when present).
#
#   scripts/fuzz.sh [SECONDS] [FORMAT...]       FORMAT: sdf mol2 pdbqt pdb (default: all)
#
# Crashes are left as crash-* files in the work folder ($VSG_FUZZ_DIR, default /tmp/vsg-fuzz);
# the script exits non-zero if any format found one.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
formats=("$@")
[ ${#formats[@]} -eq 0 ] && formats=(sdf mol2 pdbqt pdb)
work=${VSG_FUZZ_DIR:-/tmp/vsg-fuzz}
cc=${CC_FUZZ:-$(command -v clang || command -v clang-14)}
mkdir -p "$work"

# The reader needs only the ligand reading sources, errors.c and textio's number parser.
srcs=("$here"/ligands/ligand.c "$here"/ligands/readers/ligand_reader.c "$here"/ligands/readers/read_sdf.c
      "$here"/ligands/readers/read_mol2_lib.c "$here"/ligands/readers/read_pdbqt_lib.c
      "$here"/ligands/readers/read_pdb_lib.c "$here"/grids/base/errors.c "$here"/grids/base/textio.c
      "$here"/ligands/readers/inflate.c "$here"/ligands/readers/read_ahead.c
      "$here"/ligands/readers/record_helpers.c "$here"/ligands/readers/line_source.c)
# the inflater the build would use: ISA-L where its header is installed, zlib otherwise
isal=() isal_lib=()
if [ -f /usr/include/isa-l/igzip_lib.h ]; then isal=(-DVSG_HAVE_ISAL=1) isal_lib=(-lisal); fi
"$cc" -std=c11 -g -O1 -DVSG_VERSION=\"fuzz\" "${isal[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
      -I"$here" \
      "$here"/tests/fuzz/fuzz_ligand_reader.c "${srcs[@]}" "${isal_lib[@]}" -lz -lm -o "$work/fuzz_ligand_reader"

seed() { # seed FORMAT: a few records of that format
    local d="$work/corpus_$1" data="$here/../shared/data"
    mkdir -p "$d"
    case $1 in
    sdf)
        printf 'water\n  test\n\n  3  2  0  0  0  0            999 V2000\n    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\n    0.0000    0.7572   -0.4692 H   0  0  0  0  0  0\n    0.0000   -0.7572   -0.4692 H   0  0  0  0  0  0\n  1  2  1  0\n  1  3  1  0\nM  CHG  1   1  -1\nM  END\n> <PUBCHEM_MMFF94_PARTIAL_CHARGES>\n2\n1 -0.8\n2 0.4\n\n$$$$\n' > "$d/v2000"
        printf 'v3\n\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 2 1 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0 CHG=1\nM  V30 2 O 1.2 0 -\nM  V30 0 0\nM  V30 END ATOM\nM  V30 BEGIN BOND\nM  V30 1 2 1 2\nM  V30 END BOND\nM  V30 END CTAB\nM  END\n> <atom.dprop.PartialCharge>\n0.1 -0.1\n\n$$$$\n' > "$d/v3000"
        [ -f "$data/ligands_rdkit/egfr.sdf.gz" ] && zcat "$data/ligands_rdkit/egfr.sdf.gz" | head -120 > "$d/egfr" ;;
    mol2)
        printf '@<TRIPOS>MOLECULE\nm\n 2 1 0 0 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n 1 C1 0 0 0 C.ar 1 L 0.1\n 2 N1 1.4 0 0 N.am 1 L -0.1\n@<TRIPOS>BOND\n 1 1 2 am\n' > "$d/small"
        [ -f "$data/dude/inha/actives_final.mol2.gz" ] && zcat "$data/dude/inha/actives_final.mol2.gz" | head -220 > "$d/actives" ;;
    pdbqt)
        [ -f "$data/autodock_vina/1iep/1iep_ligand_vina_out.pdbqt" ] && head -c 6000 "$data/autodock_vina/1iep/1iep_ligand_vina_out.pdbqt" > "$d/vina"
        printf 'REMARK  Name = x\nROOT\nATOM      1  N   UNL     1      16.714  51.912  14.876  1.00  0.00    -0.322 N \nENDROOT\nTORSDOF 0\n' > "$d/single" ;;
    pdb)
        printf 'COMPND    x\nHETATM  904 FE   BTN A 300       8.147   5.373 -14.172  1.00 21.65\nEND\nMODEL 2\nATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00  0.00           C\nENDMDL\n' > "$d/small"
        [ -f "$data/autodock_gpu/1stp/1stp_ligand.pdb" ] && cp "$data/autodock_gpu/1stp/1stp_ligand.pdb" "$d/1stp" ;;
    esac
    true
}

status=0
for f in "${formats[@]}"; do
    seed "$f"
    echo "== $f: fuzzing for $secs s"
    if ! (cd "$work" && VSG_FUZZ_FORMAT=$f ./fuzz_ligand_reader -max_total_time="$secs" -max_len=8192 \
            -print_final_stats=1 "corpus_$f" 2>"$work/log_$f.txt"); then
        echo "   $f: FAILED, see $work/log_$f.txt and $work/crash-*"
        status=1
    fi
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE" "$work/log_$f.txt" | sed 's/^/   /' || true
done
exit $status
