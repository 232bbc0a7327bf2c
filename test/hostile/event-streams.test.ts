/**
 * A deployment's live stream (GET /deployments/:id/events) against clients that abuse it
 * (issue 24, items 8 and 20), on a real server over real sockets:
 * - many streams from one address: past the limit they are refused with 429 `stream/too-many`,
 *   the database is polled once per deployment however many follow it, and other reads stay fast;
 * - a client that never reads, over a real deployment printing 100 MB (test host 17): the server's
 *   memory stays bounded and the client is dropped instead of being sent everything.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { STREAMS_PER_ADDRESS } from '../../src/server/domain/runs/deployment-events.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, testHosts } from '../support/test-hosts.js';
import { allowedWait } from './harness.js';

const TOKEN = 'event-streams-token-0123456789';
const hosts = testHosts();

async function call(server: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Opens a stream on a raw socket and answers its status line once the headers arrived; the socket is then paused (nothing more is read). */
function openStream(server: RunningServer, path: string): Promise<{ socket: Socket; status: number; head: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let head = '';
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', function onData(text: string) {
      head += text;
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), head });
    });
    socket.write(`GET /api/v1${path} HTTP/1.1\r\nhost: ${url.host}\r\naccept: text/event-stream\r\n\r\n`);
  });
}

describe('many event streams from one address', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-streams-'));
  let server: RunningServer;
  const sockets: Socket[] = [];
  after(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('past the limit they are refused with 429; one poll per deployment; other reads stay fast', async () => {
    // A slow dry run (one task every 300 ms) stays running while the streams are open.
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, sweepMs: 60_000, deploy: { sliceDelayMs: 300, sliceSize: 1 } });
    const [release] = (await call(server, 'GET', '/releases')).body;
    const catalog: Array<{ name: string; default?: boolean }> = (await call(server, 'GET', `/releases/${encodeURIComponent(release.id)}/components`)).body;
    const env = (await call(server, 'POST', '/clusters', { name: 'streams', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) })).body;
    const { ids } = (await call(server, 'POST', '/nodes', { simulate: { count: 3 } })).body;
    await call(server, 'POST', `/clusters/${env.id}/nodes`, { assignments: ids.map((id: number) => ({ node_id: id, roles: ['controller', 'database', 'messaging'] })) });
    const started = await call(server, 'POST', `/clusters/${env.id}/deploy`, { dry_run: true });
    assert.equal(started.status, 202, JSON.stringify(started.body));

    // How long GET /clusters takes on this machine now, with no stream open.
    const allowed = await allowedWait(async () => assert.equal((await call(server, 'GET', '/clusters')).status, 200));

    // Every query the server makes, to count the streams' polls.
    const polls: number[] = [];
    const db = server.db as { query: (sql: string, params?: readonly unknown[]) => Promise<unknown[]> };
    const query = db.query.bind(db);
    db.query = (sql, params) => {
      if (/FROM deployment_tasks\s+WHERE deployment_id = \$1 AND \(started_at >/.test(sql)) polls.push(Date.now());
      return query(sql, params);
    };

    const answers = [];
    for (let i = 0; i < 100; i++) {
      const s = await openStream(server, `/deployments/${started.body.id}/events`);
      sockets.push(s.socket);
      answers.push(s);
    }
    const admitted = answers.filter((a) => a.status === 200).length;
    assert.equal(admitted, STREAMS_PER_ADDRESS, `${STREAMS_PER_ADDRESS} streams admitted, the rest refused`);
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(refused.length, 100 - STREAMS_PER_ADDRESS);
    assert.match(refused[0].head, /"code":"stream\/too-many"/);
    assert.match(refused[0].head, /"hint":/);

    // 16 followers of one deployment for 3 s: one feed's polls (one each 500 ms), not 16 times as many.
    const from = Date.now();
    polls.length = 0;
    const timings: number[] = [];
    while (Date.now() - from < 3000) {
      const t0 = performance.now();
      assert.equal((await call(server, 'GET', '/clusters')).status, 200);
      timings.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - from) / 1000;
    assert.ok(polls.length <= seconds * 2 + 3, `${polls.length} polls of the tasks in ${seconds.toFixed(1)} s with ${admitted} streams open: one shared poll each 500 ms`);
    const slowest = Math.max(...timings);
    assert.ok(slowest < allowed.bound, `GET /clusters with the streams open: ${allowed.describe(slowest)}`);

    // Closed streams give their places back.
    for (const s of sockets.splice(0)) s.destroy();
    const until = Date.now() + 10_000;
    let again = await openStream(server, `/deployments/${started.body.id}/events`);
    while (again.status !== 200 && Date.now() < until) {
      again.socket.destroy();
      await new Promise((r) => setTimeout(r, 100));
      again = await openStream(server, `/deployments/${started.body.id}/events`);
    }
    sockets.push(again.socket);
    assert.equal(again.status, 200, 'a stream is admitted again once the others closed');
  });
});

