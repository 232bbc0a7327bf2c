/**
 * A restart answers GET /api/v1/releases at once, from what the last clean stop left in the data
 * folder (store/answer-snapshot.ts), while PGlite is still starting; after a crash, or once
 * anything else opened the folder, it waits for the database as before (issue 30).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ready, serveProcess, stop, type ServeProcess } from '../support/serve-process.js';
import { claimDataFolder } from '../../src/store/lock.js';

const built = existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js'));
const TOKEN = 'restart-answer-token-0123456789';
const ANSWER = 'releases-answer.json';

test('a restart answers the releases before its database is open, exactly as the stop left them; not after a crash or another open', { skip: built ? false : 'dist/ is not built (npm run build)', timeout: 600_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-restart-answer-'));
  const dataDir = join(root, 'data');
  const running: ServeProcess[] = [];
  try {
    const first = await serveProcess(dataDir, { HEARTH_ADMIN_TOKEN: TOKEN });
    running.push(first);
    await ready(first);
    const before = await (await fetch(`${first.url}/api/v1/releases`)).text();
    assert.ok((JSON.parse(before) as unknown[]).length >= 1, 'the bundled release is installed');
    await stop(first, 'SIGTERM');
    assert.equal(first.child.exitCode, 0, first.output());
    assert.equal(statSync(join(dataDir, ANSWER)).mode & 0o777, 0o600, 'the stop left its answer, for the owner alone');

    // Asked the moment the address is printed: the answer comes while /readyz still says starting.
    const second = await serveProcess(dataDir, { HEARTH_ADMIN_TOKEN: TOKEN });
    running.push(second);
    const early = await fetch(`${second.url}/api/v1/releases`);
    const readyz = await fetch(`${second.url}/readyz`);
    assert.equal(early.status, 200);
    assert.match(early.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(await early.text(), before, 'the same answer as before the stop');
    assert.equal(readyz.status, 503, 'answered before the database was open (PGlite takes most of a second to start)');
    assert.ok(!existsSync(join(dataDir, ANSWER)), 'taken away as the folder was opened');
    await ready(second);
    assert.equal(await (await fetch(`${second.url}/api/v1/releases`)).text(), before, 'the database says the same');
    // A crash leaves no answer: the next start waits for its database.
    await stop(second, 'SIGKILL');
    assert.ok(!existsSync(join(dataDir, ANSWER)));
    const third = await serveProcess(dataDir, { HEARTH_ADMIN_TOKEN: TOKEN });
    running.push(third);
    const waited = await fetch(`${third.url}/api/v1/releases`);
    assert.equal(waited.status, 200);
    assert.equal((await fetch(`${third.url}/readyz`)).status, 200, 'after a crash the answer waited for the database');
    assert.equal(await waited.text(), before);
    await ready(third);
    await stop(third, 'SIGTERM');
    assert.ok(existsSync(join(dataDir, ANSWER)));
    // Anything else that opens the folder (hearth db import, hearth token…) takes it away.
    rmSync(claimDataFolder(dataDir));
    assert.ok(!existsSync(join(dataDir, ANSWER)), 'whoever opens the folder removes the answer');
  } finally {
    for (const s of running) await stop(s, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
