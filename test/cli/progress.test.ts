/**
 * Progress of long operations (issue 31 item 3), through the built bin: on a real terminal (a
 * pseudo-terminal made by util-linux's `script`) the progress line is redrawn in place with
 * Hearth's own "return and erase", never printed as a literal `\u000d`; in a pipe each step is a
 * line of its own, with no carriage return at all. `env deploy`, `plugin build`, `plugin install`
 * of a large package, `db export` and `db import`. Remote output stays escaped: a task's `\r` is
 * the node's, and a node must not drive the operator's terminal.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hearthBin, startServer, type RunningServer } from '../support/serve.js';

const REDRAW = '\r\u001b[2K';
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('progress on a terminal and in a pipe (the built bin)', { timeout: 420_000, skip: hasScript ? false : 'util-linux script (which makes the pseudo-terminal) is not installed' }, () => {
  let server: RunningServer;
  let work: string;
  let dataDir: string;
  let pkg: string;
  const env = () => ({ ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token });
  /** `hearth args` with stdout and stderr pipes. */
  const piped = (...args: string[]) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 120_000, env: env() });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  /** `hearth args` on a pseudo-terminal: what the terminal received (stdout and stderr, the terminal's \r\n line ends). */
  const onTerminal = (...args: string[]) => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, hearthBin, ...args].map(quote).join(' ');
    const r = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', timeout: 120_000, env: { ...env(), TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: r.status, out: r.stdout };
  };
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  /** Redrawn, never escaped: the CLI's own carriage return reaches the terminal as one. */
  const redrawn = (out: string, what: string, atLeast = 1) => {
    assert.doesNotMatch(out, /\\u000d/i, `${what}: a literal \\u000d on the terminal:\n${JSON.stringify(out)}`);
    assert.doesNotMatch(out, /\\u001b/i, `${what}: a literal \\u001b on the terminal`);
    assert.ok(out.split(REDRAW).length - 1 >= atLeast, `${what}: at least ${atLeast} redraw(s):\n${JSON.stringify(out)}`);
  };
  /** In a pipe: one step a line, no carriage return, no escape sequence. */
  const lines = (err: string, what: string) => {
    assert.doesNotMatch(err, /[\r\u001b]|\\u000d/, `${what}: no carriage return in a pipe:\n${JSON.stringify(err)}`);
    return err.split('\n').filter(Boolean);
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'hearth-progress-'));
    dataDir = join(work, 'data');
    mkdirSync(dataDir);
    server = await startServer({ dataDir });
    const [release] = await api<Array<{ id: string }>>('GET', '/releases');
    const cluster = await api<{ id: number }>('POST', '/clusters', { name: 'progress', release_id: release.id });
    const { ids } = await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 10 } });
    await api('POST', `/clusters/${cluster.id}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: i === 0 ? ['controller', 'database', 'messaging'] : ['compute'] })) });
    // A plugin holding 6 MB that does not compress: a package large enough to show its upload.
    const created = piped('plugin', 'create', 'bulky', '--dir', work);
    assert.equal(created.code, 0, created.err);
    writeFileSync(join(work, 'bulky', 'deployment_scripts', 'blob.bin'), randomFillSync(Buffer.alloc(6_000_000)));
    const built = piped('plugin', 'build', join(work, 'bulky'), '--out', work, '--json');
    assert.equal(built.code, 0, built.err);
    pkg = JSON.parse(built.out).path;
  });
  after(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('env deploy: redrawn on a terminal, a line per step in a pipe', () => {
    const tty = onTerminal('env', 'deploy', 'progress');
    assert.equal(tty.code, 0, tty.out);
    redrawn(tty.out, 'env deploy');
    assert.match(tty.out, /\r\u001b\[2Kdry run \d+: \d+\/\d+ tasks succeeded/);
    // The outcome starts a line of its own after the redrawn one.
    assert.match(tty.out, /\r\ndry run \d+: succeeded, /);

    const pipe = piped('env', 'deploy', 'progress');
    assert.equal(pipe.code, 0, pipe.err);
    const steps = lines(pipe.err, 'env deploy');
    assert.ok(steps.length >= 1, 'at least one progress line');
    for (const s of steps) assert.match(s, /^dry run \d+: \d+\/\d+ tasks succeeded.*\(\d+%\)$/);
    assert.equal(new Set(steps).size, steps.length, 'a step is printed once');
    assert.match(pipe.out, /^dry run \d+: succeeded, /m);
  });

  test('plugin build: each step redrawn on a terminal, a line each in a pipe', () => {
    const tty = onTerminal('plugin', 'build', join(work, 'bulky'), '--out', join(work, 'tty'));
    assert.equal(tty.code, 0, tty.out);
    redrawn(tty.out, 'plugin build', 3);
    const pipe = piped('plugin', 'build', join(work, 'bulky'), '--out', join(work, 'pipe'));
    assert.equal(pipe.code, 0, pipe.err);
    assert.deepEqual(lines(pipe.err, 'plugin build').filter((l) => l.startsWith('build: write package')), ['build: write package: …', `build: write package: ok (${join(work, 'pipe', 'bulky-1.0.0.tar.gz')})`]);
  });

  test('plugin install of a large package: its upload redrawn on a terminal, a line per step in a pipe', async () => {
    const tty = onTerminal('plugin', 'install', pkg);
    assert.equal(tty.code, 0, tty.out);
    redrawn(tty.out, 'plugin install', 2);
    assert.match(tty.out, /\r\u001b\[2Kuploading .*bulky-1\.0\.0\.tar\.gz: \d+\.\d MiB of \d+\.\d MiB \(\d+%\)/);
    assert.match(tty.out, /\r\ninstalled bulky@1\.0\.0/);
    await api('DELETE', '/plugins/bulky@1.0.0');

    const pipe = piped('plugin', 'install', pkg);
    assert.equal(pipe.code, 0, pipe.err);
    const steps = lines(pipe.err, 'plugin install');
    assert.match(steps[0], /^uploading .*: \d+\.\d MiB of \d+\.\d MiB \(\d+%\)$/);
    assert.match(steps.at(-1)!, /^uploaded \d+\.\d MiB; the server is checking and installing it$/);
    assert.match(pipe.out, /^installed bulky@1\.0\.0$/m);
  });

  test('db export and import: each table a step, redrawn on a terminal, a line each in a pipe', async () => {
    await server.stop();
    const dump = join(work, 'dump.json');
    const tty = onTerminal('db', 'export', '--data-dir', dataDir, '-o', join(work, 'tty-dump.json'));
    assert.equal(tty.code, 0, tty.out);
    redrawn(tty.out, 'db export');
    assert.match(tty.out, /\r\u001b\[2Kexporting table \d+\/\d+: /);

    const pipe = piped('db', 'export', '--data-dir', dataDir, '-o', dump);
    assert.equal(pipe.code, 0, pipe.err);
    const steps = lines(pipe.err, 'db export');
    assert.match(steps[0], /^exporting table 1\/\d+: \w+$/);
    assert.match(steps.join('\n'), /^exported to /m);

    const fresh = join(work, 'fresh');
    const imported = onTerminal('db', 'import', dump, '--data-dir', fresh);
    assert.equal(imported.code, 0, imported.out);
    redrawn(imported.out, 'db import');
    assert.match(imported.out, /\r\u001b\[2Kimporting table \d+\/\d+: \w+ \(\d+ rows\)/);
    assert.match(imported.out, /\r\nimported \d+ /);

    const again = piped('db', 'import', dump, '--data-dir', join(work, 'fresh2'));
    assert.equal(again.code, 0, again.err);
    assert.match(lines(again.err, 'db import')[0], /^importing table 1\/\d+: \w+ \(\d+ rows\)$/);
  });
});
