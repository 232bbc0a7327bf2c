/**
 * Validation speed: all corpus plugins in one process (target < 1 s), and `hearth plugin
 * validate` on lma-collector as a user runs it, start-up included (target < 200 ms wall).
 * Baselines in the same run: loading alone, and a bare `node` start.
 */
import { readdirSync, statSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { report, summarise, time } from './harness.js';
import { loadPlugin } from '../src/package/plugin/index.js';
import { validatePlugin } from '../src/package/validate/index.js';

const corpus = process.env.HEARTH_CORPUS!;
const pluginsDir = join(corpus, 'plugins');
const plugins = readdirSync(pluginsDir)
  .map((name) => join(pluginsDir, name))
  .filter((p) => statSync(p).isDirectory());

const coldStart = performance.now();
for (const p of plugins) validatePlugin(p);
const coldMs = performance.now() - coldStart;

const load = time('load all plugins (baseline)', () => plugins.forEach((p) => loadPlugin(p)), { runs: 10, warmup: 1 });
const all = time(`validate all ${plugins.length} plugins`, () => plugins.forEach((p) => validatePlugin(p)), { runs: 10, warmup: 1 });
report('validate: corpus in one process', [
  { name: `first pass, cold (${plugins.length} plugins)`, runs: 1, medianMs: coldMs, p95Ms: coldMs, minMs: coldMs, targetMs: 1000 },
  { ...all, targetMs: 1000, baselineMs: load.medianMs, note: 'ratio: against loading alone' },
  load,
]);

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'hearth');
const lma = join(pluginsDir, 'fuel-plugin-lma-collector');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.log('\n(dist/ is missing: run `npx tsc -p tsconfig.build.json` to measure the CLI)');
} else {
  const spawnTimes = (args: string[], runs: number) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      spawnSync(process.execPath, args, { stdio: 'ignore' });
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  spawnTimes([bin, 'plugin', 'validate', lma, '--json'], 2);
  const node = summarise('bare `node -e 0` (baseline)', spawnTimes(['-e', '0'], 15));
  const help = summarise('`hearth --help`', spawnTimes([bin, '--help'], 15));
  const cli = summarise('`hearth plugin validate lma-collector --json`', spawnTimes([bin, 'plugin', 'validate', lma, '--json'], 15));
  // CPU time (user + system) is steadier than wall time on a shared machine: measure it too.
  const cpuTimes = (args: string[], runs: number): number[] | undefined => {
    if (!existsSync('/usr/bin/time')) return undefined;
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      const [user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(sys)) samples.push((user + sys) * 1000);
    }
    return samples;
  };
  const cliCpu = cpuTimes([bin, 'plugin', 'validate', lma, '--json'], 10);
  const nodeCpu = cpuTimes(['-e', '0'], 10);
  report('validate: one plugin from the command line, start-up included', [
    { ...cli, targetMs: 200, baselineMs: node.medianMs, note: 'ratio: against a bare node start' },
    { ...help, baselineMs: node.medianMs },
    node,
  ]);
  if (cliCpu && nodeCpu) {
    const nodeCpuT = summarise('bare `node -e 0`, CPU time (baseline)', nodeCpu);
    report('validate: the same, CPU time (user + system)', [
      { ...summarise('`hearth plugin validate lma-collector --json`, CPU time', cliCpu), targetMs: 200, baselineMs: nodeCpuT.medianMs },
      nodeCpuT,
    ]);
  }
}
console.log(`\nload average while measuring: ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)`);
