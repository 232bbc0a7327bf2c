/**
 * The scripts of the release plugin skeleton (its deployment_scripts/): small, real and safe to
 * run, so that a release made by `hearth plugin create --release-plugin` deploys for real from the
 * start and shows the moving parts an author replaces: the node's deployment data, the release's
 * scripts folder as the working folder, a compute configured from what the deployment says about
 * its controllers, and a log of what ran in what order.
 *
 * Nodes get these files in /etc/hearth/plugins/<name>-<version>/ and run them from there.
 */
import type { SkeletonFile } from './templates.js';

const script = (text: string): SkeletonFile => ({ text, executable: true });

// Read by every other script: where the release keeps its files on the node, and two helpers.
const COMMON = (name: string): string => `# Shared by the release's scripts (each one sources it: ". ./common.sh").
# Tasks run in this release's scripts folder on the node, /etc/hearth/plugins/<name>-<version>/,
# and the node's deployment data is in /etc/hearth/deployment.yaml (also /etc/astute.yaml).

# Under a folder of their own, whatever the release is called: erase.sh removes them whole.
CONFIG_DIR=/etc/hearth-release/${name}
LOG_DIR=/var/log/hearth-release/${name}
DEPLOYMENT_DATA=/etc/hearth/deployment.yaml

# record TASK EVENT: one line per event in $LOG_DIR/tasks.log, "<seconds since 1970> <task> <event>",
# so an operator (and the skeleton's tests) can see what ran on the node and in what order.
record() {
  mkdir -p "$LOG_DIR"
  printf '%s %s %s\\n' "$(date +%s.%N)" "$1" "$2" >> "$LOG_DIR/tasks.log"
  echo "$1: $2"
}

# data_value KEY: a top-level scalar of the deployment data (uid, fqdn, ip, deployment_id, ...).
data_value() {
  sed -n "s/^$1: *//p" "$DEPLOYMENT_DATA" | head -n 1 | sed "s/^[\\"']//; s/[\\"']$//"
}

fail() {
  echo "$*" >&2
  exit 1
}
`;

const CONTROLLER = (name: string): string => `#!/bin/bash
# Task controller-services: configure a controller. Replace the body with the release's own
# steps (packages from the release's repository, configuration files, services).
set -eu
. ./common.sh
record controller-services start
address=$(data_value ip)
[ -n "$address" ] || fail "the deployment data ($DEPLOYMENT_DATA) gives no address (ip) for this node"
mkdir -p "$CONFIG_DIR"
printf 'address=%s\\nhostname=%s\\nenvironment=%s\\n' "$address" "$(hostname)" "$(data_value deployment_id)" > "$CONFIG_DIR/controller.conf"
echo "${name} controller configured at $address"
record controller-services done
`;

const COMPUTE = (name: string): string => `#!/bin/bash
# Task compute-services: configure a compute to use the controllers. The task before it
# (compute-controllers, an upload_file) wrote their addresses, taken from the deployment data,
# to $CONFIG_DIR/controllers.json once every controller had finished controller-services.
set -eu
. ./common.sh
record compute-services start
[ -f "$CONFIG_DIR/controllers.json" ] || fail "$CONFIG_DIR/controllers.json is missing: the compute-controllers task writes it"
controllers=$(tr -d '[]" ' < "$CONFIG_DIR/controllers.json" | tr ',' ' ')
[ -n "$controllers" ] || fail "no controller in $CONFIG_DIR/controllers.json: deploy at least one controller"
printf 'controllers=%s\\nhostname=%s\\n' "$controllers" "$(hostname)" > "$CONFIG_DIR/compute.conf"
echo "${name} compute configured with controllers: $controllers"
record compute-services done
`;

const DIAGNOSTICS = `#!/bin/bash
# Task diagnostics (runs when the Debug logging setting is on): show what the deployment did here.
set -eu
. ./common.sh
record diagnostics start
echo "host: $(hostname)"
for f in "$CONFIG_DIR"/*; do [ -f "$f" ] && { echo "== $f"; cat "$f"; }; done
[ -f "$LOG_DIR/tasks.log" ] && { echo "== $LOG_DIR/tasks.log"; cat "$LOG_DIR/tasks.log"; }
record diagnostics done
`;

