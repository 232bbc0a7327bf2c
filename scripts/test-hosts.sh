#!/usr/bin/env bash
# Test hosts for real deployments over SSH, on this machine (root needed).
#
#   scripts/test-hosts.sh up N          make hosts 1..N (idempotent: a running host is left alone)
#   scripts/test-hosts.sh up N --from F make hosts F..N only (hosts below F are not touched or waited on)
#   scripts/test-hosts.sh down          remove every host, the bridge and the state folder
#   scripts/test-hosts.sh down N --from F  remove hosts F..N only (the bridge, the key and the others stay)
#   scripts/test-hosts.sh list          the hosts' addresses, comma-separated (for HEARTH_TEST_HOSTS)
#   scripts/test-hosts.sh authorize F   authorize the public key in file F for root on every host
#   scripts/test-hosts.sh rekey I       give host I a new SSH host key (sshd restarted)
#   scripts/test-hosts.sh unplug I | plug I   take host I off the network and back
#   scripts/test-hosts.sh run I CMD...  run a command inside host I (its namespaces)
#   scripts/test-hosts.sh disks I [MB...]  give host I loop-device disks of these sizes (none: take
#                                       its disks away); the host's earlier disks go first
#
# Host I is 10.77.0.(10+I) on the bridge hearthbr0 (10.77.0.1, this machine). Each host is a
# network namespace (veth pair to the bridge), a PID namespace (so a real reboot(2) inside ends the
# host, never this machine), a UTS namespace (its own hostname) and a private mount namespace:
# /etc and /var are overlays whose changes live in a tmpfs of the host, /tmp is a tmpfs, so what a
# deployment writes to /etc/hearth, /etc/astute.yaml, /var/lib/hearth or /tmp stays on that host.
# Its sshd is Debian's openssh-server with its own host key; root logs in with the keys authorized
# here (a client key made by `up` in $STATE/client_key, and any added by `authorize`).
# `reboot` inside a host kills everything in it but its init, which starts sshd again after 2 s.
#
# Disks of its own (`disks`, for the disk layout tests of issue 26): each size makes a sparse file
# $STATE/hI/disks/dN.img attached to a loop device of this machine (losetup -P, so partitions get
# their /dev/loopNpM). Inside every host, from its start, /sys/block (where lsblk finds disks) is
# a tmpfs holding links to the machine's disks but no loop device, and `disks` adds the host's own
# loop devices, so lsblk, the node's facts and the release's scripts see that host's disks, never
# another host's test disks (which appeared as free disks of every host before). /dev stays this
# machine's devtmpfs (partition nodes appear there as the kernel makes them; there is no udev, so
# a partition table is read again with `partx -u`). `disks I` without sizes, and `down`, unmount
# what the host mounted from them, detach them and remove the files. The kernel has no
# device-mapper here: loop disks take partitions and filesystems, not LVM.
set -euo pipefail

STATE=${HEARTH_TEST_HOSTS_STATE:-/run/hearth-test-hosts}
BRIDGE=hearthbr0
NET=10.77.0
MAX=100

