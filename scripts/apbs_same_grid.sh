#!/usr/bin/env bash
# Time to solution against APBS on the same grid and machine: the 1STP receptor, linear PB, 0.15 M
# 1:1 salt (ion radius 2 Å), pdie 2, sdie 78.54, SES (srad 1.4), spl0, mdh faces, 161³ at 0.5 Å and
# 257³ at 0.33 Å centred on the biotin site (the boxes of gpu_check.sh's end-to-end runs). APBS
# mg-manual solves by multigrid; vsgrid by SOR on the GPU (float and double) and as the CPU twin.
# Prints wall time of each whole command, the solver time (APBS: "Vmgdrv2: solve" CPU seconds from
# io.mc; vsgrid: time_to_solution_seconds from --json), and the total energies (kT).
#   scripts/apbs_same_grid.sh VSGRID [SIZES]     SIZES default "161 257"
# A size may carry its spacing, N:H (e.g. 513:0.2). RECEPTOR (any file vsgrid reads) and CENTRE
# ("x,y,z") replace the 1STP receptor and the biotin-site centre, e.g. for the larger AChBP:
#   RECEPTOR=../shared/data/pqr/apbs_misc/achbp.pqr.gz CENTRE=45.64,44.19,27.92 \
#       scripts/apbs_same_grid.sh build/vsgrid "289:0.33 513:0.2"
# RUNS (default "gpu float,gpu double,cpu double") chooses the vsgrid runs.
set -u
vsgrid=$1
sizes=${2:-"161 257"}
case "$vsgrid" in /*) ;; *) vsgrid="$PWD/$vsgrid" ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/lib_apbs.sh"
command -v apbs >/dev/null 2>&1 || { echo "skipped: apbs not on PATH"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
receptor=${RECEPTOR:-$here/data/1stp_receptor.pdbqt}
centre=${CENTRE:-10.734,2.033,-11.537}
"$vsgrid" info "$receptor" --pqr receptor.pqr >/dev/null || exit 2
rt_kj=$(awk 'BEGIN { printf "%.9f", 8.314462618e-3 * 298.15 }')
now() { date +%s.%N; }
printf '%-6s %-22s %10s %10s %10s %16s\n' grid run wall_s solve_s start_s total_energy_kT
for n in $sizes; do
  case $n in
    *:*) h=${n#*:}; n=${n%%:*} ;;
    161) h=0.5 ;;
    257) h=0.33 ;;
    *) echo "size $n: no spacing known (give N:H)"; continue ;;
  esac
  len=$(awk -v n="$n" -v h="$h" 'BEGIN { printf "%.4f", (n - 1) * h }')
  cat >apbs.in <<EOF
read
    mol pqr receptor.pqr
end
elec name pot
    mg-manual
    dime $n $n $n
    grid $h $h $h
    gcent $(echo "$centre" | tr ',' ' ')
EOF
  apbs_elec_body >> apbs.in
  t0=$(now)
  apbs apbs.in >apbs.log 2>&1
  ta=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
  solve=$(awk '/stopping timer 30 \(Vmgdrv2: solve\)/ { gsub(/.*CPU TIME = /, ""); print $1 + 0 }' io.mc | tail -1)
  e_kj=$(awk '/Total electrostatic energy/ { print $5 }' apbs.log | tail -1)
  e_kt=$(awk -v e="${e_kj:-nan}" -v r="$rt_kj" 'BEGIN { printf "%.5f", e / r }')
  printf '%-6s %-22s %10s %10.4f %10s %16s\n' "${n}^3" "APBS 3.4.1 (mg)" "$ta" "${solve:-nan}" - "$e_kt"
  IFS=, read -r -a runs <<<"${RUNS:-gpu float,gpu double,cpu double}"
  for run in "${runs[@]}"; do
    set -- $run
    t0=$(now)
    "$vsgrid" grid receptor.pqr -o g.vsg --box "$centre,$len,$len,$len" --spacing "$h" --salt 0.15 \
      --device "$1" --precision "$2" --quiet --json g.json >/dev/null 2>&1 || { echo "vsgrid $run failed"; continue; }
    tv=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    tts=$(awk -F': ' '/"time_to_solution_seconds"/ { gsub(/,/, "", $2); print $2 }' g.json)
    ekt=$(awk -F': ' '/"total_energy_kt"/ { gsub(/,/, "", $2); print $2 }' g.json)
    tst=$(awk -F': ' '/"device_start_seconds"/ { gsub(/,/, "", $2); print $2 }' g.json)
    printf '%-6s %-22s %10s %10.4f %10.4f %16.5f\n' "${n}^3" "vsgrid $1 $2" "$tv" "$tts" "${tst:-0}" "$ekt"
  done
done
echo "APBS solve_s: CPU seconds of its multigrid solve (io.mc); vsgrid solve_s: time_to_solution_seconds"
echo "(boundary, maps and all levels' SOR), of which start_s started the CUDA runtime and the GPU's"
echo "context (once per process). Whole-command wall times include reading, the surface,"
echo "process and CUDA start-up and writing the grid. $(nproc) cores."
