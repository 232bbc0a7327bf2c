/**
 * The API cases of issue 20 that need files on the server's disk (cases/api-hardening.ts), on a
 * real `hearth serve` of their own, judged as api.test.ts judges its cases.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/serve.js';
import type { KnownIds } from './cases/api.js';
import { apiHardeningCases } from './cases/api-hardening.js';
import { prepare, runApiCase, send } from './api-run.js';
import { repoRoot } from './harness.js';

const built = existsSync(join(repoRoot, 'dist', 'server', 'start.js'));
const options = { skip: built ? false : 'the server is not built: run `npx tsc -p tsconfig.build.json`' };
const root = mkdtempSync(join(tmpdir(), 'hearth-hostile-api-'));
const cases = apiHardeningCases(root);

let server: RunningServer;
let ids: KnownIds;

before(async () => {
  if (!built) return;
  server = await startServer();
  ids = await prepare(server);
});

after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

for (const c of cases) {
  test(`API: ${c.name} → HTTP ${c.status}${c.code ? ` ${c.code}` : ''}`, options, async (t) => {
    t.diagnostic(`${Math.round(await runApiCase(server, ids, c))} ms`);
  });
}

test('API: the server is healthy after every hostile request', options, async () => {
  const res = await send(server, { method: 'GET', path: '/api/v1/releases' });
  assert.equal(res.status, 200);
});
