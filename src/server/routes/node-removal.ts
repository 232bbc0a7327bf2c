/**
 * Removing nodes from an environment, and deleting an environment, as docs/lifecycle.md says:
 * a node deployed on a real host is cleaned first (the environment's `deletion` graph runs on it
 * alone, through startRun like any graph run), is `removing` meanwhile and leaves the environment
 * only when that run succeeded on it (removal-end.ts decides, in the run's end). A node never
 * deployed (pending roles only) or simulated leaves at once; `clean: false` forgets a deployed one
 * without running anything, and the answer says so.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { OPERATOR } from '../access.js';
import type { AppContext } from '../app.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { recordIn, runRecorder, whoAsked } from '../audit.js';
import * as real from '../../store/real-nodes.js';
import { clusterOr404, composeCluster } from '../domain/environment.js';
import { beingRemoved } from '../domain/runs/deploy.js';
import { startRun } from './deployments.js';
import { nodeViews } from './real-nodes.js';
import { clusterIdParam } from './schemas.js';
import { answer, errors } from './answers.js';
import { DEPLOYMENT, NODES } from './shapes.js';

const NAMED = { type: 'array', items: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'integer' }, name: { type: 'string' } } } } as const;

/** What a removal did: who left at once, who is being cleaned and by which run. */
export const REMOVAL = {
  type: 'object',
  required: ['left', 'cleaning', 'not_cleaned', 'deployment', 'message', 'nodes'],
  additionalProperties: false,
  properties: {
    left: { ...NAMED, description: 'nodes that left the environment at once (never deployed, simulated, or forgotten with clean: false)' },
    cleaning: { ...NAMED, description: 'deployed nodes the deletion graph runs on (status removing); each leaves the environment when it succeeded on it' },
    not_cleaned: { ...NAMED, description: 'deployed nodes forgotten without cleaning (clean: false): their hosts keep what was deployed' },
    deployment: { oneOf: [DEPLOYMENT, { type: 'null' }], description: 'the deletion run to follow (GET /deployments/{id}), or null when nothing runs' },
    message: { type: 'string', description: 'what happens, in plain words' },
    nodes: { ...NODES, description: 'the nodes still in the environment (those being cleaned among them)' },
  },
} as const;

export const REMOVE_BODY = {
  type: 'object',
  required: ['node_ids'],
  additionalProperties: false,
  properties: {
    node_ids: { type: 'array', minItems: 1, maxItems: 5000, items: { type: 'integer', minimum: 1, maximum: 2147483647 } },
    clean: { type: 'boolean', description: 'run the deletion graph on deployed nodes first (default true); false forgets them, their hosts keep what was deployed' },
  },
} as const;

const named = (nodes: readonly store.NodeRecord[]) => nodes.map((n) => ({ id: n.id, name: n.name }));
const list = (nodes: readonly store.NodeRecord[]) => nodes.map((n) => `'${n.name}'`).join(', ');
const NOT_CLEANED = 'not cleaned: the host keeps what was deployed';

/** Deployed on a real host: roles deployed (not only pending), reached over SSH. */
async function deployedReal(q: store.Queryable, nodes: readonly store.NodeRecord[]): Promise<store.NodeRecord[]> {
  const access = await real.realNodes(q, nodes.map((n) => n.id));
  return nodes.filter((n) => n.roles.length > 0 && access.has(n.id));
}

