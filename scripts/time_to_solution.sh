#!/usr/bin/env bash
# time_to_solution.sh — the PB time to solution on the GPU against the CPU twin, as a table: run
# ON the GPU machine from the repository root after a build,
#     scripts/time_to_solution.sh VSGRID [CASES]
# CASES (default 1stp161 1stp257 achbp297 achbp513; the achbp ones need the shared data,
# VSG_SHARED_DATA or ../shared/data). Per case:
#   - the GPU alone: one `vsgrid grid` process for one receptor (time_to_solution_seconds, which
#     includes the once-per-process CUDA start, given apart);
#   - the GPU in a batch: one process for N copies of the receptor (N = BATCH, default 6; 3 at
#     513³); the median of copies 2..N, which find the GPU started;
#   - the CPU twin (double, all cores): the median of CPU_RUNS runs (default 3; 1 at 297³ and
#     513³, where one run takes 15–100 s; CPU_RUNS=0 skips it).
# No VSG_PROFILE (it drains the stream between phases). Times in seconds.
set -u
v=$1
shift
# shellcheck source=scripts/pb_cases.sh
. "$(dirname "$0")/pb_cases.sh"
key() { grep -o "\"$1\":[^,}]*" "$2" | head -1 | cut -d: -f2; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
grid() { # RECEPTOR(S)... -- BOX SPACING DEVICE OUT
    "$v" grid "$@" --salt 0.15 --quiet 2>"$work/err" >/dev/null || { cat "$work/err" >&2; return 1; }
}
printf '%-9s %12s %10s %12s %12s %9s %9s\n' case "gpu alone" "of start" "gpu batched" "cpu twin" "x alone" "x batch"
for c in $cases; do
    pb_case "$c" || continue
    n=${BATCH:-6}
    runs=${CPU_RUNS:-3}
    case $c in achbp513) n=${BATCH:-3} ;; esac
    case $c in achbp*) [ "$runs" -gt 1 ] && runs=1 ;; esac
    grid "$rec" -o "$work/a.vsg" --box "$box" --spacing "$h" --device gpu --json "$work/a.json" || continue
    alone=$(key time_to_solution_seconds "$work/a.json")
    start=$(key device_start_seconds "$work/a.json")
    ext=$(basename "$rec"); ext=${ext#*.}
    recs=()
    for i in $(seq 1 "$n"); do ln -sf "$rec" "$work/copy$i.$ext"; recs+=("$work/copy$i.$ext"); done
    grid "${recs[@]}" -o "$work/{}.vsg" --box "$box" --spacing "$h" --device gpu --json "$work/{}.json" || continue
    batched=$(for i in $(seq 2 "$n"); do key time_to_solution_seconds "$work/copy$i.json"; done | median)
    each=$(for i in $(seq 2 "$n"); do printf '%.4f ' "$(key time_to_solution_seconds "$work/copy$i.json")"; done)
    rm -f "$work"/copy*.vsg
    cpu=nan
    if [ "$runs" -gt 0 ]; then
        cpu=$(for i in $(seq 1 "$runs"); do
            grid "$rec" -o "$work/c.vsg" --box "$box" --spacing "$h" --device cpu --json "$work/c.json" &&
                key time_to_solution_seconds "$work/c.json"
        done | median)
    fi
    awk -v c="$c" -v a="$alone" -v s="$start" -v b="$batched" -v p="$cpu" 'BEGIN {
        xa = (p == "nan") ? "-" : sprintf("%.1f", p / a); xb = (p == "nan") ? "-" : sprintf("%.1f", p / b)
        printf "%-9s %12.4f %10.4f %12.4f %12s %9s %9s\n", c, a, s, b, p, xa, xb }'
    echo "          batched grids 2..$n: $each"
done
exit 0
