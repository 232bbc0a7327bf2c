/**
 * The deployments' live stream as the web UI reads it (issue 17): Server-Sent Events over a real
 * HTTP connection, never compressed (a browser asks for gzip and br on every request) and never
 * held back until the end: the first event of a running deployment arrives while it still runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';

const TOKEN = 'deploy-stream-token-0123456789';

describe('the live stream of a deployment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-deploy-stream-'));
  let server: RunningServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  before(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, sweepMs: 60_000 });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is not compressed, and its first event comes while the deployment runs', async () => {
    const [release] = await call('GET', '/releases');
    const catalog: Array<{ name: string; default?: boolean }> = await call('GET', `/releases/${encodeURIComponent(release.id)}/components`);
    const env = await call('POST', '/clusters', { name: 'stream', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) });
    const { ids } = await call('POST', '/nodes', { simulate: { count: 20 } });
    await call('POST', `/clusters/${env.id}/nodes`, { assignments: ids.map((id: number, i: number) => ({ node_id: id, roles: i < 3 ? ['controller', 'database', 'messaging'] : ['compute'] })) });
    // A dry run of 20 nodes takes seconds (its tasks are marked in slices, 100 ms apart).
    const started = await call('POST', `/clusters/${env.id}/deploy`, { dry_run: true });
    const res = await fetch(`${server.url}/api/v1/deployments/${started.id}/events`, { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(res.headers.get('content-encoding'), null, 'an event stream is sent as it is written, not compressed');
    assert.match(res.headers.get('cache-control') ?? '', /no-cache/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      while (!/\n\n/.test(text)) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the stream ended before its first event: ${text}`);
        text += value;
      }
      const first = /^event: deployment\ndata: (.*)$/m.exec(text);
      assert.ok(first, `a deployment event among the first: ${text.slice(0, 300)}`);
      assert.equal(JSON.parse(first[1]).status, 'running', 'the first event arrived while the deployment ran, not held back until its end');
      // Read to the end: the last event says how it ended.
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    const end = /^event: end\ndata: (.*)$/m.exec(text);
    assert.ok(end, 'an end event');
    assert.equal(JSON.parse(end[1]).status, 'succeeded');
  });
});
