/**
 * /nodes/{id}/disks and /nodes/{id}/volumes (issue 26), in Nailgun's shapes so Fuel's clients read
 * them: a node's disks with the volumes on each (MB), its defaults, the operator's sizes saved, and
 * the volumes its roles bring. Layouts are core's (core/disks); domain/disks.ts gathers their input.
 */
import type { FastifyInstance } from 'fastify';
import { volumesView, type LayoutDisk } from '../../core/disks/index.js';
import { finding, type Finding } from '../../core/findings.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import { OPERATOR, PUBLIC_READ } from '../access.js';
import type { AppContext } from '../app.js';
import { diskState, disksOf, isMinimum, layoutVolumesOf, rolesOf, type DiskState, type SavedDisk } from '../domain/disks.js';
import { composeCluster } from '../domain/environment.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { FINDING } from './shapes.js';

const nodeIdParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const MB = { type: 'integer', minimum: 0, description: 'MB (MiB, Fuel\'s unit)' } as const;

const DISK = {
  type: 'object',
  description: 'A disk as Fuel showed it, with the volumes on it',
  required: ['id', 'name', 'size', 'in_use', 'volumes'],
  properties: {
    id: { type: 'string', description: 'stable id: the disk/by-path (or by-id) link, else the device name' },
    name: { type: 'string', description: 'device name (sda, vdb, loop3)' },
    size: { ...MB, description: 'MB the volumes may take on this disk (MiB)' },
    disk_size: { ...MB, description: 'the whole disk, MB (MiB)' },
    in_use: { type: 'boolean', description: 'holds something (a filesystem, /, swap, a partition table, a signature): Hearth leaves it as it is' },
    exclude: { type: 'boolean', description: 'the operator keeps Hearth off this free disk' },
    holds_root: { type: 'boolean', description: 'holds /: the operating system\'s volumes are checked against it' },
    volumes: {
      type: 'array',
      items: { type: 'object', required: ['name', 'size'], properties: { name: { type: 'string' }, size: MB, type: { type: 'string' }, keep_data: { type: 'boolean' } }, additionalProperties: true },
    },
  },
  additionalProperties: true,
} as const;
const DISKS = listOf(DISK);

const VOLUME = {
  type: 'object',
  description: 'A volume the node\'s roles bring (Fuel\'s {name, label, min_size}), with a group\'s logical volumes',
  required: ['name', 'label', 'min_size'],
  properties: {
    name: { type: 'string' },
    label: { type: 'string' },
    min_size: MB,
    type: { type: 'string', description: 'vg (an LVM volume group), partition or raid' },
    allocate_size: { type: 'string', enum: ['min', 'all', 'full-disk'] },
    applied: { type: 'boolean', description: 'laid out on free disks (false: an operating-system volume, only checked against the disk holding /)' },
    mount: { type: 'string' },
    file_system: { type: 'string' },
    volumes: {
      type: 'array',
      description: 'a volume group\'s logical volumes (size null: what is left)',
      items: { type: 'object', required: ['name', 'size'], properties: { name: { type: 'string' }, mount: { type: 'string' }, file_system: { type: 'string' }, size: { type: ['integer', 'null'] } }, additionalProperties: true },
    },
  },
  additionalProperties: true,
} as const;

/** What PUT takes: Fuel's disks (what GET answered, edited), only `id` and the volumes' sizes read. */
const SAVED_DISKS = {
  type: 'array',
  maxItems: 256,
  items: {
    type: 'object',
    required: ['id', 'volumes'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 300 },
      exclude: { type: 'boolean' },
      volumes: {
        type: 'array',
        maxItems: 200,
        items: { type: 'object', required: ['name', 'size'], properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, size: { type: 'integer', minimum: 0, maximum: 2147483647 }, keep_data: { type: 'boolean' } } },
      },
    },
  },
} as const;

const CHECK = {
  type: 'object',
  required: ['saved', 'saved_at', 'findings'],
  additionalProperties: false,
  properties: {
    saved: { type: 'boolean', description: 'the operator saved a layout (false: the defaults, which follow the roles)' },
    saved_at: { type: ['string', 'null'], format: 'date-time' },
    findings: { ...listOf(FINDING), description: 'where a saved layout no longer fits (after a role change) and volumes below their minimum: a deployment refuses the node until they are fixed' },
  },
} as const;

/** A disk in Fuel's shape, with Hearth's own fields beside. */
export const diskView = (d: LayoutDisk) => ({
  id: d.id,
  name: d.name,
  size: d.size,
  disk_size: d.disk_size,
  in_use: d.in_use,
  ...(d.exclude ? { exclude: true } : {}),
  ...(d.holds_root ? { holds_root: true } : {}),
  volumes: d.volumes.map((v) => ({ name: v.name, size: v.size, ...(v.type ? { type: v.type } : {}), ...(v.keep_data !== undefined ? { keep_data: v.keep_data } : {}) })),
});

