/**
 * The data folder is the server user's alone (issue 24, item 1). The embedded database's files
 * were 0666 in 0755 folders whatever the umask, and its WAL holds the admin token and Hearth's SSH
 * private key: any local user could read them and log into every node as root. Now every folder
 * under the data folder is 0700 and every file 0600 (the unpacked package copies under
 * plugin-files/ keep their package's modes, below 0700 folders), after a first start, a restart,
 * writes, a deployment and `hearth db import`, under umask 0 and 022; a folder left readable by
 * others is repaired and logged; one owned by another user is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { hearthBin, startServer } from '../support/serve.js';
import { STACK_TRACE } from '../hostile/harness.js';
import { TOKEN } from './support.js';

const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const skip = built ? false : 'dist/ is not built';
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

/** Every path under `dataDir` others may reach, read or write, with its mode. */
function exposed(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    const rel = relative(dataDir, path) || '.';
    // The insides of an unpacked package copy keep the package's modes, below 0700 folders.
    const packageInside = rel.startsWith(`plugin-files${sep}`) && rel.split(sep).length > 2;
    if (st.mode & 0o077 && !packageInside) out.push(`${rel} ${(st.mode & 0o7777).toString(8)}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dataDir);
  return out;
}

const count = (dataDir: string): number => {
  let n = 0;
  const walk = (p: string) => {
    n++;
    if (lstatSync(p).isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(dataDir);
  return n;
};

function assertPrivate(dataDir: string, when: string): void {
  const open = exposed(dataDir);
  assert.deepEqual(open.slice(0, 10), [], `${when}: ${open.length} of ${count(dataDir)} entries of the data folder are open to group or others`);
  assert.ok(existsSync(join(dataDir, 'pgdata', 'pg_wal')), `${when}: the database is there`);
  if (asRoot) {
    // What a user depends on: another local user reads none of it (the WAL holds the token).
    const wal = readdirSync(join(dataDir, 'pgdata', 'pg_wal')).find((n) => /^[0-9A-F]{24}$/.test(n))!;
    const read = spawnSync('cat', [join(dataDir, 'pgdata', 'pg_wal', wal)], { uid: NOBODY, gid: NOBODY });
    assert.notEqual(read.status, 0, `${when}: user nobody read the WAL`);
  }
}

const api = (url: string) => async (method: string, path: string, body?: unknown) => {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as unknown };
};

function hearth(args: string[], env: Record<string, string> = {}): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('PGlite\'s own new files (tables, indexes, WAL segments made while it runs) are the owner\'s alone, under umask 0', { timeout: 180_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-private-'));
  const previous = process.umask(0);
  const store = await import('../../src/store/index.js');
  let db: Awaited<ReturnType<typeof store.openStore>> | undefined;
  try {
    for (const thread of [true, false]) {
      const dataDir = join(root, thread ? 'threaded' : 'in-process');
      db = await store.openStore({ dataDir, thread });
      const before = new Set(readdirSync(join(dataDir, 'pgdata', 'pg_wal')));
      // About 40 MB of rows: new relation files, and WAL segments (16 MB each) made while open.
      await db.exec(`CREATE TABLE filler AS SELECT g AS id, repeat('x', 1000) AS pad FROM generate_series(1, 40000) g; CREATE INDEX ON filler (id); CHECKPOINT`);
      const made = readdirSync(join(dataDir, 'pgdata', 'pg_wal')).filter((n) => !before.has(n));
      assert.ok(made.length > 0, 'new WAL segments were made while the database was open');
      const open = exposed(dataDir);
      assert.deepEqual(open.slice(0, 10), [], `${thread ? 'in its thread' : 'on the caller\'s thread'}, while open: ${open.length} entries open to group or others`);
      await db.close();
      db = undefined;
    }
  } finally {
    await db?.close();
    process.umask(previous);
    rmSync(root, { recursive: true, force: true });
  }
});

for (const umask of [0o000, 0o022]) {
  test(`under umask ${umask.toString(8).padStart(3, '0')}: first start, writes, a dry run, a restart and db import leave nothing of the data folder to others`, { skip, timeout: 300_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'hearth-private-'));
    const previous = process.umask(umask);
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const dataDir = join(root, 'data');
      server = await startServer({ dataDir, firstStart: true, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
      assertPrivate(dataDir, 'after the first start');
      const call = api(server.url);
      const release = ((await call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0]!.id;
      const cluster = ((await call('POST', '/api/v1/clusters', { name: 'env', release_id: release, components: BASE })).json as { id: number }).id;
      const nodes = ((await call('POST', '/api/v1/nodes', { simulate: { count: 5 } })).json as { ids: number[] }).ids;
      const assignments = [{ node_id: nodes[0], roles: ['controller'] }, { node_id: nodes[1], roles: ['database', 'messaging'] }, ...nodes.slice(2).map((id) => ({ node_id: id, roles: ['ceph-osd'] }))];
      const assigned = await call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments });
      assert.equal(assigned.status, 200, JSON.stringify(assigned.json));
      const deploy = await call('POST', `/api/v1/clusters/${cluster}/deploy`);
      assert.equal(deploy.status, 202, JSON.stringify(deploy.json));
      for (let i = 0; i < 300; i++) {
        const runs = (await call('GET', `/api/v1/clusters/${cluster}/deployments`)).json as Array<{ status: string }>;
        if (runs.length && runs.every((r) => r.status !== 'running')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assertPrivate(dataDir, 'after writes and a dry run, while the server runs');
      await server.stop();
      server = undefined;
      assertPrivate(dataDir, 'after the server stopped');

      server = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
      await call('POST', '/api/v1/nodes', { simulate: { count: 2 } }).catch(() => undefined);
      assertPrivate(dataDir, 'after a restart');
      await server.stop();
      server = undefined;

      const dump = join(root, 'dump.json');
      const exported = hearth(['db', 'export', '--data-dir', dataDir, '-o', dump]);
      assert.equal(exported.status, 0, exported.output);
      assert.equal(lstatSync(dump).mode & 0o777, 0o600, 'the export (it holds the token and the key) is 0600');
      const copy = join(root, 'imported');
      const imported = hearth(['db', 'import', dump, '--data-dir', copy]);
      assert.equal(imported.status, 0, imported.output);
      assertPrivate(copy, 'after db import');
    } finally {
      process.umask(previous);
      await server?.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test('a data folder made readable by others before start is repaired, and the repair logged', { skip, timeout: 180_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-private-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const dataDir = join(root, 'data');
    server = await startServer({ dataDir, firstStart: true, env: { HEARTH_ADMIN_TOKEN: TOKEN }, args: ['--no-bundled-release'] });
    await server.stop();
    // What a data folder of an older Hearth looks like, or one copied with cp -r under umask 0.
    spawnSync('chmod', ['-R', 'a+rwX', dataDir]);
    assert.ok(exposed(dataDir).length > 100, 'the folder was opened');
    server = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN }, args: ['--no-bundled-release'] });
    assertPrivate(dataDir, 'after a start on a folder readable by others');
    assert.match(server.output(), /made \d+ files and folders of the data folder .* private to this server's user/, server.output());
    const health = await fetch(`${server.url}/api/v1/nodes`);
    assert.equal(health.status, 200, 'the server works on the repaired folder');
    await server.stop();
    server = undefined;
    // `db export` to a terminal: the export holds the token and the key, so it says to use -o.
    const shell = `${JSON.stringify(process.execPath)} ${JSON.stringify(hearthBin)} db export --data-dir ${JSON.stringify(dataDir)} > /dev/tty`;
    const onTerminal = spawnSync('script', ['-qec', shell, '/dev/null'], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' }, timeout: 120_000 });
    if (!onTerminal.error) {
      assert.equal(onTerminal.status, 0, onTerminal.stdout);
      assert.match(onTerminal.stdout, /warning: this export holds the admin token and the SSH private key .* -o FILE \(made 0600\)/);
    }
    const toPipe = hearth(['db', 'export', '--data-dir', dataDir]);
    assert.equal(toPipe.status, 0);
    assert.doesNotMatch(toPipe.output, /warning/, 'no warning when the export goes to a pipe or a file');
  } finally {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a data folder holding a file another user owns is refused at start, saying how to fix it', { skip: skip || (asRoot ? false : 'needs root to give a file to another user'), timeout: 180_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-private-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const dataDir = join(root, 'data');
    server = await startServer({ dataDir, firstStart: true, env: { HEARTH_ADMIN_TOKEN: TOKEN }, args: ['--no-bundled-release'] });
    await server.stop();
    server = undefined;
    // Another user owns a file inside: they could make it readable again whenever they like.
    const planted = join(dataDir, 'pgdata', 'planted');
    writeFileSync(planted, '');
    chownSync(planted, NOBODY, NOBODY);
    chmodSync(planted, 0o666);
    const run = hearth(['serve', '--port', '0', '--data-dir', dataDir], { HEARTH_ADMIN_TOKEN: TOKEN });
    assert.equal(run.status, 1, run.output);
    assert.doesNotMatch(run.output, STACK_TRACE, run.output);
    assert.match(run.output, /owned by user 65534, not by this server's user/, run.output);
    assert.match(run.output, /hint: .*chown -R/, run.output);
    assert.doesNotMatch(run.output, /Hearth is (starting|serving|ready)/, 'refused before it listens');
  } finally {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