function refuseBusy(cluster: store.ClusterRecord): HttpError {
  return new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed`, { hint: 'wait for the run to end (hearth deployment list --env <env>)' });
}

async function refuseWithoutDeletion(q: store.Queryable, cluster: store.ClusterRecord, deployed: readonly store.NodeRecord[], what: string): Promise<void> {
  const { composed } = await composeCluster(q, cluster);
  if (Object.hasOwn(composed.graphs, 'deletion')) return;
  throw new HttpError(409, 'node/no-deletion-graph', `environment '${cluster.name}' has no deletion graph: ${deployed.length === 1 ? 'node' : 'nodes'} ${list(deployed)} cannot be cleaned before ${what}`, {
    nodes: named(deployed),
    hint: 'forget them without cleaning (clean: false, hearth … --no-clean; their hosts keep what was deployed), or add a deletion graph to the release',
  });
}

/** Removes nodes from an environment (see the file's comment); the answer says what happens. */
export async function removeNodes(ctx: AppContext, log: FastifyBaseLogger, clusterId: number, ids: readonly number[], clean = true, requestedBy?: string, req?: FastifyRequest) {
  const plan = await ctx.db.transaction(async (tx) => {
    const cluster = await clusterOr404(tx, clusterId, { lock: true });
    if (cluster.status === 'deploying') throw refuseBusy(cluster);
    if (await beingRemoved(tx, ctx.presence, cluster)) throw new HttpError(409, 'cluster/removing', `environment '${cluster.name}' is being removed`, { hint: 'wait for its deletion run to end' });
    const wanted = [...new Set(ids)];
    const nodes = await store.getNodes(tx, wanted);
    const foreign = wanted.filter((id) => !nodes.some((n) => n.id === id && n.clusterId === cluster.id));
    if (foreign.length) throw new HttpError(404, 'node/not-in-cluster', `node ${foreign.join(', ')} is not in environment '${cluster.name}'`);
    const deployed = await deployedReal(tx, nodes);
    const cleaning = clean ? deployed : [];
    if (cleaning.length) await refuseWithoutDeletion(tx, cluster, cleaning, 'they leave');
    return { cluster, cleaning, left: nodes.filter((n) => !cleaning.includes(n)), notCleaned: clean ? [] : deployed };
  });
  // The run first: when it is refused (a node offline, the checks), nothing has changed.
  const deployment = plan.cleaning.length ? await startRun(ctx, log, clusterId, 'deletion', { nodes: plan.cleaning.map((n) => n.id), dry_run: false }, { removal: { nodes: plan.cleaning.map((n) => n.id) }, ...(requestedBy !== undefined ? { requestedBy } : {}), ...(req ? { record: runRecorder(req, req.method === 'DELETE' ? 202 : 200) } : {}) }) : null;
  // The request's audit entry goes with its first change: the run's transaction, else this one.
  if (plan.left.length) {
    await ctx.db.transaction(async (tx) => {
      await store.unassignNodes(tx, plan.left.map((n) => n.id));
      if (req && !deployment) await recordIn(tx, req, 200);
    });
  }
  const words: string[] = [];
  const atOnce = plan.left.filter((n) => !plan.notCleaned.includes(n));
  if (atOnce.length) words.push(`${list(atOnce)} left environment '${plan.cluster.name}' (nothing was deployed on ${atOnce.length === 1 ? 'it' : 'them'})`);
  if (plan.notCleaned.length) words.push(`${list(plan.notCleaned)} left environment '${plan.cluster.name}', ${NOT_CLEANED}`);
  if (deployment) words.push(`the deletion graph runs on ${list(plan.cleaning)} (deployment ${deployment.id}); ${plan.cleaning.length === 1 ? 'it leaves' : 'each leaves'} the environment when it succeeded`);
  return {
    left: named(plan.left),
    cleaning: named(plan.cleaning),
    not_cleaned: named(plan.notCleaned),
    deployment,
    message: words.join('; '),
    nodes: await nodeViews(ctx.db, await store.listNodes(ctx.db, { clusterId })),
  };
}

/**
 * DELETE /clusters/{id}: with nothing deployed on a real host, deleted at once as always. With
 * deployed nodes, `clean` must be said: true runs the deletion graph on them (the environment is
 * `removing`, deleted when it succeeded everywhere, `error` with the nodes it failed on otherwise);
 * false deletes it at once, the hosts keeping what was deployed.
 */
export async function deleteEnvironment(ctx: AppContext, log: FastifyBaseLogger, clusterId: number, clean?: boolean, requestedBy?: string, req?: FastifyRequest) {
  const plan = await ctx.db.transaction(async (tx) => {
    const cluster = await clusterOr404(tx, clusterId, { lock: true });
    if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed`, { hint: 'wait for the deployment to finish' });
    if (await beingRemoved(tx, ctx.presence, cluster)) throw new HttpError(409, 'cluster/removing', `environment '${cluster.name}' is being removed already`, { hint: 'wait for its deletion run to end' });
    const nodes = await store.listNodes(tx, { clusterId: cluster.id });
    const deployed = await deployedReal(tx, nodes);
    if (deployed.length && clean === undefined) {
      throw new HttpError(409, 'cluster/deployed-nodes', `environment '${cluster.name}' has ${deployed.length} deployed node${deployed.length === 1 ? '' : 's'} (${list(deployed.slice(0, 20))}${deployed.length > 20 ? ` and ${deployed.length - 20} more` : ''}): say whether to clean ${deployed.length === 1 ? 'it' : 'them'} first`, {
        nodes: named(deployed),
        hint: 'clean=true runs the deletion graph on them and deletes the environment when it succeeded (hearth env delete <env> --clean); clean=false deletes it now, the hosts keeping what was deployed (--no-clean)',
      });
    }
    if (!deployed.length || clean === false) {
      await store.unassignNodes(tx, nodes.map((n) => n.id));
      await store.deleteCluster(tx, cluster.id);
      if (req) await recordIn(tx, req, 204);
      return { cluster, deployed, done: true as const };
    }
    await refuseWithoutDeletion(tx, cluster, deployed, 'the environment is deleted');
    return { cluster, deployed, done: false as const };
  });
  if (plan.done) return { deleted: true as const, notCleaned: clean === false ? plan.deployed : [] };
  const ids = plan.deployed.map((n) => n.id);
  const deployment = await startRun(ctx, log, clusterId, 'deletion', { nodes: ids, dry_run: false }, { removal: { nodes: ids, environment: true }, ...(requestedBy !== undefined ? { requestedBy } : {}), ...(req ? { record: runRecorder(req) } : {}) });
  return {
    left: [],
    cleaning: named(plan.deployed),
    not_cleaned: [],
    deployment,
    message: `the deletion graph runs on ${list(plan.deployed)} (deployment ${deployment.id}); environment '${plan.cluster.name}' is removing, and is deleted (with its history) when it succeeded on every node`,
    nodes: await nodeViews(ctx.db, await store.listNodes(ctx.db, { clusterId })),
  };
}

export function nodeRemovalRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.delete<{ Params: { id: number }; Body: { node_ids: number[]; clean?: boolean } }>(
    '/clusters/:id/nodes',
    {
      config: OPERATOR,
      schema: {
        summary:
          'Remove nodes from the environment: deployed ones are cleaned first (the deletion graph runs on them alone; they are removing meanwhile and leave when it succeeded; 202 with the run), the others leave at once (200); clean: false forgets deployed ones without running anything',
        tags: ['nodes'],
        params: clusterIdParam,
        body: REMOVE_BODY,
        response: { 200: answer('done: every node left at once', REMOVAL), 202: answer('the deletion graph runs on the deployed nodes: follow the deployment', REMOVAL), ...errors(400, 404, 409, 503) },
      },
    },
    async (req, reply) => {
      const removal = await removeNodes(ctx, req.log, req.params.id, req.body.node_ids, req.body.clean ?? true, whoAsked(req.actor), req);
      return reply.status(removal.deployment ? 202 : 200).send(removal);
    },
  );
}
