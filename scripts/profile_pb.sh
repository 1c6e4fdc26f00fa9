#!/usr/bin/env bash
# profile_pb.sh — where the time of a whole `vsgrid grid` PB run goes, on the GPU and on the CPU
# twin: run ON the GPU machine from the repository root after a build,
#     scripts/profile_pb.sh VSGRID [CASES]
# CASES (default all): 1stp161 1stp257 achbp297 achbp513. Each case runs the GPU in float (the
# default there) with VSG_PROFILE=1 (one stderr line per phase) and prints the whole command's
# wall time and time_to_solution_seconds; CPU=1 adds the CPU twin (double, all cores).
# The achbp cases need the shared data (VSG_SHARED_DATA or ../shared/data).
set -u
v=$1
shift
cases=${*:-"1stp161 1stp257 achbp297 achbp513"}
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${VSG_SHARED_DATA:-$here/../shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
run() { # TAG RECEPTOR BOX SPACING DEVICE EXTRA...
    local tag=$1 rec=$2 box=$3 h=$4 dev=$5
    shift 5
    local t0 tv
    t0=$(now)
    VSG_PROFILE=1 "$v" grid "$rec" -o "$work/g.vsg" --box "$box" --spacing "$h" --salt 0.15 --device "$dev" \
        --quiet --json "$work/g.json" "$@" 2>"$work/err" >/dev/null || { echo "$tag $dev: failed"; cat "$work/err"; return; }
    tv=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    echo "== $tag $dev: whole command ${tv} s; json:" \
        "$(grep -E '"(time_to_solution_seconds|device_start_seconds|iterations|total_iterations|seconds_per_iteration|precision|device)"' "$work/g.json" | tr -d '\n ' )"
    grep "profile" "$work/err"
}
for c in $cases; do
    case $c in
        1stp161) rec=$here/data/1stp_receptor.pdbqt box="10.734,2.033,-11.537,80,80,80" h=0.5 ;;
        1stp257) rec=$here/data/1stp_receptor.pdbqt box="10.734,2.033,-11.537,84.48,84.48,84.48" h=0.33 ;;
        achbp297) rec=$shared/pqr/apbs_misc/achbp.pqr.gz box="45.64,44.19,27.92,97.68,97.68,97.68" h=0.33 ;;
        achbp513) rec=$shared/pqr/apbs_misc/achbp.pqr.gz box="45.64,44.19,27.92,102.4,102.4,102.4" h=0.2 ;;
        *) echo "unknown case $c"; continue ;;
    esac
    run "$c" "$rec" "$box" "$h" gpu
    if [ "${CPU:-0}" = 1 ]; then run "$c" "$rec" "$box" "$h" cpu; fi
done
exit 0
