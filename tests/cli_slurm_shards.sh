#!/usr/bin/env bash
# A screening campaign as a Slurm job array on a real scheduler (issue 26): a one-host cluster
# (scripts/slurm_cluster.sh: slurmctld, slurmd, a private munged, in a temporary state folder,
# stopped on exit) runs scripts/slurm_campaign.sh's index job, a 5-task array and the merge job.
# Mid-run, task 0's screen is killed with SIGKILL (as the OOM killer or a crash would: the task
# fails) and task 1 is cancelled (scancel --signal=KILL, which Slurm turns into a cancel: TERM,
# then KILL), both then rerun by scontrol requeue; task 2 is requeued while running (as
# preemption or a lost node does) and task 3 gets the time-limit warning (SIGUSR1 to its batch
# shell: it stops its screen and requeues itself). Every one resumes from its .partial, and the
# merged CSV must equal one uninterrupted run's. Then a rerun of the same command submits
# nothing (complete); with one shard lost and its task failing, the merge exits 3 naming it;
# a rerun submits that task only and merges.
# Skipped (77) when not root, without slurm-wlm, or when the cluster does not come up in 60 s.
# The task command: a stand-in (below) that writes shard files as `vsgrid screen --shard`
# does (.partial row by row, renamed when complete, then .done; resumes from .partial) until
# vsgrid has index, screen --shard and merge; VSG_SLURM_TEST_CMD=vsgrid runs the real command
# on a flexible Vina screen of 40 INHA records instead (switch the default below then).
# Usage: cli_slurm_shards.sh VSGRID SOURCE_DIR BINARY_DIR
set -u
vsgrid=$1 src=$(cd "$2" && pwd) work=$3/cli_slurm_shards
case $vsgrid in /*) ;; *) vsgrid=$PWD/$vsgrid ;; esac
mode=${VSG_SLURM_TEST_CMD:-vsgrid} # vsgrid | standin (the shard protocol alone, with a shell stand-in)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
work=$(pwd)
. "$src/tests/lib_cli.sh"
t_start=$(date +%s)
since() { echo "$(($(date +%s) - t_start)) s"; }

[ "$(id -u)" = 0 ] || skip_test "not root (slurmd must run as root to launch jobs)"
for b in slurmctld slurmd sbatch squeue scontrol scancel; do
  command -v $b >/dev/null 2>&1 || skip_test "$b not found (apt-get install slurm-wlm munge)"
done

# --- the cluster: a free pair of ports, a short state path (munge's and slurmd's sockets live there)
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=
for _ in $(seq 1 30); do
  p=$((20000 + 2 * (RANDOM % 9000)))
  port_free $p && port_free $((p + 1)) && { port=$p; break; }
done
[ -n "$port" ] || skip_test "no free TCP port pair for slurmctld/slurmd"
state=$(mktemp -d /tmp/vsgslurm.XXXXXX) || exit 1
cleanup() {
  bash "$src/scripts/slurm_cluster.sh" stop "$state" >/dev/null 2>&1
  [ -d "$state/log" ] && cp -r "$state/log" "$work/slurm_logs" 2>/dev/null
  rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP # (ctest's timeout: the EXIT trap still stops the cluster)
export VSG_SLURM_PORT=$port VSG_SLURM_TIMEOUT=60
if ! bash "$src/scripts/slurm_cluster.sh" start "$state" > cluster.out 2> cluster.err; then
  cat cluster.err
  skip_test "the one-host Slurm cluster did not start: $({ grep -m1 '^slurm_cluster.sh:' cluster.err || tail -n 1 cluster.err; } | cut -c1-200)"
fi
cat cluster.err
export SLURM_CONF=$state/slurm.conf
echo "cluster up after $(since)"

# --- the task command and the expected result
camp=$work/camp
if [ "$mode" = vsgrid ]; then
  # the real command: Vina maps of INHA, 40 records of its library docked flexibly (0.8 s a
  # record on one CPU: 8 a task)
  cmd=$vsgrid
  expect_rc 0 "$vsgrid" maps "$src/data/inha/receptor.pdbqt" --scoring vina --around "$src/data/inha/crystal_ligand.mol2" \
    -o "$work/maps/m" --device cpu --quiet
  zcat "$src/data/inha/library.mol2.gz" | awk '/@<TRIPOS>MOLECULE/ { if (++n == 41) exit } { print }' > "$work/lib.mol2"
  target=$work/maps/m
  libs=(-l "$work/lib.mol2")
  screen_args=(--scoring vina --placement flexible --search fast --device cpu --quiet)
  kill_rows=1 usr1_rows=1
  export VSG_FLEX_CHUNK=1 # rows reach the .partial one by one (as 1024-record chunks do in a real campaign), so a task
                          # is killed with some of its rows written; sbatch passes the environment to the tasks
  t0=$(date +%s)
  OMP_NUM_THREADS=2 "$vsgrid" screen "$target" "$work/lib.mol2" "${screen_args[@]}" -o expect.csv > /dev/null 2> expect.err ||
    fail "the uninterrupted screen failed: $(head -c 300 expect.err)"
  expect_s=$(($(date +%s) - t0))
  # a fast build docks a task's 8 records in a few seconds after loading the maps, its rows
  # almost in one burst: more chains a record there (no focus chains: an exact effort), so that
  # rows reach the .partial seconds apart and the test acts between them
  if [ "$expect_s" -lt 40 ]; then
    k=$(((60 + expect_s) / (expect_s + 1)))
    [ $k -gt 8 ] && k=8
    screen_args+=(--exhaustiveness $((64 * k)))
    t0=$(date +%s)
    OMP_NUM_THREADS=2 "$vsgrid" screen "$target" "$work/lib.mol2" "${screen_args[@]}" -o expect.csv > /dev/null 2> expect.err ||
      fail "the uninterrupted screen failed: $(head -c 300 expect.err)"
    echo "uninterrupted run: $expect_s s at --search fast; $(($(date +%s) - t0)) s with --exhaustiveness $((64 * k))"
    expect_s=$(($(date +%s) - t0))
  fi
else
  # the stand-in: one record a line, a deterministic score, --delay S seconds a record
  cmd=$work/standin_vsgrid
  cat > "$cmd" <<'EOF'
#!/usr/bin/env bash
# stand-in for `vsgrid index | screen --shard K/N | merge` (the shard-file protocol only)
set -u
sub=$1; shift
case $sub in
index)
  for l in "$@"; do echo "records $(wc -l < "$l")" > "$l.vsgidx.tmp" && mv "$l.vsgidx.tmp" "$l.vsgidx" || exit 1; done ;;
screen)
  target=$1; shift
  libs=() shard= out= delay=0 trace=
  while [ $# -gt 0 ]; do
    case $1 in
    --shard) shard=$2; shift ;; -o) out=$2; shift ;; --delay) delay=$2; shift ;; --trace) trace=$2; shift ;;
    -*) echo "standin: unknown option $1" >&2; exit 2 ;;
    *) libs+=("$1") ;;
    esac
    shift
  done
  [ -f "$out.done" ] && { echo "standin: $out already done"; exit 0; }
  [ -n "${STANDIN_FAIL:-}" ] && { echo "standin: failing (STANDIN_FAIL)" >&2; exit 1; }
  total=0
  for l in "${libs[@]}"; do
    if [ -n "$shard" ]; then [ "$l.vsgidx" -nt "$l" ] || { echo "standin: no index of $l" >&2; exit 3; }; fi
    total=$((total + $(wc -l < "$l")))
  done
  K=${shard%/*} N=${shard#*/}
  [ -n "$shard" ] || K=0 N=1
  first=$((K * total / N)) last=$(((K + 1) * total / N))
  p=$out.partial
  if [ -s "$p" ]; then # resume: keep the complete rows
    [ "$(tail -c 1 "$p" | wc -l)" = 1 ] || { head -n "$(wc -l < "$p")" "$p" > "$p.cut" && mv "$p.cut" "$p"; }
  else
    echo "index,name,score" > "$p"
  fi
  from=$((first + $(wc -l < "$p") - 1))
  [ -n "$trace" ] && echo "restart=${SLURM_RESTART_COUNT:-0} first=$first from=$from last=$last" >> "$trace"
  cat "${libs[@]}" | awk -v a="$from" -v b="$last" 'NR - 1 >= a && NR - 1 < b { print NR - 1, $1 }' |
  while read -r i name; do
    sleep "$delay"
    s=$(echo "$target $name" | cksum | awk '{ printf "-%d.%04d", $1 % 12, $1 % 10000 }')
    echo "$i,$name,$s" >> "$p" || exit 1
  done || exit 1
  [ $(($(wc -l < "$p") - 1)) = $((last - first)) ] || { echo "standin: rows of $p wrong" >&2; exit 1; }
  mv "$p" "$out" && printf 'vsgrid-shard 1\nrange %d %d\nrows %d\ncsv %s\n' "$first" $((last - first)) $((last - first)) \
    "$(basename "$out")" > "$out.done.tmp" && mv "$out.done.tmp" "$out.done" ;;
