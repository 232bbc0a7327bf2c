/**
 * `hearth env upgrade` through the built bin against a real `hearth serve` (issue 28 item 15): a
 * refusal exits non-zero with every thing that no longer fits, one line each, and changes nothing;
 * `--drop-unfit` moves the environment and prints what was left behind; `--json` is the API answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newerRelease } from '../support/release-copy.js';
import { apiOf, cliOf, startServer, type RunningServer } from '../support/serve.js';

interface Cluster {
  id: number;
  name: string;
  release_id: string;
  components: string[];
}

describe('hearth env upgrade (the built bin)', { timeout: 240_000 }, () => {
  let server: RunningServer;
  let oldRelease: string;
  let newRelease: string;
  let nodes: number[];
  const hearth = cliOf(() => server);
  const api = apiOf(() => server);
  const up = async () => (await api<Cluster[]>('GET', '/clusters')).find((c) => c.name === 'up')!;

  before(async () => {
    server = await startServer();
    oldRelease = (await api<Array<{ id: string }>>('GET', '/releases'))[0].id;
    await api('POST', '/plugins/folders', { path: newerRelease() });
    newRelease = (await api<Array<{ id: string; version: string }>>('GET', '/releases')).find((r) => r.version === '2026.1-1.1')!.id;
    const env = await api<Cluster>('POST', '/clusters', { name: 'up', release_id: oldRelease, components: ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm', 'additional_service:octavia'] });
    await api('PUT', `/clusters/${env.id}/attributes`, { editable: { syslog: { syslog_port: { value: '1514' } }, common: { debug: { value: true } } } });
    nodes = (await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 2, prefix: 'up' } })).ids;
    await api('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['controller'] }, { node_id: nodes[1], roles: ['base-os'] }] });
  });
  after(async () => {
    await server?.stop();
  });

  test('refused: exit status 1, every unfit thing on a line of its own, nothing changed', async () => {
    const before = await up();
    const r = hearth('env', 'upgrade', 'up', '--release', newRelease);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /^hearth: cluster\/upgrade-unfit: environment 'up' cannot move to release 'hearth-openstack@2026\.1-1\.1' as it is: 3 things no longer fit/m);
    assert.match(r.err, /^ {2}component additional_service:octavia: the release has no such component$/m);
    assert.match(r.err, /^ {2}role base-os: .*\(nodes: up-\d+\)$/m);
    assert.match(r.err, /^ {2}setting syslog\.syslog_port: the release has no such setting$/m);
    assert.match(r.err, /^ {2}hint: .*--drop-unfit/m);
    assert.deepEqual(await up(), before);
  });

  test('--drop-unfit moves it and prints what was left behind; --json is the API answer', async () => {
    const r = hearth('env', 'upgrade', 'up', '--release', newRelease, '--drop-unfit');
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, new RegExp(`^moved up from release ${oldRelease} to ${newRelease}$`, 'm'));
    assert.match(r.out, /^left behind:\n {2}component additional_service:octavia: the release has no such component\n {2}setting syslog\.syslog_port: the release has no such setting\n {2}role base-os: .* \(nodes: up-\d+\)$/m);
    const env = await up();
    assert.equal(env.release_id, newRelease);
    assert.equal(env.components.includes('additional_service:octavia'), false);

    const again = hearth('env', 'upgrade', 'up', '--release', newRelease, '--json');
    assert.equal(again.code, 0, again.err);
    const body = JSON.parse(again.out);
    assert.equal(body.release_id, newRelease);
    assert.deepEqual(body.dropped, []);
    assert.match(hearth('env', 'upgrade', 'up', '--release', newRelease).out, /^up is already on release /m);
  });

  test('an unknown release and a missing --release are refused', () => {
    const unknown = hearth('env', 'upgrade', 'up', '--release', 'nope@1');
    assert.equal(unknown.code, 1, unknown.out + unknown.err);
    assert.match(unknown.err, /cluster\/unknown-release: there is no release 'nope@1'/);
    const missing = hearth('env', 'upgrade', 'up');
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /--release/);
  });
});
