import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FUEL_90_VOLUMES } from '../../../test/support/fuel-volumes.js';
import { applyOperatorSizes, checkLayout, defaultLayout, nodeSpaces, nodeVolumes, pickBootDisk, volumesView, type FullDisk, type FullVolumeGroup, type LayoutInput, type NodeDisk, type NodeVolumes } from './index.js';

const free = (name: string, size: number): NodeDisk => ({ id: `disk/by-path/${name}`, name, size, inUse: false });
const FUEL_DISKS = [free('sda', 100_000), free('sdb', 200_000), free('sdc', 50_000)];
const fuel = (roles: string[], disks = FUEL_DISKS, ram = 4096): LayoutInput => ({ disks, roles, volumes: FUEL_90_VOLUMES, ram, mode: 'fuel' });

const onlyDisks = (v: NodeVolumes) => v.filter((x): x is FullDisk => x.type === 'disk');
const onlyVgs = (v: NodeVolumes) => v.filter((x): x is FullVolumeGroup => x.type === 'vg');
const pvTotal = (v: NodeVolumes, vg: string, withMeta = false) =>
  onlyDisks(v).reduce((s, d) => s + d.volumes.reduce((t, x) => t + (x.type === 'pv' && x.vg === vg ? x.size - (withMeta ? 0 : x.lvm_meta_size) : 0), 0), 0);
const full = (input: LayoutInput) => nodeVolumes(defaultLayout(input), input.volumes);

/** Fuel's check_disk_size_equal_sum_of_all_volumes and logical_volume_sizes_should_equal_all_phisical_volumes. */
function assertConsistent(v: NodeVolumes) {
  for (const d of onlyDisks(v)) assert.equal(d.volumes.reduce((s, x) => s + x.size, 0), d.size, `disk ${d.name} fully used`);
  for (const vg of onlyVgs(v)) {
    if (!vg.volumes.length) continue;
    assert.equal(vg.volumes.reduce((s, lv) => s + lv.size, 0), pvTotal(v, vg.id), `vg ${vg.id}: logical = physical`);
  }
}

test("Fuel's get_node_spaces: roles' mappings in order, a volume once; plugin volumes added", () => {
  const volumes = {
    volumes_roles_mapping: { controller: [{ allocate_size: 'min', id: 'os' }, { allocate_size: 'all', id: 'image' }], testing_plugin: [{ allocate_size: 'all', id: 'test_volume' }] },
    volumes: [{ id: 'os', type: 'vg' }, { id: 'image', type: 'vg' }, { id: 'vm', type: 'vg' }, { id: 'test_volume', type: 'vg' }],
  };
  const ids = (roles: string[]) => nodeSpaces(volumes, roles, 2).spaces.map((s) => `${s.id}:${s.allocate_size}`);
  assert.deepEqual(ids(['controller']), ['os:min', 'image:all']);
  assert.deepEqual(ids(['controller', 'testing_plugin']), ['os:min', 'image:all', 'test_volume:all']);
});

test("Fuel 9.0: a role without a mapping is skipped; with nothing left the release's 'other' mapping is used", () => {
  const withContrail = nodeSpaces(FUEL_90_VOLUMES, ['contrail-controller', 'compute'], 2);
  assert.deepEqual(withContrail.spaces.map((s) => s.id), ['os', 'vm']);
  assert.equal(withContrail.usedOther, false);
  const onlyContrail = nodeSpaces(FUEL_90_VOLUMES, ['contrail-controller'], 2);
  assert.deepEqual(onlyContrail.spaces.map((s) => `${s.id}:${s.allocate_size}`), ['os:all']);
  assert.equal(onlyContrail.usedOther, true);
});

test('full-disk is all on a single-disk node; an undefined volume id is reported, not fatal', () => {
  assert.equal(nodeSpaces(FUEL_90_VOLUMES, ['ceph-osd'], 1).spaces.find((s) => s.id === 'ceph')?.allocate_size, 'all');
  assert.equal(nodeSpaces(FUEL_90_VOLUMES, ['ceph-osd'], 3).spaces.find((s) => s.id === 'ceph')?.allocate_size, 'full-disk');
  const broken = { ...FUEL_90_VOLUMES, volumes_roles_mapping: { x: [{ id: 'nowhere', allocate_size: 'min' }] } };
  assert.deepEqual(nodeSpaces(broken, ['x'], 2).missing, ['nowhere']);
});

