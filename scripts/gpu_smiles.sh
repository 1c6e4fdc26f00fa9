#!/usr/bin/env bash
# gpu_smiles.sh — issue 29's GPU measurements in one call, from the repository root of a GPU
# machine, after `PART=build CMAKE_ARGS="$(bash scripts/gpu_smiles.sh --cmake-args)" bash
# scripts/gpu_issue28.sh` built vsgrid with the Open Babel carried in .bench_data/ob (the GPU
# hosts have none: include/openbabel3, lib/libopenbabel.so*, plugins/ = Debian's
# /usr/lib/x86_64-linux-gnu/openbabel/3.1.1, data/ = /usr/share/openbabel/3.1.1).
#   DUD-E INHA screened at --search S (default balanced, --receptor) from its 3D MOL2 and from
#   SMILES written from that MOL2 (.bench_data/{actives,decoys}.{neutral,charged}.smi.gz: the
#   MOL2's molecules, neutralised / as protonated in the MOL2, names kept), the SMILES prepared
#   by vsgrid (--ph 7.4, the default) while the GPU docks: whole-command time, statuses, ROC AUC,
#   mean best score, and the GPU's utilisation sampled every 200 ms during each screen;
#   `prepare-ligands` alone on all cores and on one (molecules/s/core), with the preparing
#   processes (the default) and in one process (VSG_PREP_WORKERS=0), at the default 100 force-field
#   steps and at --minimize 0 (the builder's coordinates).
# SCREENS: which screens (default "mol2 neutral charged"; neutral:N: at --minimize N; neutral@openbabel:
# built by Open Babel; neutral+N: --conformers N; neutralx8 or mol2x8: the library 8 times over, a
# long screen whose docking-window busy fraction is the steady state's); PREP: 0
# skips prepare-ligands. W: the work folder (default $B/smiles; its last name is the folder under
# $OUT the results go to, so two runs with different environments keep theirs).
# Usage: bash scripts/gpu_smiles.sh          (B: the build, OUT: results)
set -u
LIB_DIR=${LIB_DIR:-.bench_data}
OB=$(cd "$LIB_DIR/ob" 2> /dev/null && pwd)
# RDKit carried in as .bench_data/rdkit.tar.gz (rdkit/include: the RDKit and Boost headers that
# ligands/prepare/embed_rdkit.cpp includes, listed by g++ -M; rdkit/lib: Debian's RDKit libraries
# and the Boost ones they need), unpacked here once
[ -f "$LIB_DIR/rdkit.tar.gz" ] && [ ! -d "$LIB_DIR/rdkit" ] && tar xzf "$LIB_DIR/rdkit.tar.gz" -C "$LIB_DIR"
RD=$(cd "$LIB_DIR/rdkit" 2> /dev/null && pwd)
if [ "${1:-}" = --cmake-args ]; then
  echo -n "-DVSG_OPENBABEL=ON -DVSG_OPENBABEL_INCLUDE_DIR=$OB/include/openbabel3 -DVSG_OPENBABEL_LIBRARY=$OB/lib/libopenbabel.so"
  [ -n "$RD" ] && echo -n " -DVSG_RDKIT=ON -DVSG_RDKIT_INCLUDE_DIR=$RD/include/rdkit -DVSG_BOOST_INCLUDE_DIR=$RD/include -DVSG_RDKIT_LIBRARY_DIR=$RD/lib"
  echo
  exit 0
