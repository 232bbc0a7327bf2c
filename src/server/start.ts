/**
 * Starting a Hearth server: listen first, then open the database (PGlite in a data folder, or
 * PostgreSQL from DATABASE_URL), migrate, settle the admin token, install the bundled default
 * release on first start, and settle the SSH key. Requests that come before that work is done wait
 * for it (startup.ts); the probes answer at once. Used by `hearth serve` and by tests that need a
 * real socket.
 */
import { join } from 'node:path';
import { existsSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { hearthVersion, packageRoot } from '../package/root.js';
import { releasesAnswer } from './routes/releases.js';
import { readReleasesSnapshot, writeReleasesSnapshot } from '../store/answer-snapshot.js';
import * as store from '../store/index.js';
import { buildApp, type AppContext, type AppOptions } from './app.js';
import { generateToken } from './auth.js';
import { MAX_TOKEN_LENGTH, MIN_TOKEN_LENGTH, adminTokenProblem } from '../core/access/admin-token.js';
import { readPluginFolderOffThread, storePlugin } from './domain/plugins.js';
import { settleSshKey } from './domain/ssh-key.js';
import { VERIFY_GRAPH_TYPE } from './domain/verify-networks.js';
import { SshTransport } from '../deploy/ssh.js';

export interface StartOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  schema?: string;
  /** HEARTH_ADMIN_TOKEN: overrides (and replaces) the stored token. */
  adminToken?: string;
  protectReads?: boolean;
  /** `--allowed-hosts`: names requests may call the server by (hosts.ts). */
  allowedHosts?: readonly string[];
  /** The bundled release plugin folder; `false` to install none. */
  bundledRelease?: string | false;
  webDist?: string;
  deploy?: AppOptions['deploy'];
  logger?: AppOptions['logger'];
  /** The folder whose template files the API may read. */
  templatesDir?: string;
  /** At most this many nodes in one environment. */
  maxEnvironmentNodes?: number;
  /** How often to look for runs whose server died (ms). */
  sweepMs?: number;
  /** How long running tasks may finish when the server shuts down, then they are killed (`--shutdown-grace`; 30 s). */
  shutdownGraceMs?: number;
  /** Resume, at start, the real runs a shutdown or a crash interrupted (`--resume-interrupted`). */
  resumeInterrupted?: boolean;
  /**
   * Replaces SSH for every node: a server that reaches no host, whose tasks the caller scripts (the
   * lifecycle model test runs such a server in a child process so it can be killed for real).
   */
  transport?: SshTransport;
  /** Called once the server listens, before its start-up work is done (`hearth serve` prints the URL). */
  onListening?: (url: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  db: store.Database;
  url: string;
  adminToken: string;
  /** How the token was settled: from the environment, generated now, or stored before. */
  tokenSource: 'environment' | 'generated' | 'stored';
  bundled: { installed: boolean; note: string };
  /** Hearth's SSH public key's fingerprint (what `hearth ssh-key` prints in full). */
  sshFingerprint: string;
  close(): Promise<void>;
}

/** The package root (where `release/` and `web/dist` live), from src/, dist/ or the bundle. */
export { packageRoot };

async function settleToken(db: store.Database, fromEnv: string | undefined): Promise<{ token: string; source: RunningServer['tokenSource'] }> {
  if (fromEnv !== undefined && fromEnv !== '') {
    if (adminTokenProblem(fromEnv)) {
      throw new store.StoreError('server/bad-admin-token', `HEARTH_ADMIN_TOKEN must be ${MIN_TOKEN_LENGTH} to ${MAX_TOKEN_LENGTH} characters without spaces`, 'choose a long random token, e.g. `openssl rand -hex 24`');
    }
    await store.setMeta(db, store.META_ADMIN_TOKEN, fromEnv);
    return { token: fromEnv, source: 'environment' };
  }
  const stored = await store.getMeta<unknown>(db, store.META_ADMIN_TOKEN);
  if (stored !== undefined && stored !== null) {
    // A stored token comes from an earlier start, or from an export (imported, or edited by hand):
    // the same rules as any other, or anyone could guess it in a few requests.
    const problem = adminTokenProblem(stored);
    if (problem) {
      throw new store.StoreError(
        'server/bad-admin-token',
        `the admin token stored in the database at ${db.location} is not one Hearth accepts: ${problem} (tokens are ${MIN_TOKEN_LENGTH} to ${MAX_TOKEN_LENGTH} characters without spaces)`,
        'start once with HEARTH_ADMIN_TOKEN set to a new token (e.g. `HEARTH_ADMIN_TOKEN=$(openssl rand -hex 24)`): it replaces the stored one',
      );
    }
    return { token: stored as string, source: 'stored' };
  }
  // Two servers starting together on one PostgreSQL agree on whichever token was stored first.
  const candidate = generateToken();
  const token = await store.setMetaIfAbsent(db, store.META_ADMIN_TOKEN, candidate);
  return { token, source: token === candidate ? 'generated' : 'stored' };
}

/** First start: install the bundled release, unless it was installed before or the operator removed it. */
async function installBundled(db: store.Database, folder: string | false): Promise<RunningServer['bundled']> {
  if (folder === false) return { installed: false, note: 'no bundled release (disabled)' };
  if (await store.getMeta(db, store.META_BUNDLED_RELEASE_REMOVED)) return { installed: false, note: 'the bundled release was uninstalled by the operator; not reinstalled' };
  if (await store.getMeta(db, store.META_INITIALISED)) return { installed: false, note: 'already set up' };
  if (!existsSync(join(folder, 'metadata.yaml'))) return { installed: false, note: `no bundled release at ${folder}` };
  // Read in a worker: the server already listens, and reading and validating the release's files
  // here would hold up every answer, the probes' too, for a few hundred ms.
  const read = await readPluginFolderOffThread(folder);
  const id = store.pluginId(read.loaded.name, read.loaded.version);
  if (!(await store.getPlugin(db, id))) {
    try {
      await storePlugin(db, read, { kind: 'bundled', path: folder });
    } catch (err) {
      // A second server racing on the same PostgreSQL installed it first: that is fine.
      if (!(await store.getPlugin(db, id))) throw err;
    }
  }
  await store.setMeta(db, store.META_INITIALISED, true);
  return { installed: true, note: `installed the bundled release ${read.loaded.name} ${read.loaded.version}` };
}

interface Settled {
  token: string;
  source: RunningServer['tokenSource'];
  bundled: RunningServer['bundled'];
  key: Awaited<ReturnType<typeof settleSshKey>> | { error: string };
  ssh?: SshContext;
  presence: store.Presence;
}

type SshContext = NonNullable<AppContext['ssh']>;

/** The start-up work once the database is open: what `startServer` did before listening, once. */
async function settle(db: store.Database, options: StartOptions, url: string): Promise<Settled> {
  const schema = await store.schemaState(db);
  if (schema.applied > schema.known) {
    throw new store.StoreError('store/schema-newer', `the database at ${db.location} was set up by a newer Hearth (schema ${schema.applied}; this one knows up to ${schema.known})`, 'run a Hearth at least as new as the one that set this database up; an older one could misread its tables');
  }
  const { token, source } = await settleToken(db, options.adminToken);
  // Deployments whose server died (this one, before a crash, or another one sharing PostgreSQL).
  const presence = await db.presence();
  await store.failInterruptedDeployments(db, presence.alive);
  const bundled = await installBundled(db, options.bundledRelease ?? join(packageRoot(), 'release'));
  // Hearth's SSH key: made at first start, shared through the database, copied to the data folder.
  // Without OpenSSH's tools the server still plans and simulates; real nodes answer 503 with why.
  const key = await settleSshKey(db, options.dataDir ?? store.defaultDataDir()).catch((err: Error) => ({ error: err.message }) as const);
  if ('error' in key) return { token, source, bundled, key, presence };
  // Control sockets in the data folder: a server restarted after a crash finds (and closes) the
  // connections its predecessor left, unless the path is too long for a Unix socket.
  const controlDir = join(options.dataDir ?? store.defaultDataDir(), 'ssh', 'control');
  const transport = options.transport ?? new SshTransport({ keyFile: key.keyFile, ...(controlDir.length < 70 ? { controlDir } : {}) });
  // Nodes fetch plugin repositories here: HEARTH_PUBLIC_URL when the listening address is not
  // one they can reach (0.0.0.0, or behind a proxy).
  const publicUrl = (process.env.HEARTH_PUBLIC_URL || url).replace(/\/+$/, '');
  return { token, source, bundled, key, presence, ssh: { ...key, transport, publicUrl } };
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const engine: store.Engine = options.databaseUrl ? 'postgres' : 'pglite';
  const dataDir = options.dataDir ?? store.defaultDataDir();
  // PGlite's folder is locked before listening, so a second server on it is refused (saying why)
  // before it prints an address.
  // The folder is made the server user's alone first (0700, files 0600): what was readable by
  // others is repaired and logged once the logger exists; what another user owns is refused.
  let repaired: string[] = [];
  // Read before the lock is taken, which removes it (store/answer-snapshot.ts): the releases the
  // last clean stop left, answered while PGlite starts.
  const releasesBeforeStart = engine === 'pglite' && !options.protectReads ? readReleasesSnapshot(dataDir, hearthVersion(), store.KNOWN_SCHEMA) : undefined;
  const lockPath = engine === 'pglite' ? store.claimDataFolder(dataDir, (paths) => (repaired = paths)) : undefined;
  // On PostgreSQL the data folder holds the SSH key's copy and unpacked plugins: the same rule.
  if (engine === 'postgres' && existsSync(dataDir)) repaired = store.securePrivateTree(dataDir);
  let listening!: (url: string) => void;
  const listened = new Promise<string>((resolve) => (listening = resolve));
  // Nothing is opened before the server listens: PGlite starts in a thread of its own, but opening
  // it while the app is built was no faster on two busy cores, and listening came later.
  const opening = listened.then(() =>
    store.openStore({
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : { dataDir }),
      ...(options.schema ? { schema: options.schema } : {}),
      ...(lockPath ? { lockPath } : {}),
      thread: true,
    }),
  );
  const db = new store.DeferredDatabase(engine, engine === 'pglite' ? dataDir : 'PostgreSQL (DATABASE_URL)', opening);
  const work = Promise.all([opening, listened]).then(([open, url]) => settle(open, options, url));
  let app: FastifyInstance;
  let address: string;
  let closeTransport = async (): Promise<void> => undefined;
  try {
    app = await buildApp({
      db,
      startup: work.then((w) => ({ adminToken: w.token, ...(w.ssh ? { ssh: w.ssh } : {}) })),
      ...(options.protectReads ? { protectReads: true } : {}),
      ...(releasesBeforeStart !== undefined ? { releasesBeforeStart } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(process.env.HEARTH_PUBLIC_URL ? { publicUrl: process.env.HEARTH_PUBLIC_URL } : {}),
      webDist: options.webDist ?? join(packageRoot(), 'web', 'dist'),
      pluginFilesDir: join(options.dataDir ?? store.defaultDataDir(), 'plugin-files'),
      // A dry run paces its tasks (20 every 100 ms: 800 tasks take 4 s) so its progress can be watched.
      deploy: { ...(options.deploy ?? { sliceDelayMs: 100, sliceSize: 20 }), ...(options.shutdownGraceMs !== undefined ? { shutdownGraceMs: options.shutdownGraceMs } : {}) },
      logger: options.logger ?? false,
      ...(options.templatesDir ? { templatesDir: options.templatesDir } : {}),
      ...(options.maxEnvironmentNodes ? { maxEnvironmentNodes: options.maxEnvironmentNodes } : {}),
    });
    // The SSH connections close only once the app has closed: its deployments stop first (nothing
    // new starts, running tasks get the shutdown's grace period), and a task must not lose its
    // connection under it while they do.
    closeTransport = async () => (await work.catch(() => undefined))?.ssh?.transport.close();
    address = await app.listen({ port: options.port ?? 8420, host: options.host ?? '127.0.0.1' });
  } catch (err) {
    // Nothing was opened: only the lock is to be given back.
    if (lockPath) rmSync(lockPath, { force: true });
    throw err;
  }
  // Start-up's phases, in ms since the process started, for `--log-level debug` (where start-up time goes).
  const since = () => Math.round(performance.now());
  app.log.debug({ phase: 'listening', ms: since() }, 'start-up: listening');
  if (repaired.length) app.log.warn({ dataDir, repaired: repaired.length, paths: repaired.slice(0, 20) }, store.describeRepair(dataDir, repaired));
  opening.then(() => app.log.debug({ phase: 'database-open', ms: since() }, 'start-up: database open and migrated'), () => undefined);
  listening(address);
  options.onListening?.(address);
  let settled: Settled;
  try {
    settled = await work;
  } catch (err) {
    await app.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    if (lockPath) rmSync(lockPath, { force: true });
    throw err;
  }
  app.log.debug({ phase: 'ready', ms: since() }, 'start-up: ready');
  const { presence, key } = settled;
  // PostgreSQL frees a killed server's presence lock only when it notices the session is gone,
  // which can be after this server started: look again from time to time, so no run stays
  // "running" for ever. Cheap (one indexed query) and harmless when nothing was interrupted.
  const sweep = setInterval(() => {
    store.failInterruptedDeployments(db, presence.alive, presence.id).catch(() => undefined);
  }, options.sweepMs ?? 10_000);
  sweep.unref();
  if (options.resumeInterrupted) void resumeInterrupted(app, db, settled.token);
  let closed = false;
  return {
    app,
    db: await db.ready(),
    url: address,
    adminToken: settled.token,
    tokenSource: settled.source,
    bundled: settled.bundled,
    sshFingerprint: 'error' in key ? `none: ${key.error}` : key.fingerprint,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweep);
      await app.close();
      await closeTransport();
      // The releases as this stop leaves them, for the next start to answer at once (after the
      // app has closed: no request changes them any more; a failure only means a slower start).
      const releases = lockPath && !options.protectReads ? await releasesAnswer(db).then(JSON.stringify, () => undefined) : undefined;
      await db.close();
      if (releases !== undefined) writeReleasesSnapshot(dataDir, hearthVersion(), store.KNOWN_SCHEMA, releases);
    },
  };
}

