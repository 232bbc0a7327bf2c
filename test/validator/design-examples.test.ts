/**
 * The designs' own examples (issue 28): where Fuel 9.0 read a design's example differently from
 * what the design shows, the validator says what to change, at the place the reading differs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePlugin } from '../../src/package/validate/index.js';
import { needsCorpus } from '../support/corpus.js';
import { perReleaseFilesPlugin } from '../support/multi-release.js';
import { fixture, place, validateCorpusPlugin, withCode } from './support.js';

test("the role-as-a-plugin design's node role skeleton (metadata:, volumes_mapping:) is told to flatten, at its metadata: line", () => {
  const r = validatePlugin(fixture('design-role-skeleton'));
  const [f, ...more] = withCode(r.findings, 'role/metadata-wrapper');
  assert.ok(f, r.findings.map((x) => x.code).join());
  assert.deepEqual(more, []);
  assert.equal(place(f), 'node_roles.yaml:3:3');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /role 'role_name'.*'metadata:'.*'volumes_mapping:'/);
  assert.match(f.hint ?? '', /flatten the role/);
  assert.match(f.hint ?? '', /volumes\.yaml as 'volumes_roles_mapping: \{role_name: \[\.\.\.\]\}'/);
  // Not the schema's "missing required key 'name'" for the wrapped role; a flat role is still checked.
  const required = withCode(r.findings, 'schema/required');
  assert.deepEqual(required.map((x) => `${place(x)} ${x.message}`), ["node_roles.yaml:17:3 flat_role is missing the required key 'description'"]);
  assert.equal(r.valid, false);
});

test("role: in a package 5.0.0 task (the design renames it roles) is a warning at the key; a group's role: is not", needsCorpus, () => {
  const r = validateCorpusPlugin('fuel-plugins--fuel_plugin_example_v5');
  const found = withCode(r.findings, 'task/role-renamed');
  assert.deepEqual(found.map(place), ['deployment_tasks.yaml:39:3']);
  assert.equal(found[0].severity, 'warning');
  assert.match(found[0].message, /task 'fuel_plugin_example_v5-post-deployment-sh' uses role, which package 5\.0\.0 renames roles/);
  assert.match(found[0].hint ?? '', /rename role to roles \(roles: \["fuel_plugin_example_v5"\]\)/);
  // 4.0.0 tasks keep role: without a word (fuel_plugin_example_v4 writes it on its tasks).
  assert.deepEqual(withCode(validateCorpusPlugin('fuel-plugins--fuel_plugin_example_v4').findings, 'task/role-renamed'), []);
});

test("a role defined only in a release record's own node_roles file is known to the top-level volumes.yaml (plugins-v5 variant 2)", () => {
  const folder = perReleaseFilesPlugin('per_release', {
    'node_roles_mitaka.yaml': 'pr_role:\n  name: Role for Mitaka\n  description: Mitaka\nmitaka_only:\n  name: Mitaka only\n  description: Only in node_roles_mitaka.yaml\n',
    'volumes.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: min}\n  mitaka_only:\n    - {id: os, allocate_size: min}\n  mitaka_onyl:\n    - {id: os, allocate_size: min}\n',
    'volumes_mitaka.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: all}\n  mitaka_only:\n    - {id: os, allocate_size: all}\n  nowhere_role:\n    - {id: os, allocate_size: all}\n',
  });
  try {
    const r = validatePlugin(folder.path);
    const unknown = withCode(r.findings, 'volumes/unknown-role');
    // The slip in volumes.yaml and the role no file defines in volumes_mitaka.yaml; not mitaka_only.
    assert.deepEqual(unknown.map((f) => `${place(f)} '${/for '([^']+)'/.exec(f.message)?.[1]}'`), ["volumes.yaml:7:3 'mitaka_onyl'", "volumes_mitaka.yaml:7:3 'nowhere_role'"]);
    assert.match(unknown[0].message, /closest: 'mitaka_only'/);
  } finally {
    folder.remove();
  }
});
