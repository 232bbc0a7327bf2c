/**
 * Nailgun's role API (issue 28 item 12): add, change and delete roles of a release (admin: every
 * environment on it sees them) or of one environment (operator). Listing stays with
 * GET /releases/{id}/roles and GET /clusters/{id}/roles, which show these roles among the others.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { ADMIN, OPERATOR, PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { checkRole, customRoleOr404, recordOf, refuseIfHeld, roleAnswer, type RoleBody } from '../domain/custom-roles.js';
import { clusterOr404, composeCluster, releaseOr404, roleOf, wizardFor } from '../domain/environment.js';
import { answer, errors, noContent } from './answers.js';

const ROLE_NAME = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9_-]+$' } as const;
const RULE = { anyOf: [{ type: 'string' }, { type: 'integer' }] } as const;
const LIMITS = {
  type: 'object',
  properties: { condition: { type: 'string' }, min: RULE, max: RULE, recommended: RULE, overrides: { type: 'array', minItems: 1, items: { type: 'object', required: ['condition'], properties: { condition: { type: 'string' }, min: RULE, max: RULE, recommended: RULE, message: { type: 'string' } } } } },
} as const;
/** Nailgun's role meta (validators/json_schema/role.py, ROLE_META_INFO). */
const META = {
  type: 'object',
  required: ['name', 'description', 'tags'],
  maxProperties: 50,
  properties: {
    name: { type: 'string', maxLength: 200, description: 'the label shown' },
    description: { type: 'string', maxLength: 2000 },
    conflicts: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
    has_primary: { type: 'boolean' },
    public_ip_required: { type: 'boolean' },
    update_required: { type: 'array', items: { type: 'string' } },
    update_once: { type: 'array', items: { type: 'string' } },
    group: { type: 'string', maxLength: 100 },
    weight: { type: 'integer' },
    limits: LIMITS,
    restrictions: { type: 'array' },
    tags: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
  },
} as const;
const VOLUMES = { type: 'array', minItems: 1, maxItems: 50, items: { type: 'object', required: ['allocate_size', 'id'], additionalProperties: false, properties: { allocate_size: { type: 'string', enum: ['all', 'min', 'full-disk'] }, id: { type: 'string', minLength: 1, maxLength: 100 } } } } as const;
const ROLE_BODY = { type: 'object', required: ['name', 'meta', 'volumes_roles_mapping'], additionalProperties: false, properties: { name: ROLE_NAME, meta: META, volumes_roles_mapping: VOLUMES } } as const;
const ROLE_ANSWER = { type: 'object', required: ['name', 'meta', 'volumes_roles_mapping'], properties: { name: { type: 'string' }, meta: { type: 'object', additionalProperties: true }, volumes_roles_mapping: VOLUMES } } as const;

/** A role read: the release's own files may leave a volume's allocate_size out (then no size is given it). */
const ROLE_READ = { type: 'object', required: ['name', 'meta', 'volumes_roles_mapping'], properties: { name: { type: 'string' }, meta: { type: 'object', additionalProperties: true }, volumes_roles_mapping: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, allocate_size: { type: 'string' } } } } } } as const;

const releaseParam = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } } as const;
const releaseRoleParams = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, name: ROLE_NAME } } as const;
const clusterParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const clusterRoleParams = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 }, name: ROLE_NAME } } as const;

/** PUT's body may leave out the name (it is in the path); when given it must be the same. */
function sameName(body: RoleBody, name: string): RoleBody {
  if (body.name !== undefined && body.name !== name) throw new HttpError(400, 'role/rename', `the body names role ${body.name}, the path ${name}: a role is not renamed`, { hint: 'add a role under the new name and delete the old one' });
  return { ...body, name };
}
const PUT_BODY = { ...ROLE_BODY, required: ['meta', 'volumes_roles_mapping'] } as const;

