#!/usr/bin/env bash
# gpu_embed_and_depth.sh — one GPU host, from the repository root, in parts (one device call a
# part or a few): issue 29's heavy-atoms-first embedding against the embedding with hydrogens
# (VSG_RDKIT_EMBED_HYDROGENS=1, the bench switch), and issue 28's depth candidates.
# LIB_DIR (default .bench_data/c34) carries: ob/ and rdkit.tar.gz (scripts/gpu_smiles.sh),
# DUD-E INHA (actives_final.mol2.gz, decoys_final.mol2.gz, crystal_ligand.mol2, and
# {actives,decoys}.neutral.smi.gz from scripts/smiles_from_mol2.py), vina_all.txt (Vina's
# minima, scripts/gpu_depth_inha.sh) and shared/ (a copy of ../shared/data).
#   PART=build   the commit built with Open Babel and RDKit ($B), then the GPU and docking tests
#                (TESTS, default "test_gpu|cli_dock")
#   PART=smiles  INHA from MOL2 and from SMILES, heavy atoms first (default, --minimize 50 and 100)
#                and with hydrogens (SMILES_H=0: not); prepare-ligands on all threads and on one (scripts/gpu_smiles.sh)
#   PART=long    the same screens on INHA 8 times over (LONG_SCREENS, default "mol2x8 neutralx8"):
#                the GPU's busy fraction in the steady state, which a 2,389-record screen's start
#                and end hide
#   PART=redock  scripts/bench_redock_smiles.sh, arm ARMS (default smiles) on the GPU, once a run of
#                REDOCKS (below)
#   PART=depth   scripts/gpu_depth_inha.sh with CONFIGS (default: searches between balanced and
#                128 x 40 + 16 x 240), seeds SEEDS (default "0 7")
#   PART=pack    $OUT/results.tar.gz
# Usage: PART="build smiles pack" bash scripts/gpu_embed_and_depth.sh
set -u
export LIB_DIR=${LIB_DIR:-.bench_data/c34}
export B=${B:-/tmp/vsg28} OUT=${OUT:-/tmp/vsg28_out}
mkdir -p "$OUT"
export VSG_SHARED_DATA
VSG_SHARED_DATA=$(cd "$LIB_DIR/shared" && pwd)
cmake_args=$(bash scripts/gpu_smiles.sh --cmake-args) # unpacks rdkit.tar.gz once
RD=$(cd "$LIB_DIR/rdkit" && pwd) OB=$(cd "$LIB_DIR/ob" && pwd)
export LD_LIBRARY_PATH=$OB/lib:$RD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} BABEL_LIBDIR=$OB/plugins BABEL_DATADIR=$OB/data
for part in ${PART:-build smiles pack}; do
  echo "== $part ($(date +%T))"
  case $part in
  build)
    CMAKE_ARGS="$cmake_args" PART=build TESTS="${TESTS:-test_gpu|cli_dock}" bash scripts/gpu_issue28.sh 2>&1 | tail -40
    ;;
  smiles)
    runs="16_workers_default 16_workers_100 1_workers_default"
    W=$B/smiles_heavy SCREENS="mol2 neutral neutral:100" PREP_RUNS="$runs" bash scripts/gpu_smiles.sh
    [ "${SMILES_H:-1}" = 0 ] ||
      VSG_RDKIT_EMBED_HYDROGENS=1 W=$B/smiles_withH SCREENS="neutral" PREP_RUNS="$runs" bash scripts/gpu_smiles.sh
    ;;
  long)
    # the steady state: INHA 8 times over (19,112 records), from MOL2 and from SMILES; the table's
    # "docking window" is the GPU's busy fraction once started and before the last chunk
    W=$B/smiles_long SCREENS="${LONG_SCREENS:-mol2x8 neutralx8}" PREP=0 bash scripts/gpu_smiles.sh
    ;;
  redock)
    # REDOCKS: runs of the smiles arm, each "h" (every hydrogen in the embedding) or "r" (the
    # default) and RDKit's embedding seed, e.g. "r42 h42 r43 h43"; one line of successes a run
    for run in ${REDOCKS:-r42}; do
      withh=0 seed=${run:1}
      [ "${run:0:1}" = h ] && withh=1
      env VSG_RDKIT_EMBED_HYDROGENS=$withh VSG_RDKIT_SEED="$seed" VSGRID="$B/vsgrid" \
        OUTDIR="$B/redock_$run" ARMS="${ARMS:-smiles}" bash scripts/bench_redock_smiles.sh > "$B/redock_$run.txt" 2>&1
      echo "$run: $(awk -F'|' '/^\| [0-9][a-z0-9][a-z0-9][a-z0-9] / { gsub(/ /, "", $2); gsub(/ /, "", $5); printf "%s %s, ", $2, $5 }' "$B/redock_$run.txt")"
      grep "Success" "$B/redock_$run.txt"
    done
    ;;
  depth)
    cfgs=${CONFIGS:-"e112:--exhaustiveness 112 --steps 40 --focus-chains 16 --focus-steps 240;e128f200:--exhaustiveness 128 --steps 40 --focus-chains 16 --focus-steps 200;e112f200:--exhaustiveness 112 --steps 40 --focus-chains 16 --focus-steps 200"}
    [ "$cfgs" = none ] && cfgs= # CONFIGS=none: the balanced preset alone
    all=
    [ -n "$cfgs" ] && for s in ${SEEDS:-0 7}; do
      IFS=';' read -r -a list <<< "$cfgs"
      for c in "${list[@]}"; do all="$all${all:+;}${c%%:*}_s$s:${c#*:} --seed $s"; done
    done
    VINA_SCORES=$LIB_DIR/vina_all.txt SEARCH="balanced" CONFIGS="$all" bash scripts/gpu_depth_inha.sh 2>&1 | grep -E "within|records/s|s for"
    ;;
  pack)
    (cd "$B" && find smiles_* redock* depth -maxdepth 2 \( -name '*.csv' -o -name '*.txt' -o -name '*.tsv' -o -name '*.err' -o -name '*.log' \) -print0 2> /dev/null |
      tar -czf "$OUT/results.tar.gz" --null -T -)
    ls -la "$OUT"
    ;;
  esac
done