test('Fuel mode, compute: os at its minimum, vm takes all the rest, every disk used to the MB', () => {
  const v = full(fuel(['compute']));
  assert.equal(pvTotal(v, 'os'), 20_000 + 4096, 'calc_min_os_size: 20% of sda + swap for 4 GB');
  const reserved = onlyDisks(v).reduce((s, d) => s + d.volumes.filter((x) => x.type === 'boot' || x.type === 'lvm_meta_pool' || ('mount' in x && x.mount === '/boot')).reduce((t, x) => t + x.size, 0), 0);
  const meta = onlyDisks(v).reduce((s, d) => s + d.volumes.reduce((t, x) => t + (x.type === 'pv' ? x.lvm_meta_size : 0), 0), 0);
  assert.equal(pvTotal(v, 'vm'), 350_000 - (20_000 + 4096) - reserved - meta);
  assertConsistent(v);
  const root = onlyVgs(v).find((g) => g.id === 'os')!.volumes;
  assert.deepEqual(root.map((lv) => [lv.name, lv.size]), [['root', 20_000], ['swap', 4096]]);
});

test('Fuel mode: every disk has boot records and a /boot (RAID with several disks, a partition alone), ext2', () => {
  for (const disks of [FUEL_DISKS, [free('sda', 100_000)]]) {
    for (const d of onlyDisks(full(fuel(['compute'], disks)))) {
      assert.deepEqual(d.volumes.find((x) => x.type === 'boot'), { type: 'boot', size: 300 });
      const boot = d.volumes.find((x) => 'mount' in x && x.mount === '/boot') as { type: string; file_system: string; size: number };
      assert.equal(boot.type, disks.length > 1 ? 'raid' : 'partition');
      assert.equal(boot.file_system, 'ext2');
      assert.equal(boot.size, 200);
    }
  }
});

test("Fuel mode, controller: os, logs, mysql and horizon at their minimums, image the rest; Fuel's sums hold", () => {
  const v = full(fuel(['controller']));
  assert.equal(pvTotal(v, 'logs'), 10240);
  assert.equal(pvTotal(v, 'mysql'), 20480);
  assert.equal(pvTotal(v, 'horizon'), 11264);
  assertConsistent(v);
  assert.deepEqual(checkLayout(defaultLayout(fuel(['controller'])), fuel(['controller'])), []);
});

test('Fuel mode, several "all" volumes share what is left equally (multirole controller + cinder + ceph-osd)', () => {
  const v = full(fuel(['controller', 'cinder', 'ceph-osd'], [free('sda', 100_000), free('sdb', 100_000), free('sdc', 100_000)]));
  const image = pvTotal(v, 'image', true);
  const cinder = pvTotal(v, 'cinder', true);
  assert.ok(Math.abs(image - cinder) <= 128, `image ${image} ~ cinder ${cinder}`);
  assertConsistent(v);
});

test('Fuel mode, ceph-osd: ceph takes whole disks nothing else uses, 0 on the os disk', () => {
  const v = full(fuel(['ceph-osd']));
  const ceph = (d: FullDisk) => d.volumes.find((x) => x.type === 'partition' && x.name === 'ceph')?.size;
  const disks = onlyDisks(v);
  assert.equal(ceph(disks[0]!), 0, 'sda holds os');
  for (const d of disks.slice(1)) assert.equal(ceph(d), d.size - 300 - 200 - 64, `${d.name} is ceph's`);
  const single = full(fuel(['ceph-osd'], [free('sda', 30_000)]));
  assert.ok((ceph(onlyDisks(single)[0]!) ?? 0) > 0, 'a single disk shares it (full-disk is all)');
});

test("Fuel's check_volume_sizes_for_deployment: controller+ceph-osd fits 116384+65536 MB, not 16384+65536", () => {
  const roles = ['controller', 'ceph-osd'];
  const ok = fuel(roles, [free('sda', 116_384), free('sdb', 65_536)]);
  assert.deepEqual(checkLayout(defaultLayout(ok), ok).filter((p) => p.severity === 'error'), []);
  const small = fuel(roles, [free('sda', 16_384), free('sdb', 65_536)]);
  const problems = checkLayout(defaultLayout(small), small);
  assert.ok(problems.some((p) => p.code === 'disks/too-small' && /^Volume group '.+' requires a minimum of \d+ MB$/.test(p.message)), JSON.stringify(problems));
});

const running = (roles: string[], disks: NodeDisk[]): LayoutInput => ({ disks, roles, volumes: FUEL_90_VOLUMES, ram: 4096 });
const rootDisk: NodeDisk = { id: 'sda', name: 'sda', size: 60_000, inUse: true, holdsRoot: true };

