/**
 * Class 4 of issue 18: references that match nothing. Role names in role metadata, task ids and
 * `/regex/`es in dependencies and `tasks:` lists, component names in rules: checked against the
 * plugin and the release. A warning says what exists instead; a task left running nowhere and a
 * role left with nothing to deploy are errors. The hand-made release is test/validator/fixtures/mini-release.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReleaseSource } from '../../src/package/release/source.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { needsCorpus } from '../support/corpus.js';
import { fixture, mitakaRelease, place, validateCorpusPlugin, withCode } from './support.js';

const mini = () => {
  const source = loadReleaseSource(fixture('mini-release/openstack.yaml'), { tasksDir: fixture('mini-release/tasks') });
  assert.ok(source.release);
  return source.release;
};
const line = (f: { code: string; file?: string; line?: number; column?: number; message: string }) => `${f.code} ${place(f as never)} ${f.message}`;

test('every kind of reference that matches nothing, each at its place, naming what exists instead', () => {
  const r = validatePlugin(fixture('references-bad'), { release: mini() });
  const got = r.findings.filter((f) => f.severity !== 'info' && f.code !== 'plugin/consider-package-5').map(line);
  const expect = [
    /^component\/unknown-component components\.yaml:4:13 .*'hypervisor:kvm'.*what exists instead: 'hypervisor:qemu'$/,
    /^component\/pattern-matches-nothing components\.yaml:6:13 .*'storage:object:\*', a pattern no component .* matches/,
    /^task\/unknown-group-member deployment_tasks\.yaml:5:26 group 'storage-node' lists 'netconfg'.*; closest: 'netconfig'$/,
    /^task\/unknown-dependency deployment_tasks\.yaml:15:14 task 'storage-hiera' requires 'hieraa'.*; closest: 'hiera'$/,
    /^task\/unknown-cross-dependency deployment_tasks\.yaml:18:13 task 'storage-hiera': cross-depends names 'globls'.*; closest: 'globals'$/,
    /^task\/unknown-cross-dependency deployment_tasks\.yaml:20:13 task 'storage-hiera': cross-depended-by names the pattern '\/\^storage-db-\.\*\/', which matches no task of the plugin or of release Mini on Ubuntu/,
    /^task\/runs-nowhere deployment_tasks\.yaml:29:10 task 'storage-sync' runs on 'storage_node', which is not a role, group or tag .*; closest: 'storage-node'$/,
    /^task\/unknown-role deployment_tasks\.yaml:29:11 .*'storage_node'.*; closest: 'storage-node'$/,
    /^role\/unknown-conflict node_roles\.yaml:5:15 role 'storage-node' conflicts with 'computer'.*; closest: 'compute'$/,
    /^role\/unknown-update-role node_roles\.yaml:6:21 role 'storage-node' \(node_roles\.yaml\) lists 'controler' in update_required.*; closest: 'controller'$/,
    /^role\/unknown-role-in-condition node_roles\.yaml:8:18 role 'storage-node' \(node_roles\.yaml\): a restriction tests for 'computee'.*; closest: 'compute'$/,
    /^role\/deploys-nothing node_roles\.yaml:16:3 role 'backup-node': none of the tasks its tasks: list names \('backup-instal'\) exists/,
    /^task\/unknown-group-member node_roles\.yaml:16:11 role 'backup-node' \(node_roles\.yaml\) lists 'backup-instal'.*; closest: 'backup-install'$/,
    /^volumes\/unknown-role volumes\.yaml:6:3 .*'storage_nod'.*; closest: 'storage-node'$/,
  ];
  assert.equal(got.length, expect.length, got.join('\n'));
  expect.forEach((re, i) => assert.match(got[i], re));
  assert.deepEqual(r.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['task/runs-nowhere', 'role/deploys-nothing']);
  for (const f of r.findings) assert.ok(f.hint, `${f.code} has a hint`);
  assert.match(withCode(r.findings, 'task/unknown-cross-dependency')[0].hint ?? '', /did you mean 'globals'\?/);
});

test('references that all resolve: no finding; a cross-dependency on another plugin\'s task is a note', () => {
  const r = validatePlugin(fixture('references-good'), { release: mini() });
  assert.deepEqual(r.findings.filter((f) => f.severity !== 'info' && f.code !== 'plugin/consider-package-5').map(line), []);
  assert.deepEqual(withCode(r.findings, 'task/cross-dependency-elsewhere').map(place), ['deployment_tasks.yaml:22:13']);
});

test('without a release, task references to the release are not judged (role metadata still is, against Fuel\'s core roles)', () => {
  const r = validatePlugin(fixture('references-bad'));
  for (const code of ['task/unknown-group-member', 'task/unknown-cross-dependency', 'task/runs-nowhere', 'role/deploys-nothing']) assert.deepEqual(withCode(r.findings, code), [], code);
  assert.equal(withCode(r.findings, 'role/unknown-update-role').length, 1);
});

test('corpus with mitaka: the new reference findings, each a real reference to nothing', needsCorpus, () => {
  const NEW = ['task/unknown-cross-dependency', 'task/unknown-group-member', 'task/runs-nowhere', 'role/deploys-nothing', 'role/unknown-update-role', 'role/unknown-role-in-condition', 'component/pattern-matches-nothing'];
  // calico: cross-depends on 'primary-calico-etcd', which is a role name, not a task (the task is 'calico-etcd').
  const calico = validateCorpusPlugin('fuel-plugin-calico', mitakaRelease()).findings.filter((f) => NEW.includes(f.code));
  assert.deepEqual(calico.map(line), [
    "task/unknown-cross-dependency deployment_tasks.yaml:138:13 task 'calico-etcd-proxy': cross-depends names 'primary-calico-etcd', a task of neither the plugin nor release Mitaka on Ubuntu 14.04, so the cross-node order it meant is lost; closest: 'calico-etcd'",
  ]);
  // influxdb-grafana: its client tasks run on 'influxdb-grafana', a slip for its role 'influxdb_grafana':
  // the nodes after the first never get DNS and NTP clients. Now the message says so.
  const influx = withCode(validateCorpusPlugin('fuel-plugin-influxdb-grafana', mitakaRelease()).findings, 'task/unknown-role');
  assert.equal(influx.length, 3);
  for (const f of influx) assert.match(f.message, /'influxdb-grafana' .*; closest: 'influxdb_grafana'/);
  // StackLight plugins cross-depend on each other's tasks: notes, not warnings.
  const telemetry = validateCorpusPlugin('fuel-plugin-openstack-telemetry', mitakaRelease()).findings;
  assert.deepEqual(telemetry.filter((f) => NEW.includes(f.code)), []);
  assert.equal(withCode(telemetry, 'task/cross-dependency-elsewhere').length, 5);
});
