/**
 * The CLI bundle (scripts/bundle.mjs) behaves as tsc's tree does, loads only what a command needs,
 * and its V8 code cache is accepted. Skipped until `npm run build` (or `node scripts/bundle.mjs`)
 * has made the bundle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package/root.js';

const root = packageRoot();
const bin = join(root, 'bin', 'hearth');
const bundle = join(root, 'dist', 'bundle', 'hearth.cjs');
const tree = join(root, 'dist', 'cli', 'main.js');
const needsBundle = { skip: existsSync(bundle) ? false : 'no bundle: run `node scripts/bundle.mjs`' };
const needsBoth = { skip: needsBundle.skip || (existsSync(tree) ? false : 'no dist/ tree: run `npx tsc -p tsconfig.build.json`') };

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', ...env } });

test('the bundle and the tree give the same answers, exit statuses included', needsBoth, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-bundle-'));
  try {
    writeFileSync(join(work, 'metadata.yaml'), 'name: [broken\n');
    const cases = [
      ['plugin', 'validate', join(root, 'release'), '--json'],
      ['plugin', 'validate', work, '--json'],
      ['plugin', 'validate', join(work, 'missing')],
      ['plugin', 'validate', '--no-such-flag'],
      ['--version'],
    ];
    for (const args of cases) {
      const viaBundle = run(args);
      const viaTree = run(args, { HEARTH_NO_BUNDLE: '1' });
      assert.equal(viaBundle.status, viaTree.status, args.join(' '));
      assert.equal(viaBundle.stdout, viaTree.stdout, args.join(' '));
      assert.equal(viaBundle.stderr, viaTree.stderr, args.join(' '));
    }
    assert.equal(run(cases[0]).status, 0);
    assert.equal(run(cases[1]).status, 1);
    assert.equal(run(cases[2]).status, 2);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('`plugin validate` through the bundle never loads the server, the database or the web UI', needsBundle, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-bundle-'));
  try {
    // Logs every module the CLI asks Node for (the bundle's own code is one file, so anything
    // loaded by name is an external package or a Node module).
    const probe = join(work, 'probe.cjs');
    writeFileSync(probe, "const M = require('node:module'); const load = M._load; M._load = function (request, ...rest) { process.stderr.write('LOAD ' + request + '\\n'); return load.call(this, request, ...rest); };\n");
    const r = spawnSync(process.execPath, ['--require', probe, bin, 'plugin', 'validate', join(root, 'release'), '--json'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '' } });
    assert.equal(r.status, 0, r.stderr);
    const loaded = r.stderr.split('\n').filter((l) => l.startsWith('LOAD ')).map((l) => l.slice(5));
    // The validate command's own bundle (validate.cjs), or the whole command's (hearth.cjs) where it is absent.
    assert.ok(loaded.some((m) => m.endsWith('validate.cjs') || m.endsWith('hearth.cjs') || m === 'node:vm'), `the probe saw the bundle start: ${loaded.join(', ')}`);
    for (const heavy of ['fastify', '@fastify/static', '@electric-sql/pglite', 'pg', 'react', 'react-dom', 'playwright-core', 'vite', 'ajv']) {
      assert.ok(!loaded.includes(heavy), `${heavy} was loaded: ${loaded.join(', ')}`);
    }
    assert.ok(!loaded.some((m) => m.includes('node_modules')), loaded.join(', '));
    // commander requires child_process for executable subcommands, which hearth has none of; the
    // bundle defers it (scripts/bundle.mjs), as it would bring net and dgram along on every start.
    assert.ok(!loaded.includes('node:child_process') && !loaded.includes('child_process'), loaded.join(', '));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** The hand-kept cache's state (HEARTH_CODE_CACHE=v8 asks for that cache on Node 22+ too, where Node's own is the default). */
const codeCacheState = (hearth: string, args: string[] = ['--version']) => {
  const r = spawnSync(process.execPath, [hearth, ...args], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_DEBUG_CODE_CACHE: '1', HEARTH_CODE_CACHE: 'v8' } });
  return { status: r.status, stdout: r.stdout, state: /hearth: code cache (\w+)/.exec(r.stderr)?.[1] };
};
const hasNodeCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

