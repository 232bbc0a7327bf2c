/**
 * The API face of the catalog: one real `hearth serve` (the built CLI, embedded database), and
 * each hostile request must get the expected 4xx with the error shape, within the bound, and leave
 * what is stored (environments, nodes, plugins, releases) exactly as it was.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/serve.js';
import { apiCases, type KnownIds } from './cases/api.js';
import { prepare, runApiCase, send } from './api-run.js';
import { repoRoot } from './harness.js';

const built = existsSync(join(repoRoot, 'dist', 'server', 'start.js'));
const options = { skip: built ? false : 'the server is not built: run `npx tsc -p tsconfig.build.json`' };

let server: RunningServer;
let ids: KnownIds;

before(async () => {
  if (!built) return;
  server = await startServer();
  ids = await prepare(server);
});

after(async () => {
  await server?.stop();
});

for (const c of apiCases) {
  test(`API: ${c.name} → HTTP ${c.status}${c.code ? ` ${c.code}` : ''}`, options, async (t) => {
    t.diagnostic(`${Math.round(await runApiCase(server, ids, c))} ms`);
  });
}

test('API: the server is healthy after every hostile request', options, async () => {
  const res = await send(server, { method: 'GET', path: '/api/v1/releases' });
  assert.equal(res.status, 200);
  assert.doesNotMatch(server.output(), /FATAL|uncaught|unhandled/i);
});
