/**
 * What an operator gets from a running server: a structured log with request ids that the answers
 * carry too, no secret ever in it, failures logged with their stack, health probes, and the admin
 * token printed only when it is made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/server/app.js';
import { maskUrl, prettyLine } from '../../src/server/log.js';
import { startServer } from '../support/serve.js';
import { engines } from './support/engines.js';
import { TOKEN } from './support/app.js';
import { repoRoot } from '../hostile/harness.js';

const hearthBin = join(repoRoot, 'bin', 'hearth');

test('every request is logged as JSON with its id, which the answer carries; no token is ever logged', async () => {
  const secret = `s3cret-${Date.now()}-abcdefghijkl`;
  const server = await startServer({ env: { HEARTH_ADMIN_TOKEN: secret } });
  try {
    assert.doesNotMatch(server.output(), new RegExp(secret), 'the token from the environment is not printed');
    const res = await fetch(`${server.url}/api/v1/nodes`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-id': 'trace-42' }, body: JSON.stringify({ simulate: { count: 1 } }) });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-request-id'), 'trace-42', "a client's own plain id is kept");
    const refused = await fetch(`${server.url}/api/v1/releases?token=${secret}`);
    assert.equal(refused.status, 400);
    const id = refused.headers.get('x-request-id');
    assert.match(id ?? '', /^[0-9a-f]{12}$/);
    const hostile = await fetch(`${server.url}/api/v1/releases`, { headers: { 'x-request-id': 'bad id {"level":60}' } });
    assert.match(hostile.headers.get('x-request-id') ?? '', /^[0-9a-f]{12}$/, 'an id with spaces or line breaks is replaced');
    await new Promise((r) => setTimeout(r, 300));
    const records = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);
    const mine = records.filter((r) => r.reqId === 'trace-42');
    assert.ok(mine.some((r) => r.req?.method === 'POST' && r.req?.url === '/api/v1/nodes'), 'the request is logged');
    assert.ok(mine.some((r) => r.res?.statusCode === 201 && typeof r.responseTime === 'number'), 'its answer is logged');
    assert.ok(records.some((r) => r.reqId === id && /\[redacted\]/.test(r.req?.url ?? '')), 'a token in a URL is masked');
    assert.doesNotMatch(server.output(), new RegExp(secret), 'the token appears nowhere in the log');
  } finally {
    await server.stop();
  }
});

test('the admin token is printed when it is generated, and never again', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-token-'));
  const env = { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: '' };
  const start = () =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no start in 60 s:\n${out}`));
      }, 60_000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Press Ctrl-C')) child.kill('SIGTERM');
      });
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(out);
      });
    });
  try {
    const first = await start();
    const token = /admin token:\s+(hearth_\S+)/.exec(first)?.[1];
    assert.ok(token, `the first start prints the token:\n${first}`);
    const second = await start();
    assert.match(second, /admin token:\s+the one printed at first start/);
    assert.ok(!second.includes(token), 'a restart does not print it');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('health probes answer without the token, even under --protect-reads', async () => {
  const server = await startServer({ args: ['--protect-reads'] });
  try {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as { status: string; engine: string; schema: number };
    assert.equal(body.status, 'ready');
    assert.equal(body.engine, 'pglite');
    assert.ok(body.schema >= 1);
    assert.equal((await fetch(`${server.url}/api/v1/releases`)).status, 401);
  } finally {
    await server.stop();
  }
});

test('a failure is a 500 that names its request id, and the log has its stack under that id', async () => {
  const [engine] = engines();
  const db = await engine.open();
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({ db, adminToken: TOKEN, logger: { level: 'info', format: 'json', destination } });
  // A route that fails as a bug would: the handler throws something no one mapped to an answer.
  app.get('/api/v1/test-failure', { config: { access: 'read' } }, async () => {
    throw new TypeError('cannot read properties of undefined (reading "roles")');
  });
  try {
    const res = await app.inject({ method: 'GET', url: '/api/v1/test-failure' });
    assert.equal(res.statusCode, 500);
    const body = res.json();
    assert.equal(body.code, 'server/internal');
    assert.equal(body.details.request_id, res.headers['x-request-id']);
    assert.match(body.message, new RegExp(body.details.request_id));
    assert.doesNotMatch(res.body, /reading "roles"|at .*:\d+:\d+/, 'no internals in the answer');
    const logged = lines.map((l) => JSON.parse(l)).find((r) => r.reqId === body.details.request_id && r.level === 50);
    assert.ok(logged, `the failure is logged at error level:\n${lines.join('\n')}`);
    assert.match(logged.err.stack, /TypeError: cannot read properties/);
  } finally {
    await app.close();
    await db.close();
    await engine.dispose();
  }
});

test('bad log options are usage errors', async () => {
  for (const args of [['--log-level', 'loud'], ['--log-format', 'xml']]) {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', ...args], { stdio: 'ignore', env: { ...process.env, DATABASE_URL: '' } });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 2, args.join(' '));
  }
});

test('readable lines on a terminal; secrets masked in URLs', () => {
  const line = prettyLine({ level: 30, time: Date.UTC(2026, 0, 1, 12, 0, 0), reqId: 'abc', msg: 'request completed', res: { statusCode: 201 }, responseTime: 3.21 });
  assert.match(line, /^12:00:00\.000 INFO {2}\[abc\] request completed → 201 3\.2 ms\n$/);
  // A '#' in a request line is part of the value (the server reads it so): masked with it.
  assert.equal(maskUrl('/api/v1/x?a=1&token=abc&API_KEY=zz#f'), '/api/v1/x?a=1&token=[redacted]&API_KEY=[redacted]');
});
