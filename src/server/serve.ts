/** The `hearth serve` action: start, print the URL and admin token, stop cleanly on SIGINT/SIGTERM. */
import { EXIT_FINDINGS, EXIT_USAGE } from '../cli/exit.js';
import { StoreError, countUsers, type Database } from '../store/index.js';
import { collectAllGarbage } from '../store/v8-flags.js';
import { existsSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { startServer } from './start.js';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { parseAllowedHosts } from './hosts.js';
import type { FastifyInstance } from 'fastify';

/**
 * Waits until `/readyz` answers 200, asked in-process: "ready" is said exactly when a probe would
 * hear it. Start-up work done, it normally is at once; a database that does not answer (PostgreSQL
 * down) is said on stderr, once, and asked again each second.
 */
async function readyProbeAnswers(app: FastifyInstance): Promise<void> {
  let told = false;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    if (res.statusCode === 200) return;
    if (!told) {
      told = true;
      const body = (() => {
        try {
          return JSON.parse(res.body) as { code?: string; message?: string };
        } catch {
          return {};
        }
      })();
      process.stderr.write(`hearth: started, but /readyz answers ${res.statusCode}${body.code ? ` ${body.code}` : ''}${body.message ? `: ${body.message}` : ''}; waiting until it is ready\n`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function serve(options: { port: string; host: string; dataDir?: string; protectReads?: boolean; bundledRelease?: boolean; templatesDir?: string; logLevel?: string; logFormat?: string; maxEnvironmentNodes?: string; shutdownGrace?: string; resumeInterrupted?: boolean; allowedHosts?: string }): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`hearth: --port must be a number from 0 to 65535\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const level = (options.logLevel ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level)) {
    process.stderr.write(`hearth: --log-level must be one of ${LOG_LEVELS.join(', ')}\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const format = options.logFormat ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty') {
    process.stderr.write(`hearth: --log-format must be json or pretty\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const grace = options.shutdownGrace === undefined ? undefined : Number(options.shutdownGrace);
  if (grace !== undefined && !(Number.isFinite(grace) && grace >= 0 && grace <= 86_400)) {
    process.stderr.write(`hearth: --shutdown-grace must be a number of seconds from 0 to 86400, not '${options.shutdownGrace}'\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const maxNodes = options.maxEnvironmentNodes === undefined ? undefined : Number(options.maxEnvironmentNodes);
  if (maxNodes !== undefined && !(Number.isInteger(maxNodes) && maxNodes >= 1 && maxNodes <= 1_000_000)) {
    process.stderr.write(`hearth: --max-environment-nodes must be a whole number from 1 to 1000000\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  // Names the server answers to beside its own (hosts.ts); the flag wins over the variable.
  const allowedHosts = parseAllowedHosts(options.allowedHosts ?? process.env.HEARTH_ALLOWED_HOSTS ?? '');
  const badHost = allowedHosts.find((h) => !/^(\*|[A-Za-z0-9.-]+(:\d+)?|\[[0-9A-Fa-f:.]+\](:\d+)?|[0-9A-Fa-f:.]+)$/.test(h));
  if (badHost !== undefined) {
    process.stderr.write(`hearth: --allowed-hosts (or HEARTH_ALLOWED_HOSTS) holds '${badHost}', which is not a host name or address\n  hint: give names separated by commas, e.g. --allowed-hosts hearth.example.com,10.0.0.5; '*' answers any name\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  if (options.templatesDir && !(existsSync(options.templatesDir) && statSync(options.templatesDir).isDirectory())) {
    process.stderr.write(`hearth: --templates-dir ${options.templatesDir} is not a folder\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  // Signals are heard from the start: a SIGTERM while the database is still being created or
  // opened (seconds on a first start) waited for the start, then stops cleanly, lock released,
  // where it used to kill the process outright and leave the data folder's lock behind.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Hearth${server ? '' : ' once it has started'}\n`);
    server?.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  try {
    server = await startServer({
      port,
      host: options.host,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
      ...(process.env.HEARTH_ADMIN_TOKEN ? { adminToken: process.env.HEARTH_ADMIN_TOKEN } : {}),
      ...(options.protectReads ? { protectReads: true } : {}),
      ...(allowedHosts.length ? { allowedHosts } : {}),
      ...(grace !== undefined ? { shutdownGraceMs: grace * 1000 } : {}),
      ...(options.resumeInterrupted ? { resumeInterrupted: true } : {}),
      logger: { level, format },
      ...(options.templatesDir ? { templatesDir: resolvePath(options.templatesDir) } : {}),
      ...(maxNodes !== undefined ? { maxEnvironmentNodes: maxNodes } : {}),
      ...(options.bundledRelease === false ? { bundledRelease: false as const } : {}),
      // The address is printed as soon as the server listens, saying it is not ready yet (a first
      // start creates its database for seconds); "ready at" and the rest once it is.
      onListening: (url) => process.stdout.write(`Hearth is starting at ${url}\n`),
    });
  } catch (err) {
    if (err instanceof StoreError) {
      process.stderr.write(`hearth: ${err.message}\n${err.hint ? `  hint: ${err.hint}\n` : ''}`);
      process.exitCode = EXIT_FINDINGS;
      return;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`hearth: port ${port} on ${options.host} is in use\n  hint: choose another with --port\n`);
      process.exitCode = EXIT_FINDINGS;
      return;
    }
    throw err;
  }
  const s = server;
  if (stopping) {
    await s.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
    return;
  }
  await readyProbeAnswers(s.app);
  // With nobody to sign in yet, say how the first admin is made (with the token printed here).
  const noUsers = (await countUsers(s.db).catch(() => 1)) === 0;
  process.stdout.write(
    [
      `Hearth is ready at ${s.url}`,
      `  web UI:        ${s.url}/`,
      `  API reference: ${s.url}/docs`,
      `  storage:       ${s.db.engine} (${s.db.location})`,
      `  SSH key:       ${s.sshFingerprint} (hearth ssh-key prints it, to authorize on nodes)`,
      // Printed once, when it is made: under systemd this output lands in the journal for good.
      s.tokenSource === 'generated'
        ? `  admin token:   ${s.adminToken} (generated now and stored; it is not shown again)`
        : `  admin token:   ${s.tokenSource === 'environment' ? 'from HEARTH_ADMIN_TOKEN' : 'the one printed at first start (hearth token show prints it, with the server stopped; set HEARTH_ADMIN_TOKEN to replace it)'}`,
      ...(noUsers ? [`  users:         none yet; create the first admin with: HEARTH_SERVER=${s.url} HEARTH_TOKEN=<admin token> hearth user create <name> --role admin`] : []),
      `  ${s.bundled.note}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await settle(s.db);
}

/**
 * Once ready, the start-up's garbage is collected on both threads, so that an idle server holds
 * what it uses: the young generations start-up grew stay otherwise, empty (about 15 MB of the
 * main thread's and the database thread's, issue 30: a restart idled at 139-140 MB, not 155).
 * Once only: under load they grow again as V8 sees fit, and `bench load` ran as fast.
 */
async function settle(db: Database): Promise<void> {
  await db.settle?.().catch(() => undefined);
  collectAllGarbage();
}