async function nodeOr404(q: store.Queryable, id: number): Promise<store.NodeRecord> {
  const [node] = await store.getNodes(q, [id]);
  if (!node) throw new HttpError(404, 'node/not-found', `there is no node ${id}`);
  return node;
}

/** The node's environment and its composed release (the volumes of the release and enabled plugins). */
async function environmentOf(q: store.Queryable, node: store.NodeRecord) {
  if (node.clusterId === undefined) return undefined;
  const cluster = await store.getCluster(q, node.clusterId);
  return cluster ? { cluster, composed: (await composeCluster(q, cluster)).composed } : undefined;
}

async function stateOf(q: store.Queryable, node: store.NodeRecord): Promise<DiskState> {
  const env = await environmentOf(q, node);
  const [access, saved] = await Promise.all([real.realNodes(q, [node.id]), store.savedDiskLayouts(q, [node.id])]);
  return diskState(node, access.get(node.id), layoutVolumesOf(env?.composed), saved.get(node.id));
}

const plainFinding = (p: Finding): Finding => ({ ...p });

/** What the request itself gets wrong, disk by disk: disks the node does not have, disks or volumes listed twice, volumes on a disk in use. */
function requestProblems(node: store.NodeRecord, known: ReturnType<typeof disksOf>['disks'], body: readonly SavedDisk[]): Finding[] {
  const out: Finding[] = [];
  const byId = new Map(known.map((d) => [d.id, d]));
  const seen = new Set<string>();
  for (const disk of body) {
    const own = byId.get(disk.id);
    if (seen.has(disk.id)) out.push(finding('disk/listed-twice', 'error', `disk '${disk.id}' is listed twice`, undefined, 'list each disk once'));
    seen.add(disk.id);
    if (!own) {
      out.push(finding('disk/unknown', 'error', `node '${node.name}' has no disk '${disk.id}' (its disks: ${known.map((d) => d.id).join(', ') || 'none'})`, undefined, 'use the ids GET /nodes/{id}/disks shows (hearth node disks <node>)'));
      continue;
    }
    const names = disk.volumes.map((v) => v.name);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    if (twice.length) out.push(finding('disk/volume-listed-twice', 'error', `disk '${own.name}' lists volume '${twice[0]}' twice`, undefined, 'give each volume one size per disk'));
    const placed = disk.volumes.filter((v) => v.size > 0).map((v) => v.name);
    if (own.inUse && placed.length) out.push(finding('disk/in-use', 'error', `disk '${own.name}' is in use (it holds a filesystem, /, swap, a partition table or a signature): Hearth leaves it as it is, so ${placed.join(', ')} cannot go on it`, undefined, 'place the volumes on the free disks'));
    if (disk.exclude && placed.length) out.push(finding('disk/excluded', 'error', `disk '${own.name}' is excluded, yet ${placed.join(', ')} ${placed.length === 1 ? 'is' : 'are'} placed on it`, undefined, 'give its volumes size 0, or do not exclude it'));
  }
  return out;
}

/** Volumes the node's roles do not bring (a saved layout keeps them out quietly after a role change; a request naming them is refused). */
function unknownVolumes(state: DiskState, saved: readonly SavedDisk[]): Finding[] {
  const known = new Set(state.defaults.spaces.map((s) => s.id));
  const byId = new Map(state.defaults.disks.map((d) => [d.id, d.name]));
  return saved.flatMap((d) =>
    d.volumes
      .filter((v) => !known.has(v.name))
      .map((v) => finding('disks/unknown-volume', 'error', `disk '${byId.get(d.id) ?? d.id}': '${v.name}' is not a volume of this node's roles (its volumes: ${[...known].join(', ') || 'none'})`, undefined, 'use the names GET /nodes/{id}/volumes lists (hearth node disks <node>)')),
  );
}

