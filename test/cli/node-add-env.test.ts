/**
 * `hearth node add --count N --env E` puts the simulated nodes in the environment (issue 28,
 * item 17: --env was ignored), found before anything is registered; a refusal leaves no nodes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/serve.js';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('node add --env', { timeout: 300_000 }, () => {
  let server: RunningServer;
  const hearth = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'src', 'cli', 'main.ts'), ...args], { env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token }, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  test('simulated nodes join the environment named by --env, without roles; an unknown environment registers nothing', () => {
    const release = JSON.parse(hearth('release', 'list', '--json').out)[0].id as string;
    assert.equal(hearth('env', 'create', 'with-nodes', '--release', release).code, 0);
    const added = hearth('node', 'add', '--count', '3', '--env', 'with-nodes');
    assert.equal(added.code, 0, added.err);
    assert.match(added.out, /added 3 node\(s\): .* to environment with-nodes/);
    const inEnv = JSON.parse(hearth('node', 'list', '--env', 'with-nodes', '--json').out) as Array<{ id: number; cluster_id: number | null; roles: string[]; pending_roles: string[] }>;
    assert.equal(inEnv.length, 3);
    assert.ok(inEnv.every((n) => n.cluster_id !== null && n.pending_roles.length === 0 && n.roles.length === 0));
    // Named ones too.
    assert.equal(hearth('node', 'add', '--name', 'n-a', '--name', 'n-b', '--env', 'with-nodes').code, 0);
    assert.equal(JSON.parse(hearth('node', 'list', '--env', 'with-nodes', '--json').out).length, 5);

    const before = JSON.parse(hearth('node', 'list', '--json').out).length;
    const ghost = hearth('node', 'add', '--count', '2', '--env', 'no-such-env');
    assert.equal(ghost.code, 1);
    assert.match(ghost.err, /there is no environment named 'no-such-env'/);
    assert.equal(JSON.parse(hearth('node', 'list', '--json').out).length, before, 'nothing was registered');
    // Without --env they stay unassigned, as before.
    assert.equal(hearth('node', 'add', '--count', '1').code, 0);
    assert.equal(JSON.parse(hearth('node', 'list', '--unassigned', '--json').out).length, 1);
  });
});
