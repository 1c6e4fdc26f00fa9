#!/usr/bin/env bash
# slurm_cluster.sh start|stop|status|env [STATE_DIR] — a one-host Slurm cluster (slurmctld +
# slurmd, and a private munged) run as root without systemd, for trying and testing job-array
# campaigns (scripts/slurm_campaign.sh, tests/cli_slurm_shards.sh). Everything lives in
# STATE_DIR (default /tmp/vsgrid-slurm): slurm.conf, the controller's state, the slurmd spool,
# logs, pid files, the munge key and socket. Nothing in /etc is read or written.
#
#   sudo apt-get install -y slurm-wlm munge       # Debian 12: Slurm 22.05, MUNGE 0.5.15
#   scripts/slurm_cluster.sh start                # prints: export SLURM_CONF=/tmp/vsgrid-slurm/slurm.conf
#   export SLURM_CONF=/tmp/vsgrid-slurm/slurm.conf
#   sinfo; sbatch --array=0-3 --wrap 'hostname'; squeue
#   scripts/slurm_cluster.sh stop                 # cancels this cluster's jobs, stops the daemons
#
# start waits until sinfo shows the node idle (VSG_SLURM_TIMEOUT seconds, default 60) and
# exits 0, or prints the logs' last lines and exits 1; 2: not root or bad usage; 3: Slurm (or
# munge, when VSG_SLURM_AUTH=munge) is not installed. start on a running cluster only prints
# the export line. status exits 0 when both daemons run and the node answers, else 1.
# `env` prints the export line only (eval "$(scripts/slurm_cluster.sh env DIR)").
#
# Settings (environment):
#   VSG_SLURM_PORT     slurmctld's port (default 16817; slurmd gets PORT+1). Not Slurm's own
#                      6817/6818, so that a host's real Slurm is not disturbed; two clusters on
#                      one host need two ports (the ctest test picks a free one).
#   VSG_SLURM_AUTH     auto (default): munge when munged is installed, else auth/none when this
#                      Slurm has that plugin (Debian 12's 22.05 does, and it works: the test
#                      passes with either; newer Slurm may lack it); munge; none.
#   VSG_SLURM_NODE     the node's name (default: `hostname -s`).
#   VSG_SLURM_CPUS, VSG_SLURM_MEM_MB   override what `slurmd -C` finds.
#   VSG_SLURM_TIMEOUT  seconds start waits for the idle node (default 60).
#
# Pitfalls found on Debian 12 (Slurm 22.05.8, as root in a container whose PID 1 is no init):
# - Debian's packages ship no slurm.conf and their systemd units cannot start here; every
#   daemon and client must be given this file: daemons by -f, clients (sinfo, sbatch, squeue,
#   scontrol, scancel) by SLURM_CONF (the clients' default is /etc/slurm/slurm.conf).
# - Slurm's own auth (auth/munge) needs a munged. It runs as root here with --force, with its
#   own key, socket, pid, log and seed files in STATE_DIR/munge (AuthInfo=socket=... points
#   Slurm at it), so the host's /etc/munge/munge.key and /run/munge are never used. The socket's
#   directory must be 0755 (munged warns, and non-root clients could not reach it otherwise).
# - No cgroups: ProctrackType=proctrack/linuxproc (processes tracked through their parent pid;
#   a task that double-forks out of its tree escapes it), TaskPlugin=task/none,
#   JobAcctGatherType=jobacct_gather/none; no cgroup.conf is read then. Works in containers
#   with cgroup v1, v2 or none mounted.
# - No accounting daemon (slurmdbd needs MySQL/MariaDB): AccountingStorageType=
#   accounting_storage/none, so `sacct` says accounting is disabled; jobcomp/filetxt keeps one
#   line per finished job (and array task) in STATE_DIR/log/jobcomp.txt (start, end, state,
#   exit code: no memory figures). scripts/slurm_campaign.sh measures each task itself.
# - A requeued job waits AuthInfo's cred_expire seconds (default 120) before it may start
#   again; 10 here, so that a requeued task reruns soon (the credential of a step must still
#   outlive its launch: do not go lower on a loaded machine).
# - The node's CPUs, topology and memory come from `slurmd -C`; a node configured with more
#   than it has is drained ("Low RealMemory"); SlurmdParameters=config_overrides keeps it up
#   anyway, and ReturnToService=2 returns a node that was down (slurmd restarted) to service by
#   itself. SelectTypeParameters=CR_CPU: every hardware thread takes a task (with CR_Core a
#   1-CPU task holds a whole core: half the tasks at once on a hyperthreaded machine).
# - A requeued job becomes eligible after cred_expire, but nothing wakes the scheduler then: it
#   starts at the next periodic pass (sched_interval, default 60 s; backfill bf_interval, 30 s);
#   SchedulerParameters=sched_interval=5,bf_interval=5 here. slurmctld's scheduler itself
#   starts about 3 s after the daemon: the node is idle at once, the first job runs ~3 s later.
# - The node's name must be the one slurmd calls itself: slurmd is started with -N NAME and the
#   node and controller are addressed as 127.0.0.1 (NodeAddr, SlurmctldHost=NAME(127.0.0.1)), so
#   that a container hostname that does not resolve still works. slurmctld refuses to start when
#   NAME is not this host's short name ("not a valid controller"): leave VSG_SLURM_NODE unset.
# - Both daemons log "mpi/pmix_v4: can not load PMIx library" at start (slurmd loads every MPI
#   plugin whatever MpiDefault says): harmless without MPI jobs.
# - PID 1 in some containers never reaps orphans: a stopped munged or slurmd stays a zombie,
#   which `kill -0` still finds; the pid checks here look at /proc/PID/stat's state instead.
# - Jobs run as root with the submitter's environment and working directory (sbatch's
#   default --export=ALL): the cluster sees the same files as the submitter (one host).
# - MaxArraySize is 1001 by default (array indices 0-1000); set to 100001 here, with
#   MaxJobCount to match, so a campaign can be cut finely. Completed jobs stay visible to
#   squeue/scontrol for MinJobAge (3600 s here) so that a finished task can still be requeued.
set -u
prog=$(basename "$0")
usage() { echo "usage: $prog start|stop|status|env [STATE_DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
cmd=$1
state=${2:-/tmp/vsgrid-slurm}
case $state in /*) ;; *) state=$PWD/$state ;; esac
conf=$state/slurm.conf
port=${VSG_SLURM_PORT:-16817}
timeout=${VSG_SLURM_TIMEOUT:-60}
node=${VSG_SLURM_NODE:-$(hostname -s 2>/dev/null || hostname)}

# alive PIDFILE: the pid in PIDFILE is a live process (not a zombie)
alive() {
  local pid st
  [ -s "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] || return 1
  [ -r "/proc/$pid/stat" ] || return 1
  st=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# stop_pid PIDFILE NAME: TERM, then KILL after 10 s
stop_pid() {
  local pid
  alive "$1" || { rm -f "$1"; return 0; }
  pid=$(cat "$1")
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 50); do alive "$1" || break; sleep 0.2; done
  if alive "$1"; then echo "$prog: $2 (pid $pid) did not stop on TERM: KILL" >&2; kill -KILL "$pid" 2>/dev/null; sleep 0.5; fi
  rm -f "$1"
}
export_line() { echo "export SLURM_CONF=$conf"; }
node_state() { SLURM_CONF=$conf timeout 10 sinfo -h -N -n "$node" -o %T 2>/dev/null | head -1; }
log_tails() {
  local f
  for f in "$state"/log/slurmctld.log "$state"/log/slurmd.log "$state"/munge/munged.log; do
    [ -f "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
  done >&2
}

case $cmd in
env)
  export_line
  exit 0
  ;;
status)
  rc=0
  for d in munged slurmctld slurmd; do
    f=$state/$d.pid
    [ $d = munged ] && f=$state/munge/munged.pid
    if alive "$f"; then echo "$d: running (pid $(cat "$f"))"
    elif [ $d = munged ] && ! grep -q '^AuthType=auth/munge' "$conf" 2>/dev/null; then echo "munged: not used"
    else echo "$d: not running"; rc=1; fi
  done
  if [ $rc = 0 ]; then
    export SLURM_CONF=$conf
    timeout 10 sinfo || rc=1
    timeout 10 squeue || rc=1
  fi
  exit $rc
  ;;
stop)
  [ -f "$conf" ] || { echo "$prog: no cluster in $state"; exit 0; }
  export SLURM_CONF=$conf
  if alive "$state/slurmctld.pid"; then
    # this cluster's jobs first: slurmd leaves running steps (slurmstepd) alive when it stops
    jobs=$(timeout 10 squeue -h -t PD,R,CG,S,CF,RQ,RS,SE -o %A 2>/dev/null | sort -u)
    if [ -n "$jobs" ]; then
      # shellcheck disable=SC2086
      timeout 10 scancel $jobs 2>/dev/null
      for _ in $(seq 1 50); do
        [ -z "$(timeout 10 squeue -h -t R,CG -o %A 2>/dev/null)" ] && break
        sleep 0.2
      done
    fi
    timeout 10 scontrol shutdown >/dev/null 2>&1
    for _ in $(seq 1 25); do alive "$state/slurmctld.pid" || alive "$state/slurmd.pid" || break; sleep 0.2; done
  fi
  stop_pid "$state/slurmd.pid" slurmd
  stop_pid "$state/slurmctld.pid" slurmctld
  stop_pid "$state/munge/munged.pid" munged
  echo "$prog: stopped the cluster of $state"
  exit 0
  ;;
start) ;;
*) usage ;;
esac

# --- start
[ "$(id -u)" = 0 ] || { echo "$prog: must run as root (slurmd launches jobs as their users)" >&2; exit 2; }
for b in slurmctld slurmd sinfo sbatch scontrol; do
  command -v "$b" >/dev/null 2>&1 || { echo "$prog: $b not found (apt-get install slurm-wlm)" >&2; exit 3; }
done
if alive "$state/slurmctld.pid" && alive "$state/slurmd.pid"; then
  echo "$prog: already running in $state" >&2
  export_line
  exit 0
fi
plugdir=$(dirname "$(ls /usr/lib/*/slurm-wlm/auth_munge.so /usr/lib/*/slurm/auth_munge.so /usr/lib*/slurm/auth_munge.so 2>/dev/null | head -1)" 2>/dev/null)
auth=${VSG_SLURM_AUTH:-auto}
if [ "$auth" = auto ]; then
  if command -v munged >/dev/null 2>&1; then auth=munge
  elif [ -n "$plugdir" ] && [ -f "$plugdir/auth_none.so" ]; then auth=none
  else echo "$prog: neither munged nor Slurm's auth/none plugin found (apt-get install munge)" >&2; exit 3; fi
