/**
 * A node's disks and volumes through the HTTP API (issue 26), on every storage engine: Fuel's
 * shapes (GET /nodes/{id}/disks, /disks/defaults, /volumes), the operator's sizes saved and
 * checked disk by disk, kept across a role change where they still fit, and a deployment refused
 * per node, in Fuel's words, when a volume is below its minimum.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

interface Disk {
  id: string;
  name: string;
  size: number;
  disk_size: number;
  in_use: boolean;
  volumes: Array<{ name: string; size: number }>;
}

const placed = (disks: Disk[]) => disks.flatMap((d) => d.volumes.filter((v) => v.size > 0).map((v) => `${v.name}@${d.name}`)).sort();
const sizeOf = (disks: Disk[], volume: string) => disks.reduce((sum, d) => sum + d.volumes.filter((v) => v.name === volume).reduce((s, v) => s + v.size, 0), 0);

for (const engine of engines()) {
  describe(`disks API on ${engine.name}`, () => {
    let t: TestApp;
    let env: number;
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    const node = async (name: string, disksGb: number[], roles: string[]) => {
      const [id] = (await api('POST', '/nodes', { nodes: [{ name, hardware: { cpus: 4, memory_gb: 16, disks_gb: disksGb } }] })).json().ids as number[];
      const res = await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: id, roles }] });
      assert.equal(res.statusCode, 200, res.body);
      return id;
    };

    before(async () => {
      t = await testApp(engine);
      const release = (await api('GET', '/releases')).json()[0].id;
      const catalog = (await api('GET', `/releases/${release}/components`)).json() as Array<{ name: string; default?: boolean }>;
      const res = await api('POST', '/clusters', { name: 'disks', release_id: release, components: catalog.filter((c) => c.default).map((c) => c.name) });
      assert.equal(res.statusCode, 201, res.body);
      env = res.json().id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('a compute node\'s disks in Fuel\'s shape: every volume of its roles placed, none beyond a disk\'s size; the defaults are the same until a layout is saved', async () => {
      const id = await node('compute-a', [100, 500], ['compute']);
      const res = await api('GET', `/nodes/${id}/disks`);
      assert.equal(res.statusCode, 200, res.body);
      const disks = res.json() as Disk[];
      assert.deepEqual(disks.map((d) => [d.id, d.name, d.in_use]), [['sda', 'sda', false], ['sdb', 'sdb', false]], 'a simulated node\'s disks are free, as a node Fuel provisions');
      assert.equal(disks[0].disk_size, 100 * 1024);
      for (const d of disks) assert.ok(d.volumes.reduce((s, v) => s + v.size, 0) <= d.size, `${d.name}: volumes fit`);
      for (const v of ['os', 'logs', 'vm']) assert.ok(sizeOf(disks, v) > 0, `${v} has space`);
      assert.deepEqual((await api('GET', `/nodes/${id}/disks/defaults`)).json(), disks);
      const check = (await api('GET', `/nodes/${id}/disks/check`)).json();
      assert.deepEqual(check, { saved: false, saved_at: null, findings: [] });
    });

    test('GET /nodes/{id}/volumes: Fuel\'s {name, label, min_size} for the node\'s roles, with each group\'s logical volumes and mount points', async () => {
      const id = await node('compute-b', [500], ['compute']);
      const volumes = (await api('GET', `/nodes/${id}/volumes`)).json() as Array<{ name: string; label: string; min_size: number; volumes?: Array<{ name: string; mount?: string }> }>;
      assert.deepEqual(volumes.map((v) => v.name).sort(), ['logs', 'os', 'vm']);
      const vm = volumes.find((v) => v.name === 'vm')!;
      assert.equal(vm.label, 'Virtual Storage');
      assert.ok(vm.min_size > 0);
      assert.deepEqual(vm.volumes?.map((lv) => [lv.name, lv.mount]), [['nova', '/var/lib/nova']]);
      const free = (await api('POST', '/nodes', { nodes: [{ name: 'free-node' }] })).json().ids[0];
      assert.deepEqual((await api('GET', `/nodes/${free}/volumes`)).json(), [], 'a node in no environment has no roles, so no volumes');
      assert.equal((await api('GET', '/nodes/999999/disks')).json().code, 'node/not-found');
    });

    test('PUT /nodes/{id}/disks saves the operator\'s sizes; what cannot be is refused disk by disk and nothing is saved', async () => {
      const id = await node('compute-c', [100, 500], ['compute']);
      const disks = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      const body = (change: (d: Array<{ id: string; volumes: Array<{ name: string; size: number }> }>) => void) => {
        const copy = disks.map((d) => ({ id: d.id, volumes: d.volumes.map((v) => ({ ...v })) }));
        change(copy);
        return copy;
      };
      const refusals: Array<[string, unknown, RegExp]> = [
        ['a disk the node does not have', body((d) => d.push({ id: 'sdz', volumes: [] })), /no disk 'sdz'/],
        ['a volume its roles do not bring', body((d) => d[1].volumes.push({ name: 'mysql', size: 1000 })), /mysql/],
        ['more than the disk holds', body((d) => (d[1].volumes.find((v) => v.name === 'vm')!.size = 600 * 1024)), /sdb/],
      ];
      for (const [what, sent, words] of refusals) {
        const res = await api('PUT', `/nodes/${id}/disks`, sent);
        assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
        assert.equal(res.json().code, 'node/disks-refused', what);
        assert.match(JSON.stringify(res.json().details.findings), words, what);
      }
      assert.equal((await api('GET', `/nodes/${id}/disks/check`)).json().saved, false, 'nothing was saved');
      assert.equal((await api('PUT', `/nodes/${id}/disks`, { not: 'disks' })).json().code, 'request/invalid');

      // Take vm off the small disk (the large one holds more than its minimum): saved, and read back as saved.
      const vmOnA = disks[0].volumes.find((v) => v.name === 'vm')?.size ?? 0;
      assert.ok(vmOnA > 0, 'the defaults spread vm over both disks');
      const moved = body((d) => (d[0].volumes.find((v) => v.name === 'vm')!.size = 0));
      const saved = await api('PUT', `/nodes/${id}/disks`, moved);
      assert.equal(saved.statusCode, 200, saved.body);
      const after = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      assert.ok(!placed(after).includes('vm@sda'), placed(after).join(' '));
      assert.equal(sizeOf(after, 'vm'), sizeOf(disks, 'vm') - vmOnA);
      const check = (await api('GET', `/nodes/${id}/disks/check`)).json();
      assert.equal(check.saved, true);

      // Back to the defaults.
      assert.equal((await api('DELETE', `/nodes/${id}/disks`)).statusCode, 204);
      assert.deepEqual((await api('GET', `/nodes/${id}/disks`)).json(), disks);
    });

    test('a volume below its minimum is saved with a warning, and the deployment refuses the node in Fuel\'s words, before anything runs', async () => {
      const id = await node('compute-d', [500], ['compute']);
      const volumes = (await api('GET', `/nodes/${id}/volumes`)).json() as Array<{ name: string; min_size: number }>;
      const min = volumes.find((v) => v.name === 'vm')!.min_size;
      const disks = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      // Fuel counts a volume group's LVM metadata with it: nothing at all is surely below.
      const small = disks.map((d) => ({ id: d.id, volumes: d.volumes.map((v) => (v.name === 'vm' ? { name: 'vm', size: 0 } : v)) }));
      const res = await api('PUT', `/nodes/${id}/disks`, small);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().findings.some((f: { severity: string; message: string }) => f.severity === 'warning' && f.message === `Volume group 'Virtual Storage' requires a minimum of ${min} MB`), res.body);

      const deploy = await api('POST', `/clusters/${env}/deploy`, { dry_run: true });
      assert.equal(deploy.statusCode, 400, deploy.body);
      assert.equal(deploy.json().code, 'deploy/disks-too-small');
      assert.match(deploy.json().message, /compute-d/);
      assert.ok(deploy.json().details.nodes.some((n: { name: string; findings: Array<{ message: string }> }) => n.name === 'compute-d' && n.findings.some((f) => f.message === `Volume group 'Virtual Storage' requires a minimum of ${min} MB`)), deploy.body);
      assert.equal((await api('GET', `/clusters/${env}/deployments`)).json().length, 0, 'nothing ran');
      await api('DELETE', `/nodes/${id}/disks`);
    });

    test('a role change recomputes the defaults; a saved layout is kept where it fits and reported where it does not', async () => {
      const id = await node('node-e', [500], ['compute']);
      const before = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      assert.ok(sizeOf(before, 'vm') > 0);
      // Defaults follow the roles.
      await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: id, roles: ['cinder'] }] });
      const defaults = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      assert.equal(sizeOf(defaults, 'vm'), 0);
      assert.ok(sizeOf(defaults, 'cinder') > 0);
      // A saved layout stays; the volume the new roles no longer bring is reported.
      const saved = defaults.map((d) => ({ id: d.id, volumes: d.volumes.map((v) => ({ name: v.name, size: v.size })) }));
      assert.equal((await api('PUT', `/nodes/${id}/disks`, saved)).statusCode, 200);
      await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: id, roles: ['compute'] }] });
      const check = (await api('GET', `/nodes/${id}/disks/check`)).json();
      assert.equal(check.saved, true);
      assert.ok(check.findings.length > 0, 'the saved layout no longer fits the roles: said so');
      assert.match(JSON.stringify(check.findings), /cinder|vm/);
      await api('DELETE', `/nodes/${id}/disks`);
    });

    test('after a role change, the saved sizes stay on each disk where they still fit; a disk where they do not gets its defaults, and says so', async () => {
      const id = await node('node-f', [100, 500], ['compute']);
      const before = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
      // The operator moves 1 GiB from vm to os on the small disk, and takes vm off the large one.
      const mine = before.map((d) => ({
        id: d.id,
        volumes: d.volumes.map((v) => {
          if (d.name === 'sda' && v.name === 'os') return { name: v.name, size: v.size + 1024 };
          if (d.name === 'sda' && v.name === 'vm') return { name: v.name, size: v.size - 1024 };
          if (d.name === 'sdb' && v.name === 'vm') return { name: v.name, size: 0 };
          return { name: v.name, size: v.size };
        }),
      }));
      assert.equal((await api('PUT', `/nodes/${id}/disks`, mine)).statusCode, 200);
      const layoutAfter = async (roles: string[]) => {
        await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: id, roles }] });
        const defaults = (await api('GET', `/nodes/${id}/disks/defaults`)).json() as Disk[];
        const disks = (await api('GET', `/nodes/${id}/disks`)).json() as Disk[];
        const findings = (await api('GET', `/nodes/${id}/disks/check`)).json().findings as Array<{ code: string; disk?: string; message: string }>;
        const kept: string[] = [];
        for (const d of disks) {
          const saved = mine.find((m) => m.id === d.id)!;
          const own = defaults.find((x) => x.id === d.id)!;
          if (saved.volumes.every((v) => d.volumes.find((x) => x.name === v.name)?.size === v.size)) {
            kept.push(d.name);
            // A volume the saved layout did not have comes at its default beside the saved ones.
            for (const v of d.volumes.filter((x) => !saved.volumes.some((s) => s.name === x.name))) assert.equal(v.size, own.volumes.find((x) => x.name === v.name)!.size, `${d.name}: ${v.name}`);
            assert.ok(!findings.some((f) => f.disk === d.id), `${d.name} keeps the saved sizes: nothing to report (${JSON.stringify(findings)})`);
          } else {
            assert.deepEqual(d.volumes, own.volumes, `${d.name}: where the saved sizes no longer fit, the defaults`);
            const said = findings.find((f) => f.disk === d.id);
            assert.ok(said, `${d.name}: reported (${JSON.stringify(findings)})`);
            assert.equal(said.code, 'disks/disk-overfull');
            assert.match(said.message, new RegExp(`^disk '${d.name}' is given [\\d.]+ GiB of volumes but has [\\d.]+ GiB for them: it keeps its default layout$`), 'sizes said in binary units');
          }
        }
        return { disks, defaults, kept };
      };
      // A role that brings a volume of its own: the defaults change and the saved sizes are laid over them.
      const both = await layoutAfter(['compute', 'cinder']);
      assert.ok(sizeOf(both.defaults, 'cinder') > 0, 'the new role\'s volume is in the defaults');
      assert.deepEqual(both.kept, ['sdb'], 'the large disk keeps vm at 0 and takes cinder beside it; the small one, full with the saved os and vm, cannot take cinder too');
      assert.ok(sizeOf(both.disks, 'cinder') > 0);
      // Back to compute: the saved layout fits again, on both disks.
      const back = await layoutAfter(['compute']);
      assert.deepEqual(back.kept, ['sda', 'sdb']);
      assert.equal(back.disks[0].volumes.find((v) => v.name === 'os')!.size, before[0].volumes.find((v) => v.name === 'os')!.size + 1024);
      await api('DELETE', `/nodes/${id}/disks`);
    });
  });
}
