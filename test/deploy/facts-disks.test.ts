/**
 * Which disks Hearth may touch (issue 26), from a node's facts answer: a disk is in use when it
 * holds a mounted filesystem, `/`, swap, a partition table, or any filesystem, LVM or RAID
 * signature (mounted or not); loop devices count as disks; ids are Fuel's (by-path, by-id, name).
 * The same on real test hosts: test/deploy/disks-hosts.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFacts } from '../../src/deploy/facts.js';

const lsblk = {
  blockdevices: [
    { name: 'vda', size: 21474836480, type: 'disk', model: null, rota: false, mountpoints: [null], fstype: null, pttype: 'gpt', children: [{ name: 'vda1', size: 21473787904, type: 'part', mountpoints: ['/'], fstype: 'ext4', pttype: 'gpt' }] },
    { name: 'vdb', size: 10737418240, type: 'disk', model: 'QEMU', rota: false, mountpoints: [null], fstype: null, pttype: null },
    { name: 'vdc', size: 10737418240, type: 'disk', rota: false, mountpoints: [null], fstype: null, pttype: null },
    { name: 'vdd', size: 10737418240, type: 'disk', rota: false, mountpoints: [null], fstype: null, pttype: null },
    { name: 'vde', size: 10737418240, type: 'disk', rota: false, mountpoints: [null], fstype: null, pttype: null },
    { name: 'loop0', size: 1073741824, type: 'loop', rota: true, mountpoints: [null], fstype: null, pttype: null },
    { name: 'loop1', size: 1073741824, type: 'loop', rota: true, mountpoint: '[SWAP]', fstype: null, pttype: null },
    { name: 'loop2', size: 536870912, type: 'loop', rota: true, mountpoints: ['/srv/data'], fstype: null, pttype: null },
    { name: 'zram0', size: 0, type: 'disk' },
    { name: 'sr0', size: 1073741824, type: 'rom' },
  ],
};

const answer = (signatures: string) =>
  [
    '==hostname',
    'node-1',
    '==disks',
    JSON.stringify(lsblk),
    '==signatures',
    signatures,
    '==swaps',
    'Filename\tType\tSize\tUsed\tPriority',
    '/dev/loop1                              partition\t1048572\t0\t-2',
    '==ids',
    'disk/by-id/virtio-serial-b /dev/vdb',
    'disk/by-path/pci-0000:00:05.0 /dev/vdb',
    'disk/by-id/virtio-serial-c /dev/vdc',
    'disk/by-path/pci-0000:00:04.0-part1 /dev/vda1',
    '',
  ].join('\n');

const SIGNATURES = ['vda|gpt gpt PMBR|', 'vdb||', 'vdc|LVM2_member|', 'vdd|linux_raid_member|md127', 'vde|?|', 'loop0||', 'loop1|swap|', 'loop2|ext4|', 'zram0||', 'sr0||'].join('\n');

test('each disk: size in MB, a stable id, in use or free and why, and which one holds /', () => {
  const disks = parseFacts(answer(SIGNATURES)).disks;
  assert.deepEqual(
    disks.map((d) => [d.name, d.id, d.size, d.in_use, d.in_use_reasons, d.holds_root]),
    [
      ['vda', 'vda', 20480, true, ['partitions', '/', 'signature ext4', 'partition table gpt'], true],
      ['vdb', 'disk/by-path/pci-0000:00:05.0', 10240, false, [], false],
      ['vdc', 'disk/by-id/virtio-serial-c', 10240, true, ['signature LVM2_member'], false],
      ['vdd', 'vdd', 10240, true, ['signature linux_raid_member', 'held by md127'], false],
      ['vde', 'vde', 10240, true, ['signatures unreadable'], false],
      ['loop0', 'loop0', 1024, false, [], false],
      ['loop1', 'loop1', 1024, true, ['swap', 'signature swap'], false],
      ['loop2', 'loop2', 512, true, ['mounted /srv/data', 'signature ext4'], false],
    ],
  );
  // What was there before issue 26 is unchanged.
  assert.deepEqual({ ...disks[1], id: undefined, size: undefined, in_use: undefined, in_use_reasons: undefined, holds_root: undefined }, { name: 'vdb', size_bytes: 10737418240, type: 'disk', model: 'QEMU', rotational: false, id: undefined, size: undefined, in_use: undefined, in_use_reasons: undefined, holds_root: undefined });
});

test('a node that does not say what is on its disks has no free disk', () => {
  // An answer without the signatures section (wipefs missing, or an older script): never free.
  const text = answer(SIGNATURES).replace(/==signatures\n[^]*?==swaps/, '==swaps');
  const disks = parseFacts(text).disks;
  assert.ok(disks.every((d) => d.in_use), JSON.stringify(disks));
  assert.deepEqual(disks.find((d) => d.name === 'vdb')!.in_use_reasons, ['signatures unreadable']);
});