fi
case $auth in
munge) command -v munged >/dev/null 2>&1 || { echo "$prog: munged not found (apt-get install munge)" >&2; exit 3; } ;;
none) ;;
*) echo "$prog: VSG_SLURM_AUTH must be auto, munge or none" >&2; exit 2 ;;
esac

mkdir -p "$state"/state "$state"/spool "$state"/log || exit 1
chmod 755 "$state"

# this host's CPUs and memory, as slurmd sees them
hw=$(slurmd -C 2>/dev/null | head -1)
cpus=${VSG_SLURM_CPUS:-$(echo "$hw" | grep -o 'CPUs=[0-9]*' | cut -d= -f2)}
mem=${VSG_SLURM_MEM_MB:-$(echo "$hw" | grep -o 'RealMemory=[0-9]*' | cut -d= -f2)}
[ -n "$cpus" ] || cpus=$(nproc)
[ -n "$mem" ] || mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
# the topology too (Slurm otherwise takes every CPU for a socket and logs that it differs)
topo=
if [ -z "${VSG_SLURM_CPUS:-}" ]; then
  topo=$(echo "$hw" | grep -oE '(Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+' | tr '\n' ' ')
  [ "$(echo "$topo" | wc -w)" = 4 ] || topo=
fi

authinfo=cred_expire=10
if [ "$auth" = munge ]; then
  mkdir -p "$state/munge" && chmod 755 "$state/munge"
  if [ ! -s "$state/munge/munge.key" ]; then
    (umask 077 && head -c 1024 /dev/urandom > "$state/munge/munge.key") || exit 1
    chmod 400 "$state/munge/munge.key"
  fi
  authinfo="socket=$state/munge/munge.socket,$authinfo"