/** This file's own test host (test/support/test-hosts.ts lists who uses which). */
const HOST = 23;

const GRAPH = `
- id: loud
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "head -c 100000000 /dev/zero | tr '\\\\0' x | fold -w 120", timeout: 600}
`;

describe('a client that never reads its stream', { skip: hosts && hosts.addresses.length >= HOST ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-slow-stream-'));
  let server: RunningServer;
  let socket: Socket | undefined;
  after(async () => {
    socket?.destroy();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is dropped, and the server does not keep what it did not read (100 MB printed)', async () => {
    const made = createPlugin('loud', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'loud-release', 'graphs', 'deployment.yaml'), GRAPH);
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    assert.equal((await call(server, 'POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call(server, 'GET', '/releases')).body[0].id;
    const env = await call(server, 'POST', '/clusters', { name: 'loud', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    const node = await call(server, 'POST', '/nodes', { address: hosts!.addresses[HOST - 1], cluster_id: env.body.id });
    assert.equal(node.status, 201, JSON.stringify(node.body));
    assert.equal((await call(server, 'POST', `/clusters/${env.body.id}/nodes`, { assignments: [{ node_id: node.body.node.id, roles: ['controller'] }] })).status, 200);

    global.gc?.();
    const before = process.memoryUsage().rss;
    const started = await call(server, 'POST', `/clusters/${env.body.id}/deploy`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const stream = await openStream(server, `/deployments/${started.body.id}/events`);
    socket = stream.socket;
    assert.equal(stream.status, 200);
    let peak = before;
    const t0 = Date.now();
    for (;;) {
      peak = Math.max(peak, process.memoryUsage().rss);
      const d = (await call(server, 'GET', `/deployments/${started.body.id}`)).body;
      if (d.status !== 'running') {
        assert.equal(d.status, 'succeeded', JSON.stringify(d));
        break;
      }
      assert.ok(Date.now() - t0 < 300_000, 'the deployment ended within 5 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const grown = (peak - before) / 1024 / 1024;
    // Now read what the server still sends.
    let received = 0;
    let tail = '';
    const ended = await new Promise<string>((resolve) => {
      stream.socket.setEncoding('latin1');
      stream.socket.on('data', (text: string) => {
        received += text.length;
        tail = (tail + text).slice(-2000);
        // The response's last chunk: the stream is over, though the connection may stay open for
        // the next request (keep-alive) until the server's idle timeout.
        if (tail.endsWith('\r\n0\r\n\r\n')) resolve('response end');
      });
      stream.socket.on('end', () => resolve('end'));
      stream.socket.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
      stream.socket.on('close', () => resolve('close'));
      stream.socket.resume();
    });
    const mb = received / 1024 / 1024;
    console.log(`# RSS grew ${grown.toFixed(0)} MB while 100 MB were printed; the client received ${mb.toFixed(1)} MB, then ${ended}`);
    assert.ok(grown < 300, `the server grew by ${grown.toFixed(0)} MB for a client that read nothing`);
    assert.ok(mb < 30, `the slow client was sent ${mb.toFixed(1)} MB of 100: it should have been dropped`);
    assert.doesNotMatch(tail, /event: end\n/, 'the dropped client did not get the rest of the stream');
    if (/event: dropped/.test(tail)) assert.match(tail, /stream\/too-slow/);
  });
});
