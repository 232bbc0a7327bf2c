/**
 * Multi-release packages (plugins-v5) over real plugin folders: variant 1 (records with
 * os-version / fuel-version constraints sharing an id form one group, the best fit for the release
 * is used) and variants 2 and 3 (a release record's own `*_path` files and `conf_path` folder), as
 * `plugin validate`, `release show` and `graph` see them. Mitaka is Hearth's bundled release (it
 * keeps Fuel 9.0's surface); Newton is Fuel's own fixture from the corpus.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/core/findings.js';
import { composeFromDisk } from '../../src/package/release/compose.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { perReleaseFilesPlugin, variantOnePlugin } from '../support/multi-release.js';

const bundled = join(import.meta.dirname, '..', '..', 'release');
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const newton = () => ({ release: corpusPath('release/fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), tasks: corpusPath('release/fuel-library'), releaseVersion: 'newton-10.0' });

const v1 = variantOnePlugin();
const v23 = perReleaseFilesPlugin();
after(() => {
  v1.remove();
  v23.remove();
});

const codes = (findings: readonly Finding[]) => findings.map((f) => f.code);
const problems = (findings: readonly Finding[]) => findings.filter((f) => f.severity !== 'info' && !f.code.startsWith('yaml/') && f.code !== 'task/dynamic-cross-dependency');

function compose(release: { release: string; tasks?: string; releaseVersion?: string }, plugin: string) {
  const { composition, findings } = composeFromDisk({ ...release, plugin: [plugin] });
  assert.ok(composition, findings.map((f) => f.message).join('\n'));
  const c = composition.composed;
  const ours = (id: string) => c.graphs.default.tasks.filter((t) => t.id === id);
  return { c, findings, ours, components: c.components.filter((x) => x.plugin).map((x) => x.name) };
}

/** `hearth graph --format json` through the real CLI: its exit status and the tasks each node runs. */
function graph(args: string[]): { status: number | null; stderr: string; nodes: Array<{ id: string; roles: string[]; tasks: Array<{ id: string }> }> } {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main, 'graph', ...args, '--format', 'json'], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr, nodes: r.stdout ? JSON.parse(r.stdout).nodes : [] };
}

test('variant 1: the design example validates with no duplicate-id, and the legacy record is named as fitting no listed release', () => {
  const result = validatePlugin(v1.path);
  assert.equal(result.valid, true, JSON.stringify(result.findings, null, 1));
  assert.equal(codes(result.findings).includes('task/duplicate-id'), false);
  const unfit = result.findings.filter((f) => f.code === 'version/fits-no-release');
  assert.deepEqual(unfit.map((f) => `${f.file}:${f.line}`).sort(), ['deployment_tasks.yaml:7', 'network_roles.yaml:4']);
});

