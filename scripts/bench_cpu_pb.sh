#!/usr/bin/env bash
# CPU PB benchmark: vsgrid's CPU twin against APBS on the same grids, same machine, same run.
# Receptor: 1STP (data/1stp_receptor.pdbqt, written as PQR for APBS), SES, 0.15 M, mdh faces,
# a box around the biotin site: 161³ at 0.5 Å (80 Å) and 257³ at 0.33 Å (84.5 Å); both are
# multigrid-compatible sizes, so APBS solves exactly the same grid.
# Prints one table: grid, program, iterations, seconds, ns per node-iteration, peak RSS,
# bytes per node, total grid energy (the same ½Σqφ for both: equal accuracy check).
# Usage: scripts/bench_cpu_pb.sh [BUILD_DIR]   (needs apbs for the APBS rows)
set -u
cd "$(dirname "$0")/.."
. scripts/lib_apbs.sh
build=${1:-build}
vsgrid=$build/vsgrid
[ -x "$vsgrid" ] || { echo "build vsgrid first (cmake --build $build)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$vsgrid" info data/1stp_receptor.pdbqt --pqr "$work/1stp.pqr" > /dev/null
centre="10.734 2.033 -11.537"
printf '%-8s %-7s %-8s %6s %9s %10s %10s %9s %16s\n' grid spacing program iter seconds ns/node-it "peak MiB" bytes/node "energy (kT)"
for spec in "161 0.5" "257 0.33"; do
  set -- $spec
  n=$1 h=$2
  nodes=$((n * n * n))
  len=$(awk -v n="$n" -v h="$h" 'BEGIN { printf "%.4f", (n - 1) * h }')
  # vsgrid (CPU twin)
  /usr/bin/time -f "%e %M" -o "$work/time" "$vsgrid" grid "$work/1stp.pqr" -o "$work/v.vsg" \
    --box "${centre// /,},$len,$len,$len" --spacing "$h" --salt 0.15 --surface ses --bc mdh --device cpu \
    --quiet --json "$work/v.json" > /dev/null 2>&1
  read -r secs rss < "$work/time"
  it=$(awk -F': ' '/"iterations"/ { gsub(/,/,"",$2); print $2; exit }' "$work/v.json")
  spi=$(awk -F': ' '/"seconds_per_iteration"/ { gsub(/,/,"",$2); print $2; exit }' "$work/v.json")
  e=$(awk -F': ' '/"total_energy_kt"/ { gsub(/,/,"",$2); print $2; exit }' "$work/v.json")
  awk -v n="$n" -v h="$h" -v it="$it" -v s="$secs" -v spi="$spi" -v rss="$rss" -v nodes="$nodes" -v e="$e" 'BEGIN {
    printf "%-8s %-7.3f %-8s %6d %9.2f %10.2f %10.0f %9.1f %16.2f\n", n "^3", h, "vsgrid", it, s, 1e9 * spi / nodes, rss / 1024, rss * 1024 / nodes, e }'
  # APBS on the same grid
  if command -v apbs > /dev/null 2>&1; then
    cat > "$work/a.in" <<EOT
read
    mol pqr 1stp.pqr
end
elec name solv
    mg-manual
    dime $n $n $n
    glen $len $len $len
    gcent $centre
EOT
    apbs_elec_body >> "$work/a.in"
    (cd "$work" && /usr/bin/time -f "%e %M" -o time apbs a.in > a.log 2>&1)
    read -r secs rss < "$work/time"
    kj=$(awk '/Total electrostatic energy/ { print $5; exit }' "$work/a.log")
    awk -v n="$n" -v h="$h" -v s="$secs" -v rss="$rss" -v nodes="$nodes" -v kj="$kj" 'BEGIN {
      printf "%-8s %-7.3f %-8s %6s %9.2f %10s %10.0f %9.1f %16.2f\n", n "^3", h, "APBS", "-", s, "-", rss / 1024, rss * 1024 / nodes, kj / 4.184 / 0.5924838 }'
  fi
done
echo "machine: $(nproc) cores, $(uname -m); $(grep -m1 -o "APBS [0-9][0-9.]*" "$work/a.log" 2>/dev/null || true)"
