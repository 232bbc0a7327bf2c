/**
 * The release skeleton's disks.py (issue 26) refuses a plan giving one mount point two
 * filesystems, and a mount point /etc/fstab already gives another device, before it writes
 * anything: only one of them could be mounted. Run here with python3 on real files (its astute.yaml
 * and fstab pointed at a temporary folder); the whole provisioning on test hosts is
 * test/deploy/disks-hosts.test.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { applyOperatorSizes, defaultLayout, nodeVolumes, type LayoutInput, type NodeDisk } from '../../src/core/disks/index.js';
import { releaseScripts } from '../../src/package/create/release-scripts.js';
import { FUEL_90_VOLUMES } from '../support/fuel-volumes.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-disks-script-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const FSTAB = join(dir, 'fstab');
const FSTAB_TEXT = '# /etc/fstab\nUUID=1111-root / ext4 defaults 0 1\n';

/** disks.py reading its plan and fstab from the temporary folder. */
function script(): string {
  const text = releaseScripts('hearth-test').get('disks.py')!.text!;
  const pointed = text.replace("DATA = '/etc/astute.yaml'", `DATA = ${JSON.stringify(join(dir, 'astute.yaml'))}`).replace("FSTAB = '/etc/fstab'", `FSTAB = ${JSON.stringify(FSTAB)}`);
  assert.notEqual(pointed.indexOf(join(dir, 'astute.yaml')), -1, 'DATA is where the test expects it');
  assert.notEqual(pointed.indexOf(FSTAB), -1, 'FSTAB is where the test expects it');
  const file = join(dir, 'disks.py');
  writeFileSync(file, pointed);
  return file;
}

function run(nodeVolumesData: unknown, ...args: string[]) {
  writeFileSync(join(dir, 'astute.yaml'), JSON.stringify({ fqdn: 'node-7.test', node_volumes: nodeVolumesData }));
  writeFileSync(FSTAB, FSTAB_TEXT);
  const r = spawnSync('python3', [script(), ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const free = (name: string, size: number): NodeDisk => ({ id: name, name, size, inUse: false });
const volumes: LayoutInput['volumes'] = {
  ...FUEL_90_VOLUMES,
  volumes: [...(FUEL_90_VOLUMES.volumes ?? []), { id: 'data', type: 'partition', label: 'Data', mount: '/var/lib/data', file_system: 'ext4', min_size: 1024 }],
  volumes_roles_mapping: { ...FUEL_90_VOLUMES.volumes_roles_mapping, 'data-node': [{ id: 'data', allocate_size: 'all' }] },
};
const input: LayoutInput = { disks: [{ id: 'hearth-absent-root', name: 'hearth-absent-root', size: 60_000, inUse: true, holdsRoot: true }, free('hearth-absent-b', 10_000), free('hearth-absent-c', 10_000)], roles: ['data-node'], volumes, ram: 4096 };

test('disks.py refuses node_volumes putting one mount point on two disks, naming the node and the mount point, and writes nothing (--plan too)', () => {
  // What Fuel's spread (and Hearth before issue 26) produced: /var/lib/data on both free disks.
  const defaults = defaultLayout(input);
  const split = applyOperatorSizes(defaults, defaults.disks.filter((d) => !d.in_use).map((d) => ({ id: d.id, volumes: [{ name: 'data', size: 5000 }] })), input).layout;
  for (const args of [[], ['--plan']]) {
    const r = run(nodeVolumes(split, volumes), ...args);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /^disks: node node-7\.test: mount point \/var\/lib\/data is planned 2 times \(partition data on hearth-absent-b, partition data on hearth-absent-c\): only one filesystem can be mounted/);
    assert.doesNotMatch(r.stdout, /^\+ /m, 'no command run or planned');
    assert.equal(readFileSync(FSTAB, 'utf8'), FSTAB_TEXT);
  }
  // The default layout puts it on one disk: the script gets past the check (to the disks, absent here).
  const r = run(nodeVolumes(defaults, volumes), '--plan');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /disk hearth-absent-b \(hearth-absent-b\) of the plan is not on this node/);
});

test('disks.py refuses a partition and a logical volume mounted at one point', () => {
  const plan = [
    { type: 'disk', id: 'hearth-absent-b', name: 'hearth-absent-b', size: 10_000, volumes: [{ type: 'partition', name: 'data', size: 4000, mount: '/srv', file_system: 'ext4' }, { type: 'pv', vg: 'vm', size: 5000, lvm_meta_size: 64 }] },
    { type: 'vg', id: 'vm', volumes: [{ type: 'lv', name: 'nova', size: 4936, mount: '/srv', file_system: 'xfs' }, { type: 'lv', name: 'unused', size: 0, mount: '/srv', file_system: 'xfs' }] },
  ];
  const r = run(plan);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /node node-7\.test: mount point \/srv is planned 2 times \(partition data on hearth-absent-b, logical volume vm\/nova\)/);
});

test("disks.py's fstab check: a mount point fstab already gives another device is refused; the device's own entry, comments and other mount points are not", () => {
  script();
  const device = join(dir, 'device');
  writeFileSync(device, '');
  const check = (fstab: string, mount: string, dev: string) => {
    writeFileSync(FSTAB, fstab);
    const r = spawnSync('python3', ['-c', 'import runpy, sys; g = runpy.run_path(sys.argv[1]); g["check_fstab"](sys.argv[2], sys.argv[3])', join(dir, 'disks.py'), mount, dev], { encoding: 'utf8', timeout: 60_000 });
    return r.status === 0 ? 'ok' : (r.stderr.match(/Refused: (.*)/)?.[1] ?? r.stderr);
  };
  assert.equal(check('UUID=2222-old /var/lib/data ext4 defaults 0 2\n', '/var/lib/data', device), `${FSTAB} already mounts /var/lib/data from UUID=2222-old: a second entry for it would leave one of the two filesystems unmounted; remove that line or choose another mount point`);
  assert.match(check('/dev/hearth-absent-b1 /var/lib/data ext4 defaults 0 2\n', '/var/lib/data', join(dir, 'not-yet')), /already mounts \/var\/lib\/data from \/dev\/hearth-absent-b1/, 'a disk not laid out yet: any entry is another one');
  assert.equal(check(`${device} /var/lib/data ext4 defaults 0 2\n`, '/var/lib/data', device), 'ok', 'a second run: its own entry');
  assert.equal(check('# UUID=2222-old /var/lib/data ext4 defaults 0 2\nUUID=3333 /var/lib/other ext4 defaults 0 2\n', '/var/lib/data', device), 'ok');
});
