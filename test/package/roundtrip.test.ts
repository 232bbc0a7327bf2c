/**
 * The author's loop with the real validator: create → validate (no errors, no warnings) → build →
 * inspect, for every package version and for a release plugin; and every corpus plugin that
 * validates also builds and inspects.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../src/core/findings.js';
import { buildPlugin, inspectPackage } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { PACKAGE_VERSIONS } from '../../src/package/plugin/model.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { createReleaseFolders } from '../support/plugin-copy.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

const show = (fs: readonly Finding[]): string => fs.map((f) => `${f.file ?? ''}:${f.line ?? ''}:${f.column ?? ''} ${f.severity} ${f.code} ${f.message}`).join('\n');

async function validate(dir: string): Promise<{ valid: boolean; findings: Finding[] }> {
  const { validatePlugin } = await import('../../src/package/validate/index.js');
  return validatePlugin(dir);
}

const cases: Array<{ label: string; version: string; release: boolean }> = [
  ...PACKAGE_VERSIONS.map((version) => ({ label: `package ${version}`, version, release: false })),
  { label: 'release plugin', version: '5.0.0', release: true },
];

for (const c of cases) {
  test(`create → validate (clean) → build → inspect: ${c.label}`, async () => {
    const name = `rt_${c.release ? 'release' : c.version.replace(/\./g, '')}`;
    const created = createPlugin(name, { parentDir: work.path, packageVersion: c.version, releasePlugin: c.release });
    assert.ok(created.ok, show(created.findings));
    const validation = await validate(created.dir!);
    assert.deepEqual(show(validation.findings.filter((f) => f.severity !== 'info')), '', 'a fresh skeleton has no errors and no warnings');
    assert.equal(validation.valid, true);

    const built = await buildPlugin(created.dir!, { outDir: join(work.path, 'out'), onHookOutput: () => {} });
    assert.ok(built.ok, show(built.findings));
    assert.equal(built.path, join(work.path, 'out', `${name}-1.0.0.tar.gz`));

    const inspected = await inspectPackage(built.path!, { tempDir: work.path });
    assert.ok(inspected.ok, show(inspected.findings));
    const s = inspected.summary!;
    assert.equal(s.name, name);
    assert.equal(s.packageVersion, c.version);
    assert.ok(s.releases.length >= 1);
    if (c.release) {
      assert.equal(s.isReleasePlugin, true);
      assert.deepEqual(s.roles, ['compute', 'controller']);
      assert.deepEqual(Object.keys(s.tasks).sort(), ['deployment_tasks', 'graph:default', 'graph:deletion', 'graph:network_verification', 'graph:provisioning']);
    } else if (c.version >= '3.0.0') {
      assert.deepEqual(s.roles, [`${name}_role`]);
      assert.ok(s.tasks.deployment_tasks >= 1);
    } else {
      assert.equal(s.tasks.tasks, 2);
    }
    if (!c.release && c.version >= '4.0.0') assert.deepEqual(s.components, [`additional_service:${name}`]);
  });
}

/** The corpus leaves out release folders; make them in the copy, as the reference results did. */
const withReleaseFolders = createReleaseFolders;

test('every corpus plugin that validates also builds and inspects', needsCorpus, async (t) => {
  const root = corpusPath('plugins');
  let built = 0;
  const invalid: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const source = join(root, name);
    if (!statSync(source).isDirectory()) continue;
    const copy = join(work.path, 'corpus', name);
    cpSync(source, copy, { recursive: true });
    withReleaseFolders(copy);
    const validation = await validate(copy);
    if (!validation.valid) {
      invalid.push(name);
      continue;
    }
    const result = await buildPlugin(copy, { outDir: join(work.path, 'corpus-out'), runHook: false });
    assert.ok(result.ok, `${name}: ${show(result.findings)}`);
    const inspected = await inspectPackage(result.path!, { tempDir: work.path });
    assert.ok(inspected.ok, `${name}: ${show(inspected.findings)}`);
    built++;
  }
  t.diagnostic(`built ${built}; not valid: ${invalid.join(', ')}`);
  assert.ok(built >= 10, `only ${built} corpus plugins validated and built (invalid: ${invalid.join(', ')})`);
});