test('running: disks in use and excluded keep what they have; os is checked against the root disk, not laid out', () => {
  const input = running(['compute'], [rootDisk, { id: 'sdb', name: 'sdb', size: 40_000, inUse: true }, free('vdb', 20_000), { ...free('vdc', 20_000), exclude: true }]);
  const layout = defaultLayout(input);
  const byName = Object.fromEntries(layout.disks.map((d) => [d.name, d]));
  assert.deepEqual(byName.sda!.volumes, []);
  assert.deepEqual(byName.sdb!.volumes, []);
  assert.deepEqual(byName.vdc!.volumes, []);
  assert.deepEqual(byName.vdb!.volumes.map((v) => v.name), ['vm']);
  assert.equal(byName.vdb!.volumes[0]!.size, 20_000 - 10 - 64, 'partition table and one LVM metadata slot');
  assert.equal(layout.os?.disk, 'sda');
  assert.deepEqual(checkLayout(layout, input), []);
  const v = nodeVolumes(layout, input.volumes);
  assert.deepEqual(onlyVgs(v).map((g) => g.id), ['vm'], 'no os group in node_volumes');
  assert.equal(onlyDisks(v).find((d) => d.name === 'sda')?.in_use, true);
  assert.equal(onlyDisks(v).find((d) => d.name === 'sda')?.bootable, true);
  assertConsistent(v.filter((x) => x.type !== 'disk' || !x.in_use));
});

test('running: a root disk smaller than the OS minimum is refused in Fuel\'s words; free disks too small for vm too; no free disk at all is said, not refused', () => {
  const input = running(['compute'], [{ ...rootDisk, size: 10_000 }]);
  const problems = checkLayout(defaultLayout(input), input);
  assert.deepEqual(problems.filter((p) => p.code === 'disks/too-small').map((p) => p.message), ["Volume group 'Base System' requires a minimum of 19456 MB"]);
  const stays = problems.filter((p) => p.code === 'disks/no-free-disk');
  assert.deepEqual(stays.map((p) => [p.severity, p.volume]), [['warning', 'vm']]);
  const small = running(['compute'], [rootDisk, free('vdb', 1_000)]);
  assert.deepEqual(checkLayout(defaultLayout(small), small).filter((p) => p.code === 'disks/too-small').map((p) => p.message), ["Volume group 'Virtual Storage' requires a minimum of 5120 MB"]);
});

test('running: full-disk is every free disk; with one free disk it shares it as all', () => {
  const three = defaultLayout(running(['ceph-osd'], [rootDisk, free('vdb', 10_000), free('vdc', 10_000)]));
  for (const d of three.disks.filter((x) => !x.in_use)) assert.equal(d.volumes.find((v) => v.name === 'ceph')?.size, d.size);
  const one = defaultLayout(running(['ceph-osd', 'compute'], [rootDisk, free('vdb', 30_000)]));
  const vdb = one.disks.find((d) => d.name === 'vdb')!;
  assert.ok(vdb.volumes.find((v) => v.name === 'ceph')!.size > 0);
  assert.ok(vdb.volumes.find((v) => v.name === 'vm')!.size > 0);
});

test('saved sizes are kept where they fit, dropped with a report where they do not', () => {
  const input = running(['compute'], [rootDisk, free('vdb', 20_000), free('vdc', 20_000)]);
  const defaults = defaultLayout(input);
  const vdb = defaults.disks.find((d) => d.name === 'vdb')!;
  const vdc = defaults.disks.find((d) => d.name === 'vdc')!;
  const kept = applyOperatorSizes(defaults, [{ id: vdb.id, volumes: [{ name: 'vm', size: 6000 }] }, { id: vdc.id, volumes: [{ name: 'vm', size: 0 }] }], input);
  assert.deepEqual(kept.problems, []);
  assert.equal(kept.layout.disks.find((d) => d.name === 'vdb')!.volumes[0]!.size, 6000);
  assert.deepEqual(checkLayout(kept.layout, input), []);
  const tooBig = applyOperatorSizes(defaults, [{ id: vdb.id, volumes: [{ name: 'vm', size: 999_999 }] }], input);
  assert.deepEqual(tooBig.problems.map((p) => p.code).sort(), ['disks/disk-overfull', 'disks/saved-layout-new-disk']);
  assert.deepEqual(tooBig.layout.disks.find((d) => d.name === 'vdb'), vdb, 'the disk keeps its defaults');
  const small = applyOperatorSizes(defaults, [{ id: vdb.id, volumes: [{ name: 'vm', size: 100 }] }, { id: vdc.id, volumes: [{ name: 'vm', size: 0 }] }], input);
  assert.deepEqual(checkLayout(small.layout, input).map((p) => p.message), ["Volume group 'Virtual Storage' requires a minimum of 5120 MB"]);
  const roleChanged = running(['cinder'], input.disks);
  const after = applyOperatorSizes(defaultLayout(roleChanged), [{ id: vdb.id, volumes: [{ name: 'vm', size: 6000 }] }], roleChanged);
  assert.ok(after.problems.some((p) => p.code === 'disks/saved-volume-dropped' && p.volume === 'vm'));
});