export function diskRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number } }>(
    '/nodes/:id/disks',
    { config: PUBLIC_READ, schema: { summary: 'A node\'s disks and the volumes on each (MB): the layout the operator saved, else the default one from its disks, roles, release and plugins', tags: ['nodes'], params: nodeIdParam, response: { 200: answer('its disks', DISKS), ...errors(404) } } },
    async (req) => (await stateOf(ctx.db, await nodeOr404(ctx.db, req.params.id))).layout.disks.map(diskView),
  );

  api.get<{ Params: { id: number } }>(
    '/nodes/:id/disks/defaults',
    { config: PUBLIC_READ, schema: { summary: 'A node\'s default layout: what its disks, roles, release and plugins give, whatever was saved', tags: ['nodes'], params: nodeIdParam, response: { 200: answer('its disks with the default volumes', DISKS), ...errors(404) } } },
    async (req) => (await stateOf(ctx.db, await nodeOr404(ctx.db, req.params.id))).defaults.disks.map(diskView),
  );

  api.get<{ Params: { id: number } }>(
    '/nodes/:id/disks/check',
    { config: PUBLIC_READ, schema: { summary: 'Whether a node\'s layout holds: where a saved layout no longer fits its roles, volumes below their minimum', tags: ['nodes'], params: nodeIdParam, response: { 200: answer('the layout\'s findings', CHECK), ...errors(404) } } },
    async (req) => {
      const state = await stateOf(ctx.db, await nodeOr404(ctx.db, req.params.id));
      return { saved: state.saved !== undefined, saved_at: state.saved?.savedAt ?? null, findings: state.problems.map(plainFinding) };
    },
  );

  api.put<{ Params: { id: number }; Body: SavedDisk[] }>(
    '/nodes/:id/disks',
    {
      config: OPERATOR,
      schema: {
        summary: 'Save the operator\'s layout: per disk (by id), each volume\'s size in MB, and `exclude` for a free disk Hearth must not touch. Checked: disks the node has, volume names its roles bring, sizes that fit each disk, free disks only; volumes below their minimum are saved with a warning (a deployment refuses them)',
        tags: ['nodes'],
        params: nodeIdParam,
        body: SAVED_DISKS,
        response: {
          200: answer('the layout saved, and its warnings', { type: 'object', required: ['disks', 'findings'], additionalProperties: false, properties: { disks: DISKS, findings: listOf(FINDING) } }),
          ...errors(400, 404, 409),
        },
      },
    },
    async (req) => {
      const saved: SavedDisk[] = req.body.map((d) => ({ id: d.id, ...(d.exclude ? { exclude: true } : {}), volumes: d.volumes.map((v) => ({ name: v.name, size: v.size, ...(v.keep_data !== undefined ? { keep_data: v.keep_data } : {}) })) }));
      return ctx.db.transaction(async (tx) => {
        const node = await nodeOr404(tx, req.params.id);
        const env = await environmentOf(tx, node);
        if (env?.cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${env.cluster.name}' is being deployed; disk layouts are locked until it ends`);
        const access = (await real.realNodes(tx, [node.id])).get(node.id);
        const own = requestProblems(node, disksOf(node, access).disks, saved);
        if (own.length) throw refused('node/disks-refused', `this layout cannot be saved for node '${node.name}'`, own);
        const state = diskState(node, access, layoutVolumesOf(env?.composed), { nodeId: node.id, disks: saved, savedAt: new Date().toISOString() });
        const names = unknownVolumes(state, saved);
        if (names.length) throw refused('node/disks-refused', `this layout cannot be saved for node '${node.name}'`, names);
        // Minimums are warnings here (the operator may be halfway through moving volumes); the deployment refuses them.
        const blocking = errorsOf(state.problems).filter((p) => !isMinimum(p));
        if (blocking.length) throw refused('node/disks-refused', `this layout cannot be saved for node '${node.name}'`, blocking);
        await store.saveDiskLayout(tx, node.id, saved);
        return { disks: state.layout.disks.map(diskView), findings: state.problems.filter((p) => !blocking.includes(p)).map((p) => ({ ...p, severity: 'warning' as const })) };
      });
    },
  );

  api.delete<{ Params: { id: number } }>(
    '/nodes/:id/disks',
    { config: OPERATOR, schema: { summary: 'Forget the saved layout: the node goes back to its default one, which follows its roles', tags: ['nodes'], params: nodeIdParam, response: { 204: noContent('back to the defaults'), ...errors(404, 409) } } },
    async (req, reply) => {
      await ctx.db.transaction(async (tx) => {
        const node = await nodeOr404(tx, req.params.id);
        const env = await environmentOf(tx, node);
        if (env?.cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${env.cluster.name}' is being deployed; disk layouts are locked until it ends`);
        await store.forgetDiskLayouts(tx, [node.id]);
      });
      return reply.status(204).send();
    },
  );

  api.get<{ Params: { id: number } }>(
    '/nodes/:id/volumes',
    { config: PUBLIC_READ, schema: { summary: 'The volumes a node\'s roles bring, from its release and enabled plugins: Fuel\'s {name, label, min_size} (MB), with each group\'s logical volumes, sizes and mount points', tags: ['nodes'], params: nodeIdParam, response: { 200: answer('its volumes', listOf(VOLUME)), ...errors(404) } } },
    async (req) => {
      const node = await nodeOr404(ctx.db, req.params.id);
      const env = await environmentOf(ctx.db, node);
      if (!env) return [];
      const access = (await real.realNodes(ctx.db, [node.id])).get(node.id);
      return volumesView(layoutVolumesOf(env.composed), rolesOf(node), disksOf(node, access).ram);
    },
  );
}
