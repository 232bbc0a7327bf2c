/**
 * graphForCluster over the real Fuel library (mitaka) composed with five corpus plugins: conditions
 * are evaluated on deployment data built from the release's settings, and every corpus condition
 * evaluates (none fails on the data Hearth builds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { graphForCluster, type DeploymentGraph, type NodeInput } from '../../core/graph/index.js';
import { composeFromDisk } from '../release/compose.js';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';

const PLUGINS = ['fuel-plugin-detach-database', 'fuel-plugin-detach-keystone', 'fuel-plugin-detach-rabbitmq', 'fuel-plugin-elasticsearch-kibana', 'fuel-plugin-influxdb-grafana'];

function composed() {
  const release = corpusPath('release/mitaka-eol');
  const { composition, findings } = composeFromDisk({
    release: join(release, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'),
    releaseVersion: 'mitaka-9.0',
    tasks: join(release, 'fuel-library'),
    plugin: PLUGINS.map((p) => corpusPath('plugins', p)),
  });
  assert.ok(composition, findings.map((f) => f.message).join('; '));
  return composition.composed;
}

const cluster = (controllers: number, computes: number, extra: string[] = []): NodeInput[] => {
  const nodes: NodeInput[] = [];
  for (let i = 0; i < controllers; i++) nodes.push({ id: String(nodes.length + 1), roles: ['controller'] });
  for (const role of extra) nodes.push({ id: String(nodes.length + 1), roles: [role] });
  for (let i = 0; i < computes; i++) nodes.push({ id: String(nodes.length + 1), roles: ['compute'] });
  return nodes;
};
const runs = (graph: DeploymentGraph, node: string, task: string): boolean | undefined => {
  const n = graph.nodes.find((x) => x.id === node)!;
  const slot = graph.classes[n.classIndex].slotOf.get(task);
  return slot === undefined ? undefined : graph.skipped[n.base + slot] === 0;
};

test('the library with five plugins: conditions evaluate on the deployment data, settings change the verdicts', needsCorpus, () => {
  const release = composed();
  const pluginRoles = Object.keys(release.roles_metadata).filter((r) => release.role_sources[r] !== 'release');
  const nodes = cluster(3, 2, pluginRoles);
  const graph = graphForCluster({ composed: release, nodes });
  assert.equal(graph.cycle, undefined);
  const failed = graph.findings.filter((f) => f.code === 'graph/condition-failed' || f.code === 'graph/condition-unresolved');
  assert.deepEqual(failed.map((f) => f.message), []);
  assert.ok(graph.counts.skipped > 0);
  // Default settings: Ceph RadosGW off, so its tasks are skipped; a first deployment runs the rest.
  assert.equal(runs(graph, '1', 'primary-ceph-radosgw'), false);
  assert.equal(runs(graph, '1', 'primary-openstack-controller'), true);
  const ceph = graphForCluster({ composed: release, nodes, settings: { storage: { objects_ceph: true, images_ceph: true } } });
  assert.equal(runs(ceph, '1', 'primary-ceph-radosgw'), true);
  // Redeploying the same cluster with the same settings: lifecycle conditions see nothing changed.
  const again = graphForCluster({ composed: release, nodes, previous: { nodes } });
  assert.equal(runs(again, '1', 'primary-openstack-controller'), false);
  assert.ok(again.counts.skipped > graph.counts.skipped);
  // A compute added: the new node runs everything; the old ones rerun what reads the cluster's
  // node list (the Nova controller reads network_metadata), and not the rest.
  const grown = graphForCluster({ composed: release, nodes: [...nodes, { id: '999', roles: ['compute'] }], previous: { nodes } });
  assert.equal(runs(grown, '999', 'top-role-compute'), true);
  assert.equal(runs(grown, '1', 'primary-openstack-controller'), true);
  assert.equal(runs(grown, '1', 'primary-ceph-radosgw'), false);
  assert.equal(runs(grown, '4', 'top-role-compute'), runs(again, '4', 'top-role-compute'));
});

test('the library with five plugins on 1,000 nodes, conditions on: acyclic, quickly', needsCorpus, () => {
  const release = composed();
  const start = process.cpuUsage();
  const graph = graphForCluster({ composed: release, nodes: cluster(3, 997) });
  const cpu = process.cpuUsage(start);
  assert.equal(graph.cycle, undefined);
  assert.equal(graph.counts.nodes, 1000);
  // Generous: about 0.5 s of CPU on a quiet machine; quadratic work would take minutes.
  assert.ok((cpu.user + cpu.system) / 1e6 < 8, `took ${(cpu.user + cpu.system) / 1e6} s of CPU`);
});
