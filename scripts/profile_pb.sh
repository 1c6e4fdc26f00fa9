#!/usr/bin/env bash
# profile_pb.sh — where the time of a whole `vsgrid grid` PB run goes, on the GPU and on the CPU
# twin: run ON the GPU machine from the repository root after a build,
#     scripts/profile_pb.sh VSGRID [CASES]
# CASES (default all): 1stp161 1stp257 achbp297 achbp513. Each case runs the GPU in float (the
# default there) with VSG_PROFILE=1 (one stderr line per phase) and prints the whole command's
# wall time and time_to_solution_seconds; CPU=1 adds the CPU twin (double, all cores). BATCH=N
# (N > 1) also runs the GPU case as one batch of N copies of the receptor in one process
# (`vsgrid grid R1 R2 ...`), where only the first starts the GPU: each copy's time to solution.
# NOPROFILE=1 runs without VSG_PROFILE (which drains the GPU stream between phases and so adds
# to the times; then no phase lines).
# The achbp cases need the shared data (VSG_SHARED_DATA or ../shared/data).
set -u
v=$1
shift
# shellcheck source=scripts/pb_cases.sh
. "$(dirname "$0")/pb_cases.sh"
now() { date +%s.%N; }
prof=1
[ "${NOPROFILE:-0}" = 1 ] && prof=0
run() { # TAG RECEPTOR BOX SPACING DEVICE EXTRA...
    local tag=$1 rec=$2 box=$3 h=$4 dev=$5
    shift 5
    local t0 tv
    t0=$(now)
    VSG_PROFILE=$prof "$v" grid "$rec" -o "$work/g.vsg" --box "$box" --spacing "$h" --salt 0.15 --device "$dev" \
        --quiet --json "$work/g.json" "$@" 2>"$work/err" >/dev/null || { echo "$tag $dev: failed"; cat "$work/err"; return; }
    tv=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    echo "== $tag $dev: whole command ${tv} s; json:" \
        "$(grep -E '"(time_to_solution_seconds|device_start_seconds|iterations|total_iterations|seconds_per_iteration|precision|device)"' "$work/g.json" | tr -d '\n ' )"
    grep "profile" "$work/err"
}
batch() { # TAG RECEPTOR BOX SPACING N
    local tag=$1 rec=$2 box=$3 h=$4 n=$5 recs=() ext t0 tv i
    ext=$(basename "$rec"); ext=${ext#*.}
    for i in $(seq 1 "$n"); do ln -sf "$rec" "$work/copy$i.$ext"; recs+=("$work/copy$i.$ext"); done
    t0=$(now)
    VSG_PROFILE=$prof "$v" grid "${recs[@]}" -o "$work/{}.vsg" --box "$box" --spacing "$h" --salt 0.15 --device "${BATCH_DEVICE:-gpu}" \
        --quiet --json "$work/{}.json" 2>"$work/err" >/dev/null || { echo "$tag batch: failed"; cat "$work/err"; return; }
    tv=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    echo "== $tag gpu batch of $n in one process: whole command ${tv} s"
    for i in $(seq 1 "$n"); do
        echo "   copy $i json:" "$(grep -E '"(time_to_solution_seconds|device_start_seconds|iterations)"' "$work/copy$i.json" | tr -d '\n ')"
    done
    grep "profile" "$work/err" | tail -n 40
}
for c in $cases; do
    pb_case "$c" || continue
    run "$c" "$rec" "$box" "$h" gpu
    if [ "${BATCH:-1}" -gt 1 ]; then batch "$c" "$rec" "$box" "$h" "$BATCH"; fi
    if [ "${CPU:-0}" = 1 ]; then run "$c" "$rec" "$box" "$h" cpu; fi
done
exit 0
