/**
 * `GET /clusters/:id/inventory`: the environment's real nodes as an Ansible inventory (issue 31
 * item 13; docs/inventory.md): Ansible's dynamic inventory JSON, or its YAML or INI file with
 * `format`. Simulated nodes are left out.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { inventoryAsIni, inventoryAsYaml } from '../../core/inventory/index.js';
import { clusterOr404 } from '../domain/environment.js';
import { environmentInventory } from '../domain/inventory.js';
import { errors } from './answers.js';
import { clusterIdParam } from './schemas.js';

const STRINGS = { type: 'array', items: { type: 'string' } } as const;
const NODE_REF = { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'integer' }, name: { type: 'string' } } } as const;

export const INVENTORY = {
  type: 'object',
  description: "Ansible's dynamic inventory (what an inventory script prints for --list): one entry a group, named after a role",
  required: ['_meta', 'all'],
  properties: {
    _meta: {
      type: 'object',
      required: ['hostvars', 'hearth'],
      additionalProperties: false,
      properties: {
        hostvars: {
          type: 'object',
          description: 'each host\'s variables: ansible_host, ansible_port, ansible_user, ansible_ssh_private_key_file (the key this server logs in with, when it has one), and hearth_uid, hearth_name, hearth_fqdn, hearth_roles, hearth_pending_roles, hearth_status, hearth_environment, hearth_host_key, hearth_addresses, hearth_network_data, hearth_node_volumes (docs/inventory.md)',
          additionalProperties: { type: 'object', additionalProperties: true },
        },
        hearth: {
          type: 'object',
          description: 'the environment, and its simulated nodes, left out of the inventory (Ansible ignores this key)',
          required: ['environment', 'simulated_nodes'],
          additionalProperties: false,
          properties: { environment: NODE_REF, simulated_nodes: { type: 'array', items: NODE_REF } },
        },
      },
    },
    all: { type: 'object', required: ['children'], additionalProperties: false, properties: { children: { ...STRINGS, description: 'the groups: one a role, and ungrouped for nodes without roles' } } },
  },
  additionalProperties: { type: 'object', required: ['hosts'], additionalProperties: false, properties: { hosts: { ...STRINGS, description: 'the group\'s hosts (node names)' } } },
} as const;

const FORMATS = ['json', 'yaml', 'ini'] as const;

export function inventoryRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number }; Querystring: { format?: (typeof FORMATS)[number] } }>(
    '/clusters/:id/inventory',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "The environment's real nodes as an Ansible inventory, grouped by role (deployed and pending), with how to reach each and its addresses, roles and volumes as host variables; simulated nodes are left out",
        tags: ['clusters'],
        params: clusterIdParam,
        querystring: { type: 'object', properties: { format: { type: 'string', enum: [...FORMATS], description: 'json (the default): Ansible\'s dynamic inventory; yaml or ini: Ansible\'s inventory files' } } },
        response: {
          200: {
            description: 'the inventory in the format asked for',
            content: { 'application/json': { schema: INVENTORY }, 'application/yaml': { schema: { type: 'string', description: "Ansible's YAML inventory" } }, 'text/plain': { schema: { type: 'string', description: "Ansible's INI inventory" } } },
          },
          ...errors(404),
        },
      },
    },
    async (req, reply) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      const inventory = await environmentInventory(ctx.db, cluster, ctx.ssh?.keyFile);
      const format = req.query.format ?? 'json';
      if (format === 'yaml') return reply.type('application/yaml; charset=utf-8').send(inventoryAsYaml(inventory));
      if (format === 'ini') return reply.type('text/plain; charset=utf-8').send(inventoryAsIni(inventory));
      return inventory;
    },
  );
}
