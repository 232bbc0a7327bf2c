/**
 * `hearth user …` and `hearth token create | list | revoke` (issue 29) against a real server: the
 * first admin made with the admin token and --password-stdin, a personal token printed alone on
 * stdout and used as HEARTH_TOKEN, its role and revocation, a refused password prompt without a
 * terminal. The CLI runs from its sources (tsx), so no build is needed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { tempFolder } from '../support/temp.js';

const TOKEN = 'accounts-cli-admin-token-0123456789';
const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
let server: RunningServer;

/** The CLI, run without blocking: the server answering it runs in this process. */
function hearth(args: string[], options: { token?: string; input?: string } = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: options.token ?? TOKEN } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(options.input ?? '');
  });
}

before(async () => {
  const dataDir = tempFolder('hearth-accounts-cli-');
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDist: join(dataDir, 'no-web-ui'), adminToken: TOKEN, sweepMs: 60_000 });
});
after(async () => server?.close());

test('an admin creates users from a script; a user\'s token is printed once, acts with its role, and stops at revocation', { timeout: 600_000 }, async () => {
  const noTerminal = await hearth(['user', 'create', 'alice', '--role', 'admin']);
  assert.equal(noTerminal.code, 2, noTerminal.err);
  assert.match(noTerminal.err, /--password-stdin/);

  const created = await hearth(['user', 'create', 'alice', '--role', 'operator', '--password-stdin'], { input: 'alice password\n' });
  assert.equal(created.code, 0, created.err);
  assert.match(created.out, /created operator 'alice'/);
  const signIn = await fetch(`${server.url}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'alice', password: 'alice password' }) });
  assert.equal(signIn.status, 200, 'the trailing newline of stdin is not part of the password');
  assert.equal((await hearth(['user', 'create', 'alice', '--role', 'viewer', '--password-stdin'], { input: 'other password' })).code, 1, 'a name taken');
  const bad = await hearth(['user', 'create', 'bob', '--role', 'boss', '--password-stdin'], { input: 'bob password' });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--role must be viewer, operator or admin, not 'boss'/);

  const first = await hearth(['token', 'create', 'laptop', '--sign-in', 'alice', '--password-stdin'], { token: '', input: 'alice password\n' });
  assert.equal(first.code, 0, `a first token by signing in, with no HEARTH_TOKEN: ${first.err}`);
  assert.match(first.err, /token 'laptop' of alice, role operator, no expiry/);
  const wrongPassword = await hearth(['token', 'create', 'other', '--sign-in', 'alice', '--password-stdin'], { token: '', input: 'not it' });
  assert.equal(wrongPassword.code, 1);
  assert.match(wrongPassword.err, /auth\/sign-in-failed/);
  // With her own token now: a lesser one for a script.
  const made = await hearth(['token', 'create', 'ci', '--role', 'viewer', '--expires', '30d'], { token: first.out.trim() });
  assert.equal(made.code, 0, made.err);
  const token = made.out.trim();
  assert.match(token, /^hearth_pt_[A-Za-z0-9_-]{43}$/, 'the token alone on stdout');
  assert.match(made.err, /role viewer, expires 20/);

  const listed = await hearth(['token', 'list'], { token });
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, /^ci\s+alice\s+viewer\s+20\S+\s+\S+/m);
  assert.ok(!listed.out.includes(token), 'never the token itself');
  const asViewer = await hearth(['user', 'list'], { token });
  assert.equal(asViewer.code, 1);
  assert.match(asViewer.err, /auth\/forbidden: this needs the admin role; alice through the token 'ci' has viewer/);

  const users = await hearth(['user', 'list', '--json']);
  assert.deepEqual(JSON.parse(users.out).map((u: { name: string; role: string }) => [u.name, u.role]), [['alice', 'operator']]);
  assert.equal((await hearth(['user', 'set-role', 'alice', 'admin'])).code, 0);
  assert.equal((await hearth(['user', 'list'], { token })).code, 1, 'the token keeps its own lesser role');

  const revoked = await hearth(['token', 'revoke', 'ci'], { token });
  assert.equal(revoked.code, 0, revoked.err);
  const refused = await hearth(['token', 'list'], { token });
  assert.equal(refused.code, 1);
  assert.match(refused.err, /auth\/token-revoked/);

  // Her own password, with her own token: the current one first, then the new one.
  const mine = { token: first.out.trim() };
  const oneLine = await hearth(['user', 'passwd', '--password-stdin'], { ...mine, input: 'alice password\n' });
  assert.equal(oneLine.code, 2, oneLine.err);
  assert.match(oneLine.err, /current password on the first line and the new one on the second/);
  const notHers = await hearth(['user', 'passwd', '--password-stdin'], { ...mine, input: 'not it\nalice second password\n' });
  assert.equal(notHers.code, 1);
  assert.match(notHers.err, /user\/wrong-password/);
  const own = await hearth(['user', 'passwd', '--password-stdin'], { ...mine, input: 'alice password\nalice second password\n' });
  assert.equal(own.code, 0, own.err);
  assert.match(own.out, /your password is changed/);
  const again = await fetch(`${server.url}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'alice', password: 'alice second password' }) });
  assert.equal(again.status, 200, 'she signs in with the new one');

  assert.equal((await hearth(['user', 'passwd', 'alice', '--password-stdin'], { input: 'a new password\n' })).code, 0);
  assert.equal((await hearth(['user', 'disable', 'alice'])).code, 0);
  assert.match((await hearth(['user', 'list'])).out, /^alice\s+admin\s+yes/m);
  assert.equal((await hearth(['user', 'delete', 'alice'])).code, 0);
  assert.match((await hearth(['user', 'list'])).out, /no users yet: hearth user create <name> --role admin/);
});