die() { echo "test-hosts: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (network and mount namespaces)"

addr() { echo "$NET.$((10 + $1))"; }
ns() { echo "hearth-h$1"; }
check_index() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$MAX" ] || die "host index '$1' must be 1..$MAX"; }

# The init of a host: mounts, hostname, then sshd for ever (restarted after a reboot or a kill).
init_script() {
  cat <<'EOF'
set -u
dir=$1; i=$2
mount --make-rprivate /
mount -t tmpfs -o mode=0755,size=64m hearth-state "$dir/mnt"
for d in etc var; do
  mkdir -p "$dir/mnt/$d-up" "$dir/mnt/$d-work"
  mount -t overlay overlay -o "lowerdir=/$d,upperdir=$dir/mnt/$d-up,workdir=$dir/mnt/$d-work" "/$d"
done
mount -t tmpfs -o mode=1777,size=256m hearth-tmp /tmp
# root's home is the host's own, from Debian's skeleton, as on a fresh server: this machine's
# start-up files ran a `pyenv rehash` in every SSH session, whose lock every host shared, so under
# load commands waited up to 60 s for each other (and for good after a session killed holding it).
mount -t tmpfs -o mode=0700,size=64m hearth-root /root
cp /etc/skel/.bashrc /etc/skel/.profile /root/ 2>/dev/null || true
# /sys/block, where lsblk finds disks, shows this host's disks only: the machine's own disks but no
# loop device (those are other hosts' test disks); `disks I` links the host's own loop disks in.
blocks=$(ls /sys/block)
mount -t tmpfs -o mode=0755,size=1m hearth-blocks /sys/block
for d in $blocks; do
  case $d in loop*) continue ;; esac
  ln -s "../devices/$(readlink "/sys/class/block/$d" | sed "s|.*/devices/||")" "/sys/block/$d"
done
mkdir -p /etc/hearth /var/lib/hearth /run/sshd
hostname "hearth-test-$i"
echo "hearth-test-$i" > /etc/hostname
# reboot, shutdown and systemctl end every process of this host but init: a simulated reboot.
cat > "$dir/mnt/reboot" <<'EOS'
#!/bin/sh
( sleep 1; kill -KILL -1 ) >/dev/null 2>&1 </dev/null &
exit 0
EOS
chmod 755 "$dir/mnt/reboot"
mount --bind "$dir/mnt/reboot" /usr/bin/systemctl
trap 'exit 0' TERM
while [ ! -e "$dir/stop" ]; do
  /usr/sbin/sshd -D -f "$dir/sshd_config" -E "$dir/sshd.log" &
  echo $! > "$dir/sshd.pid"
  wait $! || true
  [ -e "$dir/stop" ] && break
  sleep 2
done
EOF
}

running() { [ -f "$STATE/h$1/pid" ] && kill -0 "$(cat "$STATE/h$1/pid")" 2>/dev/null; }

bridge_up() {
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    # A fixed address: a bridge takes its lowest port's otherwise, so it changed with every host
    # added and hosts that had learnt the old one lost the machine until their ARP entry aged.
    ip link add "$BRIDGE" address 02:68:74:68:00:01 type bridge
    ip addr add "$NET.1/24" dev "$BRIDGE"
  fi
  ip link set "$BRIDGE" up
}

client_key() {
  mkdir -p "$STATE"
  chmod 700 "$STATE"
  [ -f "$STATE/client_key" ] || ssh-keygen -q -t ed25519 -N '' -C hearth-test-client -f "$STATE/client_key"
  touch "$STATE/authorized_keys"
  grep -qxF "$(cat "$STATE/client_key.pub")" "$STATE/authorized_keys" || cat "$STATE/client_key.pub" >> "$STATE/authorized_keys"
}

