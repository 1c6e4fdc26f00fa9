#!/usr/bin/env bash
# gpu_check.sh — run ON the GPU machine, from the repository root:
#     bash scripts/gpu_check.sh
# Configures a CUDA Release build with warnings as errors in build-gpu-check, builds it, runs
# the GPU tests (ctest -L gpu), the whole ctest suite, and bench_sor 161 297 513; prints the
# GPUs and one summary table last. Every step runs even when an earlier one failed (except
# those that need the build); the exit status is non-zero if any step failed. Logs go to
# build-gpu-check/logs and, when $OUT is set, go there as gpu_check_logs.tgz.
# Knobs (environment): BUILD_DIR, JOBS, BENCH_SIZES, BENCH_TIMEOUT, CTEST_TIMEOUT, and PARTS, the
# parts to run (default all: "tests sor e2e benches apbs screen surface mpi"), so a run can be split into
# calls that fit a time limit (the build is kept and reused); "gputests" runs only ctest -L gpu;
# "sorforms" (the PB sweep's launch forms), "ceiling" (scripts/sor_ceiling.cu), "pipeline"
# (bench_screen_pipeline.sh) and "profile" (scripts/profile_pb.sh: phase times of whole PB runs,
# GPU and CPU twin) only when named.
set -u

BUILD_DIR=${BUILD_DIR:-build-gpu-check}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
BENCH_SIZES=${BENCH_SIZES:-"161 297 513"}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-240}   # seconds for bench_sor
CTEST_TIMEOUT=${CTEST_TIMEOUT:-300}   # seconds per test
LOGS="$BUILD_DIR/logs"
PARTS=${PARTS:-"tests sor e2e benches apbs screen surface mpi"}
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$LOGS"

names=() results=() times=() notes=()
failed=0

# step NAME LOGFILE COMMAND...: runs the command, output to the log and the terminal.
step() {
    local name=$1 log=$2
    shift 2
    echo
    echo "=== $name: $*"
    local t0=$SECONDS rc
    "$@" 2>&1 | tee "$LOGS/$log"
    rc=${PIPESTATUS[0]}
    names+=("$name")
    times+=("$((SECONDS - t0))s")
    if [ "$rc" -eq 0 ]; then
        results+=("ok")
        notes+=("")
    else
        results+=("FAIL")
        notes+=("exit $rc, log $LOGS/$log")
        failed=1
    fi
    return "$rc"
}

# ctest from inside the build directory (--test-dir needs CMake 3.20).
# shellcheck disable=SC2317  # called through step
ctest_in_build() { (cd "$BUILD_DIR" && ctest "$@"); }

skip_step() {
    names+=("$1")
    results+=("SKIP")
    times+=("-")
    notes+=("$2")
    failed=1
}

step "nvidia-smi -L" nvidia_smi.log nvidia-smi -L

built=0
if step "configure" configure.log \
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DVSG_WERROR=ON -DVSG_CUDA=ON; then
    step "build" build.log cmake --build "$BUILD_DIR" -j "$JOBS" && built=1
else
    skip_step "build" "configure failed"
fi

