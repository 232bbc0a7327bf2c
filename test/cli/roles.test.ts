/**
 * `hearth role list|show|add|change|delete` through the built bin against a real `hearth serve`: a
 * role written in a YAML file is added to a release and to one environment, listed, taken by a node,
 * changed, refused while held and deleted; any role is shown as the YAML add takes back; bad files are refused with the file, line and column
 * (syntax, not a mapping, a key missing, a field the server's schema refuses), a missing file is bad
 * usage, and nothing is added by a refused request.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiOf, cliOf, startServer, type RunningServer } from '../support/serve.js';

const GATEWAY = `name: storage-gw
meta:
  name: Storage gateway
  description: Serves S3 in front of Ceph.
  tags: [storage-gw]
  conflicts: [compute]
volumes_roles_mapping:
  - {id: os, allocate_size: min}
`;

describe('hearth role (the built bin)', { timeout: 180_000 }, () => {
  let server: RunningServer;
  let release: string;
  let dir: string;
  const hearth = cliOf(() => server);
  const api = apiOf(() => server);
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const roleNames = async (path: string) => (await api<Array<{ name: string }>>('GET', path)).map((r) => r.name);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-roles-'));
    server = await startServer();
    release = (await api<Array<{ id: string }>>('GET', '/releases'))[0].id;
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a role of a release: added from a file, listed, taken by a node, changed, refused while held, deleted', async () => {
    const role = file('gateway.yaml', GATEWAY);
    const added = hearth('role', 'add', role, '--release', release);
    assert.equal(added.code, 0, added.err);
    assert.match(added.out, new RegExp(`^added role storage-gw to release ${release.replace(/[.]/g, '\\.')}$`, 'm'));

    // Listed among the release's own roles, in the table and as JSON (the API's answer).
    const list = hearth('role', 'list', '--release', release);
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^role +label +source +description$/m);
    assert.match(list.out, /^controller +Controller +release /m);
    assert.match(list.out, /^storage-gw +Storage gateway +release +Serves S3 in front of Ceph\.$/m);
    const json = hearth('role', 'list', '--release', release, '--json');
    assert.deepEqual(JSON.parse(json.out), await api('GET', `/releases/${encodeURIComponent(release)}/roles`));

    // Added twice: refused, with the command that changes it.
    const again = hearth('role', 'add', role, '--release', release);
    assert.equal(again.code, 1);
    assert.match(again.err, /role\/exists: .*storage-gw already/);
    assert.match(again.err, new RegExp(`hint: change it with: hearth role change ${role.replace(/[.]/g, '\\.')} --release`));

    // An environment on the release offers it; a node takes it.
    const catalog = await api<Array<{ name: string; default?: boolean }>>('GET', `/releases/${encodeURIComponent(release)}/components`);
    const env = await api<{ id: number }>('POST', '/clusters', { name: 'roles-cli', release_id: release, components: catalog.filter((c) => c.default).map((c) => c.name) });
    assert.ok((await roleNames(`/clusters/${env.id}/roles`)).includes('storage-gw'));
    const { ids } = await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 1, prefix: 'gw' } });
    await api('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: ids[0], roles: ['storage-gw'] }] });

    // Changed from the same file edited: the new description is what the release shows.
    const changed = hearth('role', 'change', file('gateway.yaml', GATEWAY.replace('Serves S3', 'Serves S3 and Swift')), '--release', release);
    assert.equal(changed.code, 0, changed.err);
    const shown = (await api<Array<{ name: string; description?: string }>>('GET', `/releases/${encodeURIComponent(release)}/roles`)).find((r) => r.name === 'storage-gw');
    assert.equal(shown?.description, 'Serves S3 and Swift in front of Ceph.');

    // Held by the node: not deleted, the node named.
    const held = hearth('role', 'delete', 'storage-gw', '--release', release);
    assert.equal(held.code, 1);
    assert.match(held.err, /role\/in-use: role storage-gw is held by node gw-\S+/);
    assert.ok((await roleNames(`/releases/${encodeURIComponent(release)}/roles`)).includes('storage-gw'));

    // Once the node leaves it, deleted; a role of the release itself is not the API's to delete.
    await api('POST', `/clusters/${env.id}/nodes/unassign`, { node_ids: [ids[0]] });
    const deleted = hearth('role', 'delete', 'storage-gw', '--release', release);
    assert.equal(deleted.code, 0, deleted.err);
    assert.ok(!(await roleNames(`/releases/${encodeURIComponent(release)}/roles`)).includes('storage-gw'));
    const own = hearth('role', 'delete', 'controller', '--release', release);
    assert.equal(own.code, 1);
    assert.match(own.err, /role\/not-custom: role controller of release .* comes from its release or a plugin/);
    const none = hearth('role', 'delete', 'no-such-role', '--release', release);
    assert.equal(none.code, 1);
    assert.match(none.err, /role\/not-found: .*no role 'no-such-role' added through the API/);
    assert.match(none.err, /hint: only roles added with hearth role add are deleted; hearth role list --release/);
  });

  test('role show: any role as YAML, the file add takes back; --json as the API answers; an unknown role named with the roles there', async () => {
    const shown = hearth('role', 'show', 'compute', '--release', release);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^name: compute$/m);
    assert.match(shown.out, /^volumes_roles_mapping:$/m);
    const json = hearth('role', 'show', 'compute', '--release', release, '--json');
    const answer = await api<{ name: string; meta: { name: string; tags: string[] }; volumes_roles_mapping: unknown[] }>('GET', `/releases/${encodeURIComponent(release)}/roles/compute`);
    assert.deepEqual(JSON.parse(json.out), answer);
    assert.equal(answer.meta.name, 'Compute');
    assert.ok(answer.volumes_roles_mapping.length > 0);

    // Read, edited (a new name and its own tag), added back: the copy has the original's meta and volumes.
    const copy = file('compute-copy.yaml', shown.out.replace(/^name: compute$/m, 'name: compute-copy').replace(/^(\s+)- compute$/m, '$1- compute-copy'));
    const added = hearth('role', 'add', copy, '--release', release);
    assert.equal(added.code, 0, added.err);
    const back = await api<typeof answer>('GET', `/releases/${encodeURIComponent(release)}/roles/compute-copy`);
    assert.deepEqual(back, { ...answer, name: 'compute-copy', meta: { ...answer.meta, tags: ['compute-copy'] } });
    assert.equal(hearth('role', 'delete', 'compute-copy', '--release', release).code, 0);

    const unknown = hearth('role', 'show', 'no-such-role', '--release', release);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /role\/not-found: release .* has no role 'no-such-role'/);
    assert.match(unknown.err, /hint: its roles: .*compute.*controller/);
    const badFormat = hearth('role', 'show', 'compute', '--release', release, '-f', 'xml');
    assert.equal(badFormat.code, 2);
  });

  test('a role of one environment, by name: offered there and not on the release', async () => {
    const catalog = await api<Array<{ name: string; default?: boolean }>>('GET', `/releases/${encodeURIComponent(release)}/components`);
    await api('POST', '/clusters', { name: 'roles-one', release_id: release, components: catalog.filter((c) => c.default).map((c) => c.name) });
    const envs = await api<Array<{ id: number; name: string }>>('GET', '/clusters');
    const env = envs.find((e) => e.name === 'roles-one')!;
    const added = hearth('role', 'add', file('edge.json', JSON.stringify({ name: 'edge', meta: { name: 'Edge', description: 'An edge router.', tags: ['edge'] }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'all' }] })), '--env', 'roles-one');
    assert.equal(added.code, 0, added.err);
    assert.match(added.out, /^added role edge to environment roles-one$/m);
    assert.ok((await roleNames(`/clusters/${env.id}/roles`)).includes('edge'));
    assert.ok(!(await roleNames(`/releases/${encodeURIComponent(release)}/roles`)).includes('edge'), 'the release does not offer it');
    const listed = hearth('role', 'list', '--env', 'roles-one');
    assert.match(listed.out, /^edge +Edge /m);
    assert.deepEqual(JSON.parse(hearth('role', 'show', 'edge', '--env', 'roles-one', '--json').out), { name: 'edge', meta: { name: 'Edge', description: 'An edge router.', tags: ['edge'] }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'all' }] });
    assert.equal(hearth('role', 'show', 'edge', '--release', release).code, 1, 'not a role of the release');
    const deleted = hearth('role', 'delete', 'edge', '--env', String(env.id));
    assert.equal(deleted.code, 0, deleted.err);
    assert.ok(!(await roleNames(`/clusters/${env.id}/roles`)).includes('edge'));
  });

  test('bad files and bad usage: the file, line and column, what to do; nothing added', async () => {
    const before = await roleNames(`/releases/${encodeURIComponent(release)}/roles`);

    const syntax = file('syntax.yaml', 'name: [x\n');
    const r1 = hearth('role', 'add', syntax, '--release', release);
    assert.equal(r1.code, 1);
    assert.match(r1.err, new RegExp(`^${syntax.replace(/[.]/g, '\\.')}:\\d+:\\d+: error: .*\\[yaml/syntax\\]`, 'm'));

    const list = file('list.yaml', '- storage-gw\n');
    const r2 = hearth('role', 'add', list, '--release', release);
    assert.equal(r2.code, 1);
    assert.match(r2.err, /list\.yaml:1:1: error: a role file is a mapping of name, meta and volumes_roles_mapping \[role\/not-a-mapping\]/);

    const partial = file('partial.yaml', 'name: half\nmeta: {name: Half, description: d, tags: [half]}\n');
    const r3 = hearth('role', 'add', partial, '--release', release);
    assert.equal(r3.code, 1);
    assert.match(r3.err, /partial\.yaml:1:1: error: the role file has no volumes_roles_mapping \[role\/missing-key\]/);

    // Refused by the server's schema: the field's own line and column in the file.
    const badValue = file('bad-value.yaml', GATEWAY.replace('name: storage-gw', 'name: bad-value').replace('tags: [storage-gw]', 'tags: [bad-value]').replace('allocate_size: min', 'allocate_size: sideways'));
    const r4 = hearth('role', 'add', badValue, '--release', release);
    assert.equal(r4.code, 1);
    assert.match(r4.err, /bad-value\.yaml:8:\d+: error: volumes_roles_mapping\.0\.allocate_size: must be equal to one of the allowed values \(all, min, full-disk\) \[role\/refused\]/);
    const noDescription = file('no-description.yaml', GATEWAY.replace('name: storage-gw', 'name: terse').replace('tags: [storage-gw]', 'tags: [terse]').replace('  description: Serves S3 in front of Ceph.\n', ''));
    const r5 = hearth('role', 'add', noDescription, '--release', release);
    assert.equal(r5.code, 1);
    assert.match(r5.err, /no-description\.yaml:3:3: error: meta\.description: must have required property 'description'/);
    // A tag the release does not define: the server's own check, said as it says it.
    const r6 = hearth('role', 'add', file('tag.yaml', GATEWAY.replace('name: storage-gw', 'name: tagged').replace('tags: [storage-gw]', 'tags: [no-such-tag]')), '--release', release);
    assert.equal(r6.code, 1);
    assert.match(r6.err, /role\/unknown-tag: .*no-such-tag/);

    // Bad usage: exit status 2.
    const missing = hearth('role', 'add', join(dir, 'absent.yaml'), '--release', release);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /absent\.yaml:1:1: error: the file '.*absent\.yaml' does not exist \[file\/missing\]/);
    const nowhere = hearth('role', 'add', file('ok.yaml', GATEWAY));
    assert.equal(nowhere.code, 2);
    assert.match(nowhere.err, /say where the role is: --release <id> .* or --env <env>/);
    const both = hearth('role', 'list', '--release', release, '--env', 'x');
    assert.equal(both.code, 2);
    assert.match(both.err, /say --release or --env, not both/);
    const noEnv = hearth('role', 'list', '--env', 'no-such-env');
    assert.equal(noEnv.code, 1);
    assert.match(noEnv.err, /there is no environment named 'no-such-env'/);

    assert.deepEqual(await roleNames(`/releases/${encodeURIComponent(release)}/roles`), before, 'nothing was added');
  });
});
