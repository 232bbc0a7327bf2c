/**
 * Class 2 of issue 18: cycles that appear only with the release. The plugin's tasks alone are
 * acyclic; merged into the release's graph (Nailgun's edges: requires, required_for, groups:, a
 * group's tasks:) they close a circle. The whole circle is reported, each link with the plugin's
 * file:line or the release task file it came from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../src/core/findings.js';
import { loadReleaseSource } from '../../src/package/release/source.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { needsCorpus } from '../support/corpus.js';
import { fixture, mitakaRelease, place, validateCorpusPlugin, withCode } from './support.js';

const CODE = 'task/cycle-with-release';
/** The finding that tells the whole circle (each of the plugin's other links has one of its own). */
const told = (findings: Finding[]): Finding[] => findings.filter((f) => f.message.includes('tasks wait for each other in a circle'));
const mini = () => {
  const source = loadReleaseSource(fixture('mini-release/openstack.yaml'), { tasksDir: fixture('mini-release/tasks') });
  assert.ok(source.release);
  return source.release;
};

test("a group before deploy_end that lists a post-deployment task of the release: the whole circle, each link's place", () => {
  assert.deepEqual(withCode(validatePlugin(fixture('cycle-lists-bad')).findings, CODE), [], 'acyclic without the release');
  const r = validatePlugin(fixture('cycle-lists-bad'), { release: mini() });
  assert.equal(r.valid, false);
  const [f] = told(withCode(r.findings, CODE));
  assert.equal(place(f), 'deployment_tasks.yaml:10:18');
  assert.equal(
    f.message,
    "with release Mini on Ubuntu, tasks wait for each other in a circle: storage-node → deploy_end → post_deployment_start → upload_cirros → storage-node (plugin tasks: storage-node). Each link: 'storage-node' is required_for 'deploy_end' (deployment_tasks.yaml:10); 'post_deployment_start' requires 'deploy_end' (release deployment/tasks.yaml:6); 'upload_cirros' requires 'post_deployment_start' (release deployment/tasks.yaml:54); group 'storage-node' lists 'upload_cirros' in tasks: (deployment_tasks.yaml:8). None of them can ever start.",
  );
  assert.match(f.hint ?? '', /group 'storage-node' lists 'upload_cirros' in tasks: \(deployment_tasks\.yaml:8\)/);
});

test('groups: pulling a post-deployment task into a group the release requires before deploy_end', () => {
  const r = validatePlugin(fixture('cycle-groups-bad'), { release: mini() });
  const [f] = told(withCode(r.findings, CODE));
  assert.equal(place(f), 'deployment_tasks.yaml:5:12');
  assert.match(f.message, /storage-report → primary-controller → controller → compute → deploy_end → post_deployment_start → storage-report/);
  assert.match(f.message, /'storage-report' is in group 'primary-controller' \(groups:\) \(deployment_tasks\.yaml:5\)/);
  assert.match(f.message, /'controller' requires 'primary-controller' \(release deployment\/tasks\.yaml:16\)/);
});

test('a task before deploy_end that requires a post-deployment task: task/dependency-cycle, as such circles always were, now with every link', () => {
  const r = validatePlugin(fixture('cycle-requires-bad'), { release: mini() });
  assert.deepEqual(withCode(r.findings, CODE), []);
  const [f] = told(withCode(r.findings, 'task/dependency-cycle'));
  assert.equal(place(f), 'deployment_tasks.yaml:10:18');
  assert.match(f.message, /storage-check → deploy_end → post_deployment_start → upload_cirros → storage-check \(plugin tasks: storage-check\)\. Each link: 'storage-check' is required_for 'deploy_end' \(deployment_tasks\.yaml:10\);.*'storage-check' requires 'upload_cirros' \(deployment_tasks\.yaml:9\)/);
});

test('the same intentions, each in its stage: no circle', () => {
  const r = validatePlugin(fixture('cycle-good'), { release: mini() });
  assert.deepEqual(withCode(r.findings, CODE), []);
  assert.deepEqual(withCode(r.findings, 'task/dependency-cycle'), []);
});

test('corpus with mitaka: contrail, manila and telemetry close circles through the release; alone they do not', needsCorpus, () => {
  const expected: Record<string, RegExp> = {
    // contrail-vmware (a group before primary-contrail-controller) lists dns-client, a post-deployment task.
    'fuel-plugin-contrail': /group 'contrail-vmware' lists 'dns-client' in tasks: \(deployment_tasks\.yaml:\d+\)/,
    // manila-share (required_for deploy_end) lists cgroups, which Fuel runs after post_deployment_start.
    'fuel-plugin-manila': /'cgroups' requires 'post_deployment_start' \(release deployment\/puppet\/osnailyfacter\/modular\/cgroups\/tasks\.yaml:1\); group 'manila-share' lists 'cgroups' in tasks: \(deployment_tasks\.yaml:8\)/,
    // A post-deployment task with groups: [primary-controller, controller], groups the release requires before deploy_end.
    'fuel-plugin-openstack-telemetry': /'telemetry-integration-configuration' is in group 'controller' \(groups:\) \(deployment_tasks\.yaml:200\).*'telemetry-integration-configuration' requires 'post_deployment_start' \(deployment_tasks\.yaml:201\)/,
  };
  for (const [name, re] of Object.entries(expected)) {
    assert.deepEqual(withCode(validateCorpusPlugin(name).findings, 'task/dependency-cycle'), [], `${name} alone`);
    const found = told(withCode(validateCorpusPlugin(name, mitakaRelease()).findings, CODE));
    assert.equal(found.length, 1, `${name}: ${found.map((f) => f.message).join('\n')}`);
    assert.match(found[0].message, re, name);
  }
});

test("corpus with mitaka: each of the plugin's links in a circle is reported at its own line, with the one circle named (contrail)", needsCorpus, () => {
  const all = withCode(validateCorpusPlugin('fuel-plugin-contrail', mitakaRelease()).findings, CODE);
  const [whole] = told(all);
  const circle = /a circle: ([^(]+?) \(plugin tasks/.exec(whole.message)?.[1];
  assert.ok(circle, whole.message);
  const links = all.filter((f) => f !== whole);
  // contrail-analytics requires primary-contrail-controller; contrail-vmware lists dns-client and is required_for primary-contrail-controller.
  assert.deepEqual(links.map((f) => place(f).replace(/:\d+$/, '')), ['deployment_tasks.yaml:60', 'deployment_tasks.yaml:128', 'deployment_tasks.yaml:129']);
  for (const f of links) {
    assert.ok(f.message.includes(`a link of the circle ${circle}`), f.message);
    assert.ok(whole.message.includes(/Mitaka on Ubuntu 14\.04, (.+), a link/.exec(f.message)![1]), f.message);
  }
});