test('a saved layout naming an unknown volume, or volumes on an in-use disk, is an error of checkLayout', () => {
  const input = running(['compute'], [rootDisk, free('vdb', 20_000)]);
  const layout = defaultLayout(input);
  const bad = { ...layout, disks: layout.disks.map((d) => (d.name === 'sda' ? { ...d, volumes: [{ name: 'vm', size: 10 }] } : d.name === 'vdb' ? { ...d, volumes: [...d.volumes, { name: 'mystery', size: 1 }] } : d)) };
  const codes = checkLayout(bad, input).map((p) => p.code).sort();
  assert.deepEqual(codes, ['disks/disk-in-use', 'disks/disk-overfull', 'disks/unknown-volume'], 'vdb was full already');
});

test("boot disk: the root disk on a running node; Fuel's rules otherwise", () => {
  const disks = [free('nvme0n1', 1), free('sda', 1), free('sdb', 1)];
  assert.equal(pickBootDisk(disks, []), disks[0]!.id);
  assert.equal(pickBootDisk(disks, [{ type: 'exclude_disks_by_name', regex: 'nvme' }]), disks[1]!.id);
  assert.equal(pickBootDisk([...disks, rootDisk], [{ type: 'exclude_disks_by_name', regex: 'sd' }]), 'sda');
});

test('volumes view: Fuel\'s name, label, min_size with logical volumes and mounts; layout sizes when given', () => {
  const input = running(['compute'], [rootDisk, free('vdb', 20_000)]);
  const view = volumesView(FUEL_90_VOLUMES, ['compute'], { ...input, layout: defaultLayout(input) });
  assert.deepEqual(view.map((v) => [v.name, v.label, v.min_size, v.applied]), [['os', 'Base System', 12_288 + 3072 + 4096, false], ['vm', 'Virtual Storage', 5120, true]]);
  assert.deepEqual(view[1]!.volumes, [{ name: 'nova', size: 20_000 - 10 - 64, mount: '/var/lib/nova', file_system: 'xfs' }]);
  assert.equal(volumesView(FUEL_90_VOLUMES, ['compute'], 4096)[1]!.volumes![0]!.size, null);
});

// A plugin's mounted partition (issue 26): Fuel spread every volume over the disks, which for a
// partition with a mount point meant one filesystem per disk for one mount point.
const withPlugin = (allocate_size: string, min = 2): LayoutInput['volumes'] => ({
  ...FUEL_90_VOLUMES,
  volumes: [
    ...(FUEL_90_VOLUMES.volumes ?? []),
    { id: 'data', type: 'partition', label: 'Data', mount: '/var/lib/data', file_system: 'ext4', min_size: { generator: 'calc_gb_to_mb', generator_args: [min] } },
    { id: 'scratch', type: 'partition', label: 'Scratch', mount: 'none', file_system: 'none', min_size: 0 },
  ],
  volumes_roles_mapping: {
    ...FUEL_90_VOLUMES.volumes_roles_mapping,
    'data-node': [{ id: 'data', allocate_size }],
    'scratch-node': [{ id: 'scratch', allocate_size: 'all' }],
    'data-compute': [{ id: 'data', allocate_size }, { id: 'vm', allocate_size: 'all' }],
  },
});
const plugin = (roles: string[], disks: NodeDisk[], allocate_size = 'all', min = 2): LayoutInput => ({ disks, roles, volumes: withPlugin(allocate_size, min), ram: 4096 });
const sizesOf = (layout: ReturnType<typeof defaultLayout>, volume: string) =>
  Object.fromEntries(layout.disks.filter((d) => !d.in_use).map((d) => [d.name, d.volumes.find((v) => v.name === volume)?.size]));
const mountedPartitions = (v: NodeVolumes, mount: string) =>
  onlyDisks(v).flatMap((d) => d.volumes.filter((x) => x.type === 'partition' && x.mount === mount && x.size > 0).map(() => d.name));