merge)
  parts=() out=
  while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; *) parts+=("$1") ;; esac; shift; done
  for s in "${parts[@]}"; do [ -f "$s.done" ] || { echo "standin: shard $s not finished" >&2; exit 3; }; done
  { echo "index,name,score"; for s in "${parts[@]}"; do tail -n +2 "$s"; done; } > "$out.tmp" && mv "$out.tmp" "$out" ;;
*) echo "standin: $sub?" >&2; exit 2 ;;
esac
EOF
  chmod +x "$cmd"
  awk 'BEGIN { for (i = 0; i < 37; i++) printf "mol_a%03d\n", i }' > "$work/lib_a.txt"
  awk 'BEGIN { for (i = 0; i < 23; i++) printf "mol_b%03d\n", i }' > "$work/lib_b.txt"
  target=$work/target.grid
  libs=(-l "$work/lib_a.txt" -l "$work/lib_b.txt")
  screen_args=(--delay 0.35 --trace "$camp/trace_{K}.log")
  kill_rows=3 usr1_rows=2
  "$cmd" screen "$target" "$work/lib_a.txt" "$work/lib_b.txt" -o expect.csv || fail "the stand-in's uninterrupted run failed"
fi

# --- the campaign: index job, 5 tasks, merge job
campaign=(bash "$src/scripts/slurm_campaign.sh" -n 5 -o "$camp" -t "$target" "${libs[@]}" --vsgrid "$cmd" --poll 1
  --name vsgtest)
