#!/usr/bin/env bash
# slurm_campaign.sh — a vsgrid screening campaign as a Slurm job array (issue 26): the libraries
# indexed once, N array tasks that each screen their contiguous slice of the records
# (`vsgrid screen ... --shard K/N -o OUTDIR/shard_K.csv`), and a merge job that joins the shards
# into exactly what one uninterrupted run writes (`vsgrid merge`).
#
# usage: scripts/slurm_campaign.sh -n N -t TARGET -l LIB [-l LIB...] [options] [-- SCREEN_OPTIONS...]
#        scripts/slurm_campaign.sh --watch -o OUTDIR      wait for a submitted campaign, summarise
#        scripts/slurm_campaign.sh --summary -o OUTDIR    summarise (tasks, times, memory) now
#
# options (and the environment variable each one defaults from):
#   -n, --tasks N           (TASKS)         array tasks = shards; N=1 is one plain task
#   -t, --target T          (TARGET)        the screen's grid or map prefix (its first argument)
#   -l, --lib FILE          (LIBS, words)   a library; repeat for several (their order is the
#                                           record numbering: keep it between reruns)
#   -o, --outdir DIR        (OUTDIR)        shards, logs, job scripts; default ./campaign
#   --out FILE              (MERGED)        the merged CSV; default OUTDIR/all.csv
#   --merge-args "ARGS"     (MERGE_ARGS)    more `vsgrid merge` options, e.g.
#                                           "--poses-out all.sdf.gz --top 1000 --top-out top.csv"
#   --vsgrid CMD            (VSGRID)        the command (words allowed); default: vsgrid on the
#                                           PATH, else build/vsgrid of this checkout
#   --index job|inline|none (INDEX)         `vsgrid index LIBS` as a first job that the array
#                                           waits for (default), here before submitting, or not
#                                           (skipped anyway when every LIB.vsgidx is newer than LIB)
#   --cpus-per-task C       (CPUS_PER_TASK) default 1; the task's OMP_NUM_THREADS
#   --max-running M         (MAX_RUNNING)   at most M tasks at once (--array=...%M; a limit
#                                           of each array where N is cut into several)
#   --time T                (TIME_LIMIT)    each task's time limit (sbatch --time); a task gets
#                                           SIGUSR1 SIGNAL_LEAD s before it, stops vsgrid (TERM:
#                                           its .partial stays) and requeues itself, to resume
#   --signal-lead S         (SIGNAL_LEAD)   default 120
#   --partition P           (PARTITION)
#   --sbatch "ARGS"         (SBATCH_ARGS)   more sbatch options for the tasks ("--gres=gpu:1 --mem=16G")
#   --merge-after afterany|afterok (MERGE_AFTER) the merge job's dependency; default afterany
#                                           (why: see "Failures" below)
#   --name NAME             (NAME)          job name prefix; default vsg
#   --gzip-shards           (SHARD_EXT=.csv.gz) the shards' CSVs gzipped: shard_K.csv.gz
#   --wait                  (WAIT=1)        wait for the merge job, then print the summary; exit
#                                           status: the merge's (0 merged; 3 shards missing)
#   --poll S                (POLL)          seconds between --wait's looks; default 10
#   --dry-run                               write the job scripts, print the sbatch commands
# SCREEN_OPTIONS (after --) go to every task's `vsgrid screen` after TARGET and LIBS; {K} and
# {N} in them become the task's shard number and N, e.g. `--poses-out OUTDIR/shard_{K}.sdf.gz`
# (each shard its own pose file; the merge finds it through the shard's marker).
#
# Files in OUTDIR: shard_K.csv (.partial while the task runs, .done when finished: vsgrid's),
# logs/task_K.log (every attempt of task K, appended), logs/task_K.stats (one line an attempt:
# start, end, exit status, MaxRSS from /usr/bin/time when present), logs/index.log,
# logs/merge.log, logs/merge.rc, logs/slurm_%A_%a.out (Slurm's own output of a task: errors
# before the task's log opens), slurm/{task,merge,index}.sh (the generated job scripts),
# slurm/campaign (the campaign's settings: a rerun must match), slurm/jobs (job ids, one line a
# submission), summary.tsv (--wait, --summary).
#
# Failures and reruns. Every array task is submitted with --requeue: a task whose node is lost or
# that is preempted is requeued by Slurm and its rerun resumes from its .partial (vsgrid screen
# --shard resumes; a finished shard exits 0 at once). A task killed outright (scancel, OOM, a
# crash) ends FAILED/CANCELLED: `scontrol requeue JOBID_TASKID` reruns it, or rerun this same
# command once the campaign's jobs have left the queue: it submits only the shards without a
# .done marker (and the merge). Slurm 22.05 pitfall found here: an `afterok` dependency on an
# array is never satisfied once any task has ended FAILED or CANCELLED, even if that task is
# requeued and then succeeds (the merge waits forever, DependencyNeverSatisfied). Hence the
# merge runs afterany: once every task has ended, and `vsgrid merge` itself checks every
# shard's marker (exit 3 naming the missing ones; rerun the command). With --merge-after
# afterok the merge is cancelled at once when a task fails (--kill-on-invalid-dep=yes).
# A requeued job waits the cluster's cred_expire (AuthInfo, default 120 s) before it restarts.
#
# Example, DOCK3-style: a billion molecules (1,000 gzipped SDF files of 1M, ZINC tranche style)
# docked on 64 GPUs. Cut it into tasks of about an hour each: long enough that scheduling costs
# nothing, short enough that a lost task costs little; the cut is free (an index lets each task
# start at its first record; nothing is split into files beforehand, unlike DOCK3's chunk
# directories). Measure the rate first with one pilot task on one GPU, e.g. at 300 molecules/s:
# 1e9 / (300 * 3600) ≈ 930 one-hour tasks, so N=1000 (a million molecules each); 64 at once
# finish in about 16 h. Keep the poses of the best only (merge --top), not a billion of them:
#   export SLURM_CONF=...   # a real cluster needs nothing; scripts/slurm_cluster.sh for one host
#   scripts/slurm_campaign.sh -n 1000 -o /scratch/d4 -t maps/d4 $(printf -- '-l %s ' lib/*.sdf.gz) \
#     --cpus-per-task 8 --sbatch "--gres=gpu:1 --mem=32G" --max-running 64 --time 2:00:00 \
#     --merge-args "--top 100000 --top-out /scratch/d4/top.csv" --wait \
#     -- --scoring vina --placement flexible --search fast --device gpu
# Clusters often cap array indices (MaxArraySize, commonly 1001): larger N are submitted here as
# several arrays of at most MaxArraySize-1 tasks each (task K = base + SLURM_ARRAY_TASK_ID). The
# merge job gets all N shard paths on its command line: about 40 bytes a shard, so N up to some
# tens of thousands (ARG_MAX).
set -u
prog=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "$prog: $*" >&2; exit 2; }

