/**
 * Building the largest corpus plugin (target: under 1 s), against baselines measured in the same
 * run: reading its files alone, and packaging without validation. Also reading the package back.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPlugin, collectPluginFiles, readPackage, type PluginValidator } from '../src/package/build/index.js';
import { readYamlFile } from '../src/package/yaml/index.js';
import { report, timeAsync, time } from './harness.js';

const corpus = join(process.env.HEARTH_CORPUS ?? '', 'plugins');

function sizeOf(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? sizeOf(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}

const plugins = readdirSync(corpus)
  .filter((n) => statSync(join(corpus, n)).isDirectory())
  .map((n) => ({ name: n, bytes: sizeOf(join(corpus, n)) }))
  .sort((a, b) => b.bytes - a.bytes);

const work = mkdtempSync(join(tmpdir(), 'hearth-bench-build-'));
function prepare(name: string): string {
  const dir = join(work, name);
  cpSync(join(corpus, name), dir, { recursive: true });
  const meta = readYamlFile(join(dir, 'metadata.yaml'), 'metadata.yaml').value as { releases?: Array<Record<string, unknown>> };
  for (const r of meta?.releases ?? []) {
    for (const key of ['deployment_scripts_path', 'repository_path']) if (typeof r?.[key] === 'string') mkdirSync(join(dir, r[key] as string), { recursive: true });
  }
  return dir;
}

// The validator is loaded by specifier so this bench runs before and after it lands.
let validate: PluginValidator | undefined;
try {
  const specifier = '../src/package/validate/index.js';
  validate = ((await import(specifier)) as { validatePlugin: PluginValidator }).validatePlugin;
} catch {
  validate = undefined;
}
const acceptAll: PluginValidator = () => ({ valid: true, findings: [] });

const largest = plugins[0];
const dir = prepare(largest.name);
const out = join(work, 'out');
const files = collectPluginFiles(dir).entries.filter((e) => e.type === 'file').length;
const note = `${largest.name}: ${files} files, ${(largest.bytes / 1024).toFixed(0)} KiB`;

const read = time('read its files (baseline)', () => collectPluginFiles(dir));
const pack = await timeAsync('build, validation skipped', () => buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: out }));
const rows = [
  { ...read, note },
  { ...pack, baselineMs: read.medianMs, targetMs: 1000 },
];
let validity = 'no validator yet';
if (validate) {
  const full = await buildPlugin(dir, { validate, runHook: false, outDir: out });
  validity = full.ok ? 'validates' : `does not validate (${full.findings.filter((f) => f.severity === 'error').length} errors)`;
  rows.push({ ...(await timeAsync('build with validation', () => buildPlugin(dir, { validate, runHook: false, outDir: out }), { runs: 10 })), baselineMs: read.medianMs, targetMs: 1000, note: validity });
}
const built = await buildPlugin(dir, { validate: acceptAll, runHook: false, outDir: out });
rows.push({ ...(await timeAsync('read the package back (verify + unpack)', async () => (await readPackage(built.path!, { tempDir: work })).cleanup())), baselineMs: read.medianMs, note: `${built.size} bytes` });
report('hearth plugin build: the largest corpus plugin', rows);
rmSync(work, { recursive: true, force: true });