test("variant 1 checks: constraints of roles and disk layouts must parse; a release record's own file is held to its release", () => {
  const bad = variantOnePlugin({
    'node_roles.yaml': 'mr_role:\n  name: R\n  description: R\n  fuel-version: "~9"\n',
    'volumes.yaml': 'volumes: []\nvolumes_roles_mapping:\n  mr_role:\n    - {id: os, allocate_size: min, os-version: ">=kilo-"}\n',
    'mitaka/components.yaml': '- name: additional_service:mr-own\n  label: Own\n  fuel-version: ">=10"\n',
    'metadata.yaml': readFileSync(join(v1.path, 'metadata.yaml'), 'utf8').replace('repository_path: repositories/ubuntu\n', 'repository_path: repositories/ubuntu\n    components_path: mitaka/components.yaml\n'),
  });
  try {
    const result = validatePlugin(bad.path);
    const at = (code: string) => result.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.line}`).sort();
    assert.deepEqual(at('version/bad-constraint'), ['node_roles.yaml:4', 'volumes.yaml:4']);
    const own = result.findings.find((f) => f.code === 'version/fits-no-release' && /mr-own/.test(f.message));
    assert.match(own?.message ?? '', /the release that reads it \(mitaka-9\.0\) does not meet/);
    assert.equal(result.valid, false);
  } finally {
    bad.remove();
  }
});

test('variant 1 on Mitaka (Fuel 9.0): one my-task, the Fuel 9 record; Newton-only records left out with a note', () => {
  const { c, findings, ours, components } = compose({ release: bundled }, v1.path);
  assert.deepEqual(problems(findings), []);
  assert.deepEqual(ours('my-task').map((t) => t.parameters?.puppet_manifest), ['deploy_10.pp']);
  assert.equal(ours('my-task')[0].osVersion, undefined, 'constraints are dropped once the record is chosen');
  assert.equal(ours('plain-task').length, 1);
  assert.equal(ours('newton-only').length, 0);
  assert.deepEqual(components, ['additional_service:mr-mitaka']);
  assert.equal('newton_role' in c.roles_metadata, false);
  assert.equal('mr_role' in c.roles_metadata, true);
  assert.deepEqual(c.volumes_metadata.volumes_roles_mapping.mr_role, [{ id: 'os', allocate_size: 'min' }]);
  assert.equal('newton_role' in c.volumes_metadata.volumes_roles_mapping, false);
  assert.deepEqual(c.network_roles_metadata.filter((r) => String(r.id).startsWith('mr/')).map((r) => r.id), ['mr/api']);
  const notes = findings.filter((f) => f.code.endsWith('/no-fit-for-release'));
  assert.deepEqual(notes.map((f) => f.code).sort(), ['component/no-fit-for-release', 'network-role/no-fit-for-release', 'role/no-fit-for-release', 'task/no-fit-for-release']);
  assert.ok(notes.every((f) => f.severity === 'info' && /mitaka-9\.0/.test(f.message)), JSON.stringify(notes));
});

test("variant 1 on Fuel's own mitaka-9.0 release: the same choice as on Hearth's release, composition clean", needsCorpus, () => {
  const mitaka = { release: corpusPath('release/mitaka-eol/fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), tasks: corpusPath('release/mitaka-eol/fuel-library'), releaseVersion: 'mitaka-9.0' };
  const { findings, ours, components } = compose(mitaka, v1.path);
  assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
  assert.equal(codes(findings).includes('task/duplicate-id'), false);
  assert.deepEqual(ours('my-task').map((t) => t.parameters?.puppet_manifest), ['deploy_10.pp']);
  assert.deepEqual(components, ['additional_service:mr-mitaka']);
});

test('variant 1 on Newton (Fuel 10.0): the Fuel 10 record of each group wins', needsCorpus, () => {
  const { c, findings, ours, components } = compose(newton(), v1.path);
  assert.deepEqual(problems(findings).filter((f) => f.file?.includes('hearth-mr1-') || /multi_version/.test(f.message)), []);
  assert.deepEqual(ours('my-task').map((t) => t.parameters?.puppet_manifest), ['deploy_newton.pp']);
  assert.equal(ours('newton-only').length, 1);
  assert.deepEqual(components, ['additional_service:mr-newton']);
  assert.equal('newton_role' in c.roles_metadata, true);
  assert.deepEqual(c.volumes_metadata.volumes_roles_mapping.mr_role, [{ id: 'os', allocate_size: 'all' }]);
});

test('variant 1 in the graph: the one chosen my-task runs on the role node', () => {
  const r = graph(['--release', bundled, '--plugin', v1.path, '--nodes', 'controller:1,mr_role:1']);
  assert.equal(r.status, 0, r.stderr);
  const node = r.nodes.find((n) => n.roles.includes('mr_role'));
  assert.ok(node);
  assert.deepEqual(node.tasks.map((t) => t.id).filter((id) => ['my-task', 'plain-task', 'newton-only'].includes(id)).sort(), ['my-task', 'plain-task']);
});

test('release show names what a release leaves out, with the file and line of each record', () => {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main, 'release', 'show', '--release', bundled, '--plugin', v1.path], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const section = r.stdout.split('Left out for this release (4):\n')[1]?.split('\n\n')[0] ?? '';
  assert.deepEqual(
    section.split('\n').map((line) => /no version of [a-z -]+ '([^']+)'/.exec(line)?.[1]).sort(),
    ['additional_service:mr-newton', 'mr/legacy', 'newton-only', 'newton_role'],
    r.stdout,
  );
  assert.match(section, /deployment_tasks\.yaml:\d+: plugin multi_version-1\.0\.0, graph 'default': no version of task 'newton-only' fits release mitaka-9\.0/);
});

test('variants 2 and 3: each release gets its own files, the rest from the plugin root', needsCorpus, () => {
  assert.equal(validatePlugin(v23.path).valid, true);
  const mitaka = compose({ release: bundled }, v23.path);
  assert.deepEqual(problems(mitaka.findings), []);
  assert.deepEqual(['root-task', 'mitaka-task', 'newton-task'].filter((id) => mitaka.ours(id).length), ['mitaka-task']);
  assert.equal(mitaka.c.roles_metadata.pr_role.name, 'Role for Mitaka');
  assert.deepEqual(mitaka.c.volumes_metadata.volumes_roles_mapping.pr_role, [{ id: 'os', allocate_size: 'all' }]);
  const prNetworks = (c: typeof mitaka.c) => c.network_roles_metadata.filter((r) => String(r.id).startsWith('pr/')).map((r) => r.id);
  assert.deepEqual(prNetworks(mitaka.c), ['pr/mitaka']);
  assert.deepEqual(mitaka.components, ['additional_service:pr-root']);
  const level = (c: typeof mitaka.c) => ((c.attributes_metadata.editable as Record<string, Record<string, { value: unknown }>>).per_release.level.value);
  assert.equal(level(mitaka.c), 'root');

  const onNewton = compose(newton(), v23.path);
  assert.deepEqual(['root-task', 'mitaka-task', 'newton-task'].filter((id) => onNewton.ours(id).length), ['newton-task']);
  assert.equal(onNewton.c.roles_metadata.pr_role.name, 'Role from the plugin root');
  assert.deepEqual(onNewton.c.volumes_metadata.volumes_roles_mapping.pr_role, [{ id: 'os', allocate_size: 'min' }]);
  assert.deepEqual(prNetworks(onNewton.c), []);
  assert.deepEqual(onNewton.components, ['additional_service:pr-newton']);
  assert.equal(level(onNewton.c), 'newton');
});

test('variants 2 and 3 in the graph: the Mitaka role node runs the Mitaka task only', () => {
  const r = graph(['--release', bundled, '--plugin', v23.path, '--nodes', 'controller:1,pr_role:1']);
  assert.equal(r.status, 0, r.stderr);
  const node = r.nodes.find((n) => n.roles.includes('pr_role'));
  assert.deepEqual(node?.tasks.map((t) => t.id).filter((id) => id.endsWith('-task')), ['mitaka-task']);
});
