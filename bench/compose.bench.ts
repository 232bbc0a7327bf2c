/**
 * Composing the mitaka Fuel fixture (with its 232 Fuel library tasks) with every corpus plugin that
 * targets mitaka-9.0. Reading files is measured apart: composition is what the server repeats.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { time, report } from './harness.js';
import { composeRelease } from '../src/core/release/compose.js';
import type { PluginContribution } from '../src/core/release/plugin.js';
import { loadPlugin } from '../src/package/plugin/index.js';
import { contributionFromPlugin } from '../src/package/release/contribution.js';
import { loadReleaseSource } from '../src/package/release/source.js';

const corpus = process.env.HEARTH_CORPUS!;
const mitaka = join(corpus, 'release/mitaka-eol');
const read = time('read fixture + Fuel library tasks', () => loadReleaseSource(join(mitaka, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), { tasksDir: join(mitaka, 'fuel-library') }), { runs: 5, warmup: 1 });
const release = loadReleaseSource(join(mitaka, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), { tasksDir: join(mitaka, 'fuel-library') }).release!;
const plugins: PluginContribution[] = [];
for (const name of readdirSync(join(corpus, 'plugins')).sort()) {
  if (name.includes('.')) continue;
  const loaded = loadPlugin(join(corpus, 'plugins', name));
  if (!loaded.plugin || loaded.plugin.isReleasePlugin) continue;
  const c = contributionFromPlugin(loaded.plugin).contribution;
  if (c.releases.some((r) => r.version === 'mitaka-9.0')) plugins.push(c);
}
const alone = time('compose the release alone (baseline)', () => composeRelease(release, []), { runs: 50 });
const all = time(`compose with ${plugins.length} mitaka plugins`, () => composeRelease(release, plugins), { runs: 50 });
report('compose', [
  { ...read, note: 'YAML parse of 2,500 fixture lines and 48 task files' },
  alone,
  { ...all, targetMs: 200, baselineMs: alone.medianMs },
]);
