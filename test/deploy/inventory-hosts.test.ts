/**
 * The Ansible inventory (issue 31 item 13) read by Debian's ansible-core itself: each form
 * (INI, YAML, the dynamic inventory's JSON through an inventory script) read back by
 * `ansible-inventory` to the same hosts, groups and variables, hostile values included; then
 * `ansible all -m ping` through `hearth env inventory` against test hosts 39 and 40 (positions in
 * HEARTH_TEST_HOSTS; no other test uses them), with the host keys Hearth recorded checked.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { inventoryAsIni, inventoryAsYaml, inventoryOf, type DynamicInventory, type InventoryNode } from '../../src/core/inventory/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const [FIRST, SECOND] = [39, 40];
const TOKEN = 'inventory-hosts-token-0123456789abcdef';
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const hasAnsible = spawnSync('ansible', ['--version'], { encoding: 'utf8' }).status === 0;
const ANSIBLE_NOTE = 'ansible-core is not installed: the inventory tests with Ansible skipped (apt-get install ansible-core; CI installs it)';

/** Ansible's environment: nothing of the user's configuration, its temporary files in `dir`. */
const ansibleEnv = (dir: string, connections = 'ansible-cp') => ({
  ...process.env,
  ANSIBLE_CONFIG: join(dir, 'none.cfg'),
  ANSIBLE_LOCAL_TEMP: join(dir, 'ansible-tmp'),
  ANSIBLE_SSH_CONTROL_PATH_DIR: join(dir, connections),
  ANSIBLE_PYTHON_INTERPRETER: 'auto_silent',
  ANSIBLE_NOCOLOR: '1',
  ANSIBLE_DEPRECATION_WARNINGS: 'false',
});

/** `connections`: the folder of Ansible's persistent SSH connections (a new one logs in afresh). */
function ansible(dir: string, command: string, args: string[], connections?: string) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, env: ansibleEnv(dir, connections) });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** What ansible-inventory read: each host's variables and each group's hosts. */
function readBack(dir: string, file: string): { hostvars: Record<string, Record<string, unknown>>; groups: Record<string, string[]> } {
  const r = ansible(dir, 'ansible-inventory', ['-i', file, '--list']);
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.err, /WARNING/, r.err);
  const listed = JSON.parse(r.out) as DynamicInventory;
  const groups: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(listed)) {
    if (name === '_meta' || name === 'all') continue;
    groups[name] = [...((entry as { hosts?: string[] }).hosts ?? [])].sort();
  }
  return { hostvars: listed._meta.hostvars, groups };
}

describe('Ansible reads the inventory in each form', { skip: hasAnsible ? false : ANSIBLE_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-inventory-forms-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('INI, YAML and the inventory script give back the same hosts, groups and variables, hostile values included', () => {
    const node = (id: number, name: string, extra: Partial<InventoryNode>): InventoryNode => ({
      id,
      name,
      address: `10.0.0.${id}`,
      sshUser: 'root',
      sshPort: 22,
      roles: [],
      pendingRoles: [],
      status: 'ready',
      networkData: [{ name: 'management', ip: `192.168.0.${id}/24`, vlan: 101, dev: 'eth1', gateway: null, cidr: '192.168.0.0/24' }],
      volumes: [{ name: 'os', size_mb: 51200, disks: ['sda', 'sdb'] }],
      ...extra,
    });
    const inventory = inventoryOf({
      // Quotes, a comment sign, brackets, an equals sign, a line separator and words YAML 1.1 and Python read as other things.
      environment: { id: 9, name: `o'brien "prod" # [x]=1\u2028next` },
      keyFile: '/var/lib/hearth data/ssh/id_ed25519',
      nodes: [
        node(1, 'yes', { roles: ['controller'], status: 'True', sshUser: '0123' }),
        node(2, 'ctl-2.example.com', { roles: ['ceph-osd'], pendingRoles: ['compute'], sshPort: 2222, hostKey: 'ssh-ed25519 AAAAC3Nza' }),
        node(3, 'odd name', { status: 'None', volumes: [] }),
        { id: 4, name: 'sim', simulated: true },
      ],
    });
    const expected = { hostvars: inventory._meta.hostvars, groups: { ceph_osd: ['ctl-2.example.com'], compute: ['ctl-2.example.com'], controller: ['yes'], ungrouped: ['node-3'] } };
    writeFileSync(join(dir, 'hosts.ini'), inventoryAsIni(inventory));
    writeFileSync(join(dir, 'hosts.yaml'), inventoryAsYaml(inventory));
    writeFileSync(join(dir, 'inventory.json'), JSON.stringify(inventory));
    // The dynamic form as Ansible takes it: a script printing it for --list.
    writeFileSync(join(dir, 'inventory.sh'), `#!/bin/sh\ncat '${join(dir, 'inventory.json')}'\n`);
    chmodSync(join(dir, 'inventory.sh'), 0o755);
    for (const file of ['hosts.ini', 'hosts.yaml', 'inventory.sh']) assert.deepEqual(readBack(dir, join(dir, file)), expected, file);
  });
});

