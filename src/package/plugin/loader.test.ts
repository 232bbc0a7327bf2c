import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { deepOverride, loadPlugin, mergeGlobRoots } from './index.js';
import { positionOf } from '../../core/positions.js';

function makePlugin(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-loader-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const V5 = (releases: string) => `name: demo\nversion: '1.0.0'\npackage_version: '5.0.0'\nreleases:\n${releases}`;
const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

test('reads metadata and the top-level files, keeping positions', () => {
  const root = makePlugin({
    'metadata.yaml': "name: demo\nversion: '1.0.0'\npackage_version: '4.0.0'\nreleases: []\n",
    'node_roles.yaml': 'demo:\n  name: Demo\n  description: x\n',
    'environment_config.yaml': '',
  });
  try {
    const r = loadPlugin(root);
    assert.equal(r.plugin?.packageVersion, '4.0.0');
    assert.deepEqual(Object.keys(r.plugin!.files).sort(), ['environment_config', 'node_roles']);
    assert.equal(r.plugin!.files.environment_config, null);
    assert.deepEqual(positionOf(r.plugin!.files.node_roles, 'demo'), { file: 'node_roles.yaml', line: 2, column: 3 });
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('a metadata.yaml that is not YAML, or not a mapping, is a finding, not a crash', () => {
  const makefile = makePlugin({ 'metadata.yaml': 'NAME = demo\nall:\n\t$(MAKE) -C src {{ name }}\n\t@echo "%: %.in"\n' });
  const scalar = makePlugin({ 'metadata.yaml': '@PLUGIN_NAME@\n' });
  const none = makePlugin({ 'README.md': 'hi' });
  try {
    const a = loadPlugin(makefile);
    assert.equal(a.plugin, undefined);
    assert.ok(codes(a).includes('plugin/metadata-not-yaml') || codes(a).includes('plugin/metadata-not-mapping'), codes(a).join());
    assert.ok(a.findings.every((f) => f.file && f.line && f.column));
    const b = loadPlugin(scalar);
    assert.equal(b.plugin, undefined);
    assert.ok(codes(b).some((c) => c.startsWith('plugin/metadata-not')), codes(b).join());
    assert.deepEqual(codes(loadPlugin(none)), ['plugin/missing-metadata']);
    assert.deepEqual(codes(loadPlugin(join(none, 'nope'))), ['plugin/not-a-folder']);
  } finally {
    for (const r of [makefile, scalar, none]) rmSync(r, { recursive: true });
  }
});

test('5.0.0 *_path: a file is loaded under the key without _path, a folder is kept as written', () => {
  const root = makePlugin({
    'metadata.yaml': V5('  - os: ubuntu\n    version: mitaka-9.0\n    roles_path: meta/roles.yaml\n    deployment_scripts_path: scripts/\n    repository_path: repo\n'),
    'meta/roles.yaml': 'x:\n  name: X\n',
    'scripts/.keep': '',
    'repo/.keep': '',
  });
  try {
    const r = loadPlugin(root);
    assert.deepEqual(codes(r), []);
    const rec = r.plugin!.releases[0].resolved;
    assert.deepEqual(rec.roles, { x: { name: 'X' } });
    assert.equal('roles_path' in rec, false);
    assert.equal(rec.deployment_scripts_path, 'scripts/');
    assert.deepEqual(positionOf(rec.roles, 'x'), { file: 'meta/roles.yaml', line: 2, column: 3 });
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('globs: lists are concatenated in file order, mappings merged, mixed roots refused with the files named', () => {
  const root = makePlugin({
    'metadata.yaml': V5(
      '  - os: ubuntu\n    version: v-1.0\n    deployment_tasks_path: graphs/*.yaml\n    attributes_path: attrs/**/*.yaml\n    networks_path: mixed/*.yaml\n    volumes_path: none/*.yaml\n',
    ),
    'graphs/b.yaml': '- id: b\n',
    'graphs/a.yaml': '- id: a\n- id: a2\n',
    'graphs/empty.yaml': '',
    'attrs/x.yaml': 'one: 1\nshared: x\n',
    'attrs/deep/y.yaml': 'two: 2\nshared: y\n',
    'mixed/1.yaml': '- a\n',
    'mixed/2.yaml': 'a: 1\n',
  });
  try {
    const r = loadPlugin(root);
    const rec = r.plugin!.releases[0].resolved;
    assert.deepEqual(rec.deployment_tasks, [{ id: 'a' }, { id: 'a2' }, { id: 'b' }]);
    assert.deepEqual(rec.attributes, { two: 2, shared: 'x', one: 1 });
    const mixed = r.findings.find((f) => f.code === 'path/glob-mixed-roots');
    assert.ok(mixed && mixed.message.includes('mixed/1.yaml') && mixed.message.includes('mixed/2.yaml'));
    assert.equal(mixed.line, 9);
    assert.ok(codes(r).includes('path/no-match'));
    assert.ok('networks_path' in rec, 'a failed path stays as written');
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('paths that leave the plugin folder are refused and never read', () => {
  const outside = makePlugin({ 'secret.yaml': 'token: 1\n' });
  const root = makePlugin({
    'metadata.yaml': V5(
      `  - os: ubuntu\n    version: v-1.0\n    a_path: ../x.yaml\n    b_path: ${join(outside, 'secret.yaml')}\n    c_path: link/secret.yaml\n    d_path: ../*.yaml\n`,
    ),
  });
  symlinkSync(outside, join(root, 'link'));
  try {
    const r = loadPlugin(root);
    const rec = r.plugin!.releases[0].resolved;
    assert.equal(r.findings.filter((f) => f.code === 'path/outside-plugin').length, 4, codes(r).join());
    for (const key of ['a', 'b', 'c', 'd']) assert.equal(key in rec, false);
  } finally {
    rmSync(root, { recursive: true });
    rmSync(outside, { recursive: true });
  }
});

test('base_release_path: deep override, chains, and cycles named', () => {
  const root = makePlugin({
    'metadata.yaml': V5(
      '  - is_release: true\n    release_name: r\n    version: v-1.0\n    base_release_path: base/child.yaml\n    attributes:\n      a: {x: 1}\n    modes: [mine]\n  - is_release: true\n    release_name: loop\n    version: v-1.0\n    base_release_path: loop/one.yaml\n',
    ),
    'base/child.yaml': 'base_release_path: base/root.yaml\nattributes:\n  a: {y: 2}\n  b: 3\n',
    'base/root.yaml': 'modes: [theirs]\nattributes:\n  a: {x: 0, z: 9}\nstate: available\n',
    'loop/one.yaml': 'base_release_path: loop/two.yaml\n',
    'loop/two.yaml': 'base_release_path: loop/one.yaml\n',
  });
  try {
    const r = loadPlugin(root);
    const rec = r.plugin!.releases[0].resolved;
    assert.deepEqual(rec.attributes, { a: { x: 1, z: 9, y: 2 }, b: 3 });
    assert.deepEqual(rec.modes, ['mine']);
    assert.equal(rec.state, 'available');
    const cycle = r.findings.find((f) => f.code === 'release/base-cycle');
    assert.ok(cycle, codes(r).join());
    assert.match(cycle.message, /loop\/one\.yaml → loop\/two\.yaml → loop\/one\.yaml/);
  } finally {
    rmSync(root, { recursive: true });
  }
});

test('release folders that do not exist are reported for every package version', () => {
  const root = makePlugin({
    'metadata.yaml': "name: demo\nversion: '1'\npackage_version: '2.0.0'\nreleases:\n  - os: ubuntu\n    version: 2014.2-6.1\n    mode: [ha]\n    deployment_scripts_path: deployment_scripts/\n    repository_path: repositories/ubuntu\n",
  });
  try {
    const r = loadPlugin(root);
    assert.deepEqual(codes(r), ['release/missing-folder', 'release/missing-folder']);
    mkdirSync(join(root, 'deployment_scripts'));
    mkdirSync(join(root, 'repositories/ubuntu'), { recursive: true });
    assert.deepEqual(codes(loadPlugin(root)), []);
  } finally {
    rmSync(root, { recursive: true });
  }
});

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.boolean(), tie('map'), fc.array(fc.integer(), { maxLength: 3 })),
  map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 4 }),
})).map.map((m) => JSON.parse(JSON.stringify(m)) as Record<string, unknown>);

test('property: glob merge concatenates lists in order and merges mappings, later files winning', () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.integer(), { maxLength: 4 }), { minLength: 1, maxLength: 5 }), (lists) => {
      const merged = mergeGlobRoots(lists.map((value, i) => ({ file: `f${i}.yaml`, value })));
      assert.ok(merged.ok);
      assert.deepEqual(merged.value, lists.flat());
    }),
  );
  fc.assert(
    fc.property(fc.array(json, { minLength: 1, maxLength: 4 }), (maps) => {
      const merged = mergeGlobRoots(maps.map((value, i) => ({ file: `f${i}.yaml`, value })));
      assert.ok(merged.ok);
      assert.deepEqual(merged.value, Object.assign({}, ...maps));
    }),
  );
  fc.assert(
    fc.property(fc.array(fc.integer(), { minLength: 1 }), json, (list, map) => {
      const merged = mergeGlobRoots([{ file: 'l.yaml', value: list }, { file: 'm.yaml', value: map }]);
      assert.equal(merged.ok, false);
    }),
  );
});

test('property: deep override keeps every key, the override wins on leaves, and x over x is x', () => {
  fc.assert(
    fc.property(json, json, (base, over) => {
      const out = deepOverride(base, over) as Record<string, unknown>;
      assert.deepEqual(Object.keys(out).sort(), [...new Set([...Object.keys(base), ...Object.keys(over)])].sort());
      for (const [k, v] of Object.entries(over)) {
        const isMap = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
        if (!(isMap(v) && isMap(base[k]))) assert.deepEqual(out[k], v);
      }
      assert.deepEqual(deepOverride(base, base), base);
    }),
  );
});
