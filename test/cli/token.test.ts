/**
 * `hearth token show | reset`, offline against the data folder, for an admin token that scrolled
 * away: refused while a server holds the folder (nothing changed), the stored token printed, a new
 * one made that the next start takes and the old one refused. The built `bin/hearth`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hearthBin, startServer } from '../support/serve.js';

const TOKEN = 'token-test-first-0123456789';

function hearth(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: '', ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const tokenAccepted = async (url: string, token: string) => (await fetch(`${url}/api/v1/token`, { headers: { authorization: `Bearer ${token}` } })).status;

test('hearth token show and reset: refused while a server runs, then the stored token, then a new one the next start takes', { timeout: 300_000 }, async () => {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-token-'));
  const dataDir = join(parent, 'data');
  try {
    const server = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    try {
      for (const command of ['show', 'reset']) {
        const refused = hearth(['token', command, '--data-dir', dataDir]);
        assert.equal(refused.status, 1, `token ${command} while a server runs: ${refused.stderr}`);
        assert.match(refused.stderr, /another Hearth server \(pid \d+\) is using the data folder/);
        assert.match(refused.stderr, /hint: Stop that server/);
        assert.equal(refused.stdout, '');
      }
      assert.equal(await tokenAccepted(server.url, TOKEN), 200, 'the running server still takes its token');
    } finally {
      await server.stop();
    }

    const shown = hearth(['token', 'show', '--data-dir', dataDir]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.equal(shown.stdout, `${TOKEN}\n`);

    const reset = hearth(['token', 'reset', '--data-dir', dataDir]);
    assert.equal(reset.status, 0, reset.stderr);
    const fresh = reset.stdout.trim();
    assert.match(fresh, /^hearth_[A-Za-z0-9_-]{32}$/);
    assert.match(reset.stderr, /replaced/);
    assert.equal(hearth(['token', 'show', '--data-dir', dataDir]).stdout, `${fresh}\n`);

    // The next start (no HEARTH_ADMIN_TOKEN) takes the new token; the old one is refused.
    const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`hearth serve did not get ready:\n${out}`)), 120_000);
        const look = (d: Buffer) => {
          out += d;
          const m = /Hearth is ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        };
        child.stdout.on('data', look);
        child.stderr.on('data', look);
        child.once('exit', (code) => reject(new Error(`hearth serve exited with ${code}:\n${out}`)));
      });
      assert.equal(await tokenAccepted(url, fresh), 200);
      assert.equal(await tokenAccepted(url, TOKEN), 401);
      assert.match(out, /hearth token show/, 'the banner says how to see the token again');
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }

    // A folder that is not there is a mistake, not a database to create.
    const missing = hearth(['token', 'show', '--data-dir', join(parent, 'nowhere')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no Hearth data folder at .*nowhere/);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('hearth serve --help says how to see or replace the admin token', () => {
  const help = hearth(['serve', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /hearth token show/);
  assert.match(help.stdout, /hearth token reset/);
});
