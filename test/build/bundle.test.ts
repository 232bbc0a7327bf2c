/**
 * The CLI bundle (scripts/bundle.mjs) behaves as tsc's tree does, loads only what a command needs,
 * and its V8 code cache is accepted. Skipped until `npm run build` (or `node scripts/bundle.mjs`)
 * has made the bundle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
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
    assert.ok(loaded.some((m) => m.endsWith('hearth.cjs') || m === 'node:vm'), `the probe saw the bundle start: ${loaded.join(', ')}`);
    for (const heavy of ['fastify', '@fastify/static', '@electric-sql/pglite', 'pg', 'react', 'react-dom', 'playwright-core', 'vite', 'ajv']) {
      assert.ok(!loaded.includes(heavy), `${heavy} was loaded: ${loaded.join(', ')}`);
    }
    assert.ok(!loaded.some((m) => m.includes('node_modules')), loaded.join(', '));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('V8 accepts the code cache the build recorded for the bundle', { skip: needsBundle.skip || (existsSync(`${bundle}.v8-cache`) ? false : 'no code cache') }, () => {
  const source = readFileSync(bundle, 'latin1');
  assert.ok(!/[^\x00-\x7f]/.test(source), 'the bundle is ASCII, so reading it as latin1 is exact');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __hearthUrl) {${source}\n})`, { filename: bundle, cachedData: readFileSync(`${bundle}.v8-cache`) });
  assert.equal(script.cachedDataRejected, false);
});