expect_rc 0 "${campaign[@]}" -- "${screen_args[@]}"
cat out.txt
aid=$(awk '$1 == "array" { print $2 }' "$camp/slurm/jobs" | tail -1)
[ -n "$aid" ] || { fail "no array job submitted: $(cat err.txt)"; exit 1; }
grep -q '^index ' "$camp/slurm/jobs" || fail "no index job submitted"

# task_state K: the array task's state
task_state() { squeue -h -j "${aid}_$1" -o %T 2>/dev/null | head -1; }
rows() { [ -f "$camp/shard_$1.csv.partial" ] && echo $(($(wc -l < "$camp/shard_$1.csv.partial") - 1)) || echo 0; }
# give_up WHAT: the campaign's logs, and the test ends (the later steps need this one)
give_up() {
  fail "$1"
  local f
  for f in "$camp"/logs/index.log "$camp"/logs/task_0.log "$camp"/logs/merge.log "$camp"/logs/slurm_*_0.out; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 8 "$f"; }
  done
  squeue
  exit 1
}
# wait_ended K: task K has left RUNNING/COMPLETING
wait_ended() {
  for _ in $(seq 1 300); do
    case $(task_state "$1") in RUNNING | COMPLETING) sleep 0.1 ;; *) return 0 ;; esac
  done
  return 1
}
# screen_pids K: task K's screen process and everything below it (the command lines that write
# shard K; /usr/bin/time's too)
# (one grep over every command line, each argument a NUL-ended line: a loop of a process a pid
# took seconds on a loaded host, long enough for the task to finish meanwhile)
screen_pids() {
  grep -lxzF -- "$camp/shard_$1.csv" /proc/[0-9]*/cmdline 2> /dev/null | sed 's|^/proc/||; s|/cmdline$||'
}
# Each interruption happens as soon as its task runs with the rows it needs, each task on its
# own: waiting for one task and then another let the first finish its shard meanwhile on a busy
# host, and then there was nothing left to kill. ready K ROWS: task K runs with ROWS rows (its
# .partial first, a file read, every 0.1 s; squeue, slow on a loaded host, only then).
ready() { [ "$(rows "$1")" -ge "$2" ] && [ "$(task_state "$1")" = RUNNING ]; }
done0= done1= pids0=
for _ in $(seq 1 900); do
  # task 0's screen found as soon as it writes (its .partial), so the kill needs no search
  [ -z "$pids0" ] && [ -f "$camp/shard_0.csv.partial" ] && pids0=$(screen_pids 0)
  if [ -z "$done0" ] && ready 0 "$kill_rows"; then
    [ -n "$pids0" ] || pids0=$(screen_pids 0)
    kill -KILL $pids0 2> /dev/null || fail "no screen process of task 0 found (pids: $(echo $pids0))"
    echo "task 0 had $kill_rows+ rows ($(since)): kill -KILL $(echo $pids0) (task 0's screen)"
    done0=1
  fi
  if [ -z "$done1" ] && ready 1 "$kill_rows"; then
    echo "task 1 has $(rows 1) rows ($(since)): scancel --signal=KILL ${aid}_1"
    scancel --signal=KILL "${aid}_1" || fail "scancel --signal=KILL ${aid}_1"
    done1=1
  fi
  [ -n "$done0" ] && [ -n "$done1" ] && break
  sleep 0.1
