#!/usr/bin/env bash
# bench_mpi_pb.sh — PB over MPI on GPUs (issue 7): a 513³ linear PB with --device gpu under
# `mpirun -np 1` and `-np 2` (one rank per GPU: rank r takes GPU local-rank % GPUs), per
# precision. Builds nothing: give it the vsgrid binary. Run ON the GPU host.
#
# Case: 1STP (data/1stp_receptor.pdbqt), a 256 Å cube around the biotin site at 0.5 Å spacing
# = 513³ nodes (--box: nodes = length/spacing + 1), SES, 0.15 M salt (linear PB), sdh faces
# (cheap to set up; the faces do not change the time per iteration).
#
# Prints, from each run's --json (mpi.seconds_per_iteration and mpi.comm_seconds for > 1 rank;
# solver.seconds_per_iteration for 1 rank):
#   precision, ranks, GPUs, halo path (ipc: GPU to GPU through CUDA IPC, MPI carries zero-byte
#   tokens; staged: through pinned host memory and MPI; - for 1 rank), iterations, ms/iteration,
#   speed-up over 1 rank, comm ms/iteration
#   (time ranks spend waiting for halos + the convergence allreduce, i.e. not hidden behind the
#   interior sweep), halo MiB sent per iteration by rank 0, and the check that the 2-rank run
#   took the same iterations and gave the same energy.
# Then a weak-scaling estimate for 2 → 8 GPUs (per-rank slab fixed at the measured 2-rank slab):
#   t(N) = P·c + h·s(N) + a·log2(N)
#   c    = compute per plane per iteration, from the 2-rank run: (ms/it − comm ms/it) / P,
#   P    = planes per rank (fixed), h = exposed halo time per iteration of a rank with one
#   neighbour (comm − allreduce), s(N) = 1 for N = 2, 2 for N ≥ 3 (inner slabs have two
#   neighbours; halo bytes per rank per iteration are fixed by the plane size, not by N),
#   a = the allreduce per iteration at 2 ranks (a tree: log2 N steps).
#   efficiency E(N) = P·c / t(N); speed-up over one GPU on the N-times-taller grid = N·E(N).
# The model ignores contention for host memory and PCIe (staged) or NVLink (ipc) among more GPUs
# of one host and assumes the same GPU everywhere.
#
# Usage: scripts/bench_mpi_pb.sh VSGRID [RECEPTOR]
# Knobs: PRECISIONS ("float double"), NPS ("1 2"), N (513), SPACING (0.5), EXTRA (more grid options),
#        HALOS ("ipc staged": each multi-rank run once per halo path, as VSG_SLAB_IPC=1 / 0; a run
#        asked for ipc that fell back prints "staged!" and the rank's warning says why)
set -u
cd "$(dirname "$0")/.."
vsgrid=${1:?usage: bench_mpi_pb.sh VSGRID [RECEPTOR]}
receptor=${2:-data/1stp_receptor.pdbqt}
[ -x "$vsgrid" ] || { echo "not an executable: $vsgrid"; exit 1; }
"$vsgrid" --version | grep -q "(MPI)" || { echo "$vsgrid was built without MPI"; exit 1; }
command -v mpirun > /dev/null 2>&1 || { echo "mpirun not found"; exit 1; }
PRECISIONS=${PRECISIONS:-"float double"}
NPS=${NPS:-"1 2"}
N=${N:-513}
SPACING=${SPACING:-0.5}
EXTRA=${EXTRA:-}
HALOS=${HALOS:-"ipc staged"}
centre="10.734,2.033,-11.537"
len=$(awk -v n="$N" -v h="$SPACING" 'BEGIN { printf "%.4f", (n - 1) * h }')
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=(mpirun)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
for v in OMP_NUM_THREADS VSG_SOR_ZB VSG_SLAB_LOOKAHEAD; do [ -n "${!v:-}" ] && mpi+=(-x "$v"); done

# json_val FILE KEY: the first "KEY": value (the solver block's, for the shared keys).
json_val() { awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v; exit }' "$1"; }
# mpi_val FILE KEY: KEY inside the "mpi" object.
mpi_val() {
  awk -v k="\"$2\":" '/"mpi": \{/ { m = 1; next } m && /^ *\}/ { exit } m && $1 == k { v = $2; gsub(/,/, "", v); print v; exit }' "$1"
}

echo "vsgrid: $("$vsgrid" --version | head -1)"
echo "GPUs: $gpus"; nvidia-smi -L 2> /dev/null
echo "MPI: $(mpirun --version 2>&1 | head -1)"
cuda_aware=$(ompi_info --parsable --all 2> /dev/null | grep -m1 'mpi_built_with_cuda_support:value' | sed 's/.*://')
echo "Open MPI built with CUDA support: ${cuda_aware:-unknown} (not used: halos go by CUDA IPC or pinned host memory)"
echo "case: $receptor, ${N}^3 at $SPACING Å (box $len Å), --salt 0.15 --bc sdh --device gpu $EXTRA"
echo

