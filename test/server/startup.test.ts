/**
 * A server listens before its start-up work is done (startup.ts): on a first start (an empty data
 * folder, where creating the database takes seconds), `/healthz` answers at once, `/readyz` says
 * "starting" until the database is open, migrated and the bundled release installed, and a data
 * request sent meanwhile waits for that work and is answered, not refused. `hearth serve` says
 * "Hearth is starting at URL" as it listens and "Hearth is ready at URL" once `/readyz` answers 200.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hearthBin } from '../support/serve.js';
import { ready, serveProcess, stop, type ServeProcess } from '../support/serve-process.js';

const built = existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js'));
const TOKEN = 'startup-test-token-0123456789';

test('first start: /healthz at once, /readyz "starting" then ready, and early requests wait instead of failing', { skip: built ? false : 'dist/ is not built (npm run build)' }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-startup-'));
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', join(dataDir, 'data')], {
    env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const look = () => {
        const m = /Hearth is starting at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      };
      child.stdout.on('data', look);
      child.once('exit', (code) => reject(new Error(`hearth serve exited with ${code}:\n${out}`)));
    });
    assert.doesNotMatch(out, /Press Ctrl-C/, 'the address is printed before the start-up work is done');
    // "starting", not "serving": a newcomer's first request would otherwise wait seconds unexplained.
    assert.doesNotMatch(out, /Hearth is (serving|ready)/, `nothing says ready before /readyz does:\n${out}`);
    const readySaid = new Promise<number>((resolve, reject) => {
      const look = () => {
        if (!/Hearth is ready at http:\/\/127\.0\.0\.1:\d+/.test(out)) return;
        child.stdout.off('data', look);
        // Asked the moment the line is read: it must already answer 200.
        fetch(`${url}/readyz`).then((r) => resolve(r.status), reject);
      };
      child.stdout.on('data', look);
      look();
    });
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200, 'the liveness probe answers while the server starts');
    const ready = await fetch(`${url}/readyz`);
    const readyBody = (await ready.json()) as { code?: string; status?: string };
    assert.equal(ready.status, 503, `a first start is still creating its database: ${JSON.stringify(readyBody)}`);
    assert.equal(readyBody.code, 'server/starting');
    // oslo.middleware's /healthcheck says the same, at once, as text.
    const check = await fetch(`${url}/healthcheck`);
    assert.equal(check.status, 503);
    assert.match(await check.text(), /^starting/);
    // Sent while starting: answered once the work is done, with the bundled release installed at first start.
    const releases = await fetch(`${url}/api/v1/releases`);
    assert.equal(releases.status, 200);
    const list = (await releases.json()) as Array<{ id: string }>;
    assert.ok(list.length >= 1, 'the bundled release is there for a request that came early');
    // A change sent early needs the token settled at start-up, and gets it.
    const refused = await fetch(`${url}/api/v1/nodes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(refused.status, 401);
    const readyNow = await fetch(`${url}/readyz`);
    assert.equal(readyNow.status, 200);
    assert.equal(((await readyNow.json()) as { status: string }).status, 'ready');
    assert.equal(await (await fetch(`${url}/healthcheck`)).text(), 'OK');
    assert.equal(await readySaid, 200, `/readyz answers 200 once "ready at" is printed:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /Press Ctrl-C/, `the rest of the banner follows once ready:\n${out}`);
    assert.ok(out.indexOf('Hearth is starting at') < out.indexOf('Hearth is ready at') && out.indexOf('Hearth is ready at') < out.indexOf('Press Ctrl-C'), out);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('SIGTERM while a first start is still creating its database: a clean stop, the lock released, the next start works', { skip: built ? false : 'dist/ is not built (npm run build)', timeout: 300_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-startup-'));
  const data = join(dataDir, 'data');
  const running: ServeProcess[] = [];
  try {
    const first = await serveProcess(data, { HEARTH_ADMIN_TOKEN: TOKEN });
    running.push(first);
    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));
    // At once: a first start creates its database for seconds after it listens.
    first.child.kill('SIGTERM');
    // Bounded: a server that ignores the signal fails here, and finally kills it.
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running after 90 s'), 90_000).unref())]);
    assert.equal(code, 0, `a clean stop:\n${first.output()}`);
    assert.match(first.output(), /SIGTERM: stopping Hearth/);
    assert.doesNotMatch(first.output(), /Hearth is ready at/, 'the stop came before the start was done');
    assert.deepEqual(readdirSync(data).filter((f) => f.includes('lock')), [], 'no lock left in the data folder');
    // The same data folder starts again and serves the bundled release.
    const second = await serveProcess(data, { HEARTH_ADMIN_TOKEN: TOKEN });
    running.push(second);
    await ready(second);
    const releases = (await (await fetch(`${second.url}/api/v1/releases`)).json()) as unknown[];
    assert.ok(releases.length >= 1, `the bundled release is there after the interrupted first start:\n${second.output()}`);
  } finally {
    for (const s of running) await stop(s, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