done
[ -n "$done0" ] && [ -n "$done1" ] || give_up "tasks 0 and 1 were not both seen running with $kill_rows rows"
wait_ended 0; wait_ended 1
for k in 0 1; do
  echo "task $k: $(scontrol show job "${aid}_$k" | grep -oE '(JobState|ExitCode)=[^ ]*' | tr '\n' ' ')"
  [ -f "$camp/shard_$k.csv.partial" ] && [ ! -f "$camp/shard_$k.csv.done" ] || fail "task $k killed but no .partial left"
  scontrol requeue "${aid}_$k" || fail "scontrol requeue ${aid}_$k (killed)"
done
done2= done3=
for _ in $(seq 1 900); do
  if [ -z "$done2" ] && ready 2 "$usr1_rows"; then
    echo "task 2 has $(rows 2) rows ($(since)): scontrol requeue ${aid}_2 (running: as preemption)"
    scontrol requeue "${aid}_2" || fail "scontrol requeue ${aid}_2 (running)"
    done2=1
  fi
  if [ -z "$done3" ] && ready 3 "$usr1_rows"; then
    echo "task 3 has $(rows 3) rows ($(since)): scancel --batch --signal=USR1 ${aid}_3 (the time-limit warning)"
    scancel --batch --signal=USR1 "${aid}_3" || fail "scancel --batch --signal=USR1 ${aid}_3"
    done3=1
  fi
  [ -n "$done2" ] && [ -n "$done3" ] && break
  sleep 0.1
done
[ -n "$done2" ] && [ -n "$done3" ] || give_up "tasks 2 and 3 were not both seen running with $usr1_rows rows"

