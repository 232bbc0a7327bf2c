/**
 * `POST /clusters/:id/network_configuration/verify`: Verify networks on the environment's real
 * nodes (domain/verify-networks.ts). Answers when every node's probe has answered (about ten
 * seconds), with the matrix per network, Fuel's absent_vlans and the findings; the run is kept in
 * the environment's history as graph type `verify_networks`.
 */
import type { FastifyInstance } from 'fastify';
import { OPERATOR } from '../access.js';
import type { AppContext } from '../app.js';
import { verifyNetworks } from '../domain/verify-networks.js';
import { answer, errors } from './answers.js';
import { clusterIdParam } from './schemas.js';

const STR = { type: 'string' } as const;
const NULLABLE_STR = { type: ['string', 'null'] } as const;

export const VERIFICATION = {
  type: 'object',
  required: ['deployment_id', 'status', 'networks', 'absent_vlans', 'findings', 'nodes'],
  properties: {
    deployment_id: { type: 'integer', description: 'the run in the environment’s history (graph type verify_networks), with each node’s probe output' },
    status: { type: 'string', enum: ['passed', 'failed'] },
    networks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['network', 'vlan', 'nodes', 'heard', 'passes'],
        properties: {
          network: STR,
          vlan: { type: ['integer', 'null'], description: 'null: untagged' },
          vlans: { type: 'array', items: { type: 'integer' }, description: "a network of many VLANs (Neutron's tenant range on private, VLAN segmentation): every one probed; a pair is heard when it is heard on all of them" },
          nodes: { type: 'array', items: { type: 'object', required: ['node', 'name', 'interface'], properties: { node: STR, name: STR, interface: STR } } },
          heard: { type: 'object', description: 'heard[a][b]: node a heard node b on this network (null: a did not answer)', additionalProperties: { type: 'object', additionalProperties: { type: ['boolean', 'null'] } } },
          passes: { type: 'boolean' },
        },
      },
    },
    absent_vlans: {
      type: 'array',
      description: 'Fuel’s: per node and interface, the VLANs on which it heard none of its peers',
      items: { type: 'object', required: ['uid', 'name', 'interface', 'absent_vlans'], properties: { uid: STR, name: STR, interface: STR, absent_vlans: { type: 'array', items: { type: 'integer' } } } },
    },
    findings: {
      type: 'array',
      items: { type: 'object', required: ['code', 'severity', 'message'], properties: { code: STR, severity: STR, message: STR, hint: STR } },
    },
    nodes: {
      type: 'array',
      items: { type: 'object', required: ['uid', 'name', 'answered', 'failure'], properties: { uid: STR, name: STR, answered: { type: 'boolean' }, failure: NULLABLE_STR } },
    },
  },
} as const;

export function verifyNetworksRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.post<{ Params: { id: number }; Body: { budget_s?: number } | undefined }>(
    '/clusters/:id/network_configuration/verify',
    {
      config: OPERATOR,
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary:
          'Verify networks: on every real node, probe frames tagged with each network’s VLAN (untagged for untagged ones) are sent to the others over raw sockets and theirs listened for; also duplicate addresses (ARP), the gateway (ARP and ping on its VLAN) and large frames. Nothing of the nodes’ configuration changes. Answers the matrix per network, absent_vlans and what to check',
        tags: ['network'],
        params: clusterIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { budget_s: { type: 'integer', minimum: 4, maximum: 120, description: 'seconds each probe listens (default 8)' } },
        },
        bodyOptional: true,
        response: { 200: answer('the verification', VERIFICATION), ...errors(400, 404, 409, 503) },
      },
    },
    (req) => verifyNetworks(ctx, req.params.id, req.body?.budget_s ? { budgetS: req.body.budget_s } : {}),
  );
}