describe('ansible all -m ping with hearth env inventory', { skip: !hasAnsible ? ANSIBLE_NOTE : hosts && hosts.addresses.length >= SECOND ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-inventory-hosts-'));
  let server: RunningServer;
  let envId = 0;
  const ids: Record<number, number> = {};
  const names: Record<number, string> = {};
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined };
  };
  const hearth = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: TOKEN } });
      let out = '';
      let err = '';
      child.stdout.on('data', (b) => (out += b));
      child.stderr.on('data', (b) => (err += b));
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
    });

  before(async () => {
    const made = createPlugin('invsk', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    assert.equal((await api('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const release = (await api('GET', '/releases')).body[0].id;
    const env = await api('POST', '/clusters', { name: 'inventory-hosts', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, env.text);
    envId = env.body.id;
    for (const i of [FIRST, SECOND]) {
      const res = await api('POST', '/nodes', { address: hosts!.addresses[i - 1], cluster_id: envId });
      assert.equal(res.status, 201, res.text);
      ids[i] = res.body.node.id;
      names[i] = res.body.node.name;
    }
    const simulated = await api('POST', '/nodes', { nodes: [{ name: 'inventory-sim' }] });
    assert.equal(simulated.status, 201, simulated.text);
    const assigned = await api('POST', `/clusters/${envId}/nodes`, {
      assignments: [
        { node_id: ids[FIRST], roles: ['controller'] },
        { node_id: ids[SECOND], roles: ['compute'] },
        { node_id: simulated.body.ids?.[0] ?? simulated.body.nodes?.[0]?.id, roles: ['compute'] },
      ],
    });
    assert.equal(assigned.status, 200, assigned.text);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('GET /clusters/{id}/inventory: the real nodes by role, with how to reach them and their addresses; the simulated one left out', async () => {
    const res = await api('GET', `/clusters/${envId}/inventory`);
    assert.equal(res.status, 200, res.text);
    const inv = res.body as DynamicInventory;
    assert.deepEqual(inv.all.children, ['compute', 'controller']);
    assert.deepEqual(inv.controller, { hosts: [names[FIRST]] });
    assert.deepEqual(inv.compute, { hosts: [names[SECOND]] });
    assert.deepEqual(inv._meta.hearth.simulated_nodes.map((n) => n.name), ['inventory-sim']);
    const first = inv._meta.hostvars[names[FIRST]];
    assert.equal(first.ansible_host, hosts!.addresses[FIRST - 1]);
    assert.equal(first.ansible_port, 22);
    assert.equal(first.ansible_user, 'root');
    assert.equal(first.ansible_ssh_private_key_file, join(dir, 'data', 'ssh', 'id_ed25519'));
    assert.equal(first.hearth_uid, String(ids[FIRST]));
    assert.deepEqual(first.hearth_pending_roles, ['controller']);
    assert.equal((first.hearth_addresses as Record<string, string>).fuelweb_admin, hosts!.addresses[FIRST - 1]);
    assert.match(String(first.hearth_host_key), /^ssh-\S+ AAAA/);
    // The node's network_data as GET /nodes/{id} gives it.
    assert.deepEqual(first.hearth_network_data, (await api('GET', `/nodes/${ids[FIRST]}`)).body.network_data);
    assert.ok(Array.isArray(first.hearth_node_volumes));

    const ini = await api('GET', `/clusters/${envId}/inventory?format=ini`);
    assert.match(ini.type, /^text\/plain/);
    assert.match(ini.text, /^# 1 simulated node is left out \(nothing to connect to\): inventory-sim\.$/m);
    assert.match((await api('GET', `/clusters/${envId}/inventory?format=yaml`)).type, /^application\/yaml/);
    assert.equal((await api('GET', `/clusters/${envId}/inventory?format=xml`)).status, 400);
    assert.equal((await api('GET', '/clusters/999999/inventory')).status, 404);
  });

  test('ansible -i (hearth env inventory) all -m ping reaches both hosts, a group only its own, each host key checked against what Hearth recorded', async () => {
    const known = join(dir, 'hearth.known');
    const ini = await hearth(['env', 'inventory', 'inventory-hosts', '--known-hosts', known]);
    assert.equal(ini.code, 0, ini.err);
    assert.match(ini.err, /1 simulated node left out \(nothing to connect to\): inventory-sim/);
    writeFileSync(join(dir, 'hosts.ini'), ini.out);
    assert.equal(readFileSync(known, 'utf8').trim().split('\n').length, 2);

    const all = ansible(dir, 'ansible', ['-i', join(dir, 'hosts.ini'), 'all', '-m', 'ping']);
    assert.equal(all.code, 0, all.out + all.err);
    // Each host's answer: `name | SUCCESS => {`, its lines indented, `"ping": "pong"` among them.
    for (const i of [FIRST, SECOND]) assert.match(all.out, new RegExp(`^${names[i].replace(/\./g, '\\.')} \\| SUCCESS => \\{\\n(?: .*\\n)*? {4}"ping": "pong"\\n\\}$`, 'm'));

    const yaml = await hearth(['env', 'inventory', String(envId), '--format', 'yaml', '--known-hosts', known]);
    assert.equal(yaml.code, 0, yaml.err);
    writeFileSync(join(dir, 'hosts.yaml'), yaml.out);
    const controller = ansible(dir, 'ansible', ['-i', join(dir, 'hosts.yaml'), 'controller', '-m', 'ping']);
    assert.equal(controller.code, 0, controller.out + controller.err);
    assert.match(controller.out, new RegExp(`^${names[FIRST].replace(/\./g, '\\.')} \\| SUCCESS`, 'm'));
    assert.doesNotMatch(controller.out, new RegExp(names[SECOND].replace(/\./g, '\\.')));

    // The JSON form as an inventory script, the way operators point Ansible at Hearth.
    const json = await hearth(['env', 'inventory', 'inventory-hosts', '--format', 'json', '--known-hosts', known]);
    assert.equal(json.code, 0, json.err);
    writeFileSync(join(dir, 'inventory.json'), json.out);
    writeFileSync(join(dir, 'inventory.sh'), `#!/bin/sh\ncat '${join(dir, 'inventory.json')}'\n`);
    chmodSync(join(dir, 'inventory.sh'), 0o755);
    const compute = ansible(dir, 'ansible', ['-i', join(dir, 'inventory.sh'), 'compute', '-m', 'ping']);
    assert.equal(compute.code, 0, compute.out + compute.err);
    assert.match(compute.out, new RegExp(`^${names[SECOND].replace(/\./g, '\\.')} \\| SUCCESS`, 'm'));

    // Host keys are checked: with a known_hosts file that trusts no key, Ansible does not log in
    // (on new connections: the ones kept open from above were checked when they were made).
    writeFileSync(known, '');
    const refused = ansible(dir, 'ansible', ['-i', join(dir, 'hosts.ini'), 'all', '-m', 'ping'], 'ansible-cp-new');
    assert.notEqual(refused.code, 0, refused.out);
    assert.match(refused.out + refused.err, /UNREACHABLE[\s\S]*Host key verification failed/);
  });
});
