/**
 * Disk layouts applied for real on test hosts 31-33 (issue 26), each with loop-device disks of its
 * own (scripts/test-hosts.sh disks): the release skeleton's provisioning graph (its disks.py, then
 * provision.sh), walked over SSH by the deploy layer, with node_volumes in Fuel's astute.yaml form
 * written into each node's deployment data by this test (the server's allocation fills it later).
 * Host 31 is a controller and host 32 a compute with different layouts: afterwards lsblk and findmnt
 * on each show exactly the planned partitions, filesystems and mounts, and a second run changes
 * nothing. Host 33's disks are in use (a partition table, an unmounted ext4): the node's facts say
 * so, and a plan that puts a volume on one is refused by the node, which touches nothing. This
 * machine's kernel has no device-mapper, so LVM is checked for its commands (disks.py --plan) and
 * for its refusal naming the node, not for real volume groups.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { buildDeploymentGraph } from '../../src/core/graph/index.js';
import type { Task } from '../../src/core/tasks/model.js';
import { SshTransport, gatherFacts, runDeployment, type TaskOutcome, type VertexState } from '../../src/deploy/index.js';
import { releaseScripts } from '../../src/package/create/release-scripts.js';
import { releaseSkeleton } from '../../src/package/create/release-template.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const CONTROLLER = 31;
const COMPUTE = 32;
const IN_USE = 33;
const ALL = [CONTROLLER, COMPUTE, IN_USE];
const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
const testHostsCmd = (...args: string[]) => execFileSync(script, args, { encoding: 'utf8', timeout: 60_000 });

// The skeleton's provisioning graph as an author gets it.
const provisioningTasks = (): Task[] =>
  (parse(releaseSkeleton('skel').get('skel-release/graphs/provisioning.yaml')!.text!) as Array<{ id: string; type: string; version: string; roles: string[]; requires?: string[]; parameters: Record<string, unknown> }>).map((t) => ({
    id: t.id,
    type: t.type,
    version: t.version,
    roles: t.roles.includes('*') ? '*' : t.roles,
    requires: t.requires ?? [],
    requiredFor: [],
    crossDepends: [],
    crossDependedBy: [],
    parameters: t.parameters,
    origin: { source: 'release' },
  }));

const part = (name: string, size: number, mount: string, fs: string) => ({ type: 'partition', name, size, mount, file_system: fs, disk_label: null, partition_guid: null });
const disk = (name: string, size: number, volumes: unknown[]) => ({ type: 'disk', id: name, name, size, volumes: [{ type: 'boot', size: 0 }, { type: 'lvm_meta_pool', size: 0 }, ...volumes], free_space: 0, extra: [], bootable: false });

describe('disk layouts applied on test hosts with disks of their own', { skip: hosts && hosts.addresses.length >= IN_USE ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-disks-'));
  const loops: Record<number, string[]> = {};
  let ssh: SshTransport;
  const clean = 'rm -rf /etc/hearth/* /etc/astute.yaml /etc/hearth-release/skel /var/log/hearth-release/skel; sed -i "/^UUID=.* \\(\\/srv\\/\\|\\/var\\/lib\\/\\|none swap\\)/d" /etc/fstab';
  const layouts = (): Record<number, unknown[]> => ({
    // Controller: a database and its logs on the first disk, images on the second.
    [CONTROLLER]: [disk(loops[CONTROLLER][0], 64, [part('mysql', 40, '/var/lib/mysql', 'ext4'), part('logs', 16, '/srv/logs', 'ext2')]), disk(loops[CONTROLLER][1], 64, [part('glance', 56, '/var/lib/glance', 'ext4')])],
    // Compute: instances on the larger disk, swap and nothing else on the smaller.
    [COMPUTE]: [disk(loops[COMPUTE][0], 64, [part('swap', 24, 'swap', 'swap')]), disk(loops[COMPUTE][1], 96, [part('nova', 88, '/var/lib/nova', 'ext4')])],
  });

  const run = async (nodes: number[], volumes: Record<number, unknown[]>) => {
    const scripts = join(dir, 'scripts');
    mkdirSync(scripts, { recursive: true });
    for (const [file, content] of releaseScripts('skel')) writeFileSync(join(scripts, file), content.text ?? '', { mode: 0o755 });
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    const graph = buildDeploymentGraph({ tasks: provisioningTasks(), nodes: nodes.map((i) => ({ id: String(i), roles: [i === CONTROLLER ? 'controller' : 'compute'] })), roles: { controller: { has_primary: true } } });
    const states = new Map<string, { state: VertexState; outcome?: TaskOutcome }>();
    await runDeployment(
      {
        graph,
        targets: new Map(nodes.map((i) => [String(i), host(hosts!, i, `hearth-test-${i}`)!])),
        data: new Map(nodes.map((i) => [String(i), { uid: String(i), fqdn: `node-${i}.test`, node_volumes: volumes[i] ?? [] }])),
        sources: new Map([['release', { folder: 'skel-1.0.0', localDir: scripts }]]),
        workDir: work,
        secrets: [],
      },
      { transport: ssh, events: { finished: (v, state, outcome) => states.set(`${v.node}/${v.task.id}`, { state, ...(outcome ? { outcome } : {}) }) }, sleep: async () => undefined },
    );
    return states;
  };
  // What a person checks: the host's loop disks, their partitions, filesystems and mounts.
  const layoutOf = async (i: number) =>
    (await onHost(i, `for l in ${loops[i].join(' ')}; do lsblk -rn -b -o NAME,SIZE,TYPE,MOUNTPOINT /dev/$l; done; for p in $(lsblk -rn -o NAME ${loops[i].map((l) => `/dev/${l}`).join(' ')}); do echo "$p $(blkid -p -o value -s TYPE -s PTTYPE /dev/$p)"; done; findmnt -rn -o TARGET,SOURCE,FSTYPE | grep /dev/loop | sort; grep -c "^UUID=" /etc/fstab || true`)).trim();
  const uuids = async (i: number) => (await onHost(i, `for l in ${loops[i].join(' ')}; do blkid -p -o export /dev/$l /dev/\${l}p* 2>/dev/null | grep -E "UUID=|PTUUID="; done; cat /etc/fstab`)).trim();

  before(async () => {
    for (const i of ALL) await onHost(i, clean);
    loops[CONTROLLER] = testHostsCmd('disks', String(CONTROLLER), '64', '64').trim().split('\n').map((l) => l.replace('/dev/', ''));
    loops[COMPUTE] = testHostsCmd('disks', String(COMPUTE), '64', '96').trim().split('\n').map((l) => l.replace('/dev/', ''));
    loops[IN_USE] = testHostsCmd('disks', String(IN_USE), '64', '64', '64').trim().split('\n').map((l) => l.replace('/dev/', ''));
    // Host 33: a partition table on its first disk, an unmounted ext4 on its second, the third free.
    await onHost(IN_USE, `echo "label: gpt" | sfdisk -q /dev/${loops[IN_USE][0]} && mkfs.ext4 -q /dev/${loops[IN_USE][1]}`);
    ssh = new SshTransport({ keyFile: hosts!.keyFile });
  });
  after(async () => {
    await ssh?.close();
    for (const i of ALL) {
      await onHost(i, clean).catch(() => undefined);
      try {
        testHostsCmd('disks', String(i));
      } catch {
        /* the host is gone already */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test("a node's facts: its loop disks, free or in use and why, and the disk that holds /", async () => {
    const facts = await gatherFacts(ssh, host(hosts!, IN_USE)!);
    assert.ok(facts.ok, JSON.stringify(facts));
    const byName = new Map(facts.facts.disks.map((d) => [d.name, d]));
    assert.deepEqual([...byName.keys()].filter((n) => n.startsWith('loop')).sort(), [...loops[IN_USE]].sort(), 'the host sees its own loop disks, not the whole machine\'s');
    const [gpt, ext4, free] = loops[IN_USE].map((l) => byName.get(l)!);
    assert.deepEqual([gpt.in_use, gpt.in_use_reasons], [true, ['partition table gpt']]);
    assert.deepEqual([ext4.in_use, ext4.in_use_reasons], [true, ['signature ext4']]);
    assert.deepEqual([free.in_use, free.in_use_reasons, free.size, free.id, free.type], [false, [], 64, free.name, 'loop']);
    const root = facts.facts.disks.filter((d) => d.holds_root);
    assert.equal(root.length, 1, 'one disk holds /');
    assert.equal(root[0].in_use, true);
    assert.ok(root[0].in_use_reasons!.includes('/'));
  });

  test('the provisioning graph lays out a controller and a compute exactly as planned; a second run changes nothing', async () => {
    const first = await run([CONTROLLER, COMPUTE], layouts());
    for (const i of [CONTROLLER, COMPUTE]) for (const t of ['disks', 'provision']) assert.equal(first.get(`${i}/${t}`)?.state, 'ready', `${i}/${t}: ${first.get(`${i}/${t}`)?.outcome?.output}`);
    const [c0, c1] = loops[CONTROLLER];
    assert.equal(
      await layoutOf(CONTROLLER),
      [
        `${c0} 67108864 loop `,
        `${c0}p1 41943040 part /var/lib/mysql`,
        `${c0}p2 16777216 part /srv/logs`,
        `${c1} 67108864 loop `,
        `${c1}p1 58720256 part /var/lib/glance`,
        `${c0} gpt`,
        `${c0}p1 ext4`,
        `${c0}p2 ext2`,
        `${c1} gpt`,
        `${c1}p1 ext4`,
        `/srv/logs /dev/${c0}p2 ext2`,
        `/var/lib/glance /dev/${c1}p1 ext4`,
        `/var/lib/mysql /dev/${c0}p1 ext4`,
        '3',
      ].join('\n'),
    );
    const [m0, m1] = loops[COMPUTE];
    assert.equal(
      await layoutOf(COMPUTE),
      [
        `${m0} 67108864 loop `,
        `${m0}p1 25165824 part [SWAP]`,
        `${m1} 100663296 loop `,
        `${m1}p1 92274688 part /var/lib/nova`,
        `${m0} gpt`,
        `${m0}p1 swap`,
        `${m1} gpt`,
        `${m1}p1 ext4`,
        `/var/lib/nova /dev/${m1}p1 ext4`,
        '2',
      ].join('\n'),
    );
    assert.match(await onHost(COMPUTE, 'cat /proc/swaps'), new RegExp(`/dev/${m0}p1 `));

    const before: Record<number, string> = { [CONTROLLER]: await uuids(CONTROLLER), [COMPUTE]: await uuids(COMPUTE) };
    const second = await run([CONTROLLER, COMPUTE], layouts());
    for (const i of [CONTROLLER, COMPUTE]) {
      const out = second.get(`${i}/disks`)!;
      assert.equal(out.state, 'ready', out.outcome?.output);
      assert.doesNotMatch(out.outcome?.output ?? '', /^\+ /m, 'no command that changes the node ran');
      assert.match(out.outcome?.output ?? '', /laid out already/);
      assert.equal(await uuids(i), before[i], `host ${i}: the same partition tables, filesystems and fstab`);
    }
  });

  test('a disk in use is never touched: the node refuses before writing anything', async () => {
    const [gpt, ext4] = loops[IN_USE];
    const before = await onHost(IN_USE, `wipefs -i -O TYPE,OFFSET /dev/${gpt} /dev/${ext4}; cat /proc/partitions | grep loop || true`);
    // The compute's plan, if the facts had been wrong: the partition table's disk is in use too.
    const states = await run([IN_USE], { [IN_USE]: [disk(ext4, 64, [part('nova', 40, '/var/lib/nova', 'ext4')])] });
    const disks = states.get(`${IN_USE}/disks`)!;
    assert.equal(disks.state, 'error');
    assert.match(disks.outcome?.output ?? '', new RegExp(`disks: node node-${IN_USE}\\.test: disk ${ext4} is in use \\(signature ext4\\): Hearth never touches it`));
    assert.equal(states.get(`${IN_USE}/provision`)?.state, 'stopped');
    assert.equal(await onHost(IN_USE, `wipefs -i -O TYPE,OFFSET /dev/${gpt} /dev/${ext4}; cat /proc/partitions | grep loop || true`), before);
    assert.equal((await onHost(IN_USE, 'findmnt -rn /var/lib/nova || echo none')).trim(), 'none');
  });

  test('LVM: the commands it would run, and a refusal naming the node where the kernel has no device-mapper', async () => {
    const free = loops[IN_USE][2];
    const volumes = [disk(free, 64, [{ type: 'pv', vg: 'vm', size: 60, lvm_meta_size: 4 }]), { type: 'vg', id: 'vm', label: 'Virtual Storage', min_size: 20, _allocate_size: 'all', volumes: [{ type: 'lv', name: 'nova', size: 52, mount: '/var/lib/nova', file_system: 'ext4' }] }];
    const yaml = JSON.stringify({ fqdn: `node-${IN_USE}.test`, node_volumes: volumes });
    await onHost(IN_USE, `mkdir -p /tmp/disks-plan && cat > /etc/astute.yaml <<'EOF'\n${yaml}\nEOF`);
    // The host's /tmp is its own: the script goes in through standard input.
    execFileSync(script, ['run', String(IN_USE), 'sh', '-c', 'cat > /tmp/disks-plan/disks.py'], { input: releaseScripts('skel').get('disks.py')!.text!, timeout: 30_000 });
    const plan = await onHost(IN_USE, 'python3 /tmp/disks-plan/disks.py --plan');
    assert.match(plan, new RegExp(`^\\+ sfdisk /dev/${free} <<< 'label: gpt\nsize=60MiB, type=E6D6D379-F507-44C2-A23C-238F2A3DF928, name="hearth:pv-vm"\n'$`, 'm'));
    assert.match(plan, new RegExp(`^\\+ pvcreate -q /dev/${free}p1\n\\+ vgcreate -q vm /dev/${free}p1\n\\+ lvcreate -q -n nova -L 52m vm\n\\+ mkfs\\.ext4 -q -L nova /dev/vm/nova\n`, 'm'));
    assert.match(plan, /^\+ mount \/var\/lib\/nova$/m);
    assert.match(plan, new RegExp(`^# volume group vm needs LVM, but its kernel has no device-mapper`, 'm'));
    const real = await onHost(IN_USE, 'python3 /tmp/disks-plan/disks.py 2>&1; echo "exit $?"');
    assert.equal(real, `disks: node node-${IN_USE}.test: volume group vm needs LVM, but its kernel has no device-mapper (no /dev/mapper/control, none in /proc/misc); nothing was changed\nexit 1\n`);
    assert.equal((await onHost(IN_USE, `wipefs -i /dev/${free}; lsblk -rn -o NAME /dev/${free}`)).trim(), free, 'the free disk is still blank');
    await onHost(IN_USE, 'rm -rf /tmp/disks-plan');
  });
});
