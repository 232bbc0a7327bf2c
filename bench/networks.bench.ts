/**
 * Networks (issue 27): the address plan (VIPs and node addresses), each node's default interface
 * mapping and `network_scheme`, the environment's `network_metadata`, and the checks, for 100 to
 * 10,000 nodes of the Fuel 9 (Mitaka) release composed with five plugins (their network roles
 * included). Target: the plan and the `network_scheme` of 1,000 nodes in under 300 ms, so the
 * graph and the deploy checks stay fast. The plan alone is the baseline of the ratio column.
 * The release's /24 networks hold 254 nodes, so management and storage are widened to /16.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkNetworks,
  defaultInterfaces,
  defaultNetworkConfiguration,
  networkMetadata,
  networkRolesOf,
  networkScheme,
  networksForNode,
  planAddresses,
  planVips,
  type AddressAssignment,
  type NetworkConfiguration,
  type NodeInterface,
  type PlanNode,
} from '../src/core/networks/index.js';
import { composeFromDisk } from '../src/package/release/compose.js';
import { report, time } from './harness.js';

const corpus = process.env.HEARTH_CORPUS!;
const release = join(corpus, 'release/mitaka-eol');
const plugins = ['fuel-plugin-detach-database', 'fuel-plugin-detach-keystone', 'fuel-plugin-detach-rabbitmq', 'fuel-plugin-elasticsearch-kibana', 'fuel-plugin-influxdb-grafana'];
const { composition, findings } = composeFromDisk({ release: join(release, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), releaseVersion: 'mitaka-9.0', plugin: plugins.map((p) => join(corpus, 'plugins', p)) });
if (!composition) {
  console.log('could not compose the release:', findings.filter((f) => f.severity === 'error').map((f) => f.message).join('; '));
  process.exit(1);
}
const composed = composition.composed;
const networkRoles = networkRolesOf(composed);
const roles = composed.roles_metadata;

function config(): NetworkConfiguration {
  const c = defaultNetworkConfiguration(composed);
  for (const [name, cidr, range] of [['management', '10.10.0.0/16', ['10.10.0.1', '10.10.255.254']], ['storage', '10.20.0.0/16', ['10.20.0.1', '10.20.255.254']]] as const) {
    const n = c.networks.find((x) => x.name === name)!;
    n.cidr = cidr;
    n.ip_ranges = [[range[0], range[1]]];
  }
  return c;
}

function cluster(size: number): PlanNode[] {
  const nodes: PlanNode[] = [];
  for (let i = 0; i < size; i++) nodes.push({ id: String(i + 1), roles: i < 3 ? ['controller'] : i % 10 === 0 ? ['ceph-osd'] : ['compute'] });
  return nodes;
}

const facts = [{ name: 'eth0', mac: '52:54:00:00:00:01', driver: 'virtio_net', bus_info: '0000:00:03.0' }, { name: 'eth1' }, { name: 'eth2' }];

/** Everything a deployment needs of the networks: VIPs, addresses, each node's interfaces and scheme. */
function deploymentNetworks(c: NetworkConfiguration, nodes: readonly PlanNode[], taken: readonly AddressAssignment[] = []) {
  const vips = planVips(c, networkRoles, taken, { presentRoles: ['controller', 'compute', 'ceph-osd'] }).vips;
  const plan = planAddresses(c, nodes, [...taken, ...vips], { roles });
  const schemes = nodes.map((node) => {
    const needed = new Set(networksForNode(c, node, roles));
    const interfaces: NodeInterface[] = defaultInterfaces(facts, c.networks.filter((n) => needed.has(n.name) || n.cidr === null), 'eth0');
    return networkScheme(c, { id: node.id, roles: node.roles, interfaces, adminAddress: `10.77.${(Number(node.id) >> 8) & 255}.${Number(node.id) & 255}/16` }, plan.addresses, networkRoles);
  });
  return { vips, plan, schemes };
}

const rows = [];
const summary: string[] = ['| nodes | addresses | VIPs | plan ms | plan + schemes ms | µs per node | metadata ms | checks ms |', '|---|---|---|---|---|---|---|---|'];
for (const size of [100, 1000, 10000]) {
  const c = config();
  const nodes = cluster(size);
  const runs = size >= 10000 ? 5 : 20;
  const plan = time(`plan, ${size} nodes`, () => planAddresses(c, nodes, planVips(c, networkRoles).vips, { roles }), { runs });
  const first = deploymentNetworks(c, nodes);
  const all = time(`plan + network_scheme, ${size} nodes`, () => deploymentNetworks(c, nodes), { runs });
  // A redeployment adding 10%: every stored address is kept, the new nodes take the next ones.
  const grown = cluster(Math.ceil(size * 1.1));
  const again = time(`re-plan + network_scheme, ${size} nodes kept, ${grown.length - size} added`, () => deploymentNetworks(c, grown, first.plan.addresses), { runs });
  const schemeNodes = nodes.map((n) => ({ id: n.id, roles: n.roles, interfaces: [], adminAddress: `10.77.0.1/16` }));
  const meta = time(`network_metadata, ${size} nodes`, () => networkMetadata(c, schemeNodes, first.plan.addresses, first.vips, networkRoles), { runs });
  const checkNodes = nodes.map((n) => ({ ...n, interfaces: defaultInterfaces(facts, c.networks, 'eth0'), adminInterface: 'eth0' }));
  const checks = time(`checkNetworks, ${size} nodes with interfaces`, () => checkNetworks(c, { nodes: checkNodes, roles, networkRoles }), { runs });
  const target = size === 1000 ? 300 : undefined;
  rows.push({ ...plan, note: 'baseline' }, { ...all, baselineMs: plan.medianMs, ...(target ? { targetMs: target } : {}) }, { ...again, baselineMs: plan.medianMs, ...(target ? { targetMs: target } : {}) }, meta, checks);
  summary.push(`| ${size} | ${first.plan.addresses.length} | ${first.vips.length} | ${plan.medianMs.toFixed(1)} | ${all.medianMs.toFixed(1)} | ${((all.medianMs * 1000) / size).toFixed(1)} | ${meta.medianMs.toFixed(1)} | ${checks.medianMs.toFixed(1)} |`);
}
report('networks: address plan, network_scheme, network_metadata, checks', rows);
console.log(`\n${summary.join('\n')}`);
const t0 = performance.now();
const one = deploymentNetworks(config(), cluster(1000));
console.log(`\none cold-ish run of 1,000 nodes: ${(performance.now() - t0).toFixed(1)} ms, ${one.schemes.length} schemes, ${Object.keys(one.schemes[0].roles).length} network roles mapped on a controller (plugins' included)`);