const PROVISION = `#!/bin/bash
# Task provision (graph provisioning): Hearth deploys onto hosts whose operating system is
# installed; prepare new nodes here (packages, users, kernel settings) before the deployment.
set -eu
. ./common.sh
record provision start
. /etc/os-release 2>/dev/null && echo "operating system: \${PRETTY_NAME:-unknown}"
mkdir -p "$CONFIG_DIR"
record provision done
`;

const ERASE = `#!/bin/bash
# Task erase (graph deletion): remove what the release's tasks wrote on this node.
set -eu
. ./common.sh
rm -rf -- "$CONFIG_DIR" "$LOG_DIR"
echo "removed $CONFIG_DIR and $LOG_DIR"
`;

const VERIFY_NETWORKS = `#!/bin/bash
# Task verify-networks (graph network_verification): check the node holds the address the
# deployment knows it by. Add checks between nodes here (VLANs, MTU, reachability).
set -eu
. ./common.sh
address=$(data_value ip)
[ -n "$address" ] || fail "the deployment data gives no address (ip) for this node"
if command -v ip >/dev/null 2>&1; then
  ip -o addr show | grep -qF " $address/" || fail "no interface of $(hostname) has address $address"
fi
echo "$(hostname) has $address"
`;

// Task disks (graph provisioning): node_volumes laid out on the node's free disks (issue 26).
const DISKS = `#!/usr/bin/env python3
"""Task disks (graph provisioning): lay out this node's node_volumes (Fuel's astute.yaml form,
/etc/astute.yaml) on its free disks, for real and idempotently.

Hearth reaches running machines and never reinstalls them, so only a disk that holds nothing is
written: no mount, no swap, no partition table, no filesystem, LVM or RAID signature, no holder.
A disk this script laid out before (a GPT whose partitions are all named "hearth:...") is checked
against the plan and left as it is when it matches: a second run changes nothing. Everything is
checked before anything is written, so a refusal leaves the node as it was. A mount point gets
one filesystem: a plan mounting two at one point, or a mount point /etc/fstab already gives another
device, is refused (only one of them could be mounted).

  partition volumes: a GPT partition each (sfdisk), their filesystem (mkfs), /etc/fstab and mount
  pv volumes:        a GPT partition each, then pvcreate, vgcreate and lvcreate for the volume
                     groups, their logical volumes' filesystems and mounts; only where the kernel
                     has device-mapper (refused, naming the node, where it has not)
  boot, lvm_meta_pool: space Fuel kept for a reinstall's boot loader; nothing to write here

"python3 disks.py --plan" prints the commands it would run and changes nothing.
Needs python3 with PyYAML (or a JSON astute.yaml), util-linux (lsblk, wipefs, blkid, partx,
findmnt, sfdisk), e2fsprogs/xfsprogs for the filesystems used, and lvm2 for volume groups.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

DATA = '/etc/astute.yaml'
FSTAB = '/etc/fstab'
NO_MOUNT = (None, '', 'none', 'swap')
PREFIX = 'hearth:'
TYPES = {
    'linux': '0FC63DAF-8483-4772-8E79-3D69D8477DE4',
    'swap': '0657FD6D-A4AB-43C4-84E5-0933C84B4F4F',
    'lvm': 'E6D6D379-F507-44C2-A23C-238F2A3DF928',
}
PLAN = '--plan' in sys.argv[1:]
NODE = os.uname().nodename


class Refused(Exception):
    pass


def out(cmd):
    return subprocess.run(cmd, check=False, capture_output=True, text=True).stdout


def run(cmd):
    """A command that changes the node: printed, and run unless --plan."""
    print('+ ' + ' '.join(shlex.quote(c) for c in cmd), flush=True)
    if not PLAN:
        subprocess.run(cmd, check=True)


def load():
    with open(DATA) as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        return json.loads(text)
    return yaml.safe_load(text)


def node_disks():
    """The node's whole disks (and loop devices) by Fuel's id: by-path, by-id, else the name."""
    tree = json.loads(out(['lsblk', '-J', '-b', '-o', 'NAME,SIZE,TYPE,PTTYPE']) or '{}')
    links = {}
    for kind in ('by-path', 'by-id'):
        folder = '/dev/disk/' + kind
        for link in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            links.setdefault(os.path.realpath(os.path.join(folder, link)), 'disk/%s/%s' % (kind, link))
    disks = {}
    for d in tree.get('blockdevices', []):
        if d.get('type') in ('disk', 'loop') and int(d.get('size') or 0) > 0 and not d['name'].startswith('zram'):
            dev = '/dev/' + d['name']
            d['id'] = links.get(dev, d['name'])
            d['size_mb'] = int(d['size']) // 1024 ** 2
            disks[d['id']] = d
    return disks


def mounted_sources():
    found = {}
    for line in out(['findmnt', '-rn', '-o', 'SOURCE,TARGET']).splitlines():
        parts = line.split(' ', 1)
        if len(parts) == 2:
            found.setdefault(parts[0], []).append(parts[1])
    return found


def in_use(disk):
    """Why the disk is in use (empty: free), read on the node now: facts may be old."""
    name = disk['name']
    reasons = []
    mounts = mounted_sources()
    swaps = [l.split()[0] for l in open('/proc/swaps').read().splitlines()[1:] if l.split()]
    devices = [name] + sorted(os.path.basename(p) for p in os.listdir('/sys/block/%s' % name) if p.startswith(name))
    for dev in devices:
        for target in mounts.get('/dev/' + dev, []):
            reasons.append('mounted %s (%s)' % (target, dev))
        if '/dev/' + dev in swaps:
            reasons.append('swap (%s)' % dev)
    if os.listdir('/sys/block/%s/holders' % name):
        reasons.append('held by ' + ' '.join(os.listdir('/sys/block/%s/holders' % name)))
    r = subprocess.run(['wipefs', '-i', '-O', 'TYPE', '/dev/' + name], capture_output=True, text=True)
    if r.returncode != 0:
        reasons.append('its signatures cannot be read: ' + r.stderr.strip())
    else:
        for t in sorted(set(r.stdout.split())):
            reasons.append('partition table' if t in ('gpt', 'PMBR', 'dos') else 'signature ' + t)
    return reasons


def part_device(disk_name, number):
    return '/dev/%s%s%d' % (disk_name, 'p' if disk_name[-1].isdigit() else '', number)


def fs_type(device):
    return out(['blkid', '-p', '-o', 'value', '-s', 'TYPE', device]).strip()


def wanted_partitions(entry):
    """(label, size MB, GPT type, volume) for each partition this disk entry asks for."""
    parts = []
    for v in entry.get('volumes') or []:
        size = int(v.get('size') or 0)
        kind = v.get('type')
        if size <= 0 or kind in ('boot', 'lvm_meta_pool'):
            continue
        if kind == 'pv':
            parts.append((PREFIX + 'pv-' + v['vg'], size, TYPES['lvm'], v))
        elif kind == 'partition':
            swap = v.get('file_system') == 'swap' or v.get('mount') == 'swap'
            parts.append((PREFIX + v['name'], size, TYPES['swap' if swap else 'linux'], v))
        else:
            raise Refused('disk %s: volume %s of type %s is not applied by this release (partition and pv are)' % (entry.get('name'), v.get('name'), kind))
    return parts


def existing_layout(device):
    """The GPT this script wrote before, as [(label, size MB)], or None when it is not one."""
    r = subprocess.run(['sfdisk', '-J', device], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    table = json.loads(r.stdout).get('partitiontable', {})
    parts = table.get('partitions', [])
    if table.get('label') != 'gpt' or not parts or not all(p.get('name', '').startswith(PREFIX) for p in parts):
        return None
    sector = int(table.get('sectorsize', 512))
    return [(p['name'], int(p['size']) * sector // 1024 ** 2) for p in parts]


def check_mount(mount, device):
    """A mount point may be one of ours already, or free; never /, never someone else's."""
    if mount in ('/', '/boot'):
        raise Refused('%s is mounted by the installed system: only a reinstall changes it' % mount)
    src = out(['findmnt', '-n', '-o', 'SOURCE', '--mountpoint', mount]).strip()
    if src and os.path.realpath(src) != os.path.realpath(device) and not PLAN:
        raise Refused('%s is already mounted from %s' % (mount, src))


def filesystem(device, fs, mount, label):
    """mkfs when the device has no filesystem; fstab and mount when they are missing."""
    if not fs or fs == 'none':
        return
    have = '' if PLAN and not os.path.exists(device) else fs_type(device)
    if have and have != fs:
        raise Refused('%s holds %s, the plan says %s' % (device, have, fs))
    if not have:
        if fs == 'swap':
            run(['mkswap', '-L', label[:15], device])
        elif fs == 'xfs':
            run(['mkfs.xfs', '-q', '-L', label[:12], device])
        else:
            run(['mkfs.' + fs, '-q', '-L', label[:16], device])
    if not mount or mount == 'none':
        return
    uuid = out(['blkid', '-p', '-o', 'value', '-s', 'UUID', device]).strip() if not PLAN else ''
    spec = 'UUID=' + uuid if uuid else device
    target = 'none' if fs == 'swap' else mount
    line = '%s %s %s %s\\n' % (spec, target, fs, 'sw 0 0' if fs == 'swap' else 'defaults 0 2')
    fstab = open(FSTAB).read() if os.path.exists(FSTAB) else ''
    if line not in fstab.splitlines(True):
        print('+ echo %s >> %s' % (shlex.quote(line.strip()), FSTAB), flush=True)
        if not PLAN:
            with open(FSTAB, 'a') as f:
                f.write(('' if not fstab or fstab.endswith('\\n') else '\\n') + line)
    if fs == 'swap':
        if os.path.realpath(device) not in [os.path.realpath(l.split()[0]) for l in open('/proc/swaps').read().splitlines()[1:] if l.split()]:
            run(['swapon', device])
        return
    if not out(['findmnt', '-n', '-o', 'SOURCE', '--mountpoint', mount]).strip():
        run(['mkdir', '-p', mount])
        run(['mount', mount])


def mounts_of_plan(entries, groups):
    """Each mount point the plan gives a filesystem, with what it mounts there."""
    where = {}
    applied = set()
    for entry in entries:
        for v in entry.get('volumes') or []:
            if int(v.get('size') or 0) <= 0:
                continue
            if v.get('type') == 'pv':
                applied.add(v.get('vg'))
            elif v.get('type') == 'partition' and v.get('mount') not in NO_MOUNT and v.get('file_system') not in NO_MOUNT:
                where.setdefault(v['mount'], []).append('partition %s on %s' % (v.get('name'), entry.get('name')))
    for vg in groups:
        if vg.get('id') not in applied:
            continue
        for lv in vg.get('volumes') or []:
            if lv.get('type') == 'lv' and int(lv.get('size') or 0) > 0 and lv.get('mount') not in NO_MOUNT and lv.get('file_system') not in NO_MOUNT:
                where.setdefault(lv['mount'], []).append('logical volume %s/%s' % (vg.get('id'), lv.get('name')))
    return where


def check_one_per_mount(entries, groups):
    """/etc/fstab takes one filesystem per mount point: a plan with two is refused before anything."""
    twice = sorted((m, w) for m, w in mounts_of_plan(entries, groups).items() if len(w) > 1)
    if twice:
        said = '; '.join('mount point %s is planned %d times (%s)' % (m, len(w), ', '.join(w)) for m, w in twice)
        raise Refused('%s: only one filesystem can be mounted at a mount point, so none is written; give the volume 0 MB on every disk but one (hearth node disks NODE --set VOLUME=0@DISK) and deploy again' % said)


def names_device(spec, device):
    """Whether an fstab entry's source (UUID=, LABEL=, PARTUUID=, PARTLABEL= or a path) is this device."""
    if not os.path.exists(device):
        return False
    for key, probe in (('UUID', ['blkid', '-p', '-o', 'value', '-s', 'UUID']), ('LABEL', ['blkid', '-p', '-o', 'value', '-s', 'LABEL']),
                       ('PARTUUID', ['lsblk', '-dno', 'PARTUUID']), ('PARTLABEL', ['lsblk', '-dno', 'PARTLABEL'])):
        if spec.startswith(key + '='):
            want = spec[len(key) + 1:].strip('"')
            return bool(want) and out(probe + [device]).strip().lower() == want.lower()
    return os.path.realpath(spec) == os.path.realpath(device)


def check_fstab(mount, device):
    """A mount point /etc/fstab already gives another device would get a second entry: refused."""
    if not os.path.exists(FSTAB):
        return
    for line in open(FSTAB).read().splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0].startswith('#') or fields[1] != mount:
            continue
        if not names_device(fields[0], device):
            raise Refused('%s already mounts %s from %s: a second entry for it would leave one of the two filesystems unmounted; remove that line or choose another mount point' % (FSTAB, mount, fields[0]))


def has_device_mapper():
    misc = open('/proc/misc').read() if os.path.exists('/proc/misc') else ''
    return os.path.exists('/dev/mapper/control') or re.search(r'\\bdevice-mapper\\b', misc) is not None


def main():
    global NODE
    data = load() or {}
    node = NODE = data.get('fqdn') or data.get('name') or os.uname().nodename
    volumes = data.get('node_volumes') or []
    entries = [v for v in volumes if v.get('type') == 'disk']
    groups = [v for v in volumes if v.get('type') == 'vg']
    # Plan and check everything first: nothing is written when anything is refused.
    check_one_per_mount(entries, groups)
    disks = node_disks()
    work, pvs = [], {}
    for entry in entries:
        parts = wanted_partitions(entry)
        if not parts:
            continue
        disk = disks.get(entry.get('id')) or next((d for d in disks.values() if d['name'] == entry.get('name')), None)
        if disk is None:
            raise Refused('disk %s (%s) of the plan is not on this node' % (entry.get('id'), entry.get('name')))
        device = '/dev/' + disk['name']
        want = [(label, size) for label, size, _, _ in parts]
        if sum(size for _, size in want) > disk['size_mb'] - 2:
            raise Refused('disk %s has %d MB: the plan puts %d MB on it' % (disk['name'], disk['size_mb'], sum(s for _, s in want)))
        have = existing_layout(device)
        if have is None:
            reasons = in_use(disk)
            if reasons:
                raise Refused('disk %s is in use (%s): Hearth never touches it' % (disk['name'], ', '.join(reasons)))
        elif have != want:
            raise Refused('disk %s was laid out before as %s, the plan now says %s: changing a laid-out disk would lose its data; wipe it by hand (wipefs -a) to lay it out again' % (disk['name'], have, want))
        work.append((disk, device, parts, have is not None))
        for n, (_, _, _, v) in enumerate(parts, 1):
            if v.get('type') == 'pv':
                pvs.setdefault(v['vg'], []).append(part_device(disk['name'], n))
            elif v.get('mount') not in NO_MOUNT:
                check_mount(v['mount'], part_device(disk['name'], n))
                if v.get('file_system') not in NO_MOUNT:
                    check_fstab(v['mount'], part_device(disk['name'], n))
    if pvs:
        missing = [c for c in ('pvcreate', 'vgcreate', 'lvcreate', 'vgs', 'lvs') if not any(os.access(os.path.join(p, c), os.X_OK) for p in os.environ.get('PATH', '/usr/sbin:/sbin').split(':'))]
        if not has_device_mapper() or missing:
            why = 'its kernel has no device-mapper (no /dev/mapper/control, none in /proc/misc)' if not has_device_mapper() else 'it lacks %s (install lvm2)' % ', '.join(missing)
            msg = 'volume group%s %s need%s LVM, but %s; nothing was changed' % ('s' if len(pvs) > 1 else '', ', '.join(sorted(pvs)), '' if len(pvs) > 1 else 's', why)
            if not PLAN:
                raise Refused(msg)
            print('# ' + msg, flush=True)
    for vg in groups:
        for lv in (vg.get('volumes') or []) if vg.get('id') in pvs else []:
            if lv.get('type') == 'lv' and int(lv.get('size') or 0) > 0 and lv.get('mount') not in NO_MOUNT and lv.get('file_system') not in NO_MOUNT:
                check_fstab(lv['mount'], '/dev/%s/%s' % (vg.get('id'), lv.get('name')))

    for disk, device, parts, done in work:
        if done:
            print('disk %s: laid out already' % disk['name'], flush=True)
        else:
            table = 'label: gpt\\n' + ''.join('size=%dMiB, type=%s, name="%s"\\n' % (size, guid, label) for label, size, guid, _ in parts)
            print('+ sfdisk %s <<< %s' % (device, shlex.quote(table)), flush=True)
            if not PLAN:
                subprocess.run(['sfdisk', '-q', device], input=table, text=True, check=True)
                # The kernel may not read the new table itself (no GPT parser, no udev): partx adds
                # what is missing; then wait for the partitions' device nodes.
                subprocess.run(['partx', '-u', device], capture_output=True)
                subprocess.run(['udevadm', 'settle'], capture_output=True) if os.path.exists('/bin/udevadm') else None
                deadline = time.time() + 20
                while not all(os.path.exists(part_device(disk['name'], n)) for n in range(1, len(parts) + 1)):
                    if time.time() > deadline:
                        raise Refused('the partitions of %s did not appear' % device)
                    time.sleep(0.2)
        for n, (label, _, _, v) in enumerate(parts, 1):
            if v.get('type') == 'partition':
                filesystem(part_device(disk['name'], n), v.get('file_system'), v.get('mount'), v.get('name', label))
    for vg in groups:
        name = vg.get('id')
        if name not in pvs:
            continue
        for pv in pvs[name]:
            if PLAN or fs_type(pv) != 'LVM2_member':
                run(['pvcreate', '-q', pv])
        if PLAN or subprocess.run(['vgs', name], capture_output=True).returncode != 0:
            run(['vgcreate', '-q', name] + pvs[name])
        for lv in vg.get('volumes') or []:
            size = int(lv.get('size') or 0)
            if lv.get('type') != 'lv' or size <= 0:
                continue
            device = '/dev/%s/%s' % (name, lv['name'])
            if PLAN or not os.path.exists(device):
                run(['lvcreate', '-q', '-n', lv['name'], '-L', '%dm' % size, name])
            filesystem(device, lv.get('file_system'), lv.get('mount'), lv['name'])
    if not work:
        print('node %s: no volume to lay out on a free disk' % node)
    else:
        print('node %s: %d disk(s) as planned' % (node, len(work)))


if __name__ == '__main__':
    try:
        main()
    except Refused as e:
        sys.exit('disks: node %s: %s' % (NODE, e))
    except subprocess.CalledProcessError as e:
        sys.exit('disks: node %s: %s failed with exit status %d' % (NODE, ' '.join(e.cmd), e.returncode))
`;

/** deployment_scripts/ of the release skeleton, by file name. */
export function releaseScripts(name: string): Map<string, SkeletonFile> {
  return new Map([
    ['common.sh', { text: COMMON(name) }],
    ['controller.sh', script(CONTROLLER(name))],
    ['compute.sh', script(COMPUTE(name))],
    ['diagnostics.sh', script(DIAGNOSTICS)],
    ['provision.sh', script(PROVISION)],
    ['disks.py', script(DISKS)],
    ['erase.sh', script(ERASE)],
    ['verify_networks.sh', script(VERIFY_NETWORKS)],
  ]);
}
