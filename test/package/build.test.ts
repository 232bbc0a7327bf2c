import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildPlugin, readTarGz, type BuildEvent } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { acceptAll, tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

let n = 0;
function fresh(version = '5.0.0'): string {
  const result = createPlugin(`p${++n}`, { parentDir: work.path, packageVersion: version });
  assert.ok(result.ok, JSON.stringify(result.findings));
  return result.dir!;
}
const entriesOf = (path: string): string[] => readTarGz(readFileSync(path)).map((e) => e.path);

test('the same input gives byte-identical packages, whatever the file times and creation order', async () => {
  const a = fresh();
  const b = join(work.path, 'copy-of-a');
  // A copy made file by file in reverse order, with other mtimes and a widened mode: same content.
  const files = readdirSync(a, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? d.path, d.name))
    .reverse();
  for (const file of files) {
    const target = join(b, relative(a, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target, { preserveTimestamps: false });
  }
  utimesSync(join(b, 'metadata.yaml'), new Date(2001, 1, 1), new Date(2001, 1, 1));
  chmodSync(join(b, 'LICENSE'), 0o664);
  const first = await buildPlugin(a, { validate: acceptAll, runHook: false, outDir: join(work.path, 'out1') });
  const second = await buildPlugin(b, { validate: acceptAll, runHook: false, outDir: join(work.path, 'out2') });
  assert.ok(first.ok && second.ok);
  assert.ok(readFileSync(first.path!).equals(readFileSync(second.path!)));
  assert.equal(first.sha256, second.sha256);
  const again = await buildPlugin(a, { validate: acceptAll, runHook: false, outDir: join(work.path, 'out3') });
  assert.equal(again.sha256, first.sha256);
});

test('SOURCE_DATE_EPOCH changes the bytes (the mtimes) but a rebuild with it is still identical', async () => {
  const dir = fresh();
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1234567890' };
  const x = await buildPlugin(dir, { validate: acceptAll, runHook: false, env, outDir: join(work.path, 'e1') });
  const y = await buildPlugin(dir, { validate: acceptAll, runHook: false, env, outDir: join(work.path, 'e2') });
  const z = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'e3') });
  assert.equal(x.sha256, y.sha256);
  assert.notEqual(x.sha256, z.sha256);
});

test('hidden files, build leftovers and earlier packages are left out; empty folders stay', async () => {
  const dir = fresh();
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref');
  mkdirSync(join(dir, '.build'));
  writeFileSync(join(dir, '.build', 'junk'), 'x');
  writeFileSync(join(dir, 'deployment_scripts', 'x.pyc'), 'x');
  mkdirSync(join(dir, 'deployment_scripts', '__pycache__'));
  writeFileSync(join(dir, `p${n}-0.9.0.tar.gz`), 'old package');
  writeFileSync(join(dir, 'old.noarch.rpm'), 'fuel package');
  writeFileSync(join(dir, 'hearth-package.json'), '{}');
  const built = await buildPlugin(dir, { validate: acceptAll, runHook: false });
  assert.ok(built.ok);
  assert.equal(built.path, join(dir, `p${n}-1.0.0.tar.gz`), 'the package goes into the plugin folder by default');
  const paths = entriesOf(built.path!);
  const top = `p${n}-1.0.0`;
  for (const gone of ['.git', '.build', '.gitkeep', '.pyc', '__pycache__', '0.9.0.tar.gz', 'old.noarch.rpm']) assert.ok(!paths.some((p) => p.includes(gone)), gone);
  assert.ok(paths.includes(`${top}/repositories/ubuntu`) && paths.includes(`${top}/repositories/centos`));
  assert.equal(paths.filter((p) => p.endsWith('hearth-package.json')).length, 1);
  // A rebuild beside its own output gives the same package.
  const again = await buildPlugin(dir, { validate: acceptAll, runHook: false });
  assert.equal(again.sha256, built.sha256);
});

test('the manifest lists a sha256 for every file and names the plugin, its releases and the builder', async () => {
  const built = await buildPlugin(fresh('4.0.0'), { validate: acceptAll, runHook: false, outDir: join(work.path, 'm') });
  const m = built.manifest!;
  assert.equal(m.package_version, '4.0.0');
  assert.deepEqual(m.releases, [{ os: 'ubuntu', version: 'liberty-8.0' }]);
  assert.equal(m.builder.name, 'hearth');
  const files = readTarGz(readFileSync(built.path!)).filter((e) => e.type === 'file' && !e.path.endsWith('hearth-package.json'));
  assert.equal(Object.keys(m.files).length, files.length);
  assert.ok(files.every((f) => f.path.split('/').slice(1).join('/') in m.files));
});

test('pre_build_hook runs in the plugin folder, its output is passed on, and what it makes is packaged', async () => {
  const dir = fresh();
  writeFileSync(join(dir, 'pre_build_hook'), '#!/bin/sh\necho "hook says hi"\necho generated > deployment_scripts/generated.txt\n', { mode: 0o755 });
  let output = '';
  const built = await buildPlugin(dir, { validate: acceptAll, outDir: join(work.path, 'h'), onHookOutput: (c) => (output += c.toString()) });
  assert.ok(built.ok);
  assert.match(output, /hook says hi/);
  assert.ok(entriesOf(built.path!).some((p) => p.endsWith('deployment_scripts/generated.txt')));
});

