/**
 * The audit log's recorder (issue 29): every change asked of the API, and every refusal of one,
 * with who asked (request.actor, set by the access check), from which address, the route as the
 * router declared it, what it acted on, and how it ended.
 *
 * Secrets never reach it: no body, no header, no query string is kept; the route is the pattern
 * (`/api/v1/clusters/:id/deploy`), the object is read from the route's own parameters, and an
 * answer is read only for the id of what a creation made and the run a request started.
 *
 * A change with a transaction writes its entry in it (recordIn): the change and its record cannot
 * part. Other entries (refusals, changes without a transaction) are written after the answer has gone, in batches of what arrived meanwhile, one write in
 * flight at a time, so a route answers as fast as before (bench/server, bench/load). The price: an
 * answer can reach the client a moment before its entry is in the database. GET /audit on the same
 * server flushes first, so a client reading its own actions there sees them; a server killed
 * between an answer and its flush loses those entries.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../store/index.js';
import { recordAudit, type AuditEntry } from '../store/audit.js';
import { ANONYMOUS, type Actor } from './actor.js';

/** What a route under /api/v1/<first segment> acts on. */
const KINDS: Record<string, string> = {
  clusters: 'environment',
  nodes: 'node',
  plugins: 'plugin',
  releases: 'release',
  users: 'user',
  tokens: 'token',
  deployments: 'deployment',
  session: 'session',
};

/** What the audit log calls the kinds of objects, for the route's and the CLI's help. */
export const OBJECT_KINDS = [...new Set(Object.values(KINDS))];

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request is one the log keeps: a change under /api/ that reached a route. */
const audited = (request: FastifyRequest): boolean => !READS.has(request.method) && request.routeOptions.url !== undefined && request.routeOptions.url.startsWith('/api/');

/** The object a route names in its own parameters (`/clusters/:id/…` → environment/<id>). */
export function objectOf(route: string, params: unknown): { kind: string; id?: string } | undefined {
  const parts = route.replace(/^\/api\/v\d+\//, '').split('/');
  const kind = KINDS[parts[0]];
  if (!kind) return undefined;
  const param = parts[1]?.startsWith(':') ? parts[1].slice(1) : undefined;
  const value = param !== undefined ? (params as Record<string, unknown> | undefined)?.[param] : undefined;
  return value === undefined ? { kind } : { kind, id: String(value) };
}

interface Noted {
  /** Read from the answer: the id of what a creation made. */
  createdId?: string;
  deploymentId?: number;
  code?: string;
}
const noted = new WeakMap<FastifyRequest, Noted>();

/**
 * What only the answer tells: the error's code, the run a request started (its answer is the run,
 * or a removal holding it), the id of what a creation made. Parsed only for the few answers that
 * carry them; never kept beyond those fields.
 */
function readAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  if (typeof payload !== 'string') return;
  const status = reply.statusCode;
  if (status >= 400) {
    const code = /^\{"code":"([^"\\]{1,100})"/.exec(payload)?.[1];
    if (code) noted.set(request, { code });
    return;
  }
  const creation = request.method === 'POST' && !/\/:[^/]+/.test(request.routeOptions.url ?? '');
  if (status !== 202 && !(creation && (status === 200 || status === 201))) return;
  if (payload.length > 1_000_000 || payload[0] !== '{') return;
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return;
  }
  const note: Noted = {};
  const run = typeof answer.graph_type === 'string' ? answer : (answer.deployment as Record<string, unknown> | undefined);
  if (run && typeof run.id === 'number') note.deploymentId = run.id;
  const header = reply.getHeader('hearth-deployment');
  if (note.deploymentId === undefined && header !== undefined && /^\d+$/.test(String(header))) note.deploymentId = Number(header);
  if (creation && note.deploymentId === undefined) {
    const id = typeof answer.id === 'number' || typeof answer.id === 'string' ? answer.id : typeof answer.name === 'string' ? answer.name : undefined;
    if (id !== undefined) note.createdId = String(id).slice(0, 200);
  }
  noted.set(request, note);
}

