/**
 * The plugins-v5 design's validator messages over real plugin folders: package 5.0.0 for Fuel 8.0
 * (experimental task-based orchestrator: a warning, and it builds), `groups:` deprecated in a 5.0.0
 * task, "consider package 5.0.0" as a warning for a 4.0.0 plugin with version 2.0.0 tasks, and
 * `modes` inherited through `base_release_path` warned like one written in the record.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPlugin } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

let n = 0;
function fresh(version: string, options: { releasePlugin?: boolean } = {}): string {
  const result = createPlugin(`v5check${++n}`, { parentDir: work.path, packageVersion: version, ...options });
  assert.ok(result.ok, JSON.stringify(result.findings));
  return result.dir!;
}
const edit = (dir: string, file: string, change: (text: string) => string) => writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
const at = (r: ReturnType<typeof validatePlugin>, code: string) => r.findings.filter((f) => f.code === code);

test('package 5.0.0 for Fuel 8.0: a warning about the experimental orchestrator, valid, and it builds; Fuel 7.0 is still refused', async () => {
  const dir = fresh('5.0.0');
  edit(dir, 'metadata.yaml', (t) => t.replace(/fuel_version: \[.*\]/, "fuel_version: ['8.0']").replace('version: mitaka-9.0', 'version: liberty-8.0'));
  const r = validatePlugin(dir);
  assert.equal(r.valid, true, JSON.stringify(r.findings.filter((f) => f.severity === 'error')));
  const [experimental] = at(r, 'plugin/fuel-8-experimental');
  assert.equal(experimental?.severity, 'warning');
  const fuelLine = readFileSync(join(dir, 'metadata.yaml'), 'utf8').split('\n').findIndex((l) => l.startsWith('fuel_version:')) + 1;
  assert.deepEqual([experimental.file, experimental.line], ['metadata.yaml', fuelLine]);
  const built = await buildPlugin(dir, { runHook: false, outDir: join(work.path, 'out') });
  assert.equal(built.ok, true, JSON.stringify(built.findings.filter((f) => f.severity === 'error')));
  assert.ok(built.findings.some((f) => f.code === 'plugin/fuel-8-experimental'), 'the build shows the warning');

  edit(dir, 'metadata.yaml', (t) => t.replace("fuel_version: ['8.0']", "fuel_version: ['7.0', '8.0']"));
  const old = validatePlugin(dir);
  assert.equal(old.valid, false);
  assert.match(at(old, 'metadata/fuel-version-too-old')[0]?.message ?? '', /Fuel 7\.0: it needs Fuel 8\.0 or newer/);
});

test('groups in a 5.0.0 task is a deprecation warning at the key, naming roles as the replacement', () => {
  const dir = fresh('5.0.0');
  const id = `v5check${n}`;
  edit(dir, 'deployment_tasks.yaml', (t) => t.replace(`  roles: [${id}_role]\n  requires: [post_deployment_start]`, `  groups: [${id}_role]\n  requires: [post_deployment_start]`));
  const r = validatePlugin(dir);
  const [groups] = at(r, 'task/groups-deprecated');
  assert.ok(groups, JSON.stringify(r.findings.map((f) => f.code)));
  assert.equal(groups.severity, 'warning');
  assert.equal(groups.file, 'deployment_tasks.yaml');
  assert.match(readFileSync(join(dir, 'deployment_tasks.yaml'), 'utf8').split('\n')[groups.line! - 1], /^\s+groups: /);
  assert.match(groups.hint ?? '', /roles:/);
  assert.equal(r.valid, true);
});

test('4.0.0 with version 2.0.0 tasks: "consider package 5.0.0" is a warning (the fresh 4.0.0 skeleton has none, so it stays clean)', () => {
  const dir = fresh('4.0.0');
  assert.deepEqual(at(validatePlugin(dir), 'plugin/consider-package-5'), []);
  edit(dir, 'deployment_tasks.yaml', (t) => t.replace('  type: puppet\n', '  type: puppet\n  version: 2.0.0\n'));
  const r = validatePlugin(dir);
  assert.deepEqual(at(r, 'plugin/consider-package-5').map((f) => [f.severity, f.file]), [['warning', 'metadata.yaml']]);
  assert.equal(r.valid, true);
});

test('modes inherited through base_release_path is warned like modes written in the record, at the base file', () => {
  const dir = fresh('5.0.0', { releasePlugin: true });
  const before = validatePlugin(dir);
  assert.deepEqual(at(before, 'release/modes-deprecated'), []);
  mkdirSync(join(dir, 'base'), { recursive: true });
  writeFileSync(join(dir, 'base', 'release.yaml'), "extensions: ['volume_manager']\nmodes: ['ha_compact']\n");
  edit(dir, 'metadata.yaml', (t) => t.replace('    is_release: true\n', '    is_release: true\n    base_release_path: base/release.yaml\n'));
  const r = validatePlugin(dir);
  const [modes] = at(r, 'release/modes-deprecated');
  assert.ok(modes, JSON.stringify(r.findings.map((f) => f.code)));
  assert.deepEqual([modes.severity, modes.file, modes.line], ['warning', 'base/release.yaml', 2]);
  assert.match(modes.message, /inherited by releases\[0\] from base\/release\.yaml/);
});