host_up() {
  local i=$1 dir="$STATE/h$1" n; n=$(ns "$i")
  running "$i" && return 0
  mkdir -p "$dir/mnt"
  rm -f "$dir/stop"
  [ -f "$dir/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C "hearth-test-$i" -f "$dir/ssh_host_ed25519_key"
  cat > "$dir/sshd_config" <<EOF
ListenAddress $(addr "$i"):22
HostKey $dir/ssh_host_ed25519_key
PidFile none
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AuthorizedKeysFile $STATE/authorized_keys
MaxSessions 100
MaxStartups 100:30:200
Subsystem sftp /usr/lib/openssh/sftp-server
AcceptEnv LANG LC_*
EOF
  ip netns list | grep -qw "$n" || ip netns add "$n"
  if ! ip link show "hth$i" >/dev/null 2>&1; then
    ip link add "hth$i" type veth peer name eth0 netns "$n"
    ip link set "hth$i" master "$BRIDGE" up
  fi
  ip -n "$n" link set lo up
  ip -n "$n" addr replace "$(addr "$i")/24" dev eth0
  ip -n "$n" link set eth0 up
  ip -n "$n" route replace default via "$NET.1"
  init_script > "$dir/init.sh"
  # setsid: the host outlives this script; --kill-child: killing unshare ends the host.
  setsid ip netns exec "$n" unshare --pid --fork --kill-child --mount --uts --mount-proc \
    bash "$dir/init.sh" "$dir" "$i" > "$dir/init.log" 2>&1 < /dev/null &
  echo $! > "$dir/pid"
}

# Waits until host I answers SSH, up to $2 seconds (90 by default: a loaded CI machine starting
# 40 hosts at once is slow). On failure it prints what the host shows: its init's log, sshd's log,
# its processes and addresses, and ssh's own words, so a CI log says why.
wait_ssh() {
  local i=$1 limit=${2:-90} start=$SECONDS
  until ssh -q -i "$STATE/client_key" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=3 "root@$(addr "$i")" true 2>/dev/null; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      {
        echo "test-hosts: host $i ($(addr "$i")) did not answer SSH in ${limit} s. What it shows:"
        echo "-- init.log"; tail -n 20 "$STATE/h$i/init.log" 2>&1
        echo "-- sshd.log"; tail -n 20 "$STATE/h$i/sshd.log" 2>&1
        pids=$(ip netns pids "$(ns "$i")" 2>/dev/null | paste -sd, -)
        echo "-- processes"; if [ -n "$pids" ]; then ps -o pid,stat,etime,args -p "$pids" 2>&1; else echo "(none)"; fi
        echo "-- addresses"; ip -n "$(ns "$i")" -br addr 2>&1
        echo "-- ssh"; ssh -v -i "$STATE/client_key" -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=3 "root@$(addr "$i")" true 2>&1 | tail -n 15
      } >&2
      die "host $i ($(addr "$i")) does not answer SSH; see $STATE/h$i/init.log and sshd.log"
    fi
    sleep 0.5
  done
}

host_down() {
  local i=$1 dir="$STATE/h$1" n; n=$(ns "$i")
  touch "$dir/stop" 2>/dev/null || true
  if [ -f "$dir/pid" ]; then kill -KILL "$(cat "$dir/pid")" 2>/dev/null || true; fi
  # Anything left in the network namespace (a session, the init) goes too.
  if ip netns list | grep -qw "$n"; then
    for p in $(ip netns pids "$n" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    ip netns del "$n" 2>/dev/null || true
  fi
  ip link del "hth$i" 2>/dev/null || true
}

# The PID of host I's init (its namespaces), or nothing when it is not running.
host_init() { [ -f "$STATE/h$1/pid" ] && pgrep -P "$(cat "$STATE/h$1/pid")" | head -1; }

# Host I's loop devices, one a line (from the list `disks` keeps).
host_loops() { [ -f "$STATE/h$1/disks/loops" ] && cat "$STATE/h$1/disks/loops" || true; }

# Takes host I's disks away: what the host mounted or swapped from them first (in its mount
# namespace), then the loop devices and their files.
disks_remove() {
  local i=$1 dir="$STATE/h$1/disks" init loops
  [ -d "$dir" ] || return 0
  loops=$(host_loops "$i")
  init=$(host_init "$i" || true)
  if [ -n "$init" ] && [ -n "$loops" ]; then
    # Deepest mounts first; swap off; then the filtered /sys/block shows the machine's disks alone.
    nsenter -t "$init" -m -p -- bash -c '
      for l in "$@"; do
        findmnt -rn -o TARGET,SOURCE | while read -r t src; do
          [[ "$src" =~ ^$l(p[0-9]+)?$ ]] && echo "$t"
        done | sort -r | while read -r t; do umount "$t" 2>/dev/null || umount -l "$t"; done
        while read -r sw _; do [[ "$sw" =~ ^$l(p[0-9]+)?$ ]] && swapoff "$sw"; done < /proc/swaps
        rm -f "/sys/block/${l#/dev/}"
      done' - $loops || true
  fi
  for l in $loops; do losetup -d "$l" 2>/dev/null || true; done
  rm -rf "$dir"
}

# Gives host I loop disks of the sizes given (MB), after taking its earlier ones away.
disks_add() {
  local i=$1 dir="$STATE/h$1/disks" init n=0 l links="" root
  shift
  init=$(host_init "$i" || true)
  [ -n "$init" ] || die "host $i is not running (scripts/test-hosts.sh up $i first)"
  for mb in "$@"; do [[ "$mb" =~ ^[0-9]+$ ]] && [ "$mb" -ge 1 ] || die "disk size '$mb' must be a whole number of MB"; done
  disks_remove "$i"
  mkdir -p "$dir"
  : > "$dir/loops"
  for mb in "$@"; do
    n=$((n + 1))
    truncate -s "${mb}M" "$dir/d$n.img"
    l=$(losetup -f --show -P "$dir/d$n.img") || die "losetup found no free loop device for $dir/d$n.img"
    echo "$l" >> "$dir/loops"
    links="$links ${l#/dev/}"
  done
  # The whole disk that holds / (vda, or sda for sda1): lsblk's parent of the root device.
  root=$(findmnt -n -o SOURCE / | sed 's|^/dev/||')
  [ -e "/sys/class/block/$root/partition" ] && root=$(basename "$(dirname "$(readlink -f "/sys/class/block/$root")")")
  nsenter -t "$init" -m -p -- sh -c '
    mountpoint -q /sys/block || mount -t tmpfs -o mode=0755,size=1m hearth-blocks /sys/block
    for d in '"$root $links"'; do [ -e "/sys/block/$d" ] || ln -s "../devices/$(readlink /sys/class/block/$d | sed "s|.*/devices/||")" "/sys/block/$d"; done'
  cat "$dir/loops"
}

# The first host of a range: F of `--from F` (1 without), at most the last host N.
from_arg() {
  local last=$1 flag=$2 first=${3:-}
  [ -z "$flag" ] && { echo 1; return; }
  [ "$flag" = --from ] || die "unknown option '$flag' (only --from F)"
  [[ "$first" =~ ^[0-9]+$ ]] && [ "$first" -ge 1 ] && [ "$first" -le "$last" ] || die "--from needs a first host 1..$last"
  echo "$first"
}

hosts() { for d in "$STATE"/h*; do [ -d "$d" ] && basename "$d" | sed 's/^h//'; done | sort -n; }

case "${1:-}" in
  up)
    count=${2:-3}
    [[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] && [ "$count" -le "$MAX" ] || die "up needs a count 1..$MAX"
    first=$(from_arg "$count" "${3:-}" "${4:-}")
    command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || die "install openssh-server first (apt-get install openssh-server rsync)"
    bridge_up
    client_key
    for i in $(seq "$first" "$count"); do host_up "$i"; done
    for i in $(seq "$first" "$count"); do wait_ssh "$i"; done
    "$0" list
    ;;
  down)
    if [ -n "${2:-}" ]; then
      # A range only: hosts other tests (or engineers) are using stay up, and so do the bridge and key.
      [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le "$MAX" ] || die "down needs nothing (every host) or a last host 1..$MAX with --from F"
      [ "${3:-}" = --from ] || die "down N needs --from F (down alone removes every host)"
      first=$(from_arg "$2" "$3" "${4:-}")
      for i in $(seq "$first" "$2"); do
        [ -d "$STATE/h$i" ] || continue
        disks_remove "$i"; host_down "$i"; rm -rf "${STATE:?}/h$i"
      done
      exit 0
    fi
    for i in $(hosts); do disks_remove "$i"; host_down "$i"; done
    ip link del "$BRIDGE" 2>/dev/null || true
    rm -rf "$STATE"
    ;;
  list)
    list=""
    for i in $(hosts); do running "$i" && list="$list${list:+,}$(addr "$i")"; done
    echo "$list"
    ;;
  authorize)
    [ -f "${2:-}" ] || die "authorize needs a public key file"
    key=$(head -1 "$2")
    [[ "$key" =~ ^(ssh-|ecdsa-) ]] || die "$2 is not an OpenSSH public key"
    mkdir -p "$STATE"; touch "$STATE/authorized_keys"
    grep -qxF "$key" "$STATE/authorized_keys" || echo "$key" >> "$STATE/authorized_keys"
    ;;
  rekey)
    check_index "${2:-}"; dir="$STATE/h$2"
    rm -f "$dir/ssh_host_ed25519_key" "$dir/ssh_host_ed25519_key.pub"
    ssh-keygen -q -t ed25519 -N '' -C "hearth-test-$2" -f "$dir/ssh_host_ed25519_key"
    # Every process of the host but its init ends (sshd and its sessions), as when a host is
    # reinstalled; init starts sshd again with the new key.
    "$0" run "$2" kill -KILL -1 || true
    sleep 2
    sleep 0.5
    wait_ssh "$2"
    ;;
  disks)
    check_index "${2:-}"; i=$2; shift 2
    if [ $# -eq 0 ]; then disks_remove "$i"; else disks_add "$i" "$@"; fi
    ;;
  unplug) check_index "${2:-}"; ip link set "hth$2" down ;;
  plug) check_index "${2:-}"; ip link set "hth$2" up ;;
  run)
    check_index "${2:-}"; i=$2; shift 2
    init=$(host_init "$i" || true)
    [ -n "$init" ] || die "host $i is not running"
    exec nsenter -t "$init" -n -m -u -p -- "$@"
    ;;
  *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