tasks=${TASKS:-} target=${TARGET:-} outdir=${OUTDIR:-campaign} merged=${MERGED:-}
ext=${SHARD_EXT:-.csv} # the shards' CSV files: shard_K.csv, or shard_K.csv.gz (--gzip-shards)
merge_args=${MERGE_ARGS:-} vsgrid_cmd=${VSGRID:-} index_mode=${INDEX:-job}
cpus=${CPUS_PER_TASK:-1} max_running=${MAX_RUNNING:-} time_limit=${TIME_LIMIT:-}
signal_lead=${SIGNAL_LEAD:-120} partition=${PARTITION:-} sbatch_args=${SBATCH_ARGS:-}
merge_after=${MERGE_AFTER:-afterany} name=${NAME:-vsg} wait=${WAIT:-0} poll=${POLL:-10}
dry=0 action=submit
libs=()
# shellcheck disable=SC2206
[ -n "${LIBS:-}" ] && libs=(${LIBS})
screen_args=()
while [ $# -gt 0 ]; do
  case $1 in
  -n | --tasks) tasks=$2; shift ;;
  -t | --target) target=$2; shift ;;
  -l | --lib) libs+=("$2"); shift ;;
  -o | --outdir) outdir=$2; shift ;;
  --out) merged=$2; shift ;;
  --merge-args) merge_args=$2; shift ;;
  --vsgrid) vsgrid_cmd=$2; shift ;;
  --index) index_mode=$2; shift ;;
  --cpus-per-task) cpus=$2; shift ;;
  --max-running) max_running=$2; shift ;;
  --time) time_limit=$2; shift ;;
  --signal-lead) signal_lead=$2; shift ;;
  --partition) partition=$2; shift ;;
  --sbatch) sbatch_args=$2; shift ;;
  --merge-after) merge_after=$2; shift ;;
  --name) name=$2; shift ;;
  --gzip-shards) ext=.csv.gz ;;
  --wait) wait=1 ;;
  --poll) poll=$2; shift ;;
  --dry-run) dry=1 ;;
  --watch) action=watch ;;
  --summary) action=summary ;;
  -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --) shift; screen_args=("$@"); break ;;
  *) die "unknown option $1 (--help)" ;;
  esac
  [ $# -ge 1 ] || die "option needs a value"
  shift
done
mkdir -p "$outdir" 2>/dev/null || die "cannot make $outdir"
outdir=$(cd "$outdir" && pwd)
logs=$outdir/logs
sdir=$outdir/slurm
[ -n "$merged" ] || merged=$outdir/all.csv
case $merged in /*) ;; *) merged=$PWD/$merged ;; esac

# --- helpers
# ranges 0 1 2 5 7 8 -> 0-2,5,7-8
ranges() {
  awk 'BEGIN { s = -1 }
       { if (s < 0) { s = p = $1 } else if ($1 == p + 1) { p = $1 } else { out = out sep (s == p ? s : s "-" p); sep = ","; s = p = $1 } }
       END { if (s >= 0) out = out sep (s == p ? s : s "-" p); print out }'
}
missing_shards() { local k; for ((k = 0; k < $1; k++)); do [ -f "$outdir/shard_$k$ext.done" ] || echo "$k"; done; }
jobid_of() { echo "${1%%;*}"; }
queued_jobs() { # the campaign's job ids still in the queue
  local ids
  [ -f "$sdir/jobs" ] || return 0
  ids=$(awk '{ print $2 }' "$sdir/jobs" | paste -sd, -)
  [ -n "$ids" ] || return 0
  squeue -h -j "$ids" -o %i 2>/dev/null
}
dur() { awk -v s="$1" 'BEGIN { s = int(s); printf "%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60 }'; }

summary() {
  local n=$1 done_n rc=- t_sub t_end
  done_n=$(ls "$outdir"/shard_*"$ext".done 2>/dev/null | wc -l)
  [ -f "$logs/merge.rc" ] && rc=$(cat "$logs/merge.rc")
  echo "campaign $outdir: $n tasks, $done_n shards done, merge exit status $rc"
  [ "$rc" = 0 ] && [ -f "$merged" ] && echo "  merged: $merged ($(($(wc -l < "$merged") - 1)) rows)"
  t_sub=$(awk '$1 == "submitted" { t = $2 } END { print t }' "$sdir/jobs" 2>/dev/null)
  t_end=$( [ -f "$logs/merge.rc" ] && stat -c %Y "$logs/merge.rc" || date +%s)
  [ -n "$t_sub" ] && echo "  wall time: $(dur $((t_end - t_sub))) from the last submission to the merge's end"
  # per task, from the stats lines the task script writes (one an attempt)
  cat "$logs"/task_*.stats 2>/dev/null | awk -v n="$n" -v tsv="$outdir/summary.tsv" '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      k = v["task"]; att[k]++; el = v["end"] - v["start"]; sec[k] += el; rc[k] = v["rc"]; host[k] = v["host"]
      if (v["maxrss_kb"] != "-" && v["maxrss_kb"] + 0 > rss[k]) rss[k] = v["maxrss_kb"] + 0 }
    END {
      printf "task\tattempts\telapsed_s\tmaxrss_mb\tlast_rc\thost\n" > tsv
      for (k = 0; k < n; k++) {
        if (!(k in att)) { printf "%d\t0\t-\t-\t-\t-\n", k > tsv; continue }
        printf "%d\t%d\t%d\t%s\t%s\t%s\n", k, att[k], sec[k], (k in rss) ? sprintf("%.1f", rss[k] / 1024) : "-", rc[k], host[k] > tsv
        tot += sec[k]; if (sec[k] > mx) { mx = sec[k]; kmx = k } ; m++
        if (rss[k] > rmx) rmx = rss[k]; if (att[k] > 1) re++
      }
      if (m) printf "  tasks run: %d, task time %d s in all, mean %.1f s, longest %d s (task %d), MaxRSS up to %.1f MB, %d task(s) ran more than once\n", m, tot, tot / m, mx, kmx, rmx / 1024, re
    }'
  if [ -f "$outdir/summary.tsv" ]; then
    if [ "$n" -le 40 ]; then
      if command -v column >/dev/null 2>&1; then column -t -s "$(printf '\t')" "$outdir/summary.tsv" | sed 's/^/  /'
      else sed 's/^/  /' "$outdir/summary.tsv"; fi
    else
      echo "  per task: $outdir/summary.tsv; the 10 longest:"
      { head -1 "$outdir/summary.tsv"; tail -n +2 "$outdir/summary.tsv" | sort -t "$(printf '\t')" -k3,3nr | head -10; } | sed 's/^/  /'
    fi
  fi
  # Slurm's own figures where accounting is stored (slurmdbd): elapsed and MaxRSS of each task's batch step
  if command -v sacct >/dev/null 2>&1 && ! scontrol show config 2>/dev/null | grep -q 'AccountingStorageType *= *accounting_storage/none'; then
    local ids
    ids=$(awk '$1 == "array" { print $2 }' "$sdir/jobs" 2>/dev/null | paste -sd, -)
    [ -n "$ids" ] && { echo "  sacct:"; sacct -j "$ids" --format=JobID%20,State,Elapsed,MaxRSS,NodeList 2>&1 | sed 's/^/  /'; }
  fi
}

# watch MERGEID N: waits until the merge job has left the queue, showing progress; returns the merge's exit status
watch() {
  local mid=$1 n=$2 last='' now st arrays_ids
  arrays_ids=$(awk '$1 == "array" { print $2 }' "$sdir/jobs" | tail -n 50 | paste -sd, -)
  while :; do
    st=$(squeue -h -j "$mid" -o "%T %r" 2>/dev/null)
    [ -n "$st" ] || break
    case $st in *DependencyNeverSatisfied*)
      echo "$prog: the merge job $mid can never run ($st): some task failed; requeue it (scontrol requeue JOB_TASK) or scancel $mid and rerun this command" >&2
      return 4 ;;
    esac
    now="$(ls "$outdir"/shard_*"$ext".done 2>/dev/null | wc -l)/$n shards done, $(squeue -h -t R -j "$arrays_ids" -o %i 2>/dev/null | wc -l) tasks running; merge: $st"
    [ "$now" != "$last" ] && echo "$prog: $(date +%T) $now"
    last=$now
    sleep "$poll"
  done
  if [ -f "$logs/merge.rc" ]; then return "$(cat "$logs/merge.rc")"; fi
  echo "$prog: the merge job $mid left the queue without an exit status: cancelled (with --merge-after afterok, a failed task cancels it); rerun this command to finish" >&2
  return 5
}

command -v sbatch >/dev/null 2>&1 || die "sbatch not found (a Slurm client; scripts/slurm_cluster.sh starts a one-host cluster)"

if [ "$action" != submit ]; then
  [ -f "$sdir/campaign" ] || die "no campaign in $outdir"
  tasks=$(awk -F= '$1 == "tasks" { print $2 }' "$sdir/campaign")
  if [ "$action" = watch ]; then
    mid=$(awk '$1 == "merge" { m = $2 } END { print m }' "$sdir/jobs")
    [ -n "$mid" ] || die "no merge job recorded in $sdir/jobs"
    watch "$mid" "$tasks"
    rc=$?
    summary "$tasks"
    exit $rc
  fi
  summary "$tasks"
  exit 0
fi

# --- submit
[ -n "$tasks" ] || die "give the number of tasks (-n N or TASKS=N)"
[[ "$tasks" =~ ^[1-9][0-9]*$ ]] || die "-n: a positive number"
[ -n "$target" ] || die "give the target (-t TARGET or TARGET=...)"
[ ${#libs[@]} -gt 0 ] || die "give a library (-l LIB or LIBS=...)"
case $merge_after in afterany | afterok) ;; *) die "--merge-after: afterany or afterok" ;; esac
case $index_mode in job | inline | none) ;; *) die "--index: job, inline or none" ;; esac
if [ -z "$vsgrid_cmd" ]; then
  if command -v vsgrid >/dev/null 2>&1; then vsgrid_cmd=$(command -v vsgrid)
  elif [ -x "$here/../build/vsgrid" ]; then vsgrid_cmd=$(cd "$here/../build" && pwd)/vsgrid
  else die "no vsgrid on the PATH nor in build/ (--vsgrid CMD or VSGRID=...)"; fi
fi
# shellcheck disable=SC2206
vsgrid=($vsgrid_cmd)
mkdir -p "$logs" "$sdir" || exit 1

# a rerun must be the same campaign (the same cut of the same records)
sig=$(printf '%s\n' "tasks=$tasks" "target=$target" "libs=${libs[*]}" "screen=${screen_args[*]}")
if [ -f "$sdir/campaign" ]; then
  [ "$(cat "$sdir/campaign")" = "$sig" ] || {
    echo "$prog: $outdir holds another campaign:" >&2; sed 's/^/  /' "$sdir/campaign" >&2
    die "use another --outdir (or remove $outdir)"; }
  q=$(queued_jobs)
  [ -z "$q" ] || die "jobs of this campaign are still queued ($(echo $q)): wait (--watch -o $outdir) or scancel them, then rerun"
fi
printf '%s\n' "$sig" > "$sdir/campaign"
mapfile -t todo < <(missing_shards "$tasks")
if [ ${#todo[@]} = 0 ] && [ -f "$merged" ] && [ "$(cat "$logs/merge.rc" 2>/dev/null)" = 0 ]; then
  echo "$prog: complete already: every shard done and merged into $merged"
  summary "$tasks"
  exit 0
fi

# the job scripts (everything spelled out in them: a task does not depend on the submitter's environment)
{
  echo '#!/usr/bin/env bash'
  echo "# task script of a vsgrid campaign, written by $prog: task K = VSG_TASK_BASE + SLURM_ARRAY_TASK_ID"
  echo 'set -u'
  declare -p vsgrid target libs screen_args
  printf 'N=%q OUTDIR=%q EXT=%q\n' "$tasks" "$outdir" "$ext"
  cat <<'EOF'
K=$(( ${VSG_TASK_BASE:-0} + ${SLURM_ARRAY_TASK_ID:-0} ))
logs=$OUTDIR/logs
out=$OUTDIR/shard_$K$EXT
exec >>"$logs/task_$K.log" 2>&1
echo "== $(date '+%F %T') task $K/$N attempt ${SLURM_RESTART_COUNT:-0} (job ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID:-?}) on $(hostname)"
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
args=()
for a in "${screen_args[@]}"; do a=${a//\{K\}/$K}; args+=("${a//\{N\}/$N}"); done
cmd=("${vsgrid[@]}" screen "$target" "${libs[@]}" "${args[@]}" --shard "$K/$N" -o "$out")
# descendants PID: the processes below PID (from /proc: no procps needed)
descendants() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
    { s = $0; sub(/^.*\) /, "", s); split(s, f, " "); pid = $1 + 0; kids[f[2]] = kids[f[2]] " " pid }
    END { q = root; while (q != "") { n = split(q, a, " "); q = ""; for (i = 1; i <= n; i++) if (a[i] in kids) { printf "%s", kids[a[i]]; q = q kids[a[i]] } } }'
}
stop_child() { [ -n "$child" ] && kill -TERM $child $(descendants "$child") 2>/dev/null; }
requeue=0 child=
# SIGUSR1 (--signal=B:USR1@LEAD, the time limit is near): stop vsgrid (its .partial stays), requeue
trap 'requeue=1; echo "task $K: SIGUSR1 (time limit near): stopping, then requeueing"; stop_child' USR1
# SIGTERM (scancel, preemption, requeue of a running task: Slurm signals every process of the job)
trap 'echo "task $K: SIGTERM"; stop_child' TERM
rss=$logs/.rss_$K.$$
start=$(date +%s)
echo "+ ${cmd[*]}"
if [ -x /usr/bin/time ]; then /usr/bin/time -f '%M' -o "$rss" "${cmd[@]}" & else "${cmd[@]}" & fi
child=$!
while :; do
  wait "$child"; rc=$?
  kill -0 "$child" 2>/dev/null || break
done
end=$(date +%s)
m=$(tail -n 1 "$rss" 2>/dev/null | grep -E '^[0-9]+$' || echo -)
rm -f "$rss"
echo "task=$K attempt=${SLURM_RESTART_COUNT:-0} job=${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID:-?} host=$(hostname) start=$start end=$end rc=$rc maxrss_kb=$m" >> "$logs/task_$K.stats"
echo "== task $K: exit status $rc after $((end - start)) s"
if [ "$requeue" = 1 ] && [ ! -f "$out.done" ]; then
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}" && exit 0
fi
exit "$rc"
EOF
} > "$sdir/task.sh"
{
  echo '#!/usr/bin/env bash'
  echo "# merge script of a vsgrid campaign, written by $prog"
  echo 'set -u'
  declare -p vsgrid
  printf 'N=%q OUTDIR=%q MERGED=%q EXT=%q\n' "$tasks" "$outdir" "$merged" "$ext"
  printf 'merge_args=(%s)\n' "$merge_args"
  cat <<'EOF'
exec >>"$OUTDIR/logs/merge.log" 2>&1
echo "== $(date '+%F %T') merge of $N shards (job ${SLURM_JOB_ID:-?}) on $(hostname)"
shards=() missing=()
for ((k = 0; k < N; k++)); do
  shards+=("$OUTDIR/shard_$k$EXT")
  [ -f "$OUTDIR/shard_$k$EXT.done" ] || missing+=("$k")
done
[ ${#missing[@]} = 0 ] || echo "shards not finished (${#missing[@]} of $N): ${missing[*]:0:50}$([ ${#missing[@]} -gt 50 ] && echo ' ...') (rerun the campaign's command: it submits these only)"
start=$(date +%s)
"${vsgrid[@]}" merge "${shards[@]}" -o "$MERGED" "${merge_args[@]}"
rc=$?
echo "== merge: exit status $rc after $(($(date +%s) - start)) s"
echo "$rc" > "$OUTDIR/logs/merge.rc"
exit "$rc"
EOF
} > "$sdir/merge.sh"
{
  echo '#!/usr/bin/env bash'
  echo "# index script of a vsgrid campaign, written by $prog"
  echo 'set -u'
  declare -p vsgrid libs
  printf 'OUTDIR=%q\n' "$outdir"
  cat <<'EOF'
exec >>"$OUTDIR/logs/index.log" 2>&1
echo "== $(date '+%F %T') index (job ${SLURM_JOB_ID:-none}) on $(hostname)"
start=$(date +%s)
"${vsgrid[@]}" index "${libs[@]}"
rc=$?
echo "== index: exit status $rc after $(($(date +%s) - start)) s"
exit "$rc"
EOF
} > "$sdir/index.sh"
chmod +x "$sdir"/task.sh "$sdir"/merge.sh "$sdir"/index.sh
rm -f "$logs/merge.rc"

run() { # run sbatch (or show it): prints the job id
  if [ "$dry" = 1 ]; then echo "sbatch $*" >&2; echo "DRY$RANDOM"; return 0; fi
  local o
  o=$(sbatch --parsable "$@") || { echo "$prog: sbatch failed: sbatch $*" >&2; exit 1; }
  jobid_of "$o"
}
common=(--chdir="$PWD")
[ -n "$partition" ] && common+=(--partition="$partition")
[ "$dry" = 1 ] || echo "submitted $(date +%s)" >> "$sdir/jobs"

# (a) the index: once, before any task
dep=()
if [ ${#todo[@]} -gt 0 ] && [ "$index_mode" != none ]; then
  stale=0
  for l in "${libs[@]}"; do [ "$l.vsgidx" -nt "$l" ] || stale=1; done
  if [ $stale = 0 ]; then
    echo "$prog: the libraries' indexes are up to date"
  elif [ "$index_mode" = inline ]; then
    echo "$prog: indexing ${#libs[@]} libraries here"
    bash "$sdir/index.sh" || { tail -n 5 "$logs/index.log" >&2; die "vsgrid index failed ($logs/index.log)"; }
  else
    iid=$(run "${common[@]}" -J "$name-index" -o "$logs/slurm_index_%j.out" "$sdir/index.sh")
    echo "index $iid" >> "$sdir/jobs"
    echo "$prog: index job $iid"
    dep=(--dependency="afterok:$iid" --kill-on-invalid-dep=yes)
  fi
fi

# (b) the array(s): the shards not done yet, at most MaxArraySize-1 indices an array
arrays=()
if [ ${#todo[@]} -gt 0 ]; then
  maxa=${VSG_MAX_ARRAY_SIZE:-$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }')}
  [[ "${maxa:-}" =~ ^[0-9]+$ ]] && [ "$maxa" -gt 1 ] || maxa=1001
  chunk=$((maxa - 1))
  targs=("${common[@]}" --requeue --open-mode=append --cpus-per-task="$cpus" -o "$logs/slurm_%A_%a.out")
  [ -n "$time_limit" ] && targs+=(--time="$time_limit" --signal="B:USR1@$signal_lead")
  # shellcheck disable=SC2206
  [ -n "$sbatch_args" ] && targs+=($sbatch_args)
  for base in $(printf '%s\n' "${todo[@]}" | awk -v c="$chunk" '{ print int($1 / c) * c }' | uniq); do
    spec=$(printf '%s\n' "${todo[@]}" | awk -v b="$base" -v c="$chunk" '$1 >= b && $1 < b + c { print $1 - b }' | ranges)
    [ -n "$max_running" ] && spec="$spec%$max_running"
    aid=$(run "${targs[@]}" "${dep[@]}" -J "$name-screen" --array="$spec" --export=ALL,VSG_TASK_BASE="$base" "$sdir/task.sh")
    arrays+=("$aid")
    echo "array $aid $base $spec" >> "$sdir/jobs"
    echo "$prog: array job $aid: tasks $(printf '%s\n' "${todo[@]}" | awk -v b="$base" -v c="$chunk" '$1 >= b && $1 < b + c' | ranges) of 0-$((tasks - 1)) (array indices $spec, base $base)"
  done
else
  echo "$prog: every shard is done already"
fi

# (c) the merge, after every task has ended
margs=("${common[@]}" -J "$name-merge" -o "$logs/slurm_merge_%j.out")
if [ ${#arrays[@]} -gt 0 ]; then
  margs+=(--dependency="$merge_after:$(IFS=:; echo "${arrays[*]}")")
  [ "$merge_after" = afterok ] && margs+=(--kill-on-invalid-dep=yes)
elif [ ${#dep[@]} -gt 0 ]; then
  margs+=("${dep[@]}")
fi
mid=$(run "${margs[@]}" "$sdir/merge.sh")
echo "merge $mid" >> "$sdir/jobs"
echo "$prog: merge job $mid ($merge_after the array): $merged"
[ "$dry" = 1 ] && exit 0
echo "$prog: watch with: squeue; $0 --watch -o $outdir"

# (d) wait and summarise
if [ "$wait" = 1 ]; then
  watch "$mid" "$tasks"
  rc=$?
  summary "$tasks"
  exit $rc
fi
exit 0
