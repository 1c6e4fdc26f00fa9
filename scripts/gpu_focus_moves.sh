#!/usr/bin/env bash
# gpu_focus_moves.sh — the GPU measurements of the focus chains' small moves (issue 28 item 6:
# vsg_dock_params.focus_amplitude; the presets keep the exploring chains' moves, 1; the bench
# switch VSG_FOCUS_AMPLITUDE sets it for a whole command) in one call a part, from the repository root of a GPU machine; LIB_DIR holds what is carried in (the
# INHA MOL2s, crystal_ligand.mol2, vina_all.txt: vina 1.2.3's minima of every 50th record, an
# Open Babel in ob/ and RDKit in rdkit/ as scripts/gpu_smiles.sh describes them, and shared/: the
# files `scripts/bench_redock_smiles.sh --files` lists, relative to ../shared/data).
#   PART=build   the tree as copied, built with CUDA, Open Babel and RDKit outside it ($B); the
#                GPU docking tests (skipped when $B/vsgrid is already there: the machine stayed warm)
#   PART=depth   scripts/gpu_depth_inha.sh against vina_all.txt: with small focus moves
#                (VSG_FOCUS_AMPLITUDE=0.1) and the presets as they are (the exploring chains'
#                moves), seeds SEEDS (default "0 7 3 11") for balanced, 0 and 7 for detail,
#                0 for fast: within 0.1 kcal/mol of vina, records/s of the whole INHA screen
#   PART=set42   scripts/bench_redock_set42.sh on the GPU (PRESETS, default "balanced detail"),
#                the presets as they are; with AMP=F, VSG_FOCUS_AMPLITUDE=F
#   PART=smiles  scripts/bench_redock_smiles.sh (its three arms) on the GPU, the 32 complexes
#                (AMP as for set42)
# Usage: LIB_DIR=.bench_data/c30 PART="build depth" bash scripts/gpu_focus_moves.sh
set -u
B=${B:-/tmp/vsg28}
OUT=${OUT:-/tmp/vsg28_out}
LIB_DIR=${LIB_DIR:-.bench_data}
export B OUT LIB_DIR
mkdir -p "$OUT"
for lib in "$LIB_DIR"/rdkit/lib "$LIB_DIR"/ob/lib; do
  [ -d "$lib" ] && export LD_LIBRARY_PATH=$(cd "$lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
[ -d "$LIB_DIR/ob" ] && export BABEL_LIBDIR=$(cd "$LIB_DIR/ob/plugins" && pwd) BABEL_DATADIR=$(cd "$LIB_DIR/ob/data" && pwd)
for part in ${PART:-build depth}; do
  case $part in
  build)
    if [ -x "$B/vsgrid" ]; then
      echo "build: $B/vsgrid is there (warm machine)"
      continue
    fi
    nvidia-smi --query-gpu=name --format=csv,noheader
    # the tree as copied (a .git there may be another commit's), built outside it
    rm -rf "$B"
    # shellcheck disable=SC2046 # the carried Open Babel's and RDKit's cmake words
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release $(LIB_DIR=$LIB_DIR bash scripts/gpu_smiles.sh --cmake-args) \
      > "$OUT/build.log" 2>&1 && cmake --build "$B" -j "$(nproc)" >> "$OUT/build.log" 2>&1 ||
      { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    (cd "$B" && ctest -R "${TESTS:-test_gpu_dock|test_dock$|cli_dock$|cli_dock_traps}" -j1 --output-on-failure 2>&1 |
      grep -E "tests passed|Failed|\*\*\*|focus|FAIL" | tail -20)
    grep -E "vsgrid: (Open Babel|RDKit)" "$OUT/build.log" | head -2
    ;;
  depth)
    cfg() { # label:args for each seed of a preset
      local p=$1 s
      shift
      for s in "$@"; do [ "$s" = 0 ] || echo -n "${p}_s$s:--search $p --seed $s;"; done
    }
    seeds=${SEEDS:-0 7 3 11}
    for amp in small full; do
      echo "== focus moves: $amp"
      [ $amp = small ] && export VSG_FOCUS_AMPLITUDE=0.1
      # shellcheck disable=SC2086 # seeds: words
      VINA_SCORES=$LIB_DIR/vina_all.txt SEARCH="fast balanced detail" \
        CONFIGS="$(cfg balanced $seeds)$(cfg detail 0 7)" OUT=$OUT/$amp bash scripts/gpu_depth_inha.sh 2>&1 |
        grep -E "within|records/s|s for"
      unset VSG_FOCUS_AMPLITUDE
    done
    ;;
  set42)
    [ -n "${AMP:-}" ] && export VSG_FOCUS_AMPLITUDE=$AMP
    o=$OUT/set42_amp${AMP:-preset}
    VSGRID=$B/vsgrid OUTDIR=$o PART="vsgrid table" PRESETS="${PRESETS:-balanced detail}" DOCK_ARGS="--devices gpu" \
      REFINE=1 VSG_SHARED_DATA=$(cd "$LIB_DIR/shared" && pwd) bash scripts/bench_redock_set42.sh 2>&1 | head -16
    find "$o" -name "maps.*.map" -delete
    unset VSG_FOCUS_AMPLITUDE
    ;;
  smiles)
    [ -n "${AMP:-}" ] && export VSG_FOCUS_AMPLITUDE=$AMP
    OB_DIR=$LIB_DIR/ob VSGRID=$B/vsgrid VSG_SHARED_DATA=$(cd "$LIB_DIR/shared" && pwd) OUTDIR=$OUT/redock_smiles \
      bash scripts/bench_redock_smiles.sh 2>&1 | tail -45
    unset VSG_FOCUS_AMPLITUDE
    ;;
  esac
done
