/**
 * Links out of a registered plugin folder (issue 24, item 2), on a real `hearth serve` with its own
 * data folder and SSH key, with and without --protect-reads: a folder with `x -> /` or a link to
 * the server's private key is refused at registration and at sync with a finding naming the file,
 * and a link added after registration (the folder is live) is never served: the repository answers
 * the same 404 as for a missing file, however the path is spelled. Requests go over a raw socket
 * with the path exactly as written (`fetch` would tidy `..` away).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../support/serve.js';
import { repoRoot } from './harness.js';
import { rawRequest, type Answer } from './raw-request.js';

const built = existsSync(join(repoRoot, 'dist', 'server', 'start.js'));
const skip = built ? false : 'the server is not built: run `npm run build`';

function send(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return rawRequest(port, method, path, headers, body, hostname);
}

/** A skeleton plugin `name` with a package file in its repository and a link to it (both fine). */
function pluginFolder(root: string, name: string): { dir: string; repo: string } {
  const created = createPlugin(name, { parentDir: root });
  if (!created.ok || !created.dir) throw new Error(`could not create ${name}: ${JSON.stringify(created.findings)}`);
  const repo = join(created.dir, 'repositories', 'ubuntu');
  writeFileSync(join(repo, 'tool_1.0_all.deb'), 'a package of the plugin\n');
  symlinkSync('tool_1.0_all.deb', join(repo, 'alias.deb'));
  return { dir: created.dir, repo };
}

/** The links of the attack, added to a repository folder. */
function addLinks(repo: string, dataDir: string): void {
  symlinkSync('/', join(repo, 'root'));
  symlinkSync('/etc', join(repo, 'etc'));
  symlinkSync(join(dataDir, 'ssh', 'id_ed25519'), join(repo, 'key'));
  symlinkSync(join(dataDir, 'ssh'), join(repo, 'ssh'));
}

/** Every spelling of a path to what the links lead to, or by `..` to the data folder's key. */
const hostilePaths = (dataDir: string): string[] => {
  const up = '..%2f'.repeat(20);
  return [
    'root/etc/passwd',
    'root/etc/shadow',
    'etc/passwd',
    'key',
    'ssh/id_ed25519',
    'root%2fetc%2fpasswd',
    'key%2f',
    `${up}etc%2fpasswd`,
    `${up.toUpperCase()}etc%2Fshadow`,
    `${'%2e%2e/'.repeat(20)}etc/passwd`,
    'alias.deb/..%2f..%2fkey',
    `${up}${dataDir.split('/').filter(Boolean).join('%2f')}%2fssh%2fid_ed25519`,
    'root',
    'ssh',
  ];
};

for (const mode of [{ name: 'open reads', args: [] as string[] }, { name: '--protect-reads', args: ['--protect-reads'] }]) {
  describe(`links out of a registered plugin folder (${mode.name})`, { skip }, () => {
    const root = mkdtempSync(join(tmpdir(), 'hearth-plugin-links-'));
    let server: RunningServer;
    let key: string;
    const auth = () => ({ authorization: `Bearer ${server.token}` });

    before(async () => {
      server = await startServer({ args: mode.args });
      key = readFileSync(join(server.dataDir, 'ssh', 'id_ed25519'), 'utf8');
      assert.match(key, /PRIVATE KEY/);
    });

    after(async () => {
      await server?.stop();
      rmSync(root, { recursive: true, force: true });
    });

    test('registering a folder whose repository holds links to / and to the server key is refused, each link named', async () => {
      const { dir, repo } = pluginFolder(root, 'linked');
      addLinks(repo, server.dataDir);
      const res = await send(server.url, 'POST', '/api/v1/plugins/folders', auth(), JSON.stringify({ path: dir }));
      assert.equal(res.status, 400, res.body);
      const answer = JSON.parse(res.body) as { code: string; details?: { findings?: Array<{ code: string; file?: string; message: string; hint?: string }> } };
      assert.equal(answer.code, 'plugin/invalid');
      const links = (answer.details?.findings ?? []).filter((f) => f.code === 'path/link-outside-plugin');
      assert.deepEqual(links.map((f) => f.file).sort(), ['repositories/ubuntu/etc', 'repositories/ubuntu/key', 'repositories/ubuntu/root', 'repositories/ubuntu/ssh']);
      for (const f of links) assert.ok(f.hint && f.message.includes(f.file!), JSON.stringify(f));
      assert.equal(JSON.parse((await send(server.url, 'GET', '/api/v1/plugins', auth())).body).some((p: { name: string }) => p.name === 'linked'), false);
    });

    test('links added after registration are never served: the same 404 as a missing file, for every spelling; sync refuses the folder', async () => {
      const { dir, repo } = pluginFolder(root, 'live');
      const registered = await send(server.url, 'POST', '/api/v1/plugins/folders', auth(), JSON.stringify({ path: dir }));
      assert.equal(registered.status, 201, registered.body);
      const base = '/plugins/live-1.0.0/repositories/';
      // The plugin's own files are served without a token, a link inside the repository too.
      for (const file of ['tool_1.0_all.deb', 'alias.deb']) {
        const own = await send(server.url, 'GET', base + file);
        assert.equal(own.status, 200, `${file}: ${own.body}`);
        assert.equal(own.body, 'a package of the plugin\n');
      }
      addLinks(repo, server.dataDir);
      const missing = await send(server.url, 'GET', `${base}no-such.deb`);
      assert.equal(missing.status, 404);
      const missingCode = (JSON.parse(missing.body) as { code: string }).code;
      for (const spelled of hostilePaths(server.dataDir)) {
        const path = base + spelled;
        for (const headers of [{}, auth()]) {
          const res = await send(server.url, 'GET', path, headers);
          assert.equal(res.status, 404, `${path}: ${res.status} ${res.body.slice(0, 200)}`);
          assert.equal((JSON.parse(res.body) as { code: string }).code, missingCode, path);
          assert.doesNotMatch(res.body, /root:[^:]*:0:0|PRIVATE KEY/, `${path} answered ${res.body.slice(0, 200)}`);
        }
      }
      const id = (JSON.parse(registered.body) as { plugin: { id: string } }).plugin.id;
      const synced = await send(server.url, 'POST', `/api/v1/plugins/${encodeURIComponent(id)}/sync`, auth());
      assert.equal(synced.status, 400, synced.body);
      assert.match(synced.body, /path\/link-outside-plugin/);
      assert.match(synced.body, /repositories\/ubuntu\/key/);
    });

    test('a repository folder itself turned into a link to / after registration serves nothing', async () => {
      const { dir, repo } = pluginFolder(root, 'swapped');
      const registered = await send(server.url, 'POST', '/api/v1/plugins/folders', auth(), JSON.stringify({ path: dir }));
      assert.equal(registered.status, 201, registered.body);
      rmSync(repo, { recursive: true });
      symlinkSync('/', repo);
      for (const path of ['etc/passwd', 'etc/shadow', `${server.dataDir.slice(1)}/ssh/id_ed25519`]) {
        const res = await send(server.url, 'GET', `/plugins/swapped-1.0.0/repositories/${path}`);
        assert.equal(res.status, 404, `${path}: ${res.body.slice(0, 200)}`);
      }
    });
  });
}
