/**
 * `hearth db import` of an export someone edited (issue 24, items 12, 16 and 17). An export is a
 * file anyone may have changed; what it loads decides what the server reads, serves without a
 * token, and which token opens it. Malformed rows exited 70 with a stack trace; a one-character
 * admin token was accepted; a plugin whose folder (`source_path`) or `repository_path` is `/`
 * served the whole disk. Each is now refused, exit 1, naming the row and the reason, with nothing
 * written (the same folder takes the good export afterwards); a stored token that breaks the rules
 * stops the server at start, saying how to fix it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hearthBin, startServer } from '../support/serve.js';
import { STACK_TRACE } from './harness.js';

const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const TOKEN = `import-${'t'.repeat(24)}`;

type Row = Record<string, unknown>;
type Dump = { tables: Record<string, Row[]> };

function hearth(args: string[], env: Record<string, string> = {}): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The plugin row of the bundled release, and its first release record's raw fields. */
const plugin = (d: Dump) => d.tables.plugins![0]!;
const raw = (d: Dump) => ((plugin(d).loaded as { releases: Array<{ raw: Row }> }).releases[0]!.raw);
const meta = (d: Dump, key: string) => d.tables.hearth_meta!.find((r) => r.key === key)!;

const CASES: Array<{ name: string; edit: (d: Dump) => void; says: RegExp }> = [
  // Item 16: rows PostgreSQL refuses, and rows that are not rows.
  { name: 'a date that is not a date', edit: (d) => void (d.tables.releases![0]!.created_at = 'not a date'), says: /row 1 of 'releases' cannot be imported: .*date.*\n {2}row: \{/ },
  { name: 'a row twice (the same key)', edit: (d) => void d.tables.hearth_meta!.push({ ...meta(d, 'catalog_version') }), says: /row \d of 'hearth_meta' cannot be imported: .*duplicate key/ },
  { name: 'a release of a plugin that is not there', edit: (d) => void (d.tables.releases![0]!.plugin_id = 'ghost@1.0.0'), says: /row 1 of 'releases' cannot be imported: .*foreign key/ },
  { name: 'a row that is a string', edit: (d) => void (d.tables.releases![0] = 'release' as unknown as Row), says: /row 1 of 'releases' cannot be imported: it is not an object/ },
  { name: 'a column of the wrong type', edit: (d) => void (plugin(d).is_release = 'maybe'), says: /row 1 of 'plugins' cannot be imported: .*boolean/ },
  // Item 17: the admin token.
  { name: 'a one-character admin token', edit: (d) => void (meta(d, 'admin_token').value = 'x'), says: /row 1 of 'hearth_meta' holds an admin token Hearth does not accept: it is 1 characters long, not 16 to 512/ },
  { name: 'an admin token with spaces', edit: (d) => void (meta(d, 'admin_token').value = 'a token with spaces in it'), says: /admin token Hearth does not accept: it holds spaces/ },
  { name: 'an admin token that is a number', edit: (d) => void (meta(d, 'admin_token').value = 1234567890123456), says: /admin token Hearth does not accept: it is a number/ },
  // Item 12: stored plugin metadata, judged as an install judges it.
  { name: 'a registered folder of /', edit: (d) => Object.assign(plugin(d), { source_kind: 'folder', source_path: '/' }), says: /row 1 of 'plugins' \(hearth-openstack@1\.0\.0\) cannot be imported: its folder \(source_path\) is the root of the file system/ },
  { name: 'a bundled release at /', edit: (d) => void (plugin(d).source_path = '/'), says: /the root of the file system/ },
  { name: 'a folder with ..', edit: (d) => void (plugin(d).source_path = `${String(plugin(d).source_path)}/../release`), says: /is not a plain absolute path/ },
  { name: 'a relative folder', edit: (d) => Object.assign(plugin(d), { source_kind: 'folder', source_path: 'release' }), says: /is not a plain absolute path/ },
  { name: 'a folder that does not exist', edit: (d) => Object.assign(plugin(d), { source_kind: 'folder', source_path: '/nonexistent/hearth-plugin' }), says: /its folder \/nonexistent\/hearth-plugin does not exist on this machine[^]*hint: copy the plugin's folder/ },
  { name: 'a folder that is not the plugin (/etc)', edit: (d) => Object.assign(plugin(d), { source_kind: 'folder', source_path: '/etc' }), says: /its folder \/etc is not a valid plugin/ },
  { name: 'repository_path /', edit: (d) => void (raw(d).repository_path = '/'), says: /releases\[0\]\.repository_path "\/" is absolute; Hearth reads nothing outside a plugin's folder/ },
  { name: 'repository_path ../../..', edit: (d) => void (raw(d).repository_path = '../../..'), says: /repository_path "\.\.\/\.\.\/\.\." leads out of the plugin folder/ },
  { name: 'deployment_scripts_path through ..', edit: (d) => void (raw(d).deployment_scripts_path = 'deployment_scripts/../../../etc'), says: /deployment_scripts_path .* leads out of the plugin folder/ },
  { name: 'a package with a folder of /', edit: (d) => Object.assign(plugin(d), { source_kind: 'package', source_path: '/' }), says: /installed from a package, which has no folder on disk, yet names one/ },
];

const root = mkdtempSync(join(tmpdir(), 'hearth-import-'));
after(() => rmSync(root, { recursive: true, force: true }));
let exported: Promise<string> | undefined;
/** A good export of a first start's database (the bundled release, an admin token, the SSH key). */
function goodExport(): Promise<string> {
  exported ??= (async () => {
    const dataDir = join(root, 'source');
    const source = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    await source.stop();
    const file = join(root, 'good.json');
    const run = hearth(['db', 'export', '--data-dir', dataDir, '-o', file]);
    assert.equal(run.status, 0, run.output);
    return file;
  })();
  return exported;
}

test('hearth db import refuses edited exports: exit 1, the row and the reason, no stack trace, nothing written', { skip: built ? false : 'dist/ is not built', timeout: 600_000 }, async () => {
  const good = await goodExport();
  {
    const target = join(root, 'target');
    const failures: string[] = [];
    for (const c of CASES) {
      const dump = JSON.parse(readFileSync(good, 'utf8')) as Dump;
      c.edit(dump);
      const file = join(root, 'edited.json');
      writeFileSync(file, JSON.stringify(dump));
      const run = hearth(['db', 'import', file, '--data-dir', target]);
      if (run.status !== 1) failures.push(`${c.name}: exit ${run.status}\n${run.output}`);
      else if (STACK_TRACE.test(run.output)) failures.push(`${c.name}: a stack trace\n${run.output}`);
      else if (!c.says.test(run.output)) failures.push(`${c.name}: does not say ${c.says}\n${run.output}`);
      else if (!/hint: /.test(run.output)) failures.push(`${c.name}: no hint\n${run.output}`);
    }
    assert.deepEqual(failures, []);
    // Nothing of the refused imports was written: the same folder takes the good export whole.
    const imported = hearth(['db', 'import', good, '--data-dir', target]);
    assert.equal(imported.status, 0, imported.output);
    assert.match(imported.output, /imported .*1 plugins/);
  }
});

test('a bundled release whose folder is gone is taken as this Hearth\'s own, and said so', { skip: built ? false : 'dist/ is not built', timeout: 300_000 }, async () => {
  {
    const file = join(root, 'moved.json');
    const dump = JSON.parse(readFileSync(await goodExport(), 'utf8')) as Dump;
    const bundled = String(plugin(dump).source_path);
    plugin(dump).source_path = '/opt/an-older-hearth/release';
    writeFileSync(file, JSON.stringify(dump));
    const run = hearth(['db', 'import', file, '--data-dir', join(root, 'target-moved')]);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /the bundled release hearth-openstack@1\.0\.0 was at \/opt\/an-older-hearth\/release, which is gone: it is now this Hearth's, at /);
    assert.ok(run.output.includes(bundled), run.output);
  }
});

test('a stored admin token that breaks the rules stops the server at start, saying how to fix it; HEARTH_ADMIN_TOKEN fixes it', { skip: built ? false : 'dist/ is not built', timeout: 300_000 }, async () => {
  {
    const dataDir = join(root, 'stored-token');
    const imported = hearth(['db', 'import', await goodExport(), '--data-dir', dataDir]);
    assert.equal(imported.status, 0, imported.output);
    // Written as an older Hearth's import, or a hand edit, would have left it.
    const store = await import('../../src/store/index.js');
    const db = await store.openStore({ dataDir });
    await store.setMeta(db, store.META_ADMIN_TOKEN, 'x');
    await db.close();
    const refused = hearth(['serve', '--port', '0', '--data-dir', dataDir]);
    assert.equal(refused.status, 1, refused.output);
    assert.doesNotMatch(refused.output, STACK_TRACE);
    assert.match(refused.output, /the admin token stored in the database at .* is not one Hearth accepts: it is 1 characters long/);
    assert.match(refused.output, /hint: start once with HEARTH_ADMIN_TOKEN set to a new token/);
    const fixed = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    try {
      const res = await fetch(`${fixed.url}/api/v1/nodes`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{"simulate":{"count":1}}' });
      assert.equal(res.status, 401, 'the one-character token no longer opens anything');
    } finally {
      await fixed.stop();
    }
  }
});
