/**
 * What proving who a request is costs (issue 29): the same route (GET /api/v1/version, a public
 * read, which still resolves a credential it is given) with no credential, the admin token, a
 * personal token and a session cookie, on a server started as `hearth serve` starts it (PGlite in
 * its own thread; PostgreSQL too when DATABASE_URL is set, where a cached answer is used only once
 * the server's change feed has caught up, one shared round trip, so that a revocation holds across
 * servers at once: identity.ts). The server runs in this
 * process, single-threaded: its time per request is 1 / throughput, and the added cost of a
 * credential is the difference against no credential (goal: under 0.2 ms for a personal token).
 * Variants alternate, three rounds each, medians reported. Then the components route with a
 * personal token against the trivial route with one (its share: at least 25%).
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/server/start.js';
import { buildApp } from '../src/server/app.js';
import { readPluginFolder, storePlugin } from '../src/server/domain/plugins.js';
import { openStore } from '../src/store/index.js';

const TOKEN = 'bench-admin-token-0123456789';
const seconds = Number(process.env.HEARTH_BENCH_SECONDS ?? 4);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU ms this process spent a request (server and client alike: the client's share is the same for every variant). */
const cpuPerRequest = new Map<string, number[]>();

async function rate(url: string, headers: Record<string, string>, label = ''): Promise<number> {
  const cpu = process.cpuUsage();
  const r = await autocannon({ url, duration: seconds, connections: 10, headers });
  if (r.non2xx + r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const used = process.cpuUsage(cpu);
  if (label) cpuPerRequest.set(label, [...(cpuPerRequest.get(label) ?? []), (used.user + used.system) / 1000 / r.requests.total]);
  return r.requests.average;
}

interface Served {
  url: string;
  close(): Promise<void>;
}

/** As `hearth serve` starts: PGlite in a data folder, in its own thread. */
async function pgliteServer(): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-auth-'));
  const server = await startServer({ dataDir, port: 0, adminToken: TOKEN });
  return { url: server.url, close: async () => (await server.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

/** On PostgreSQL, in a schema of its own (dropped after). */
async function postgresServer(databaseUrl: string): Promise<Served> {
  const schema = `hearth_bench_auth_${process.pid}`;
  const db = await openStore({ databaseUrl, schema });
  const app = await buildApp({ db, adminToken: TOKEN });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  await storePlugin(db, readPluginFolder(join(import.meta.dirname, '..', 'release')), { kind: 'bundled', path: join(import.meta.dirname, '..', 'release') });
  return {
    url,
    close: async () => {
      await app.close();
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

async function measure(engine: string, server: Served): Promise<void> {
  try {
    const { url } = server;
    const admin = { authorization: `Bearer ${TOKEN}` };
    const post = async (path: string, body: unknown, headers: Record<string, string> = admin) => {
      const res = await fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const name = `bench-${Date.now()}`;
    await post('/users', { name, role: 'operator', password: 'bench password' });
    const token = ((await (await post('/tokens', { name: 'bench', user: name })).json()) as { token: string }).token;
    const signedIn = await post('/session', { name, password: 'bench password' }, {});
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const variants: Array<[string, Record<string, string>]> = [
      ['no credential', {}],
      ['admin token', admin],
      ['personal token', { authorization: `Bearer ${token}` }],
      ['session cookie', { cookie }],
    ];
    const rates = new Map<string, number[]>(variants.map(([n]) => [n, []]));
    const loadBefore = loadavg()[0]!;
    cpuPerRequest.clear();
    for (let round = 0; round < 3; round++) for (const [n, headers] of variants) rates.get(n)!.push(await rate(`${url}/api/v1/version`, headers, n));
    console.log(`\n## ${engine}: GET /api/v1/version, autocannon 10 connections, ${seconds} s a run, 3 rounds alternating (medians)`);
    console.log('| credential | req/s (runs) | wall ms a request (1 / req/s) | added | CPU ms a request | added CPU ms |');
    console.log('|---|---|---|---|---|---|');
    const baseMs = 1000 / median(rates.get('no credential')!);
    const baseCpu = median(cpuPerRequest.get('no credential')!);
    for (const [n] of variants) {
      const rs = rates.get(n)!;
      const ms = 1000 / median(rs);
      const cpu = median(cpuPerRequest.get(n)!);
      const first = n === 'no credential';
      console.log(`| ${n} | ${median(rs).toFixed(0)} (${rs.map((r) => r.toFixed(0)).join(', ')}) | ${ms.toFixed(3)} | ${first ? '-' : (ms - baseMs).toFixed(3)} | ${cpu.toFixed(3)} | ${first ? '-' : (cpu - baseCpu).toFixed(3)} |`);
    }
    // Wall time per request is what 10 clients see; CPU time is what the check costs this process
    // (on PostgreSQL the rest is the database's round trip, which other requests overlap).
    const added = median(cpuPerRequest.get('personal token')!) - baseCpu;
    const addedWall = 1000 / median(rates.get('personal token')!) - baseMs;
    console.log(`personal token adds ${added.toFixed(3)} CPU ms a request (goal under 0.2 ms: ${added < 0.2 ? 'met' : 'MISSED'}), ${addedWall.toFixed(3)} ms of wall time at 10 connections; load average ${loadBefore.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);

    const release = ((await (await fetch(`${url}/api/v1/releases`)).json()) as Array<{ id: string }>)[0]!.id;
    const withToken = { authorization: `Bearer ${token}` };
    const trivial: number[] = [];
    const components: number[] = [];
    for (let round = 0; round < 2; round++) {
      trivial.push(await rate(`${url}/api/v1/version`, withToken));
      components.push(await rate(`${url}/api/v1/releases/${release}/components`, withToken));
    }
    const share = median(components) / median(trivial);
    console.log(`components with a personal token: ${median(components).toFixed(0)} req/s against ${median(trivial).toFixed(0)} for the trivial route: ${(share * 100).toFixed(1)}% (goal 25%: ${share >= 0.25 ? 'met' : 'MISSED'})`);
  } finally {
    await server.close();
  }
}

await measure('PGlite (in its own thread; answers cached in this process)', await pgliteServer());
const pg = process.env.HEARTH_TEST_DATABASE_URL || process.env.DATABASE_URL;
if (pg) await measure('PostgreSQL (answers cached; the change feed caught up before each is used)', await postgresServer(pg));
