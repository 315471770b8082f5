#!/usr/bin/env bash
# slurm-cluster.sh: a one-host Slurm cluster (controller and compute node on this machine,
# talking over 127.0.0.1) for end-to-end runs of examples/slurm, and its teardown.
#
#   scripts/slurm-cluster.sh start STATE_DIR   install what is missing, start, wait for the node
#   scripts/slurm-cluster.sh stop STATE_DIR    cancel the cluster's jobs and stop its daemons
#
# Runs as root: the daemons and apt-get need it. Nothing is written under /etc/slurm: the
# daemons get -f STATE_DIR/slurm.conf and the client commands (sbatch, srun, squeue) find it
# through SLURM_CONF, which STATE_DIR/env.sh exports. Every daemon runs in the background with
# a PID file in STATE_DIR and is stopped through that file only, after checking that the PID
# still runs that program. munged is reused when one already answers; else it is started here and
# stopped by stop. No systemd or cgroups are needed.
#
# Settings (environment): SLURM_CPUS, the CPUs the node claims (default the larger of nproc and
# 8, so that a 4-shard job gets its 4 CPUs at once on a 2-core machine); SLURMCTLD_PORT and
# SLURMD_PORT (6817, 6818).
set -euo pipefail

log() { printf '%s slurm-cluster: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# pid_of PIDFILE NAME: the PID in PIDFILE if it is alive and runs NAME.
pid_of() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(tr -dc 0-9 <"$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2" || return 1
  echo "$pid"
}

# wait_for SECONDS WHAT CMD...: runs CMD every half second until it succeeds.
wait_for() {
  local secs=$1 what=$2 i
  shift 2
  for ((i = 0; i < secs * 2; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  log "timed out after ${secs} s waiting for $what"
  return 1
}

# stop_pid NAME PIDFILE: SIGTERM, then SIGKILL after 15 s.
stop_pid() {
  local pid i
  if ! pid=$(pid_of "$2" "$1"); then
    rm -f "$2"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 75; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$1 (pid $pid) ignored SIGTERM: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$2"
  log "$1 stopped (pid $pid)"
}

show_log() { if [ -f "$1" ]; then tail -n 15 "$1" >&2; fi; }

munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
node_up() { sinfo -h -N -n "$node" -o %t | grep -qx 'idle\|mix\|alloc'; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

install_missing() {
  local need=() c
  for c in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
    command -v "${c%%:*}" >/dev/null || need+=("${c#*:}")
  done
  [ ${#need[@]} -gt 0 ] || return 0
  command -v apt-get >/dev/null || die "no apt-get: install ${need[*]} with this system's package manager"
  log "installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
    die "apt-get install ${need[*]} failed"
}

write_conf() {
  local cpus mem
  cpus=${SLURM_CPUS:-$(($(nproc) > 8 ? $(nproc) : 8))}
  mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  mkdir -p "$state"/{ctld,spool,log}
  cat >"$conf" <<CONF
ClusterName=webload
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=load Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  echo "export SLURM_CONF=$conf" >"$state/env.sh"
}

start_munge() {
  if munge_ok; then
    log "munged already answers; using it"
    return 0
  fi
  [ -s /etc/munge/munge.key ] || {
    mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 600 /etc/munge/munge.key
  }
  install -d -o munge -g munge -m 0755 /run/munge
  install -d -o munge -g munge -m 0700 "$state/munge"
  runuser -u munge -- test -w "$state/munge" ||
    die "the munge user cannot reach $state/munge: give a STATE_DIR whose parents others may enter"
  # munged puts itself in the background and writes its PID file.
  runuser -u munge -- /usr/sbin/munged --pid-file="$state/munge/munged.pid" \
    --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed" ||
    die "munged did not start"
  wait_for 15 munged munge_ok || {
    show_log "$state/munge/munged.log"
    die "munged did not start"
  }
}

# start_daemon NAME ARGS...: NAME -D ARGS in its own session, its PID in STATE_DIR/NAME.pid.
start_daemon() {
  local name=$1
  shift
  if pid_of "$state/$name.pid" "$name" >/dev/null; then
    log "$name already running"
    return 0
  fi
  setsid "$name" -D "$@" >>"$state/log/$name.out" 2>&1 </dev/null &
  echo $! >"$state/$name.pid"
}

start() {
  [ "$(id -u)" = 0 ] || die "run as root: the Slurm daemons and apt-get need it"
  install_missing
  if ! pid_of "$state/slurmctld.pid" slurmctld >/dev/null; then
    port_free "$ctld_port" || die "127.0.0.1:$ctld_port is taken; set SLURMCTLD_PORT"
    port_free "$slurmd_port" || die "127.0.0.1:$slurmd_port is taken; set SLURMD_PORT"
  fi
  write_conf
  export SLURM_CONF=$conf
  start_munge
  start_daemon slurmctld -f "$conf"
  wait_for 30 slurmctld scontrol ping || {
    show_log "$state/log/slurmctld.log"
    die "slurmctld did not answer"
  }
  start_daemon slurmd -f "$conf" -N "$node"
  wait_for 60 "node $node to come up" node_up || {
    show_log "$state/log/slurmd.log"
    die "node $node did not come up"
  }
  log "up: node $node, partition load ($(sinfo -h -o '%C' | awk -F/ '{print $4}') CPUs); . $state/env.sh"
}

stop() {
  export SLURM_CONF=$conf
  if pid_of "$state/slurmctld.pid" slurmctld >/dev/null; then
    local jobs
    jobs=$(squeue -h -o %i 2>/dev/null || true)
    if [ -n "$jobs" ]; then
      log "cancelling jobs $jobs"
      # shellcheck disable=SC2086 # one argument a job
      scancel $jobs || true
      wait_for 20 "the jobs to end" sh -c '[ -z "$(squeue -h -o %i)" ]' || true
    fi
  fi
  stop_pid slurmd "$state/slurmd.pid"
  stop_pid slurmctld "$state/slurmctld.pid"
  # Only a munged started by start has its PID file here.
  stop_pid munged "$state/munge/munged.pid"
}

[ $# -eq 2 ] && { [ "$1" = start ] || [ "$1" = stop ]; } || {
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
}
mkdir -p "$2"
state=$(cd "$2" && pwd)
conf=$state/slurm.conf
node=$(hostname -s)
ctld_port=${SLURMCTLD_PORT:-6817}
slurmd_port=${SLURMD_PORT:-6818}
"$1"
