/**
 * Networks in Fuel's resources: an environment's network configuration with the checks' findings,
 * its VIPs, and a node's interfaces with the networks on them. The rules are core's
 * (src/core/networks); domain/networks.ts gathers what they read and keeps the address plan.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN_NETWORK, checkInterfaceMapping, type NetworkFinding, type NodeInterface } from '../../core/networks/index.js';
import type { AppContext } from '../app.js';
import { OPERATOR, PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { clusterOr404 } from '../domain/environment.js';
import { checksWith, environmentNetworks, syncAddresses, withIds } from '../domain/networks.js';
import { applyNetworkChange, type ConfigurationChange } from '../domain/network-changes.js';
import { mergeSaved, nodeWirings, type NodeWiring } from '../domain/node-interfaces.js';
import { clusterIdParam } from './schemas.js';
import { answer, errors, listOf } from './answers.js';
import { NETWORK_CONFIGURATION, NODE_INTERFACE, VIP } from './network-shapes.js';

const nodeIdParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const IPV4 = { type: 'string', maxLength: 50 } as const;
const IP_RANGE = { type: 'array', minItems: 2, maxItems: 2, items: IPV4 } as const;

const CONFIGURATION_CHANGE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    networks: {
      type: 'array',
      maxItems: 100,
      // Fuel's clients send each network back whole (meta, group_id): only the editable fields count.
      items: {
        type: 'object',
        additionalProperties: true,
        anyOf: [{ required: ['id'] }, { required: ['name'] }],
        properties: {
          id: { type: 'integer', minimum: 1 },
          name: { type: 'string', minLength: 1, maxLength: 100 },
          cidr: { type: ['string', 'null'], maxLength: 50 },
          gateway: { type: ['string', 'null'], maxLength: 50 },
          vlan_start: { type: ['integer', 'null'], minimum: 1, maximum: 4094 },
          ip_ranges: { type: 'array', maxItems: 100, items: IP_RANGE },
          mtu: { type: ['integer', 'null'], description: 'the MTU frames on this network must pass (576-9216); null: the interfaces\' own' },
        },
      },
    },
    networking_parameters: {
      type: 'object',
      maxProperties: 50,
      additionalProperties: true,
      properties: {
        floating_ranges: { type: 'array', maxItems: 100, items: IP_RANGE },
        vlan_range: { type: ['array', 'null'], minItems: 2, maxItems: 2, items: { type: 'integer', minimum: 1, maximum: 4094 } },
        gre_id_range: { type: ['array', 'null'], minItems: 2, maxItems: 2, items: { type: 'integer', minimum: 1 } },
        dns_nameservers: { type: 'array', maxItems: 10, items: IPV4 },
      },
    },
    dry_run: { type: 'boolean', description: 'check the change and answer the configuration it would make, without saving it' },
  },
} as const;

const INTERFACES_CHANGE = {
  type: 'array',
  minItems: 1,
  maxItems: 64,
  // Fuel's shape, sent back whole as GET gave it: only each interface's assigned_networks count.
  items: {
    type: 'object',
    required: ['name', 'assigned_networks'],
    additionalProperties: true,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 64 },
      assigned_networks: { type: 'array', maxItems: 100, items: { type: 'object', additionalProperties: true, anyOf: [{ required: ['id'] }, { required: ['name'] }], properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 100 } } } },
    },
  },
} as const;

const refusedNetworks = (code: string, message: string, findings: readonly NetworkFinding[]) =>
  new HttpError(400, code, `${message}: ${findings.map((f) => f.message).join('; ')}`, { findings, hint: findings[0]?.hint });

/** An interface as the API shows it: Fuel's fields, with what the facts tell. */
export function interfaceView(i: NodeInterface, wiring: NodeWiring) {
  const fact = wiring.facts.find((f) => f.name === i.name);
  return {
    name: i.name,
    type: i.type ?? 'ether',
    mac: typeof fact?.mac === 'string' ? fact.mac : null,
    state: typeof fact?.state === 'string' ? fact.state : 'unknown',
    current_speed: typeof fact?.speed_mbps === 'number' ? fact.speed_mbps : null,
    pxe: i.name === wiring.adminInterface,
    ip_addresses: Array.isArray(fact?.addresses) ? (fact.addresses as string[]) : [],
    assigned_networks: i.assigned_networks.map((n) => ({ ...(n.id !== undefined ? { id: n.id } : {}), name: n.name })),
  };
}