export function customRoleRoutes(api: FastifyInstance, ctx: AppContext): void {
  // One role, whatever its source, in the shape POST and PUT take: read, edit, send back.
  api.get<{ Params: { id: string; name: string } }>(
    '/releases/:id/roles/:name',
    { config: PUBLIC_READ, schema: { summary: "One role of the release (its own, a plugin's that fits it, or one added), as Nailgun's role API answers it: name, meta, volumes_roles_mapping", tags: ['releases'], params: releaseRoleParams, response: { 200: answer('the role', ROLE_READ), ...errors(404) } } },
    async (req) => {
      const { composition } = await wizardFor(ctx.db, req.params.id);
      return roleOf(composition, req.params.name, `release '${req.params.id}'`);
    },
  );
  api.get<{ Params: { id: number; name: string } }>(
    '/clusters/:id/roles/:name',
    { config: PUBLIC_READ, schema: { summary: "One role available to the environment, as Nailgun's role API answers it: name, meta, volumes_roles_mapping", tags: ['clusters'], params: clusterRoleParams, response: { 200: answer('the role', ROLE_READ), ...errors(404) } } },
    async (req) => {
      const c = await clusterOr404(ctx.db, req.params.id);
      return roleOf(await composeCluster(ctx.db, c), req.params.name, `environment '${c.name}'`);
    },
  );

  api.post<{ Params: { id: string }; Body: RoleBody }>(
    '/releases/:id/roles',
    { config: ADMIN, schema: { summary: "Add a role to a release (Nailgun's role API: name, meta, volumes_roles_mapping); every environment on it can use it", tags: ['releases'], params: releaseParam, body: ROLE_BODY, response: { 201: answer('added', ROLE_ANSWER), ...errors(400, 404, 409) } } },
    async (req, reply) => {
      const added = await ctx.db.transaction(async (tx) => {
        const r = await releaseOr404(tx, req.params.id);
        if (Object.hasOwn(r.release.roles_metadata, req.body.name)) throw new HttpError(409, 'role/exists', `release '${r.id}' has a role ${req.body.name} already`, { hint: `change it with PUT /releases/${r.id}/roles/${req.body.name}` });
        checkRole(req.body, r.release);
        await store.saveCustomRole(tx, { releaseId: r.id }, recordOf(req.body));
        await store.bumpCatalogVersion(tx);
        return recordOf(req.body);
      });
      return reply.status(201).send(roleAnswer(added));
    },
  );

  api.put<{ Params: { id: string; name: string }; Body: RoleBody }>(
    '/releases/:id/roles/:name',
    { config: ADMIN, schema: { summary: 'Change a role added to a release through this API (its meta and volumes_roles_mapping)', tags: ['releases'], params: releaseRoleParams, body: PUT_BODY, response: { 200: answer('changed', ROLE_ANSWER), ...errors(400, 404, 409) } } },
    async (req) =>
      roleAnswer(
        await ctx.db.transaction(async (tx) => {
          const r = await releaseOr404(tx, req.params.id);
          await customRoleOr404(tx, { releaseId: r.id }, req.params.name, r.release.roles_metadata, `release '${r.id}'`);
          const body = sameName(req.body, req.params.name);
          checkRole(body, r.release);
          await store.saveCustomRole(tx, { releaseId: r.id }, recordOf(body));
          await store.bumpCatalogVersion(tx);
          return recordOf(body);
        }),
      ),
  );

  api.delete<{ Params: { id: string; name: string } }>(
    '/releases/:id/roles/:name',
    { config: ADMIN, schema: { summary: 'Delete a role added to a release through this API; refused while a node of an environment on it holds the role (naming the nodes)', tags: ['releases'], params: releaseRoleParams, response: { 204: noContent('deleted'), ...errors(404, 409) } } },
    async (req, reply) => {
      await ctx.db.transaction(async (tx) => {
        const r = await releaseOr404(tx, req.params.id);
        await customRoleOr404(tx, { releaseId: r.id }, req.params.name, r.release.roles_metadata, `release '${r.id}'`);
        await refuseIfHeld(tx, { releaseId: r.id }, req.params.name);
        await store.deleteCustomRole(tx, { releaseId: r.id }, req.params.name);
        await store.bumpCatalogVersion(tx);
      });
      return reply.status(204).send();
    },
  );

  api.post<{ Params: { id: number }; Body: RoleBody }>(
    '/clusters/:id/roles',
    { config: OPERATOR, schema: { summary: "Add a role to one environment (Nailgun's role API: name, meta, volumes_roles_mapping)", tags: ['clusters'], params: clusterParam, body: ROLE_BODY, response: { 201: answer('added', ROLE_ANSWER), ...errors(400, 404, 409) } } },
    async (req, reply) => {
      const added = await ctx.db.transaction(async (tx) => {
        const c = await clusterOr404(tx, req.params.id, { lock: true });
        const { composed } = await composeCluster(tx, c);
        if (Object.hasOwn(composed.roles_metadata, req.body.name)) throw new HttpError(409, 'role/exists', `environment '${c.name}' has a role ${req.body.name} already`, { hint: `change it with PUT /clusters/${c.id}/roles/${req.body.name} if it was added there` });
        checkRole(req.body, composed);
        await store.saveCustomRole(tx, { clusterId: c.id }, recordOf(req.body));
        await store.bumpCatalogVersion(tx);
        return recordOf(req.body);
      });
      return reply.status(201).send(roleAnswer(added));
    },
  );

  api.put<{ Params: { id: number; name: string }; Body: RoleBody }>(
    '/clusters/:id/roles/:name',
    { config: OPERATOR, schema: { summary: 'Change a role added to an environment through this API', tags: ['clusters'], params: clusterRoleParams, body: PUT_BODY, response: { 200: answer('changed', ROLE_ANSWER), ...errors(400, 404, 409) } } },
    async (req) =>
      roleAnswer(
        await ctx.db.transaction(async (tx) => {
          const c = await clusterOr404(tx, req.params.id, { lock: true });
          const { composed } = await composeCluster(tx, c);
          await customRoleOr404(tx, { clusterId: c.id }, req.params.name, composed.roles_metadata, `environment '${c.name}'`);
          const body = sameName(req.body, req.params.name);
          checkRole(body, composed);
          await store.saveCustomRole(tx, { clusterId: c.id }, recordOf(body));
          await store.bumpCatalogVersion(tx);
          return recordOf(body);
        }),
      ),
  );

  api.delete<{ Params: { id: number; name: string } }>(
    '/clusters/:id/roles/:name',
    { config: OPERATOR, schema: { summary: 'Delete a role added to an environment through this API; refused while one of its nodes holds it (naming the nodes)', tags: ['clusters'], params: clusterRoleParams, response: { 204: noContent('deleted'), ...errors(404, 409) } } },
    async (req, reply) => {
      await ctx.db.transaction(async (tx) => {
        const c = await clusterOr404(tx, req.params.id, { lock: true });
        const { composed } = await composeCluster(tx, c);
        await customRoleOr404(tx, { clusterId: c.id }, req.params.name, composed.roles_metadata, `environment '${c.name}'`);
        await refuseIfHeld(tx, { clusterId: c.id }, req.params.name);
        await store.deleteCustomRole(tx, { clusterId: c.id }, req.params.name);
        await store.bumpCatalogVersion(tx);
      });
      return reply.status(204).send();
    },
  );
}