test("Fuel's spread holds where it is sound: an unmounted partition 'all' gets a partition on every free disk, as _allocate_all_free_space_for_volume did", () => {
  const layout = defaultLayout(plugin(['scratch-node'], [rootDisk, free('vdb', 10_000), free('vdc', 20_000)]));
  assert.deepEqual(sizesOf(layout, 'scratch'), { vdb: 10_000 - 10, vdc: 20_000 - 10 });
});

test('a mounted partition allocated all lives on one disk, the one with the most free space; the others list it at 0 MB; no MB is given twice', () => {
  const input = plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 30_000), free('vdd', 20_000)]);
  const layout = defaultLayout(input);
  assert.deepEqual(sizesOf(layout, 'data'), { vdb: 0, vdc: 30_000 - 10, vdd: 0 });
  assert.deepEqual(mountedPartitions(nodeVolumes(layout, input.volumes), '/var/lib/data'), ['vdc'], 'one fstab entry for /var/lib/data');
  assert.deepEqual(checkLayout(layout, input), []);
  const tie = defaultLayout(plugin(['data-node'], [rootDisk, free('vdc', 20_000), free('vdb', 20_000)]));
  assert.deepEqual(sizesOf(tie, 'data'), { vdb: 20_000 - 10, vdc: 0 }, 'on a tie, the first disk by name, as Fuel ordered disks');
});

test("a mounted partition allocated min goes whole where Fuel's fill in name order would have put it, else on the first disk it fits, never split", () => {
  const fits = defaultLayout(plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 30_000)], 'min', 4));
  assert.deepEqual(sizesOf(fits, 'data'), { vdb: 4096, vdc: 0 }, 'Fuel put it on the first disk too');
  // Fuel: 9990 MB on vdb and 2298 MB on vdc, two filesystems for /var/lib/data.
  const spills = plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 30_000)], 'min', 12);
  assert.deepEqual(sizesOf(defaultLayout(spills), 'data'), { vdb: 0, vdc: 12_288 });
  assert.deepEqual(checkLayout(defaultLayout(spills), spills), []);
});

test('a mounted partition beside a volume group: the partition on one disk, the group still spread over every disk with room', () => {
  const input = plugin(['data-compute'], [rootDisk, free('vdb', 10_000), free('vdc', 30_000)], 'min', 4);
  const layout = defaultLayout(input);
  assert.deepEqual(sizesOf(layout, 'data'), { vdb: 4096, vdc: 0 });
  assert.deepEqual(sizesOf(layout, 'vm'), { vdb: 10_000 - 10 - 64 - 4096, vdc: 30_000 - 10 - 64 });
  assert.deepEqual(checkLayout(layout, input), []);
  assertConsistent(nodeVolumes(layout, input.volumes).filter((x) => x.type !== 'disk' || !x.in_use));
  const both = plugin(['data-compute'], [rootDisk, free('vdb', 20_000), free('vdc', 20_000)], 'all');
  const shared = defaultLayout(both);
  assert.deepEqual(Object.values(sizesOf(shared, 'data')).filter((s) => s! > 0).length, 1, 'a share of all on one disk');
  assert.deepEqual(checkLayout(shared, both), []);
});

test('a mounted partition allocated full-disk takes one whole free disk, the largest (an unmounted one takes each: ceph above)', () => {
  const layout = defaultLayout(plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 30_000)], 'full-disk'));
  assert.deepEqual(sizesOf(layout, 'data'), { vdb: 0, vdc: 30_000 - 10 });
});

test('a mounted partition no single free disk can hold is refused in Fuel\'s words, not split; an operator layout putting it on two disks is an error naming them', () => {
  const input = plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 10_000)], 'min', 15);
  const layout = defaultLayout(input);
  assert.deepEqual(sizesOf(layout, 'data'), { vdb: 10_000 - 10, vdc: 0 });
  assert.deepEqual(checkLayout(layout, input).map((p) => p.message), ["Volume group 'Data' requires a minimum of 15360 MB"]);
  const two = plugin(['data-node'], [rootDisk, free('vdb', 10_000), free('vdc', 10_000)]);
  const defaults = defaultLayout(two);
  const split = applyOperatorSizes(defaults, defaults.disks.filter((d) => !d.in_use).map((d) => ({ id: d.id, volumes: [{ name: 'data', size: 5000 }] })), two);
  assert.deepEqual(split.problems, []);
  const problems = checkLayout(split.layout, two);
  assert.deepEqual(problems.map((p) => [p.code, p.severity, p.volume]), [['disks/mount-on-several-disks', 'error', 'data']]);
  assert.match(problems[0]!.message, /mounted at \/var\/lib\/data.*vdb and vdc/);
});
