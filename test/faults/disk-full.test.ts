/**
 * A full disk under the embedded database: a change is refused with 507 and the reason (not a
 * "bug" 500, not a hang), reads go on, the failure is logged, and changes work again once there is
 * space. The data folder lives on a small tmpfs of its own (mounting it needs root).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../support/serve.js';
import { TOKEN } from './support.js';

const asRoot = process.getuid?.() === 0;
const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const skip = !built ? 'dist/ is not built' : asRoot ? false : 'mounting a small tmpfs needs root';

test('a full disk refuses changes with 507, keeps answering reads, and recovers when space returns', { skip, timeout: 240_000 }, async () => {
  const mountPoint = mkdtempSync(join(tmpdir(), 'hearth-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mountPoint]);
  if (mounted.status !== 0) {
    rmSync(mountPoint, { recursive: true, force: true });
    assert.fail(`could not mount a tmpfs: ${mounted.stderr}`);
  }
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir: join(mountPoint, 'data'), env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    const change = () =>
      fetch(`${server!.url}/api/v1/nodes`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ simulate: { count: 300 } }), signal: AbortSignal.timeout(30_000) });
    assert.equal((await change()).status, 201, 'writes work before the disk fills');
    // Fill every remaining byte.
    spawnSync('dd', ['if=/dev/zero', `of=${join(mountPoint, 'filler')}`, 'bs=1M'], { stdio: 'ignore' });
    let refused: Response | undefined;
    for (let i = 0; i < 5 && !refused; i++) {
      const res = await change();
      if (res.status !== 201) refused = res;
    }
    assert.ok(refused, 'a change on a full disk is refused');
    assert.equal(refused.status, 507);
    const body = (await refused.json()) as { code: string; message: string; details: { hint: string; request_id: string } };
    assert.equal(body.code, 'server/disk-full');
    assert.match(body.details.hint, /free space/);
    const reads = await fetch(`${server.url}/api/v1/nodes`, { signal: AbortSignal.timeout(30_000) });
    assert.equal(reads.status, 200, 'reads go on');
    assert.equal((await fetch(`${server.url}/api/v1/version`, { signal: AbortSignal.timeout(30_000) })).status, 200);
    assert.match(server.output(), new RegExp(`"reqId":"${body.details.request_id}".*No space left`), 'the failure is logged under its request id');
    rmSync(join(mountPoint, 'filler'));
    assert.equal((await change()).status, 201, 'changes work again once there is space');
    assert.equal(server.process.exitCode, null, 'the server is still running');
  } finally {
    await server?.stop();
    spawnSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});
