#!/usr/bin/env bash
# fuzz.sh — fuzzes the readers with the harnesses of tests/fuzz, built by CMake from the library
# itself (vsgrid_core: no source list to keep here), under AddressSanitizer and UBSan:
#   with clang: libFuzzer, coverage-guided (-DVSG_FUZZ=ON, targets fuzz_*_libfuzzer);
#   otherwise, or with VSG_FUZZ_ENGINE=driver: the deterministic mutation driver
#   (tests/fuzz/fuzz_driver.c, the one ctest -L fuzz runs for a few seconds per reader).
# Each case runs SECONDS (default 60) on seeds from data/ and ../shared/data (or
# $VSG_SHARED_DATA), made by tests/fuzz/fuzz_run.sh.
#
#   scripts/fuzz.sh [SECONDS] [CASE...]
#   CASE: ligand:sdf ligand:mol2 ligand:pdbqt ligand:pdb ligand:gz (the ligand readers) and
#         grid:pqr grid:pdbqt grid:pdb grid:cif grid:dx grid:map grid:fld grid:gpf grid:vsg (receptor,
#         PDB and mmCIF preparation and grid readers); default: all. A bare format means ligand: for
#         sdf mol2 pdbqt pdb gz and grid: for the others.
#
# The build and each case's work folder (seeds, libFuzzer's corpus, crash-* files, log_*.txt)
# are in $VSG_FUZZ_DIR (default /tmp/vsg-fuzz); VSG_FUZZ_SEED=N picks the random seed (1);
# VSG_FUZZ_BUILD=DIR reuses a build folder (for the driver: a VSG_SANITIZE=ON build).
# Exits non-zero if any case found a crash.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(ligand:sdf ligand:mol2 ligand:pdbqt ligand:pdb ligand:gz grid:pqr grid:pdbqt
                                 grid:pdb grid:cif grid:dx grid:map grid:fld grid:gpf grid:vsg)
work=${VSG_FUZZ_DIR:-/tmp/vsg-fuzz}
seed=${VSG_FUZZ_SEED:-1}
mkdir -p "$work"

engine=${VSG_FUZZ_ENGINE:-}
cc=$(command -v clang || command -v clang-14 || true)
if [ -z "$engine" ]; then
  if [ -n "$cc" ]; then engine=libfuzzer; else engine=driver; fi
fi
build=${VSG_FUZZ_BUILD:-$work/build-$engine}  # VSG_FUZZ_BUILD: an existing build folder to reuse
echo "fuzz.sh: $engine build in $build"
if [ "$engine" = libfuzzer ]; then
  # C only under clang (Open Babel's C++ would bring the other compiler's sanitizer runtime)
  cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER="$cc" -DVSG_SANITIZE=ON -DVSG_FUZZ=ON -DVSG_CUDA=OFF \
        -DVSG_OPENBABEL=OFF -DVSG_MPI=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$work/cmake.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target fuzz_ligand_reader_libfuzzer fuzz_grid_readers_libfuzzer \
        >> "$work/cmake.log" 2>&1 || { echo "build failed: see $work/cmake.log"; exit 2; }
  suffix=_libfuzzer
else
  cmake -S "$here" -B "$build" -DVSG_SANITIZE=ON -DVSG_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        > "$work/cmake.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target fuzz_ligand_reader fuzz_grid_readers >> "$work/cmake.log" 2>&1 ||
    { echo "build failed: see $work/cmake.log"; exit 2; }
  suffix=
fi

# big allocations a fuzzed header asks for return NULL (the reader's VSG_E_NOMEM), not a report
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=2048:detect_leaks=1}
status=0
for c in "${cases[@]}"; do
  case $c in
  *:*) ;;
  sdf|mol2|pdbqt|pdb|gz) c=ligand:$c ;;
  *) c=grid:$c ;;
  esac
  kind=${c%%:*} fmt=${c#*:}
  target=fuzz_grid_readers
  [ "$kind" = ligand ] && target=fuzz_ligand_reader
  dir=$work/${kind}_$fmt
  echo "== $c: $secs s"
  start=$(date +%s)
  if ! bash "$here/tests/fuzz/fuzz_run.sh" "$build/tests/fuzz/$target$suffix" "$fmt" "$secs" "$here" "$dir" "$seed" \
       > "$work/log_${kind}_$fmt.txt" 2>&1; then
    echo "   $c: FAILED after $(( $(date +%s) - start )) s, see $work/log_${kind}_$fmt.txt and $dir/crash-*"
    status=1
  fi
  grep -E "runs in|^stat::number_of_executed_units|^#[0-9]+.*DONE|SKIPPED-PART" "$work/log_${kind}_$fmt.txt" | sed 's/^/   /'
done
exit $status