# The waits scale with this build's speed: a sanitizer build docks several times slower (49 s
# for a task's 8 records on CI's ASan build, where 170 s was too short for the whole campaign),
# and the tasks share the host's cores with the rest of the suite.
expect_s=${expect_s:-0}
watch_s=$((170 + 4 * expect_s)) rerun_s=$((120 + 2 * expect_s))
echo "uninterrupted run: $expect_s s; waiting up to $watch_s s for the campaign, $rerun_s s for each rerun"
expect_rc 0 timeout $watch_s bash "$src/scripts/slurm_campaign.sh" --watch --poll 1 -o "$camp"
cat out.txt
[ "$(cat "$camp/logs/merge.rc" 2>/dev/null)" = 0 ] || give_up "the campaign did not merge: $(cat err.txt)"
echo "campaign merged after $(since)"
cmp -s "$camp/all.csv" expect.csv || fail "merged CSV differs from the uninterrupted run's: $(diff "$camp/all.csv" expect.csv 2>&1 | head -5)"
for k in 0 1 2; do grep -q 'attempt 1' "$camp/logs/task_$k.log" || fail "task $k did not run again after its kill/requeue"; done
grep -q 'SIGUSR1' "$camp/logs/task_3.log" && grep -q 'attempt 1' "$camp/logs/task_3.log" ||
  fail "task 3 did not requeue itself on SIGUSR1: $(tail -n 5 "$camp/logs/task_3.log")"
if [ "$mode" = standin ]; then
  # each rerun went on from the rows its .partial kept (neither from the start nor past a row)
  for k in 0 1 2 3; do
    awk -F'[ =]' '{ n++; if (n == 1) a = $6; else b = $6 }
      END { if (n != 2 || b <= a) { print "task '$k' trace: " n " runs, from " a " then " b; exit 1 } }' \
      "$camp/trace_$k.log" || fail "task $k did not resume from its .partial: $(cat "$camp/trace_$k.log")"
  done
  awk -F'[ =]' '{ n++ } END { exit n != 1 }' "$camp/trace_4.log" || fail "task 4 ran more than once"
fi
grep -q 'rc=137' "$camp/logs/task_0.stats" || fail "task 0's stats do not show its SIGKILL: $(cat "$camp/logs/task_0.stats")"
grep -q 'rc=0 maxrss_kb=' "$camp/logs/task_4.stats" || fail "no task statistics: $(cat "$camp/logs/task_4.stats")"
if [ -x /usr/bin/time ]; then
  grep -q 'maxrss_kb=[0-9]' "$camp/logs/task_4.stats" || fail "no MaxRSS from /usr/bin/time: $(cat "$camp/logs/task_4.stats")"
else
  skip_part "MaxRSS of each task" "no /usr/bin/time (apt-get install time)"
fi

# a rerun of the same command: complete, nothing submitted
n_jobs=$(wc -l < "$camp/slurm/jobs")
expect_rc 0 "${campaign[@]}" -- "${screen_args[@]}"
grep -q 'complete already' out.txt || fail "rerun of a complete campaign: $(cat out.txt)"
[ "$(wc -l < "$camp/slurm/jobs")" = "$n_jobs" ] || fail "rerun of a complete campaign submitted jobs"

# a lost shard whose task fails: the merge runs (afterany) and exits 3 naming it
rm -f "$camp/shard_3.csv" "$camp/shard_3.csv.done" "$camp/all.csv"
if [ "$mode" = standin ]; then
  STANDIN_FAIL=1 expect_rc 3 timeout $rerun_s "${campaign[@]}" --wait -- "${screen_args[@]}"
  cat out.txt
  grep -q 'shards not finished (1 of 5): 3 ' "$camp/logs/merge.log" || fail "the merge log does not name the missing shard"
  [ ! -f "$camp/all.csv" ] || fail "merged with a shard missing"
fi
# the rerun submits that task only, and merges
expect_rc 0 timeout $rerun_s "${campaign[@]}" --wait -- "${screen_args[@]}"
cat out.txt
grep -q "tasks 3 of 0-4" out.txt || fail "rerun with shard 3 lost: not just task 3 submitted"
grep -q "indexes are up to date" out.txt || fail "rerun indexed the libraries again"
cmp -s "$camp/all.csv" expect.csv || fail "merged CSV after the rerun of task 3 differs"

echo "done after $(since)"
[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "cli_slurm_shards: all checks passed"
