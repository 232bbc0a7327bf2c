/**
 * `hearth node disks` through the built bin against a real `hearth serve` (issue 26): a simulated
 * compute node's disks shown with sizes in binary units (formatMiB, as the web UI prints them),
 * `--json` in the API's shape, a size set with `--set` and read back, refusals (a volume the node's
 * roles do not bring, a size larger than its disk) said clearly with a non-zero status and nothing
 * saved, and `--defaults` back to the default layout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatMiB } from '../../src/core/text/sizes.js';
import { apiOf, cliOf, startServer, type RunningServer } from '../support/serve.js';

interface Disk {
  id: string;
  name: string;
  size: number;
  disk_size: number;
  in_use: boolean;
  volumes: Array<{ name: string; size: number }>;
}

const sizeOn = (disks: Disk[], disk: string, volume: string) => disks.find((d) => d.name === disk)?.volumes.find((v) => v.name === volume)?.size ?? 0;

describe('hearth node disks (the built bin)', { timeout: 180_000 }, () => {
  let server: RunningServer;
  let node: number;
  const hearth = cliOf(() => server);
  const api = apiOf(() => server);

  before(async () => {
    server = await startServer();
    const [release] = await api<Array<{ id: number }>>('GET', '/releases');
    const catalog = await api<Array<{ name: string; default?: boolean }>>('GET', `/releases/${release.id}/components`);
    const env = await api<{ id: number }>('POST', '/clusters', { name: 'disks-cli', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) });
    // Two disks, as a compute with a small system disk and a large one for its instances.
    const { ids } = await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 1, prefix: 'disky', hardware: { cpus: 4, memory_gb: 16, disks_gb: [100, 500] } } });
    node = ids[0];
    await api('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] });
  });
  after(async () => {
    await server?.stop();
  });

  test('show, --json, --set and read back, refusals, --defaults', async () => {
    const defaults = await api<Disk[]>('GET', `/nodes/${node}/disks`);
    const name = (await api<Array<{ id: number; name: string }>>('GET', '/nodes')).find((n) => n.id === node)!.name;

    // --json: exactly what the API answers.
    const json = hearth('node', 'disks', String(node), '--json');
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), defaults);

    // The table, by name: each disk's whole size and each volume's size as formatMiB prints them.
    const shown = hearth('node', 'disks', name);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^disk +size +state +volumes +id$/m);
    assert.match(shown.out, /^sda +100 GiB +free +.*$/m);
    assert.match(shown.out, /^sdb +500 GiB +free +.*$/m);
    for (const d of defaults) {
      const line = shown.out.split('\n').find((l) => l.startsWith(`${d.name} `))!;
      for (const v of d.volumes.filter((x) => x.size > 0)) assert.ok(line.includes(`${v.name} ${formatMiB(v.size)}`), `${d.name} shows ${v.name} ${formatMiB(v.size)}: ${line}`);
    }
    assert.match(shown.out, /default layout \(follows the roles\)/);
    assert.ok(sizeOn(defaults, 'sdb', 'vm') > 0, 'the instances volume is on the large disk');

    // --set: the instances volume made 200 GiB on sdb, saved, and read back from the server.
    const set = hearth('node', 'disks', String(node), '--set', 'vm=200G@sdb');
    assert.equal(set.code, 0, set.err + set.out);
    assert.match(set.out, /^sdb +500 GiB +free +.*vm 200 GiB/m);
    const after = await api<Disk[]>('GET', `/nodes/${node}/disks`);
    assert.equal(sizeOn(after, 'sdb', 'vm'), 200 * 1024);
    const again = hearth('node', 'disks', String(node));
    assert.match(again.out, /vm 200 GiB/);
    assert.match(again.out, /layout saved \d{4}-/);
    const check = await api<{ saved: boolean }>('GET', `/nodes/${node}/disks/check`);
    assert.equal(check.saved, true);

    // Refused: a volume the compute role does not bring, said with the server's reason and a non-zero status; nothing saved.
    const unknown = hearth('node', 'disks', String(node), '--set', 'mongo=10G@sdb');
    assert.equal(unknown.code, 1, unknown.out);
    assert.match(unknown.err, /node\/disks-refused: this layout cannot be saved for node 'disky/);
    assert.match(unknown.err, /disks\/unknown-volume: disk 'sdb': 'mongo' is not a volume of this node's roles \(its volumes: [^)]*vm/);
    assert.match(unknown.err, /hint: use the names/);
    assert.doesNotMatch(unknown.err, /at .*\.js:\d+/, 'no stack trace');

    // Refused: more than the disk holds.
    const big = hearth('node', 'disks', String(node), '--set', 'vm=600G@sdb');
    assert.equal(big.code, 1, big.out);
    assert.match(big.err, /node\/disks-refused: this layout cannot be saved/);
    assert.match(big.err, /disks\/disk-overfull: disk 'sdb' is given [\d.]+ [MG]iB of volumes but has [\d.]+ [MG]iB for them[^\n]*\n\s+hint: make its volumes add up to [\d.]+ [MG]iB or less/);
    assert.deepEqual(await api<Disk[]>('GET', `/nodes/${node}/disks`), after, 'a refused layout leaves the saved one as it was');

    // Bad usage: not a size, a disk the node lacks.
    const notSize = hearth('node', 'disks', String(node), '--set', 'vm=lots@sdb');
    assert.equal(notSize.code, 2);
    assert.match(notSize.err, /'lots' is not a size/);
    const noDisk = hearth('node', 'disks', String(node), '--set', 'vm=10G@sdz');
    assert.equal(noDisk.code, 2);
    assert.match(noDisk.err, /the node has no disk 'sdz' \(its disks: sda, sdb\)/);

    // --defaults: the saved layout forgotten, the default one shown again.
    const reset = hearth('node', 'disks', String(node), '--defaults');
    assert.equal(reset.code, 0, reset.err);
    assert.match(reset.out, /default layout \(follows the roles\)/);
    assert.deepEqual(await api<Disk[]>('GET', `/nodes/${node}/disks`), defaults);
    assert.equal((await api<{ saved: boolean }>('GET', `/nodes/${node}/disks/check`)).saved, false);
  });
});
