/**
 * Disk layouts applied for real, the user's way (issue 26): a real server, a release plugin made by
 * `plugin create --release-plugin` whose volumes are partitions (this machine's kernel has no
 * device-mapper, so LVM cannot run here), and test hosts 31-33 of HEARTH_TEST_HOSTS, each given
 * loop-device disks of its own (scripts/test-hosts.sh disks) and registered by address, so their
 * facts say which disks are free. Host 31 is a controller (one of its disks holds a partition table:
 * in use), host 32 a compute, host 33 a compute whose disks are too small.
 *
 * The deployment with host 33 is refused before anything runs (400 deploy/disks-too-small, in
 * Fuel's words) and nothing ran on any host; without it, the provisioning graph runs for real
 * through POST /clusters/{id}/deploy, and lsblk/findmnt on each host show exactly the layout
 * GET /nodes/{id}/disks planned (the controller's as the operator saved it); a second run changes
 * nothing; the disk in use is never touched. LVM is checked for its commands (disks.py --plan) and
 * for its refusal naming the node, not for real volume groups.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { releaseScripts } from '../../src/package/create/release-scripts.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, testHosts } from '../support/test-hosts.js';

const TOKEN = 'disks-hosts-token-0123456789';
const NAME = 'disksrel';
const hosts = testHosts();
// Positions in HEARTH_TEST_HOSTS; scripts/test-hosts.sh knows a host by its index (10.77.0.(10+I)).
const CONTROLLER = 31;
const COMPUTE = 32;
const SMALL = 33;
const ALL = [CONTROLLER, COMPUTE, SMALL];
const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
const indexOf = (pos: number) => String(Number(hosts!.addresses[pos - 1].split('.')[3]) - 10);
const testHostsCmd = (pos: number, ...args: string[]) => execFileSync(script, [args[0], indexOf(pos), ...args.slice(1)], { encoding: 'utf8', timeout: 60_000 });
const onHost = async (pos: number, command: string) => testHostsCmd(pos, 'run', 'sh', '-c', command);

// The release's volumes: the OS (checked against the disk holding /, never applied) and partitions,
// different for a controller and a compute.
const VOLUMES = `volumes_roles_mapping:
  controller:
    - {allocate_size: "min", id: "os"}
    - {allocate_size: "min", id: "mysql"}
    - {allocate_size: "all", id: "image"}
  compute:
    - {allocate_size: "min", id: "os"}
    - {allocate_size: "all", id: "nova"}
volumes:
  - id: "os"
    type: "vg"
    label: "Base System"
    min_size: {generator: "calc_min_os_size"}
    volumes:
      - {mount: "/", type: "lv", name: "root", size: {generator: "calc_total_root_vg"}, file_system: "ext4"}
      - {mount: "swap", type: "lv", name: "swap", size: {generator: "calc_swap_size"}, file_system: "swap"}
  - {id: "mysql", type: "partition", label: "Database", min_size: 24, mount: "/var/lib/mysql", file_system: "ext4"}
  - {id: "image", type: "partition", label: "Image Storage", min_size: 16, mount: "/var/lib/glance", file_system: "ext2"}
  - {id: "nova", type: "partition", label: "Virtual Storage", min_size: 48, mount: "/var/lib/nova", file_system: "ext4"}
`;

interface Disk {
  id: string;
  name: string;
  size: number;
  disk_size: number;
  in_use: boolean;
  volumes: Array<{ name: string; size: number }>;
}

describe('disk layouts deployed through the server onto test hosts with disks of their own', { skip: hosts && hosts.addresses.length >= SMALL ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-disks-'));
  const loops: Record<number, string[]> = {};
  const ids: Record<number, number> = {};
  let server: RunningServer;
  let clusterId = 0;
  const clean = `rm -rf /etc/hearth/* /etc/astute.yaml /etc/hearth-release/${NAME} /var/log/hearth-release/${NAME} /tmp/disks-plan`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const provision = async () => {
    const started = await call('POST', `/clusters/${clusterId}/deploy`, { graph_type: 'provisioning' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const until = Date.now() + 180_000;
    for (;;) {
      const d = (await call('GET', `/clusters/${clusterId}/deployments/${started.body.id}`)).body;
      if (d.status !== 'running' && d.status !== 'pending') {
        const tasks = (await call('GET', `/deployments/${started.body.id}/tasks?output=true`)).body as Array<{ task_id: string; node_id: string; status: string; output?: string }>;
        return { ...d, tasks };
      }
      if (Date.now() > until) throw new Error(`deployment still running: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  // What a person checks on a host: its loop disks' partitions, sizes and filesystems, the mounts, fstab.
  const layoutOf = async (pos: number) =>
    (await onHost(pos, `for l in ${loops[pos].join(' ')}; do lsblk -rn -b -o NAME,SIZE,TYPE,MOUNTPOINT /dev/$l; done; for p in $(lsblk -rn -o NAME ${loops[pos].map((l) => `/dev/${l}`).join(' ')}); do echo "$p $(blkid -p -o value -s TYPE -s PTTYPE /dev/$p)"; done; findmnt -rn -o TARGET,SOURCE,FSTYPE | grep /dev/loop | sort; grep -c "^UUID=" /etc/fstab || true`)).trim();
  const uuids = async (pos: number) => (await onHost(pos, `for l in ${loops[pos].join(' ')}; do blkid -p -o export /dev/$l /dev/\${l}p* 2>/dev/null | grep -E "UUID=|PTUUID="; done; cat /etc/fstab`)).trim();
  const untouched = async () => Promise.all(ALL.map((pos) => onHost(pos, `ls /etc/hearth 2>/dev/null; ls /etc/astute.yaml 2>/dev/null; lsblk -rn -o NAME ${loops[pos].map((l) => `/dev/${l}`).join(' ')}`)));
  before(async () => {
    for (const pos of ALL) await onHost(pos, `${clean}; sed -i "/^UUID=.* \\/var\\/lib\\//d" /etc/fstab`);
    loops[CONTROLLER] = testHostsCmd(CONTROLLER, 'disks', '64', '64').trim().split('\n').map((l) => l.replace('/dev/', ''));
    loops[COMPUTE] = testHostsCmd(COMPUTE, 'disks', '96').trim().split('\n').map((l) => l.replace('/dev/', ''));
    loops[SMALL] = testHostsCmd(SMALL, 'disks', '32').trim().split('\n').map((l) => l.replace('/dev/', ''));
    // The controller's first disk holds a partition table: in use, whatever is on it.
    await onHost(CONTROLLER, `echo "label: gpt" | sfdisk -q /dev/${loops[CONTROLLER][0]}`);

    const made = createPlugin(NAME, { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, `${NAME}-release`, 'metadata', 'volumes.yaml'), VOLUMES);
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    const plugin = await call('POST', '/plugins/folders', { path: made.dir });
    assert.equal(plugin.status, 201, JSON.stringify(plugin.body));
    const releaseId = (await call('GET', '/releases')).body[0].id;
    const env = await call('POST', '/clusters', { name: 'disks-env', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    clusterId = env.body.id;
    for (const pos of ALL) {
      const res = await call('POST', '/nodes', { address: hosts!.addresses[pos - 1], cluster_id: clusterId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[pos] = res.body.node.id;
    }
    const assigned = await call('POST', `/clusters/${clusterId}/nodes`, { assignments: [{ node_id: ids[CONTROLLER], roles: ['controller'] }, { node_id: ids[COMPUTE], roles: ['compute'] }, { node_id: ids[SMALL], roles: ['compute'] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
  });
  after(async () => {
    await server?.close();
    for (const pos of ALL) {
      await onHost(pos, `${clean}; sed -i "/^UUID=.* \\/var\\/lib\\//d" /etc/fstab`).catch(() => undefined);
      try {
        testHostsCmd(pos, 'disks');
      } catch {
        /* the host is gone already */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('a host whose disks are too small is refused by name, in Fuel\'s words, before anything runs on any host', async () => {
    const before = await untouched();
    const refused = await call('POST', `/clusters/${clusterId}/deploy`, { graph_type: 'provisioning' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'deploy/disks-too-small');
    assert.deepEqual(refused.body.details.nodes.map((n: { id: number }) => n.id), [ids[SMALL]], 'only the small host is named');
    assert.match(refused.body.message, /Volume group 'Virtual Storage' requires a minimum of 48 MB/);
    assert.equal((await call('GET', `/clusters/${clusterId}/deployments`)).body.length, 0, 'no deployment was started');
    assert.deepEqual(await untouched(), before, 'nothing was delivered to or written on any host');
    // Without it, the environment deploys (the node stays registered, its host as it was).
    const out = await call('POST', `/clusters/${clusterId}/nodes/unassign`, { node_ids: [ids[SMALL]], clean: false });
    assert.ok(out.status < 300, JSON.stringify(out.body));
  });

  test("a node's facts: its loop disks, the one in use and why, and the disk that holds /", async () => {
    const disks = (await call('GET', `/nodes/${ids[CONTROLLER]}/disks`)).body as Disk[];
    const loopDisks = disks.filter((d) => d.name.startsWith('loop'));
    assert.deepEqual(loopDisks.map((d) => [d.name, d.in_use]).sort(), loops[CONTROLLER].map((l, n) => [l, n === 0]).sort(), "the host's own loop disks, the one with a partition table in use");
    assert.ok(disks.some((d) => !d.name.startsWith('loop') && d.in_use), 'the disk holding / is in use');
    assert.deepEqual(disks.filter((d) => d.in_use).flatMap((d) => d.volumes.filter((v) => v.size > 0)), [], 'nothing is planned on a disk in use');
  });

  test('the provisioning graph lays out the controller (as the operator saved it) and the compute exactly as planned; a second run changes nothing; the disk in use is never touched', async () => {
    // The operator gives the database 8 MB more than its minimum, taken from the images beside it.
    const defaults = (await call('GET', `/nodes/${ids[CONTROLLER]}/disks`)).body as Disk[];
    const withMysql = defaults.find((d) => d.volumes.some((v) => v.name === 'mysql' && v.size > 0))!;
    const saved = await call('PUT', `/nodes/${ids[CONTROLLER]}/disks`, defaults.map((d) => ({ id: d.id, volumes: d.volumes.map((v) => ({ name: v.name, size: d === withMysql && v.name === 'mysql' ? v.size + 8 : d === withMysql && v.name === 'image' ? v.size - 8 : v.size })) })));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const plan: Record<number, Disk[]> = {};
    for (const pos of [CONTROLLER, COMPUTE]) plan[pos] = (await call('GET', `/nodes/${ids[pos]}/disks`)).body;
    assert.equal(plan[CONTROLLER].find((d) => d.id === withMysql.id)!.volumes.find((v) => v.name === 'mysql')!.size, withMysql.volumes.find((v) => v.name === 'mysql')!.size + 8);
    const inUse = loops[CONTROLLER][0];
    const inUseBefore = await onHost(CONTROLLER, `wipefs -i -O TYPE,OFFSET /dev/${inUse}; sfdisk -d /dev/${inUse}`);

    const first = await provision();
    assert.equal(first.status, 'succeeded', JSON.stringify(first));
    // The lifecycle's word for a machine prepared but not deployed (docs/lifecycle.md).
    for (const pos of [CONTROLLER, COMPUTE]) assert.equal((await call('GET', `/nodes/${ids[pos]}`)).body.status, 'provisioned');
    for (const t of first.tasks.filter((t: { task_id: string; output?: string }) => t.task_id === 'disks')) assert.match(t.output ?? '', /disk\(s\) as planned/);

    const mounts = { mysql: '/var/lib/mysql', image: '/var/lib/glance', nova: '/var/lib/nova' };
    const fsOf: Record<string, string> = { mysql: 'ext4', image: 'ext2', nova: 'ext4' };
    for (const pos of [CONTROLLER, COMPUTE]) {
      const free = plan[pos].filter((d) => d.name.startsWith('loop') && !d.in_use);
      const volumes = free.flatMap((d) => d.volumes.filter((v) => v.size > 0).map((v, n) => ({ disk: d.name, part: `${d.name}p${n + 1}`, ...v })));
      assert.deepEqual([...new Set(volumes.map((v) => v.name))].sort(), pos === CONTROLLER ? ['image', 'mysql'] : ['nova'], 'each role its own volumes');
      const expected = [
        ...plan[pos].filter((d) => d.name.startsWith('loop')).flatMap((d) => [`${d.name} ${d.disk_size * 1024 ** 2} loop `, ...volumes.filter((v) => v.disk === d.name).map((v) => `${v.part} ${v.size * 1024 ** 2} part ${mounts[v.name as keyof typeof mounts]}`)]),
        ...plan[pos].filter((d) => d.name.startsWith('loop')).flatMap((d) => (d.name === inUse ? [`${d.name} gpt`] : free.includes(d) ? [`${d.name} gpt`, ...volumes.filter((v) => v.disk === d.name).map((v) => `${v.part} ${fsOf[v.name]}`)] : [`${d.name} `])),
        ...volumes.map((v) => `${mounts[v.name as keyof typeof mounts]} /dev/${v.part} ${fsOf[v.name]}`).sort(),
        String(volumes.length),
      ];
      assert.equal(await layoutOf(pos), expected.join('\n'), `host ${pos}: lsblk and findmnt show the planned layout`);
    }
    assert.equal(await onHost(CONTROLLER, `wipefs -i -O TYPE,OFFSET /dev/${inUse}; sfdisk -d /dev/${inUse}`), inUseBefore, 'the disk in use is as it was');

    const before: Record<number, string> = { [CONTROLLER]: await uuids(CONTROLLER), [COMPUTE]: await uuids(COMPUTE) };
    const second = await provision();
    assert.equal(second.status, 'succeeded', JSON.stringify(second));
    for (const t of second.tasks.filter((t: { task_id: string; output?: string }) => t.task_id === 'disks')) {
      assert.doesNotMatch(t.output ?? '', /^\+ /m, 'no command that changes the node ran');
      assert.match(t.output ?? '', /laid out already/);
    }
    for (const pos of [CONTROLLER, COMPUTE]) assert.equal(await uuids(pos), before[pos], `host ${pos}: the same partition tables, filesystems and fstab`);
  });

  test('LVM: the commands it would run, and a refusal naming the node where the kernel has no device-mapper', async () => {
    const free = loops[SMALL][0];
    const volumes = [
      { type: 'disk', id: free, name: free, size: 32, volumes: [{ type: 'boot', size: 0 }, { type: 'lvm_meta_pool', size: 0 }, { type: 'pv', vg: 'vm', size: 28, lvm_meta_size: 4 }], free_space: 0, extra: [], bootable: false },
      { type: 'vg', id: 'vm', label: 'Virtual Storage', min_size: 20, _allocate_size: 'all', volumes: [{ type: 'lv', name: 'nova', size: 20, mount: '/var/lib/nova', file_system: 'ext4' }] },
    ];
    const yaml = JSON.stringify({ fqdn: 'node-small.test', node_volumes: volumes });
    await onHost(SMALL, `mkdir -p /tmp/disks-plan && cat > /etc/astute.yaml <<'EOF'\n${yaml}\nEOF`);
    // The host's /tmp is its own: the script goes in through standard input.
    execFileSync(script, ['run', indexOf(SMALL), 'sh', '-c', 'cat > /tmp/disks-plan/disks.py'], { input: releaseScripts(NAME).get('disks.py')!.text!, timeout: 30_000 });
    const plan = await onHost(SMALL, 'python3 /tmp/disks-plan/disks.py --plan');
    assert.match(plan, new RegExp(`^\\+ sfdisk /dev/${free} <<< 'label: gpt\nsize=28MiB, type=E6D6D379-F507-44C2-A23C-238F2A3DF928, name="hearth:pv-vm"\n'$`, 'm'));
    assert.match(plan, new RegExp(`^\\+ pvcreate -q /dev/${free}p1\n\\+ vgcreate -q vm /dev/${free}p1\n\\+ lvcreate -q -n nova -L 20m vm\n\\+ mkfs\\.ext4 -q -L nova /dev/vm/nova\n`, 'm'));
    assert.match(plan, /^\+ mount \/var\/lib\/nova$/m);
    assert.match(plan, /^# volume group vm needs LVM, but its kernel has no device-mapper/m);
    const real = await onHost(SMALL, 'python3 /tmp/disks-plan/disks.py 2>&1; echo "exit $?"');
    assert.equal(real, 'disks: node node-small.test: volume group vm needs LVM, but its kernel has no device-mapper (no /dev/mapper/control, none in /proc/misc); nothing was changed\nexit 1\n');
    assert.equal((await onHost(SMALL, `wipefs -i /dev/${free}; lsblk -rn -o NAME /dev/${free}`)).trim(), free, 'the free disk is still blank');
  });
});