fi
B=${B:-/tmp/vsg28}
OUT=${OUT:-/tmp/vsg28_out}
S=${SEARCH:-balanced}
export LD_LIBRARY_PATH=$OB/lib${RD:+:$RD/lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} BABEL_LIBDIR=$OB/plugins BABEL_DATADIR=$OB/data
V=$B/vsgrid W=${W:-$B/smiles}
mkdir -p "$W" "$OUT/${W##*/}"
rec=data/inha/receptor.pdbqt
"$V" maps "$rec" --scoring vina --around "$LIB_DIR/crystal_ligand.mol2" -o "$W/m" --quiet
zcat "$LIB_DIR/actives_final.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { getline; print $1 }' | sort -u > "$W/actives.txt"
gpu_busy() { # mean utilisation (%) of GPU 0 over the samples in $1, then over the docking window
  # (from its first to its last sample of >= 90%: what a library long enough to hide the start,
  # the chunks' ramp and the last chunk's finish would keep)
  awk -F, '{ gsub(/[ %]/, "", $1); if ($1 != "") { v[++n] = $1 + 0; s += $1; if ($1 + 0 >= 90) { if (!a) a = n; b = n } } }
    END { if (n) printf "%.0f%% (%d samples)", s / n, n
          if (a) { w = 0; for (i = a; i <= b; i++) w += v[i]; printf "; docking window %.0f%% (%d)", w / (b - a + 1), b - a + 1 } }' "$1"
}
echo "| input | s | records/s | statuses | ROC AUC | mean best score | GPU busy |"
echo "|---|--:|--:|---|--:|--:|--:|"
for run in ${SCREENS:-mol2 neutral charged}; do
  confs=${run#*+} run=${run%+*} # neutral+3: up to 3 ring conformers a molecule (--conformers)
  [ "$confs" = "$run" ] && confs=
  embed=${run#*@} run=${run%@*} # neutral@openbabel: built by Open Babel (--embed)
  [ "$embed" = "$run" ] && embed=
  input=${run%%:*} extra=() # neutral:20: the neutral SMILES at --minimize 20
  [ "$run" != "$input" ] && extra=(--minimize "${run#*:}")
  [ -n "$embed" ] && extra+=(--embed "$embed")
  [ -n "$confs" ] && extra+=(--conformers "$confs")
  times=${input#*x} input=${input%x*} # neutralx8: the library 8 times over (a long screen; its AUC
  [ "$times" = "$input" ] && times=1  # ranks a name by its best of 8 seeds)
  case $input in
  mol2) libs=("$LIB_DIR/actives_final.mol2.gz" "$LIB_DIR/decoys_final.mol2.gz") ;;
  *) libs=("$LIB_DIR/actives.$input.smi.gz" "$LIB_DIR/decoys.$input.smi.gz") ;;
  esac
  if [ "$times" -gt 1 ]; then
    ext=smi
    [ "$input" = mol2 ] && ext=mol2
    long=$W/${input}x$times.$ext.gz
    for ((k = 0; k < times; k++)); do for l in "${libs[@]}"; do zcat -f "$l"; done; done | gzip -1 > "$long"
    libs=("$long")
  fi
  input=${run/:/_min}${embed:+_$embed}${confs:+_conf$confs} # the files' and the table's name
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader -lms 200 > "$W/util_$input.txt" 2> /dev/null &
  smi_pid=$!
  t0=$(date +%s.%N)
  "$V" screen "$W/m" "${libs[@]}" --scoring vina --placement flexible --search "$S" --receptor "$rec" \
    "${extra[@]}" -o "$W/$input.csv" --quiet 2> "$W/$input.err"
  t1=$(date +%s.%N)
  kill "$smi_pid" 2> /dev/null
  n=$(($(wc -l < "$W/$input.csv") - 1))
  auc=$("$V" enrich "$W/$input.csv" --actives "$W/actives.txt" | grep -m1 "ROC AUC" | grep -o '[0-9]\.[0-9]*' | head -1)
  mean=$(awk -F, 'NR > 1 && $6 != "" { s += $6; k++ } END { if (k) printf "%.3f", s / k }' "$W/$input.csv")
  st=$(sed 1d "$W/$input.csv" | sed -E 's/.*,([a-z_0-9]+),("[^"]*"|[^",]*),[01]?,[a-z_;]*$/\1/' | sort | uniq -c | tr '\n' ' ')
  awk -v a="$t0" -v b="$t1" -v n="$n" -v i="$input" -v st="$st" -v auc="$auc" -v m="$mean" -v g="$(gpu_busy "$W/util_$input.txt")" \
    'BEGIN { printf "| %s | %.2f | %.0f | %s | %s | %s | %s |\n", i, b - a, n / (b - a), st, auc, m, g }'
done
# preparation alone: all cores (preparing processes, then one process), then one core
zcat "$LIB_DIR/decoys.neutral.smi.gz" | head -300 > "$W/first300.smi"
zcat "$LIB_DIR/decoys.neutral.smi.gz" | head -1500 > "$W/first1500.smi"
[ "${PREP:-1}" = 0 ] || for run in ${PREP_RUNS:-"$(nproc) workers 100" "$(nproc) workers 0" "$(nproc) inprocess 100" "$(nproc) inprocess 0" "1 workers 100"}; do
  set -- ${run//_/ } # "16_workers_default_rdkit": threads, where, --minimize (default: none given), --embed
  th=$1 mode=$2 steps=$3 emb=${4:-} in=$W/first1500.smi
  opt=()
  [ "$steps" != default ] && opt+=(--minimize "$steps")
  [ -n "$emb" ] && opt+=(--embed "$emb")
  [ "$th" = 1 ] && in=$W/first300.smi
  wk=
  [ "$mode" = inprocess ] && wk=0
  t0=$(date +%s.%N)
  VSG_PREP_WORKERS=$wk "$V" prepare-ligands "$in" -o "$W/prep_$th$mode$steps$emb.sdf" --threads "$th" "${opt[@]}" > /dev/null 2> "$W/prep_$th$mode$steps$emb.err"
  t1=$(date +%s.%N)
  n=$(grep -c '^\$\$\$\$' "$W/prep_$th$mode$steps$emb.sdf")
  awk -v a="$t0" -v b="$t1" -v n="$n" -v th="$th" -v m="$mode" -v s="$steps" -v e="${emb:-default}" 'BEGIN { printf "prepare-ligands, %d thread(s), %s, --minimize %s, --embed %s: %d molecules in %.2f s: %.1f molecules/s, %.1f a core\n", th, m, s, e, n, b - a, n / (b - a), n / (b - a) / th }'
done
cp "$W"/*.csv "$W"/*.err "$W"/util_*.txt "$OUT/${W##*/}/" 2> /dev/null
