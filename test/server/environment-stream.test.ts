/**
 * An environment's live stream (GET /clusters/:id/events, issue 25) across two servers sharing one
 * PostgreSQL, as a browser open on one server sees changes made through the other: the current
 * state first (the environment, each node, the latest deployment), then a deployment started
 * through the other server (running, then ended), a rename, a node leaving, a node found offline
 * (its status written by the other server's reachability check). Real servers on real sockets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/index.js';
import { testDatabaseUrl } from './support/engines.js';

const TOKEN = 'environment-stream-token-0123456789';

interface Event {
  event: string;
  data: any;
}

/** Reads a stream's events as they come; `until` waits (bounded) for one that matches. */
function reader(res: Response) {
  const events: Event[] = [];
  const r = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let closed = false;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await r.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const b of blocks) {
        const event = /^event: (.*)$/m.exec(b)?.[1];
        const data = /^data: (.*)$/m.exec(b)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
    closed = true;
  })();
  return {
    events,
    async until(what: string, match: (e: Event) => boolean, ms = 30_000): Promise<Event> {
      const end = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (closed || Date.now() > end) throw new Error(`no ${what} in ${ms} ms; events so far: ${JSON.stringify(events.map((e) => [e.event, e.data.id, e.data.status]))}`);
        await new Promise((f) => setTimeout(f, 50));
      }
    },
    async close() {
      await r.cancel().catch(() => undefined);
      await pump;
    },
  };
}

describe('the live stream of an environment, two servers on one PostgreSQL', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set' }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-env-stream-'));
  const schema = `hearth_es_${randomBytes(5).toString('hex')}`;
  const servers: RunningServer[] = [];
  const call = async (server: RunningServer, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  before(async () => {
    // One after the other: the first installs the bundled release in the shared database.
    for (const name of ['a', 'b']) servers.push(await startServer({ port: 0, host: '127.0.0.1', dataDir: join(work, name), databaseUrl: testDatabaseUrl!, schema, adminToken: TOKEN, sweepMs: 60_000, deploy: { sliceDelayMs: 150, sliceSize: 5 } }));
  });
  after(async () => {
    for (const s of servers) await s.close();
    const db = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('a page on one server sees what the other server did, without asking again', { timeout: 120_000 }, async () => {
    const [a, b] = servers;
    const [release] = await call(a, 'GET', '/releases');
    const env = await call(a, 'POST', '/clusters', { name: 'streamed', release_id: release.id });
    const { ids } = await call(a, 'POST', '/nodes', { simulate: { count: 3, prefix: 'es' } });
    await call(a, 'POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller', 'database', 'messaging'] }, { node_id: ids[1], roles: ['compute'] }, { node_id: ids[2], roles: ['compute'] }] });

    const res = await fetch(`${a.url}/api/v1/clusters/${env.id}/events`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const stream = reader(res);
    try {
      // The current state first.
      const first = await stream.until('environment event', (e) => e.event === 'environment');
      assert.equal(first.data.id, env.id);
      assert.equal(first.data.status, 'new');
      assert.equal(first.data.nodes, 3);
      for (const id of ids) await stream.until(`node ${id}`, (e) => e.event === 'node' && e.data.id === id && e.data.status === 'discover' && e.data.cluster_id === env.id);

      // A deployment started through the other server: seen running, then ended.
      const started = await call(b, 'POST', `/clusters/${env.id}/deploy`, { dry_run: true });
      const running = await stream.until('the run, running', (e) => e.event === 'deployment' && e.data.id === started.id && e.data.status === 'running');
      assert.equal(running.data.mode, 'dry-run');
      assert.equal(running.data.graph_type, 'default');
      const ended = await stream.until('the run, ended', (e) => e.event === 'deployment' && e.data.id === started.id && e.data.status !== 'running');
      assert.equal(ended.data.status, 'succeeded');
      assert.equal(ended.data.done, ended.data.counts.succeeded);

      // A rename through the other server.
      await call(b, 'PATCH', `/clusters/${env.id}`, { name: 'streamed-renamed' });
      await stream.until('the rename', (e) => e.event === 'environment' && e.data.name === 'streamed-renamed');

      // A node found offline by the other server's reachability check (its row says so).
      await b.db.query("UPDATE nodes SET status_before = status, status = 'offline' WHERE id = $1", [ids[1]]);
      await stream.until('the node offline', (e) => e.event === 'node' && e.data.id === ids[1] && e.data.status === 'offline');

      // A node leaving the environment: sent once more, no longer in it.
      await call(b, 'POST', `/clusters/${env.id}/nodes/unassign`, { node_ids: [ids[2]] });
      await stream.until('the node gone', (e) => e.event === 'node' && e.data.id === ids[2] && e.data.cluster_id === null);
      await stream.until('the node count', (e) => e.event === 'environment' && e.data.nodes === 2);

      // A second page joining late gets the current state at once, from the same feed.
      const late = reader(await fetch(`${a.url}/api/v1/clusters/${env.id}/events`, { headers: { authorization: `Bearer ${TOKEN}` } }));
      try {
        const now = await late.until('the environment', (e) => e.event === 'environment', 5_000);
        assert.equal(now.data.name, 'streamed-renamed');
        await late.until('the last run', (e) => e.event === 'deployment' && e.data.id === started.id && e.data.status === 'succeeded', 5_000);
        await late.until('the offline node', (e) => e.event === 'node' && e.data.id === ids[1] && e.data.status === 'offline', 5_000);
        assert.ok(!late.events.some((e) => e.event === 'node' && e.data.id === ids[2]), 'a node that left is not in the snapshot');
      } finally {
        await late.close();
      }

      // Deleted: the stream ends, saying so.
      await call(b, 'DELETE', `/clusters/${env.id}`);
      const end = await stream.until('the end', (e) => e.event === 'end');
      assert.equal(end.data.deleted, true);
    } finally {
      await stream.close();
    }
  });

  test('an environment that does not exist is a 404 with a code', async () => {
    const res = await fetch(`${servers[0].url}/api/v1/clusters/999999/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { code: string }).code, "cluster/not-found");
  });
});