fi

cat > "$conf" <<EOF
# one-host cluster written by scripts/slurm_cluster.sh (see its comments); Slurm $(slurmctld -V 2>/dev/null | awk '{ print $2 }')
ClusterName=vsgrid
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/$auth
CredType=cred/$auth
AuthInfo=$authinfo
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$state/log/jobcomp.txt
MailProg=/bin/true
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=5,bf_interval=5
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
JobRequeue=1
ReturnToService=2
KillWait=10
MinJobAge=3600
MaxArraySize=100001
MaxJobCount=200000
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus ${topo}RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF

t0=$(date +%s.%N)
if [ "$auth" = munge ] && ! alive "$state/munge/munged.pid"; then
  rm -f "$state/munge/munge.socket" "$state/munge/munge.socket.lock"
  munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
    --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
    --seed-file="$state/munge/munged.seed" || { echo "$prog: munged did not start" >&2; log_tails; exit 1; }
fi
alive "$state/slurmctld.pid" || slurmctld -f "$conf" || { echo "$prog: slurmctld did not start" >&2; log_tails; exit 1; }
alive "$state/slurmd.pid" || slurmd -f "$conf" -N "$node" || { echo "$prog: slurmd did not start" >&2; log_tails; exit 1; }

export SLURM_CONF=$conf
end=$(($(date +%s) + timeout))
st=
while [ "$(date +%s)" -lt "$end" ]; do
  st=$(node_state)
  case $st in
  idle* | mix* | alloc* | comp*) break ;;
  down* | drain* | fail*)
    # a node left down from an earlier run of this STATE_DIR
    timeout 10 scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 ;;
  esac
  alive "$state/slurmctld.pid" || { echo "$prog: slurmctld exited" >&2; break; }
  alive "$state/slurmd.pid" || { echo "$prog: slurmd exited" >&2; break; }
  sleep 0.5
done
case $st in
idle* | mix* | alloc* | comp*) ;; # up (jobs kept in STATE_DIR from an earlier start may run)
*)
  echo "$prog: node $node not idle after ${timeout}s (state: ${st:-no answer})" >&2
  log_tails
  exit 1
  ;;
esac
echo "$prog: node $node idle ($cpus CPUs, $mem MB, auth/$auth, port $port) after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
export_line
