/**
 * Hearth knows itself by its own package.json, never by the npm name (which is scoped for
 * publishing: the plain name `hearth` belongs to someone else's package) and never by the
 * environment of an npm script (whose version is the user's project's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../hostile/harness.js';
import { buildApp } from '../../src/server/app.js';
import { engines } from '../server/support/engines.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean; dependencies: Record<string, string> };
const built = existsSync(join(repoRoot, 'dist', 'cli', 'main.js'));

test('the package is publish-ready under a scoped name, private until published', () => {
  assert.match(pkg.name, /^@[a-z0-9-]+\/hearth$/, 'the plain name `hearth` is another package: npx hearth would run its code');
  assert.equal(pkg.private, true);
  assert.equal(pkg.dependencies['logic-solver'], undefined, 'no dependency nothing imports');
});

test('hearth --version prints Hearth\'s version, even from inside another project\'s npm script', { skip: built ? false : 'dist/ is not built' }, () => {
  const out = execFileSync(process.execPath, [join(repoRoot, 'bin', 'hearth'), '--version'], { env: { ...process.env, npm_package_version: '9.9.9-users-project' }, encoding: 'utf8' });
  assert.equal(out.trim(), pkg.version);
  // The short flag, and the flag after a command, as commander's own --version answered them.
  for (const args of [['-V'], ['plugin', 'validate', '--version']]) {
    assert.equal(execFileSync(process.execPath, [join(repoRoot, 'bin', 'hearth'), ...args], { encoding: 'utf8' }).trim(), pkg.version, args.join(' '));
  }
  assert.match(execFileSync(process.execPath, [join(repoRoot, 'bin', 'hearth'), '--help'], { encoding: 'utf8' }), /-V, --version +output the version number/);
});

test('the server reports the version of its package.json', async () => {
  const [engine] = engines();
  const db = await engine.open();
  const app = await buildApp({ db, adminToken: 'identity-token-0123456789' });
  try {
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/version' })).json().version, pkg.version);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json().info.version, pkg.version);
  } finally {
    await app.close();
    await db.close();
    await engine.dispose();
  }
});

test('LICENSE: the Apache License 2.0 in full, as package.json says, and in the published package', () => {
  assert.equal((pkg as { license?: string }).license, 'Apache-2.0');
  const text = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');
  assert.match(text, /Apache License\s+Version 2\.0, January 2004/);
  assert.match(text, /END OF TERMS AND CONDITIONS/, 'the full text, not a pointer to it');
  assert.match(text, /APPENDIX: How to apply the Apache License to your work/);
  // What `npm pack` would put in the tarball (scripts skipped: the build is not what is asked here).
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ files: Array<{ path: string }> }>;
  assert.ok(packed.files.some((f) => f.path === 'LICENSE'), 'npm pack includes LICENSE');
});