/**
 * `--resume-interrupted`: each environment whose last real run of a graph was interrupted (a
 * shutdown, a crash) is resumed as an operator's `--resume` would be, through the same route and
 * checks; what cannot be resumed is logged and left.
 */
async function resumeInterrupted(app: FastifyInstance, db: store.Database, token: string): Promise<void> {
  const runs = await db
    .query<{ cluster_id: number; graph_type: string; id: number; status: string }>(`SELECT DISTINCT ON (cluster_id, graph_type) cluster_id, graph_type, id, status FROM deployments WHERE mode = 'real' ORDER BY cluster_id, graph_type, id DESC`)
    // A verification of networks is re-run by the operator, never resumed (it holds for its moment).
    .then((rows) => rows.filter((r) => r.status === 'interrupted' && r.graph_type !== VERIFY_GRAPH_TYPE), () => []);
  for (const r of runs) {
    const res = await app.inject({ method: 'POST', url: `/api/v1/clusters/${r.cluster_id}/deploy`, headers: { authorization: `Bearer ${token}` }, payload: { resume: true, graph_type: r.graph_type, dry_run: false } });
    if (res.statusCode === 202) app.log.info({ deployment: r.id, resumedAs: res.json().id }, `resumed interrupted deployment ${r.id} of environment ${r.cluster_id}`);
    else app.log.warn({ deployment: r.id, status: res.statusCode, answer: res.json() }, `could not resume interrupted deployment ${r.id} of environment ${r.cluster_id}`);
  }
}
