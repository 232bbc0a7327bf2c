/**
 * `task/no-roles` (the reference builder's warning) is for a task that reaches no node. A task of
 * `type: skipped` runs nowhere on purpose, and a task a group lists in `tasks:` runs on the group's
 * nodes: on the shared corpus these were 45 findings, all wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { fixture, mitakaRelease, place, validateCorpusPlugin, withCode } from './support.js';

test('a task with no roles that no group lists is still reported, at the task', () => {
  const r = validatePlugin(fixture('no-roles-bad'));
  const found = withCode(r.findings, 'task/no-roles');
  assert.deepEqual(found.map(place), ['deployment_tasks.yaml:2:3']);
  assert.match(found[0].message, /task 'orphan-config' has no role, roles or groups/);
  assert.ok(found[0].hint);
});

test('a skipped task and a task listed by a group need no roles of their own', () => {
  const r = validatePlugin(fixture('no-roles-good'));
  assert.deepEqual(withCode(r.findings, 'task/no-roles'), []);
  assert.deepEqual(r.findings.filter((f) => f.severity !== 'info' && f.code !== 'plugin/consider-package-5'), []);
});

test('corpus: no task/no-roles on any plugin, with or without the mitaka release', needsCorpus, () => {
  const plugins = readdirSync(corpusPath('plugins')).filter((n) => statSync(corpusPath('plugins', n)).isDirectory());
  for (const name of plugins) {
    for (const release of [undefined, mitakaRelease()]) {
      const found = withCode(validateCorpusPlugin(name, release).findings, 'task/no-roles');
      assert.deepEqual(found.map((f) => `${place(f)} ${f.message}`), [], name);
    }
  }
});