/** The entry of a request answered (or about to be answered) with `status`. */
function entryOf(request: FastifyRequest, status: number, note: Noted = noted.get(request) ?? {}): AuditEntry {
  const actor: Actor = request.actor ?? ANONYMOUS;
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  let object = objectOf(route, request.params);
  if (object && object.id === undefined && note.createdId !== undefined) object = { ...object, id: note.createdId };
  // A sign-in acts as nobody yet: the name it asked for is who the entry is about (never the password).
  const signInName = object?.kind === 'session' && request.method === 'POST' && actor.name === null ? (request.body as { name?: unknown } | undefined)?.name : undefined;
  return {
    at: new Date(),
    actor: actor.name ?? (typeof signInName === 'string' ? signInName.slice(0, 200) : null),
    via: actor.via,
    ...(actor.tokenName !== undefined ? { tokenName: actor.tokenName } : {}),
    address: request.ip ?? null,
    method: request.method,
    route,
    ...(object ? { object } : {}),
    status,
    outcome: status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'done',
    ...(note.code !== undefined ? { code: note.code } : {}),
    ...(note.deploymentId !== undefined ? { deploymentId: note.deploymentId } : object?.kind === 'deployment' && object.id !== undefined && /^\d+$/.test(object.id) ? { deploymentId: Number(object.id) } : {}),
  };
}

/** Requests whose change wrote its own entry, in its own transaction (recordIn). */
const recordedIn = new WeakSet<FastifyRequest>();

/**
 * Records the request's change in the change's own transaction, so the change and its entry
 * commit together or not at all; call it last in that transaction, with the status the route
 * answers on success. The answer then adds no second entry; should the transaction roll back, the
 * refusal or failure the route answers is recorded as any other.
 */
export async function recordIn(q: Queryable, request: FastifyRequest, status: number, done: { id?: string | number; deploymentId?: number } = {}): Promise<void> {
  const note: Noted = { ...(done.id !== undefined ? { createdId: String(done.id).slice(0, 200) } : {}), ...(done.deploymentId !== undefined ? { deploymentId: done.deploymentId } : {}) };
  await recordAudit(q, [entryOf(request, status, note)]);
  recordedIn.add(request);
}

/**
 * The entry of a request whose change writes it in its own statement (a creation in a batch of
 * them: store.createClusterBatched), with the status the route answers on success; an object
 * without an id is the one the change makes. As with recordIn, the answer adds no second entry,
 * and a refusal or failure is recorded as any other.
 */
export function entryWrittenWith(request: FastifyRequest, status: number): AuditEntry {
  recordedIn.add(request);
  return entryOf(request, status, {});
}

/** What a run started by a request records in the run's own transaction (runs/deploy.ts): its entry. */
export const runRecorder = (request: FastifyRequest, status = 202) => (q: Queryable, deploymentId: number) => recordIn(q, request, status, { deploymentId });

/** Entries waiting for their write, written in batches, one write at a time. */
export class AuditRecorder {
  private queue: AuditEntry[] = [];
  private writing: Promise<void> | undefined;
  private scheduled = false;

  constructor(
    private readonly db: () => Database,
    private readonly warn: (err: unknown, lost: number) => void,
  ) {}

  add(entry: AuditEntry): void {
    this.queue.push(entry);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Writes everything added so far; resolves when it is in the database (or its write failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.queue.length) return;
    const batch = this.queue.splice(0, 500);
    this.writing = recordAudit(this.db(), batch)
      .catch((err: unknown) => this.warn(err, batch.length))
      .finally(() => (this.writing = undefined));
    await this.writing;
    if (this.queue.length) await this.flush();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit log's recorder: `flush()` before reading the log (routes/audit.ts). */
    audit: AuditRecorder;
  }
}

/** Records every change asked of the API, and every refusal of one (see above). */
export function auditChanges(app: FastifyInstance, db: Database): AuditRecorder {
  const recorder = new AuditRecorder(
    () => db,
    (err, lost) => app.log.error({ err }, `the audit log lost ${lost} entr${lost === 1 ? 'y' : 'ies'}: the database refused them`),
  );
  app.decorate('audit', recorder);
  app.addHook('onSend', async (request, reply, payload) => {
    // An entry written with its change needs nothing from its answer.
    if (audited(request) && !(recordedIn.has(request) && reply.statusCode < 400)) readAnswer(request, reply, payload);
    return payload;
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (audited(request) && !(recordedIn.has(request) && reply.statusCode < 400)) recorder.add(entryOf(request, reply.statusCode));
    done();
  });
  app.addHook('onClose', async () => recorder.flush());
  return recorder;
}

/** Who asked, as a run keeps it: the user (and the personal token used), or `admin-token`. */
export const whoAsked = (actor: Actor): string => (actor.via === 'token' && actor.tokenName !== undefined ? `${actor.name ?? 'nobody'} (token ${actor.tokenName})` : (actor.name ?? 'nobody'));