export function networkRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number } }>(
    '/clusters/:id/network_configuration',
    { config: PUBLIC_READ, schema: { summary: "The environment's networks (Fuel's network_configuration) with what the checks found and what to change", tags: ['networks'], params: clusterIdParam, response: { 200: answer('networks, Neutron parameters and findings', NETWORK_CONFIGURATION), ...errors(404) } } },
    async (req) => {
      const env = await environmentNetworks(ctx.db, await clusterOr404(ctx.db, req.params.id));
      const nodes = await store.listNodes(ctx.db, { clusterId: env.cluster.id });
      const findings = checksWith(env, env.config, nodes, await nodeWirings(ctx.db, env.config, nodes));
      return { ...env.config, findings, saved: env.saved };
    },
  );

  api.put<{ Params: { id: number }; Body: ConfigurationChange & { dry_run?: boolean } }>(
    '/clusters/:id/network_configuration',
    {
      config: OPERATOR,
      schema: {
        summary: 'Change networks (cidr, gateway, vlan_start, ip_ranges, mtu; by id or name) and Neutron parameters; refused with every error finding, per network and field; node addresses follow the new plan',
        tags: ['networks'],
        params: clusterIdParam,
        body: CONFIGURATION_CHANGE,
        response: { 200: answer('the configuration as saved (or as it would be, with dry_run), with the findings left', NETWORK_CONFIGURATION), ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      return ctx.db.transaction(async (tx) => {
        const cluster = await clusterOr404(tx, req.params.id, { lock: true });
        if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed; its networks are locked until it ends`);
        const env = await environmentNetworks(tx, cluster);
        const change = applyNetworkChange(env.config, req.body);
        if (change.findings.length) throw refusedNetworks('network/change-refused', 'the networks cannot be changed this way', change.findings);
        const config = withIds(change.config);
        const nodes = await store.listNodes(tx, { clusterId: cluster.id });
        const findings = checksWith(env, config, nodes, await nodeWirings(tx, config, nodes));
        const errs = findings.filter((f) => f.severity === 'error');
        if (errs.length) throw refusedNetworks('network/configuration-refused', 'the network configuration has errors and was not saved', errs);
        if (!req.body.dry_run) {
          await store.saveNetworkConfiguration(tx, cluster.id, config);
          await syncAddresses(tx, { ...env, config, saved: true }, nodes);
        }
        return { ...config, findings, saved: req.body.dry_run ? env.saved : true };
      });
    },
  );

  api.get<{ Params: { id: number } }>(
    '/clusters/:id/vips',
    { config: PUBLIC_READ, schema: { summary: "The environment's VIPs: one per VIP the network roles of the release and plugins ask for, from their network's ranges", tags: ['networks'], params: clusterIdParam, response: { 200: answer('the VIPs, by name', listOf(VIP)), ...errors(404) } } },
    async (req) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      return (await store.vips(ctx.db, cluster.id)).map((v) => ({ name: v.name, network: v.network, ipaddr: v.ip, network_role: v.network_role, namespace: v.namespace, node_roles: v.node_roles, is_user_defined: v.is_user_defined === true }));
    },
  );

  api.get<{ Params: { id: number } }>(
    '/nodes/:id/interfaces',
    { config: PUBLIC_READ, schema: { summary: "The node's interfaces (its facts; three for a simulated node) with the networks assigned to each (Fuel's shape)", tags: ['networks'], params: nodeIdParam, response: { 200: answer('its interfaces', listOf(NODE_INTERFACE)), ...errors(404) } } },
    async (req) => {
      const { wiring } = await nodeWiring(ctx.db, req.params.id);
      return wiring.interfaces.map((i) => interfaceView(i, wiring));
    },
  );

  api.put<{ Params: { id: number }; Body: Array<{ name: string; assigned_networks: Array<{ id?: number; name?: string }> }> }>(
    '/nodes/:id/interfaces',
    {
      config: OPERATOR,
      schema: {
        summary: "Map the node's networks onto its interfaces (Fuel's shape: each interface with assigned_networks); a network left out stays where it is. The admin network stays on the interface Hearth reaches the node on",
        tags: ['networks'],
        params: nodeIdParam,
        body: INTERFACES_CHANGE,
        response: { 200: answer('its interfaces as saved', listOf(NODE_INTERFACE)), ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      return ctx.db.transaction(async (tx) => {
        const { wiring, env } = await nodeWiring(tx, req.params.id, true);
        if (env.cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${env.cluster.name}' is being deployed; interfaces are locked until it ends`);
        const networks = env.config.networks;
        const problems: NetworkFinding[] = [];
        const placed = new Map<string, string>();
        for (const i of req.body) {
          if (!wiring.facts.some((f) => f.name === i.name)) {
            problems.push({ code: 'interface/unknown', severity: 'error', message: `${wiring.node.name} has no interface '${i.name}'`, networks: [], node: wiring.node.name, interface: i.name, hint: `its interfaces: ${wiring.facts.map((f) => f.name).join(', ')}` });
            continue;
          }
          for (const a of i.assigned_networks) {
            const n = networks.find((x) => (a.id !== undefined ? x.id === a.id : x.name === a.name));
            const label = a.name ?? `id ${a.id}`;
            if (!n) problems.push({ code: 'network/unknown', severity: 'error', message: `the environment has no network ${label}`, networks: [], node: wiring.node.name, interface: i.name, hint: `its networks: ${networks.map((x) => x.name).join(', ')}` });
            else if (placed.has(n.name) && placed.get(n.name) !== i.name) problems.push({ code: 'interface/network-twice', severity: 'error', message: `${n.name} is assigned to both ${placed.get(n.name)} and ${i.name}`, networks: [n.name], node: wiring.node.name, interface: i.name, hint: `keep ${n.name} on one interface` });
            else placed.set(n.name, i.name);
          }
        }
        const admin = placed.get(ADMIN_NETWORK);
        if (admin !== undefined && admin !== wiring.adminInterface) {
          problems.push({
            code: 'interface/admin-moved',
            severity: 'error',
            message: `moving the admin network (${ADMIN_NETWORK}) from ${wiring.adminInterface} to ${admin} would cut Hearth off from ${wiring.node.name}: ${wiring.adminInterface} holds the address Hearth reaches it on${wiring.adminAddress ? ` (${wiring.adminAddress})` : ''}`,
            networks: [ADMIN_NETWORK],
            node: wiring.node.name,
            interface: admin,
            hint: `keep ${ADMIN_NETWORK} on ${wiring.adminInterface}`,
          });
        }
        if (problems.length) throw refusedNetworks('interface/mapping-refused', `the interfaces of ${wiring.node.name} cannot be mapped this way`, problems);
        const asked: NodeInterface[] = req.body.map((i) => ({ name: i.name, type: 'ether', assigned_networks: networks.filter((n) => placed.get(n.name) === i.name).map((n) => ({ ...(n.id !== undefined ? { id: n.id } : {}), name: n.name })) }));
        const interfaces = mergeSaved(asked, wiring.interfaces, networks);
        const findings = checkInterfaceMapping(interfaces, networks, wiring.adminInterface, { node: wiring.node.name, facts: wiring.facts }).filter((f) => f.severity === 'error');
        if (findings.length) throw refusedNetworks('interface/mapping-refused', `the interfaces of ${wiring.node.name} cannot be mapped this way`, findings.map((f) => ({ ...f, node: f.node ?? wiring.node.name })));
        await store.saveNodeInterfaces(tx, wiring.node.id, env.cluster.id, interfaces);
        return interfaces.map((i) => interfaceView(i, { ...wiring, interfaces }));
      });
    },
  );
}

/** A node's wiring in its environment; a node in none has no networks to map (409). */
async function nodeWiring(q: store.Queryable, id: number, lock = false) {
  const [node] = await store.getNodes(q, [id]);
  if (!node) throw new HttpError(404, 'node/not-found', `there is no node ${id}`);
  if (node.clusterId === undefined) throw new HttpError(409, 'node/not-in-environment', `node '${node.name}' is in no environment, so it has no networks to map`, { hint: 'assign it to an environment first (POST /api/v1/clusters/{id}/nodes)' });
  const cluster = await clusterOr404(q, node.clusterId, { lock });
  const env = await environmentNetworks(q, cluster);
  const wiring = (await nodeWirings(q, env.config, [node])).get(node.id)!;
  return { node, env, wiring };
}
