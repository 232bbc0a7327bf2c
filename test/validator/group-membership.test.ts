/**
 * Class 3 of issue 18: a task that belongs to a group (by `groups:`, by `roles:` naming the group,
 * or by the group's `tasks:` list) and requires that group, or is required_for something the
 * group requires, can never run. Both are errors, said at the dependency that closes the loop.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { fixture, mitakaRelease, place, validateCorpusPlugin, withCode } from './support.js';

const CODES = ['task/requires-own-group', 'task/before-own-group'];

test("a member that requires its group, or must end before what its group requires: errors naming task, group, how it belongs and the link", () => {
  const r = validatePlugin(fixture('group-membership-bad'));
  assert.equal(r.valid, false);
  const found = r.findings.filter((f) => CODES.includes(f.code)).map((f) => `${f.code} ${place(f)}`);
  assert.deepEqual(found, [
    'task/requires-own-group deployment_tasks.yaml:26:14',
    'task/before-own-group deployment_tasks.yaml:39:18',
    'task/requires-own-group deployment_tasks.yaml:50:14',
  ]);
  const [byList, byRoles] = withCode(r.findings, 'task/requires-own-group');
  assert.match(byList.message, /task 'storage-config' \(deployment_tasks\.yaml:23\) belongs to group 'storage-node' \(deployment_tasks\.yaml:11\) through the tasks: list of group 'storage-node', and requires 'storage-node'/);
  assert.match(byRoles.message, /task 'storage-log' .* through roles: \[storage-node\], and requires 'storage-node'/);
  const [before] = withCode(r.findings, 'task/before-own-group');
  assert.match(before.message, /task 'storage-keys' .* through groups: \[storage-node\], and is required_for 'storage-prepare' \(deployment_tasks\.yaml:1\), which group 'storage-node' requires/);
  assert.match(before.hint ?? '', /drop 'storage-prepare' from the task's required_for/);
});

test('members that require what their group requires, or each other, and a stage listed in a group: no finding', () => {
  const r = validatePlugin(fixture('group-membership-good'));
  assert.deepEqual(r.findings.filter((f) => CODES.includes(f.code)), []);
  assert.equal(r.valid, true);
});

test('corpus: no plugin has a task that depends on its own group, alone or composed with mitaka', needsCorpus, () => {
  // Several corpus groups list release tasks and the stage deploy_start in tasks: while requiring
  // release tasks that depend on those same tasks (detach-keystone, contrail, manila): those
  // dependencies run between nodes of other roles, and are not the member's own links.
  const plugins = readdirSync(corpusPath('plugins')).filter((n) => statSync(corpusPath('plugins', n)).isDirectory());
  for (const name of plugins) {
    for (const release of [undefined, mitakaRelease()]) {
      const found = validateCorpusPlugin(name, release).findings.filter((f) => CODES.includes(f.code));
      assert.deepEqual(found.map((f) => `${place(f)} ${f.message}`), [], name);
    }
  }
});