test('a failing pre_build_hook stops the build before validation, with its exit status', async () => {
  const dir = fresh();
  writeFileSync(join(dir, 'pre_build_hook'), '#!/bin/sh\necho "cannot fetch" >&2\nexit 7\n', { mode: 0o755 });
  let validated = false;
  const events: BuildEvent[] = [];
  const built = await buildPlugin(dir, { validate: () => ((validated = true), { valid: true, findings: [] }), outDir: join(work.path, 'hf'), onHookOutput: () => {}, onEvent: (e) => events.push(e) });
  assert.equal(built.ok, false);
  assert.equal(built.hookExitCode, 7);
  assert.equal(built.findings[0].code, 'build/hook-failed');
  assert.match(built.findings[0].message, /status 7/);
  assert.equal(validated, false);
  assert.deepEqual(events.at(-1), { step: 'hook', state: 'failed' });
});

test('a pre_build_hook that is not executable is not run, with a warning', async () => {
  const dir = fresh();
  writeFileSync(join(dir, 'pre_build_hook'), '#!/bin/sh\nexit 1\n', { mode: 0o644 });
  chmodSync(join(dir, 'pre_build_hook'), 0o644);
  const built = await buildPlugin(dir, { validate: acceptAll, outDir: join(work.path, 'hn') });
  assert.ok(built.ok);
  assert.deepEqual(built.findings.map((f) => [f.code, f.severity]), [['build/hook-not-executable', 'warning']]);
});

test('validation errors stop the build and no package is written', async () => {
  const dir = fresh();
  const out = join(work.path, 'invalid');
  const built = await buildPlugin(dir, { validate: () => ({ valid: false, findings: [{ code: 'x/y', severity: 'error', message: 'broken' }] }), runHook: false, outDir: out });
  assert.equal(built.ok, false);
  assert.equal(built.path, undefined);
  assert.deepEqual(built.findings.map((f) => f.code), ['x/y']);
});

test('a folder without metadata.yaml is not a plugin', async () => {
  const built = await buildPlugin(work.path, { validate: acceptAll, runHook: false });
  assert.equal(built.findings[0].code, 'build/not-a-plugin');
});

test('a version that cannot name a file stops the build with its position', async () => {
  const dir = fresh();
  const meta = readFileSync(join(dir, 'metadata.yaml'), 'utf8').replace("version: '1.0.0'", "version: '../1.0'");
  writeFileSync(join(dir, 'metadata.yaml'), meta);
  const built = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'bv') });
  assert.equal(built.findings[0].code, 'build/bad-version');
  assert.equal(built.findings[0].file, 'metadata.yaml');
  assert.ok((built.findings[0].line ?? 0) > 1);
});

test('symbolic links inside the plugin are followed; one leading outside is an error', async () => {
  const dir = fresh();
  symlinkSync('deploy.sh', join(dir, 'deployment_scripts', 'alias.sh'));
  const ok = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'l1') });
  assert.ok(ok.ok);
  const alias = readTarGz(readFileSync(ok.path!)).find((e) => e.path.endsWith('alias.sh'))!;
  assert.equal(alias.type, 'file');
  assert.match(alias.data.toString(), /deployed/);
  symlinkSync('/etc/hostname', join(dir, 'deployment_scripts', 'outside'));
  const bad = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'l2') });
  assert.equal(bad.ok, false);
  assert.equal(bad.findings[0].code, 'build/link-outside-plugin');
});

test('repositories holding packages are indexed when the tools exist, and say so clearly when they do not', async () => {
  const dir = fresh();
  writeFileSync(join(dir, 'repositories', 'ubuntu', 'tool_1.0_all.deb'), 'not really a deb');
  writeFileSync(join(dir, 'repositories', 'centos', 'tool-1.0.noarch.rpm'), 'not really an rpm');
  const built = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'r'), env: { ...process.env, PATH: '/nonexistent' } });
  assert.ok(built.ok);
  const missing = built.findings.filter((f) => f.code === 'build/repository-tool-missing');
  assert.equal(missing.length, 2);
  assert.match(missing[0].message + missing[1].message, /dpkg-scanpackages/);
  assert.match(missing[0].message + missing[1].message, /createrepo/);
  assert.match(missing[0].hint!, /apt-get install/);
  // The packages themselves are still shipped, unindexed.
  assert.ok(entriesOf(built.path!).some((p) => p.endsWith('repositories/ubuntu/tool_1.0_all.deb')));
});

test('with a (fake) dpkg-scanpackages on PATH the ubuntu repository gets Packages.gz and Release, in the package only', async () => {
  const dir = fresh();
  const bin = join(work.path, 'fakebin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'dpkg-scanpackages'), '#!/bin/sh\necho "Package: tool"\necho "Filename: ./tool_1.0_all.deb"\n', { mode: 0o755 });
  writeFileSync(join(dir, 'repositories', 'ubuntu', 'tool_1.0_all.deb'), 'deb');
  const built = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: join(work.path, 'r2'), env: { ...process.env, PATH: bin } });
  assert.ok(built.ok, JSON.stringify(built.findings));
  const entries = readTarGz(readFileSync(built.path!));
  const release = entries.find((e) => e.path.endsWith('repositories/ubuntu/Release'))!;
  assert.equal(release.data.toString(), `Label: p${n}\nVersion: 1.0\n`);
  assert.ok(entries.some((e) => e.path.endsWith('repositories/ubuntu/Packages.gz')));
  assert.ok(built.manifest!.files['repositories/ubuntu/Packages.gz']);
  // The author's folder is untouched.
  assert.throws(() => readFileSync(join(dir, 'repositories', 'ubuntu', 'Release')));
});
