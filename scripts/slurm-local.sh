#!/usr/bin/env bash
# A real single-node Slurm on this machine, from Debian's packages (slurm-wlm, munge), for the
# Slurm integration test (scripts/slurm-it.sh) and for trying `memplan slurm` on a laptop.
#   scripts/slurm-local.sh start    installs the packages when missing, writes /etc/slurm/slurm.conf
#                                   for this host, starts munged, slurmctld and slurmd (as root, no
#                                   systemd needed), waits until sinfo shows the node idle
#   scripts/slurm-local.sh stop     stops the daemons this script started
#   scripts/slurm-local.sh status   says what runs
# Both are idempotent. One partition, "debug", holds the node. No accounting (no slurmdbd): sacct
# does not work here, squeue does (finished jobs stay listed for MinJobAge = 10 minutes).
# A slurm.conf this script did not write is never overwritten. Needs root (or sudo).
set -euo pipefail

conf=/etc/slurm/slurm.conf
marker="# written by memplan scripts/slurm-local.sh"
state=/var/lib/memplan-slurm
run=/run/memplan-slurm
logs=/var/log/memplan-slurm
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

say() { echo "slurm-local: $*"; }
die() {
  echo "slurm-local: $*" >&2
  exit 1
}

# whether the process whose id is in file $1 is alive
alive() { [ -s "$1" ] && $sudo kill -0 "$($sudo cat "$1")" 2>/dev/null; }

install_packages() {
  local missing=()
  for pkg in slurm-wlm munge; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # the packages' own service starts (systemd units, init scripts) are kept from running: this
  # script starts the daemons itself
  local policy=/usr/sbin/policy-rc.d added=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    added=1
  fi
  local rc=0
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" || rc=$?
  [ -z "$added" ] || $sudo rm -f "$policy"
  [ "$rc" -eq 0 ] || die "apt-get install ${missing[*]} failed"
}

write_conf() {
  local host cpus mem
  host="$(hostname -s)"
  cpus="$(nproc)"
  mem="$(free -m | awk '/^Mem:/ {print $2}')"
  local text
  text="$(
    cat <<EOF
$marker: a single-node cluster on $host
ClusterName=memplan-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
# no cgroups in a container: plain process tracking, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
KillWait=10
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  )"
  if [ -e "$conf" ] && ! grep -qF "$marker" "$conf"; then
    die "$conf exists and was not written by this script; not overwriting it"
  fi
  if [ -e "$conf" ] && [ "$(cat "$conf")" = "$text" ]; then
    return 0
  fi
  if alive "$run/slurmctld.pid" || alive "$run/slurmd.pid"; then
    say "slurm.conf changed: restarting the daemons"
    stop_slurm
  fi
  $sudo mkdir -p "$(dirname "$conf")"
  printf '%s\n' "$text" | $sudo tee "$conf" >/dev/null
  say "wrote $conf (NodeName=$host CPUs=$cpus RealMemory=$mem)"
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return 0
  fi
  if [ ! -s /etc/munge/munge.key ]; then
    if command -v mungekey >/dev/null 2>&1; then
      $sudo mungekey --create --keyfile=/etc/munge/munge.key
    else
      $sudo dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    $sudo chown munge:munge /etc/munge/munge.key
    $sudo chmod 400 /etc/munge/munge.key
  fi
  $sudo mkdir -p /run/munge /var/log/munge /var/lib/munge
  $sudo chown munge:munge /run/munge /var/log/munge /var/lib/munge
  $sudo runuser -u munge -- /usr/sbin/munged
  # remembers that munged is ours to stop
  $sudo touch "$run/munged.ours"
  say "started munged"
  for _ in $(seq 1 50); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "munged does not answer (see /var/log/munge/munged.log)"
}

start_slurm() {
  if ! alive "$run/slurmctld.pid"; then
    # -c: a clean slate, no jobs left over from an earlier start
    $sudo /usr/sbin/slurmctld -c
    say "started slurmctld"
  fi
  for _ in $(seq 1 100); do
    scontrol ping 2>/dev/null | grep -q "is UP" && break
    sleep 0.2
  done
  scontrol ping 2>/dev/null | grep -q "is UP" || die "slurmctld does not answer (see $logs/slurmctld.log)"
  if ! alive "$run/slurmd.pid"; then
    $sudo /usr/sbin/slurmd
    say "started slurmd"
  fi
}

wait_idle() {
  local host st=""
  host="$(hostname -s)"
  for i in $(seq 1 150); do
    st="$(sinfo -h -n "$host" -o %t 2>/dev/null | head -n 1 || true)"
    case "$st" in
      idle | mix | alloc | comp) return 0 ;;
      down* | drain* | drng*)
        # e.g. left down by an earlier stop: back into service
        [ "$i" -gt 5 ] && $sudo scontrol update nodename="$host" state=resume 2>/dev/null || true
        ;;
    esac
    sleep 0.2
  done
  die "node $host is '${st:-not listed}', not idle (see $logs/slurmd.log)"
}

stop_one() {
  local name="$1" pidfile="$2"
  if alive "$pidfile"; then
    local pid
    pid="$($sudo cat "$pidfile")"
    $sudo kill "$pid"
    for _ in $(seq 1 50); do
      $sudo kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    say "stopped $name"
  fi
  $sudo rm -f "$pidfile"
}

stop_slurm() {
  stop_one slurmd "$run/slurmd.pid"
  stop_one slurmctld "$run/slurmctld.pid"
}

case "${1:-}" in
  start)
    install_packages
    $sudo mkdir -p "$state/ctld" "$state/d" "$run" "$logs"
    write_conf
    start_munge
    start_slurm
    wait_idle
    say "up: $(sinfo -h -o '%P %D %t %c' | head -n 1) (partition nodes state cpus)"
    ;;
  stop)
    stop_slurm
    if [ -e "$run/munged.ours" ]; then
      stop_one munged /run/munge/munged.pid
      $sudo rm -f "$run/munged.ours"
    fi
    ;;
  status)
    for d in /run/munge/munged slurmctld slurmd; do
      pidfile="$run/$d.pid"
      [[ "$d" == /* ]] && pidfile="$d.pid"
      if alive "$pidfile"; then say "${d##*/} running"; else say "${d##*/} not running"; fi
    done
    command -v sinfo >/dev/null 2>&1 && sinfo 2>/dev/null || true
    ;;
  *)
    echo "usage: scripts/slurm-local.sh start|stop|status" >&2
    exit 2
    ;;
esac