test("on Node 22.1+ without a hand-kept cache of its own, the bundle runs with Node's own compile cache, which it fills and then uses", { skip: needsBundle.skip || (hasNodeCompileCache ? false : `Node ${process.version} has no module.enableCompileCache(): the hand-kept cache is the one (tested below)`) }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-compile-cache-'));
  try {
    const hearth = installCopy(work, { cache: false });
    const cacheDir = join(work, 'compile-cache');
    const once = () => spawnSync(process.execPath, [hearth, '--version'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_CODE_CACHE: '', HEARTH_DEBUG_CODE_CACHE: '1', NODE_COMPILE_CACHE: cacheDir } });
    const first = once();
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, run(['--version']).stdout);
    // NODE_COMPILE_CACHE makes Node enable it before hearth asks.
    assert.match(first.stderr, new RegExp(`hearth: code cache by Node \\(module\\.enableCompileCache: (already_)?enabled in ${cacheDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const written = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(written.length > 0, 'Node wrote the compiled bundle into NODE_COMPILE_CACHE');
    assert.ok(!existsSync(join(work, 'dist', 'bundle', 'hearth.cjs.v8-cache')), 'no hand-kept cache beside it');
    const second = once();
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('the hand-kept cache runs by default where this same Node wrote it; a cache another Node wrote is left for Node 22.1+\'s own', { skip: needsBundle.skip || (existsSync(`${bundle}.v8-cache.stamp`) ? false : 'no code cache') }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-cache-stamp-'));
  try {
    const hearth = installCopy(work);
    const stamp = join(work, 'dist', 'bundle', 'hearth.cjs.v8-cache.stamp');
    assert.equal(readFileSync(stamp, 'latin1'), `${process.version} ${process.arch}\n`, 'the build says which Node wrote the cache');
    const once = () => spawnSync(process.execPath, [hearth, '--version'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_CODE_CACHE: '', HEARTH_DEBUG_CODE_CACHE: '1', NODE_COMPILE_CACHE: join(work, 'compile-cache') } });
    const ours = once();
    assert.equal(ours.status, 0, ours.stderr);
    assert.match(ours.stderr, /^hearth: code cache accepted for hearth\.cjs$/m);
    writeFileSync(stamp, 'v0.0.1 x64\n');
    const theirs = once();
    assert.equal(theirs.status, 0, theirs.stderr);
    assert.equal(theirs.stdout, ours.stdout);
    if (hasNodeCompileCache) {
      assert.match(theirs.stderr, /hearth: code cache by Node/);
      assert.equal(readFileSync(stamp, 'latin1'), 'v0.0.1 x64\n', 'left as it was');
    } else assert.match(theirs.stderr, /hearth: code cache (accepted|rejected) for hearth\.cjs/, 'Node 20 and 22.0 have only the hand-kept cache');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('V8 accepts the code cache the build recorded for the bundle', { skip: needsBundle.skip || (existsSync(`${bundle}.v8-cache`) ? false : 'no code cache') }, () => {
  assert.ok(!/[^\x00-\x7f]/.test(readFileSync(bundle, 'latin1')), 'the bundle is ASCII, so reading it as latin1 is exact');
  assert.equal(codeCacheState(bin).state, 'accepted');
});

test('`plugin validate` runs its own bundle, a fraction of the whole command, with a code cache V8 accepts', { skip: existsSync(join(root, 'dist', 'bundle', 'validate.cjs.v8-cache')) ? false : 'no validate bundle: run `node scripts/bundle.mjs`' }, () => {
  const validate = join(root, 'dist', 'bundle', 'validate.cjs');
  assert.ok(!/[^\x00-\x7f]/.test(readFileSync(validate, 'latin1')), 'ASCII, as the whole command\'s bundle');
  assert.ok(readFileSync(validate).length < readFileSync(bundle).length * 0.6, 'it leaves the other commands out');
  const r = spawnSync(process.execPath, [bin, 'plugin', 'validate', join(root, 'release'), '--json'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_DEBUG_CODE_CACHE: '1', HEARTH_CODE_CACHE: 'v8' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /hearth: code cache accepted for validate\.cjs/);
  // Its --help is the one the whole command gives for it, examples included.
  const help = run(['plugin', 'validate', '--help']);
  assert.equal(help.stdout, run(['plugin', 'validate', '--help'], { HEARTH_NO_BUNDLE: '1' }).stdout);
  assert.match(help.stdout, /Examples:/);
  // Any other command still runs the whole command's bundle.
  assert.match(codeCacheState(bin).stdout, /^\d+\.\d+\.\d+/);
  assert.match(spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_DEBUG_CODE_CACHE: '1', HEARTH_CODE_CACHE: 'v8' } }).stderr, /for hearth\.cjs/);
});

test('a damaged, cut or foreign code cache is refused, not trusted, and replaced', { skip: needsBundle.skip || (existsSync(`${bundle}.v8-cache`) ? false : 'no code cache') }, () => {
  // A copy of what bin/hearth needs, so the real cache is never touched.
  const work = mkdtempSync(join(tmpdir(), 'hearth-cache-'));
  try {
    mkdirSync(join(work, 'bin'));
    mkdirSync(join(work, 'dist', 'bundle'), { recursive: true });
    for (const f of ['bin/hearth', 'bin/package.json', 'package.json', 'dist/bundle/hearth.cjs']) copyFileSync(join(root, f), join(work, f));
    const cache = join(work, 'dist', 'bundle', 'hearth.cjs.v8-cache');
    const good = readFileSync(`${bundle}.v8-cache`);
    const version = codeCacheState(bin).stdout;
    const damaged = Buffer.from(good);
    for (const at of [64, good.length >> 1, good.length - 8]) damaged[at] ^= 0xff;
    const cases: Array<[string, Buffer]> = [
      ['bytes flipped inside', damaged],
      ['cut short', good.subarray(0, good.length >> 1)],
      ['not a cache at all', Buffer.from('garbage\n')],
    ];
    for (const [label, bytes] of cases) {
      writeFileSync(cache, bytes);
      const first = codeCacheState(join(work, 'bin', 'hearth'));
      assert.equal(first.status, 0, label);
      assert.equal(first.stdout, version, label);
      assert.equal(first.state, 'rejected', label);
      assert.equal(codeCacheState(join(work, 'bin', 'hearth')).state, 'accepted', `${label}: replaced by a good one`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** A copy of what bin/hearth needs to run the bundle, in a temporary folder. */
function installCopy(work: string, { cache = true, schemas = false } = {}): string {
  mkdirSync(join(work, 'bin'));
  mkdirSync(join(work, 'dist', 'bundle'), { recursive: true });
  const files = ['bin/hearth', 'bin/package.json', 'package.json', 'dist/bundle/hearth.cjs', ...(cache ? ['dist/bundle/hearth.cjs.v8-cache', 'dist/bundle/hearth.cjs.v8-cache.stamp'] : [])];
  for (const f of files) copyFileSync(join(root, f), join(work, f));
  if (schemas) {
    cpSync(join(root, 'schemas'), join(work, 'schemas'), { recursive: true });
    // Ajv, for the schemas the compiled validators no longer match.
    symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  }
  return join(work, 'bin', 'hearth');
}

test('the bundle honours a schema edited after it was built, also once an installed copy has noted its schemas as checked', needsBundle, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-schemas-'));
  try {
    const hearth = installCopy(work, { schemas: true });
    const validate = () => spawnSync(process.execPath, [hearth, 'plugin', 'validate', join(root, 'release'), '--json'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '' } });
    const before = validate();
    assert.equal(before.status, 0, before.stderr);
    assert.equal(before.stdout, run(['plugin', 'validate', join(root, 'release'), '--json']).stdout);
    // A copy's files have other inodes and times than the build's: the first run checked them by
    // their digest and noted it, so the next runs need not read them again.
    const note = join(work, 'dist', 'schemas-verified');
    assert.ok(existsSync(note), 'the first run noted the copy\'s schemas as matching the compiled validators');
    const again = validate();
    assert.deepEqual([again.status, again.stdout], [0, before.stdout], 'the same answer with the note');
    const file = join(work, 'schemas', 'metadata-5.0.0.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { required: string[] };
    schema.required.push('key_required_by_this_test');
    writeFileSync(file, JSON.stringify(schema, null, 2));
    const after = validate();
    assert.equal(after.status, 1, after.stderr);
    assert.match(after.stdout, /missing the required key 'key_required_by_this_test'/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('the build\'s warm-up: several commands in one process, the highest exit status, a code cache V8 accepts', needsBundle, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-warm-up-'));
  try {
    const hearth = installCopy(work, { cache: false, schemas: true });
    const commands = [['--version'], ['plugin', 'validate', join(root, 'release'), '--json'], ['plugin', 'validate', join(work, 'missing')], ['--version']];
    const r = spawnSync(process.execPath, [hearth], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_WRITE_CODE_CACHE: '1', HEARTH_WARM_UP: JSON.stringify(commands) } });
    assert.equal(r.status, 2, r.stderr);
    const version = run(['--version']).stdout;
    assert.ok(r.stdout.startsWith(version), r.stdout);
    assert.ok(r.stdout.endsWith(version), r.stdout);
    assert.match(r.stdout, /"valid": true/);
    assert.match(r.stderr, /no such plugin folder/);
    assert.equal(codeCacheState(hearth).state, 'accepted');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('bin/hearth still runs bundles built before the file held its own function wrapper, and before it was also a module', needsBundle, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-old-bundle-'));
  try {
    const hearth = installCopy(work, { cache: false });
    const file = join(work, 'dist', 'bundle', 'hearth.cjs');
    const text = readFileSync(file, 'latin1');
    const start = '(typeof module == "object" ? module : {}).exports = (function (exports, require, module, __filename, __dirname, __hearthUrl) {';
    assert.ok(text.startsWith(start) && text.endsWith('\n})'), 'the bundle is one expression, a function');
    const body = text.slice(start.length, -'\n})'.length);
    for (const old of [body, `(function (exports, require, module, __filename, __dirname, __hearthUrl) {${body}\n})`]) {
      writeFileSync(file, old, 'latin1');
      const r = spawnSync(process.execPath, [hearth, '--version'], { encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '', HEARTH_CODE_CACHE: '' } });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, run(['--version']).stdout);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/**
 * Runs `hearth serve` on a data folder until it is ready (its first answer of /api/v1/releases
 * kept), then stops it as an operator does (SIGTERM); what it loaded by name and said on stderr.
 */
async function serveUntilReady(dataDir: string, probe: string): Promise<{ releases: string; loaded: string[]; stderr: string; status: number | null }> {
  const child = spawn(process.execPath, ['--require', probe, bin, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    env: { ...process.env, HEARTH_NO_BUNDLE: '', DATABASE_URL: '', HEARTH_ADMIN_TOKEN: 'bundle-test-token-0123456789', HEARTH_DEBUG_CODE_CACHE: '1', HEARTH_CODE_CACHE: 'v8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let url: string | undefined;
    while (!(url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1])) {
      if (child.exitCode !== null) throw new Error(`hearth serve exited with ${child.exitCode}:\n${out}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const until = async (path: string) => {
      for (;;) {
        const res = await fetch(url + path).catch(() => undefined);
        const text = await res?.text();
        if (res?.ok) return text!;
        if (child.exitCode !== null) throw new Error(`hearth serve exited with ${child.exitCode}:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const releases = await until('/api/v1/releases');
    await until('/readyz');
    assert.equal(await until('/api/v1/releases'), releases, 'the first answer is the one the database gives');
    child.kill('SIGTERM');
    const status = await exited;
    return { releases, loaded: stderr.split('\n').filter((l) => l.startsWith('LOAD ')).map((l) => l.slice(5)), stderr, status };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}

test('`hearth serve` runs its own bundle, the server\'s packages in it, and a restart starts from the code cache the build warmed', { skip: existsSync(join(root, 'dist', 'bundle', 'serve.cjs.v8-cache')) ? false : 'no serve bundle: run `node scripts/bundle.mjs`' }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-serve-bundle-'));
  const cache = join(root, 'dist', 'bundle', 'serve.cjs.v8-cache');
  try {
    const probe = join(work, 'probe.cjs');
    writeFileSync(probe, "const M = require('node:module'); const load = M._load; M._load = function (request, ...rest) { process.stderr.write('LOAD ' + request + '\\n'); return load.call(this, request, ...rest); };\n");
    const first = await serveUntilReady(join(work, 'data'), probe);
    assert.equal(first.status, 0, first.stderr);
    const cacheBefore = statSync(cache).mtimeMs;
    const restart = await serveUntilReady(join(work, 'data'), probe);
    assert.equal(restart.status, 0, restart.stderr);
    assert.equal(restart.releases, first.releases);
    assert.match(restart.stderr, /hearth: code cache accepted for serve\.cjs/);
    // Accepted, it is left as it was: V8 took it under this run's flags (src/store/v8-flags.ts says why that needed care).
    assert.equal(statSync(cache).mtimeMs, cacheBefore, 'the restart did not rewrite the cache');
    // Fastify and its packages come from the bundle; only PGlite (and Node's own modules) by name.
    for (const bundled of ['fastify', 'find-my-way', 'avvio', 'pino', 'light-my-request']) assert.ok(!restart.loaded.includes(bundled), `${bundled} was loaded by name: ${restart.loaded.join(', ')}`);
    assert.ok(!restart.loaded.includes('node:http2'), `node:http2 was loaded: ${restart.loaded.join(', ')}`);
    // Its help and its refusals are the whole command's, exit statuses included.
    for (const args of [['serve', '--help'], ['serve', '--bogus'], ['serve', '--port', 'x']]) {
      const bundled = run(args);
      const tree = run(args, { HEARTH_NO_BUNDLE: '1' });
      assert.deepEqual([bundled.status, bundled.stdout, bundled.stderr], [tree.status, tree.stdout, tree.stderr], args.join(' '));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