if [ "$built" -eq 1 ]; then
    if { want tests || want gputests; } && step "ctest -L gpu" ctest_gpu.log \
        ctest_in_build -L gpu -V --timeout "$CTEST_TIMEOUT"; then
        # On a GPU machine a skipped GPU test (exit 77) means the GPU was not usable: a failure.
        if grep -q "\*\*\*Skipped\|Not Run" "$LOGS/ctest_gpu.log"; then  # ctest's own marks, not the tests' messages
            results[${#results[@]}-1]="FAIL"
            notes[${#notes[@]}-1]="GPU tests skipped on the GPU machine"
            failed=1
        elif ! grep -q "tests passed" "$LOGS/ctest_gpu.log"; then
            results[${#results[@]}-1]="FAIL"
            notes[${#notes[@]}-1]="no GPU test found (label gpu)"
            failed=1
        fi
    fi
    want tests && step "ctest (all)" ctest_all.log \
        ctest_in_build --output-on-failure -j "$JOBS" --timeout "$CTEST_TIMEOUT"
    if want sor && [ -x "$BUILD_DIR/bench_sor" ]; then
        # shellcheck disable=SC2086  # the sizes are meant to split
        if step "bench_sor $BENCH_SIZES" bench_sor.log \
            timeout "$BENCH_TIMEOUT" "$BUILD_DIR/bench_sor" $BENCH_SIZES &&
            grep -q "no GPU" "$LOGS/bench_sor.log"; then
            results[${#results[@]}-1]="FAIL"
            notes[${#notes[@]}-1]="bench_sor found no GPU"
            failed=1
        fi
    elif want sor; then
        skip_step "bench_sor" "no $BUILD_DIR/bench_sor"
    fi
    # The uniform-kernel variants (planes per thread), for the table in docs/PERFORMANCE.md.
    for zb in 1 4; do
        if want sor && [ -x "$BUILD_DIR/bench_sor" ]; then
            step "bench_sor ZB=$zb 297 513" "bench_sor_zb$zb.log" \
                env VSG_SOR_ZB=$zb timeout "$BENCH_TIMEOUT" "$BUILD_DIR/bench_sor" 297 513
        fi
    done
    # The launch forms of the PB sweep (part "sorforms"): one fused kernel a colour with 4 planes
    # a thread and the list blocks interleaved by z-group (default), without the listed-node
    # patterns (VSG_SOR_PATTERNS=0), the list first
    # (VSG_SOR_FUSE=1), and two kernels a colour (docs/PERFORMANCE.md).
    for form in "default;" "nopatterns;VSG_SOR_PATTERNS=0" "listfirst;VSG_SOR_FUSE=1" "unfused;VSG_SOR_FUSE=0"; do
        if want sorforms && [ -x "$BUILD_DIR/bench_sor" ]; then
            fname=${form%%;*} fenv=${form#*;}
            step "bench_sor $fname 297 513" "bench_sor_$fname.log" \
                env $fenv timeout "$BENCH_TIMEOUT" "$BUILD_DIR/bench_sor" 297 513
        fi
    done
    # The sweep's ceilings on this GPU apart from the solver (part "ceiling"; scripts/sor_ceiling.cu).
    if want ceiling && command -v nvcc > /dev/null; then
        step "sor_ceiling 297" sor_ceiling.log bash -c "nvcc -O3 -arch=sm_90 -I . \
            -o '$BUILD_DIR/sor_ceiling' scripts/sor_ceiling.cu && '$BUILD_DIR/sor_ceiling' 297 200"
    fi
    # End to end: the 1STP receptor on a 161³ grid (80 Å, 0.5 Å), GPU float and double against
    # the CPU twin: iterations, time, and biotin's interaction energy from each grid.
    # shellcheck disable=SC2317  # called through step
    e2e() {
        local v="$BUILD_DIR/vsgrid" dev prec n len h tag
        for spec in "161 80 0.5" "257 84.48 0.33"; do
            set -- $spec
            n=$1 len=$2 h=$3
            for run in "cpu double" "gpu double" "gpu float"; do
                set -- $run
                dev=$1 prec=$2 tag="${n}_${dev}_${prec}"
                "$v" grid data/1stp_receptor.pdbqt -o "$LOGS/e2e_$tag.vsg" --box "10.734,2.033,-11.537,$len,$len,$len" \
                    --spacing "$h" --salt 0.15 --device "$dev" --precision "$prec" --quiet \
                    --json "$LOGS/e2e_$tag.json" || return 1
                printf 'e2e %s^3 %-4s %-6s ' "$n" "$dev" "$prec"
                grep -E '"(device|iterations|seconds_per_iteration|bytes_per_node|total_energy_kt|omega)"|^  "seconds"' \
                    "$LOGS/e2e_$tag.json" | tr -d '\n ,' ; echo
                "$v" probe "$LOGS/e2e_$tag.vsg" data/biotin.pdbqt --quiet
                rm -f "$LOGS/e2e_$tag.vsg"
            done
        done
    }
    want e2e && step "e2e 1stp 161^3 257^3" e2e.log e2e
    want profile && step "profile_pb" profile_pb.log env CPU="${CPU:-1}" scripts/profile_pb.sh "$BUILD_DIR/vsgrid" ${PROFILE_CASES:-}
    for b in bench_pb_setup bench_coulomb bench_screen; do
        if want benches && [ -x "$BUILD_DIR/$b" ]; then
            step "$b" "$b.log" timeout "$BENCH_TIMEOUT" "$BUILD_DIR/$b"
        fi
    done
    # Time to solution against APBS on this machine: APBS 3.4.1 from Debian travels in
    # apbs_bundle/ (its libraries, not libc or Open MPI); the same cases as compare_apbs.sh, vsgrid
    # on the GPU and as the CPU twin. Absent bundle: skipped.
    if want apbs && [ -x apbs_bundle/apbs ]; then
        step "APBS same grid" apbs_same_grid.log env PATH="$PWD/apbs_bundle:$PATH" \
            timeout 400 bash scripts/apbs_same_grid.sh "$BUILD_DIR/vsgrid"
        for dev in gpu cpu; do
            step "APBS vs vsgrid $dev" "apbs_$dev.log" env PATH="$PWD/apbs_bundle:$PATH" VSG_DEVICE=$dev \
                timeout 400 bash scripts/compare_apbs.sh "$BUILD_DIR/vsgrid"
        done
    fi
    # Screening end to end: a PB grid of XIAP on the GPU, its 100 docked actives, every kernel
    # (vsgrid bench, the library replicated to ~1M ligands), and one timed screen.
    # shellcheck disable=SC2317  # called through step
    screen_e2e() {
        local v="$BUILD_DIR/vsgrid" g="$LOGS/xiap.vsg"
        "$v" grid data/xiap_receptor.pqr.gz -o "$g" --box 10.084,10.123,-21.096,36,36,36 \
            --spacing 0.375 --salt 0.15 --bc focus --quiet || return 1
        "$v" bench "$g" data/xiap_actives_docked.mol2.gz --replicate 10000 --repeat 3 --json "$LOGS/bench_xiap.json" || return 1
        for i in $(seq 1 100); do cat data/xiap_actives_docked.mol2.gz; done > "$LOGS/lib100.mol2.gz"
        "$v" screen "$g" "$LOGS/lib100.mol2.gz" -o "$LOGS/screen.csv" --json "$LOGS/screen.json" || return 1
        cat "$LOGS/screen.json"
        rm -f "$g" "$LOGS/lib100.mol2.gz" "$LOGS/screen.csv"
    }
    want screen && step "screen e2e (xiap)" screen_e2e.log screen_e2e
    # The stages of a large screen (part "pipeline"; PIPELINE_COPIES × 100 records).
    if want pipeline && [ -x "$BUILD_DIR/bench_parse" ]; then
        step "screen pipeline" screen_pipeline.log timeout 560 \
            bash scripts/bench_screen_pipeline.sh "$BUILD_DIR" "${PIPELINE_COPIES:-10000}"
    fi
    # Surface potential (issue 6): exact and HCP, GPU and CPU twin, on 1MBO, the nucleosome and a
    # 20-nucleosome assembly (needs ../shared or VSG_SHARED_DATA), then the command end to end.
    # shellcheck disable=SC2317  # called through step
    surface_e2e() {
        local v="$BUILD_DIR/vsgrid" g="${VSG_SHARED_DATA:-../shared/data}/gem_hcp"
        for mode in hcp exact; do
            "$v" surface "$g/nucleosome.pqr.gz" -o "$LOGS/nuc_$mode.ply" --mode "$mode" --png "$LOGS/nuc_$mode.png" \
                --residues "$LOGS/nuc_res_$mode.csv" --json "$LOGS/surface_$mode.json" || return 1
            rm -f "$LOGS/nuc_$mode.ply"
        done
        "$v" surface "$g/1uwo_A.pqr" --vertices "$g/1uwo_A.vert.gz" --faces "$g/1uwo_A.face.gz" --gem-compat \
            --salt 0 --mode exact --json "$LOGS/surface_gem.json" -o "$LOGS/uwo.ply" || return 1
        rm -f "$LOGS/uwo.ply"
    }
    if want surface && [ -x "$BUILD_DIR/bench_surface" ]; then
        step "bench_surface" bench_surface.log timeout 500 "$BUILD_DIR/bench_surface"
        step "surface e2e" surface_e2e.log surface_e2e
    fi
    # PB over MPI, one rank per GPU (issue 7): only where the host has two GPUs or more.
    if want mpi && [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] && [ -f scripts/bench_mpi_pb.sh ]; then
        step "bench_mpi_pb" bench_mpi_pb.log timeout 500 bash scripts/bench_mpi_pb.sh "$BUILD_DIR/vsgrid"
    fi
    if [ "${TUNE:-0}" = 1 ]; then
        step "tune_sor" tune_sor.log timeout 300 bash scripts/tune_sor.sh
    fi
else
    skip_step "ctest -L gpu" "not built"
    skip_step "ctest (all)" "not built"
    skip_step "bench_sor" "not built"
fi

if [ -n "${OUT:-}" ]; then
    # one archive: the device tool returns at most 8 files
    tar czf "$OUT/gpu_check_logs.tgz" -C "$LOGS" $(cd "$LOGS" && ls *.log *.json *.png *.csv 2>/dev/null)
fi

# The benchmark table and the failing tests, then the summary, last.
if [ -f "$LOGS/bench_sor.log" ]; then
    echo
    sed -n '/^GPU PB SOR/,$p' "$LOGS/bench_sor.log"
fi
for b in bench_sor_zb1 bench_sor_zb4 bench_sor_default bench_sor_unfused sor_ceiling screen_pipeline bench_pb_setup bench_coulomb bench_screen apbs_same_grid apbs_gpu apbs_cpu screen_e2e bench_surface surface_e2e bench_mpi_pb tune_sor; do
    if [ -f "$LOGS/$b.log" ]; then
        echo
        echo "$b:"
        tail -n "$([ "$b" = bench_surface ] && echo 60 || echo 25)" "$LOGS/$b.log"
    fi
done
if [ -f "$LOGS/e2e.log" ]; then
    echo
    echo "End to end (1STP, 161^3 and 257^3):"
    grep -E "^e2e|interaction energy" "$LOGS/e2e.log"
fi
if [ -f "$LOGS/ctest_gpu.log" ]; then
    echo
    echo "GPU test, CPU vs GPU:"
    grep -E "seed|listed nodes|iterations cpu|max\|diff\||gpu: |fixed [0-9]+ iterations" \
        "$LOGS/ctest_gpu.log" | sed -E 's/^[0-9]+: //'
fi
for log in ctest_gpu.log ctest_all.log; do
    if [ -f "$LOGS/$log" ] && grep -q "The following tests FAILED" "$LOGS/$log"; then
        echo
        echo "$log:"
        sed -n '/The following tests FAILED/,$p' "$LOGS/$log"
    fi
done
echo
gpu=$(nvidia-smi -L 2>/dev/null | head -n 1)
echo "=== gpu_check summary (${gpu:-no GPU listed by nvidia-smi})"
printf '%-28s %-5s %7s  %s\n' "step" "result" "time" "note"
for i in "${!names[@]}"; do
    printf '%-28s %-5s %7s  %s\n' "${names[$i]}" "${results[$i]}" "${times[$i]}" "${notes[$i]}"
done
if [ "$failed" -ne 0 ]; then
    echo "gpu_check: FAILED"
    exit 1
fi
echo "gpu_check: all steps passed"
exit 0