rows=()
for prec in $PRECISIONS; do
  for np in $NPS; do
    halos=$HALOS
    [ "$np" -gt 1 ] || halos="-"
    for want in $halos; do
      tag="$prec.$np.$want"
      j="$work/$tag.json"
      env=()
      case $want in ipc) env=(-x VSG_SLAB_IPC=1) ;; staged) env=(-x VSG_SLAB_IPC=0) ;; esac
      if ! "${mpi[@]}" "${env[@]}" -np "$np" "$vsgrid" grid "$receptor" --box "$centre,$len,$len,$len" \
        --spacing "$SPACING" --salt 0.15 --bc sdh --device gpu --precision "$prec" --quiet --json "$j" \
        -o "$work/grid.vsg" $EXTRA > "$work/$tag.out" 2> "$work/$tag.err"; then
        echo "FAILED: $prec -np $np halo $want:"; tail -5 "$work/$tag.err"; continue
      fi
      rm -f "$work/grid.vsg"
      it=$(json_val "$j" iterations) e=$(json_val "$j" total_energy_kt)
      if [ "$np" -gt 1 ]; then
        spi=$(mpi_val "$j" seconds_per_iteration) comm=$(mpi_val "$j" comm_seconds)
        ar=$(mpi_val "$j" allreduce_seconds) halo=$(mpi_val "$j" halo_bytes_sent_rank0)
        pmin=$(mpi_val "$j" planes_per_rank_min) pmax=$(mpi_val "$j" planes_per_rank_max)
        path=$(mpi_val "$j" halo_path | tr -d '"')
        path=${path:-?}
        if [ "$want" = ipc ] && [ "$path" != ipc ]; then
          path="$path!"; grep -m2 'warning' "$work/$tag.err"
        fi
      else
        spi=$(json_val "$j" seconds_per_iteration) comm=0 ar=0 halo=0 pmin=$((N - 2)) pmax=$((N - 2)) path=-
      fi
      rows+=("$prec $np $it $spi $comm $ar $halo $pmin $pmax $e $path")
    done
  done
done

printf '%-9s %5s %4s %-7s %6s %12s %9s %16s %14s %9s  %s\n' precision ranks GPUs halo iter ms/iteration \
  speed-up "comm ms/iteration" "halo MiB/iter" planes "same as 1 rank"
declare -A base
for r in "${rows[@]}"; do set -- $r; [ "$2" = 1 ] && base[$1]="$3 $4 ${10}"; done
for r in "${rows[@]}"; do
  set -- $r
  read -r bit bspi be <<< "${base[$1]:-0 0 x}"
  same="-"
  if [ "$2" != 1 ] && [ "$bit" != 0 ]; then
    if [ "$3" = "$bit" ] && [ "${10}" = "$be" ]; then same=yes; else same="NO (1 rank: $bit it, $be kT; here $3 it, ${10} kT)"; fi
  fi
  g=$(( $2 < gpus ? $2 : gpus ))
  awk -v p="$1" -v np="$2" -v g="$g" -v it="$3" -v spi="$4" -v comm="$5" -v halo="$7" -v pmin="$8" -v pmax="$9" \
      -v bspi="$bspi" -v same="$same" -v path="${11}" 'BEGIN {
    su = (bspi > 0 && spi > 0) ? bspi / spi : 0
    printf "%-9s %5d %4d %-7s %6d %12.3f %8.2fx %16.3f %14.2f %4d..%-4d %s\n", p, np, g, path, it, 1e3 * spi, su,
      (it > 0 ? 1e3 * comm / it : 0), (it > 0 ? halo / it / 1048576 : 0), pmin, pmax, same }'
done

echo
echo "weak scaling estimate (per-rank slab fixed; model in the header of this script):"
printf '%-9s %-7s %4s %8s %14s %12s %11s %18s\n' precision halo GPUs planes "grid (z)" ms/iteration efficiency \
  "speed-up vs 1 GPU"
for r in "${rows[@]}"; do
  set -- $r
  [ "$2" = 2 ] || continue
  awk -v p="$1" -v path="${11}" -v it="$3" -v spi="$4" -v comm="$5" -v ar="$6" -v P="$9" 'BEGIN {
    if (it <= 0) exit
    t2 = 1e3 * spi; cm = 1e3 * comm / it; a = 1e3 * ar / it; h = cm - a
    if (h < 0) h = 0
    c = (t2 - cm) / P
    for (n = 2; n <= 8; n += 2) {
      s = n >= 3 ? 2 : 1
      t = P * c + h * s + a * log(n) / log(2)
      e = P * c / t
      printf "%-9s %-7s %4d %8d %14d %12.3f %10.0f%% %17.2fx\n", p, path, n, P, n * P + 2, t, 100 * e, n * e
    }
    printf "%-9s %-7s   (c = %.4f ms/plane, h = %.3f ms exposed halo per neighbour, a = %.3f ms allreduce at 2 ranks)\n",
      p, path, c, h, a
  }'
done
