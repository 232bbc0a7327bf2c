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
const bundled = existsSync(join(root, 'dist', 'bundle', 'hearth.cjs'));
const compiled = existsSync(join(root, 'dist', 'cli', 'main.js'));
if (!bundled && !compiled) {
  console.log('\n(dist/ is missing: run `npm run build` to measure the CLI)');
} else {
  // bin/hearth runs the bundle (dist/bundle/, see scripts/bundle.mjs); HEARTH_NO_BUNDLE=1 makes it
  // run tsc's dist/ tree instead, the way it started before the bundle: measured side by side.
  const treeEnv = { ...process.env, HEARTH_NO_BUNDLE: '1' };
  if (bundled && compiled && statSync(join(root, 'dist', 'bundle', 'hearth.cjs')).mtimeMs < statSync(join(root, 'dist', 'cli', 'main.js')).mtimeMs) {
    console.log('\n(note: the bundle is older than dist/cli/main.js, so bin/hearth runs the tree: run `node scripts/bundle.mjs` first)');
  }
  const spawnTimes = (args: string[], runs: number, env: NodeJS.ProcessEnv = process.env) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      spawnSync(process.execPath, args, { stdio: 'ignore', env });
      samples.push(performance.now() - t0);
    }
    return samples;
  };
  const validateArgs = [bin, 'plugin', 'validate', lma, '--json'];
  spawnTimes(validateArgs, 2);
  const node = summarise('bare `node -e 0` (baseline)', spawnTimes(['-e', '0'], 15));
  const help = summarise('`hearth --help`', spawnTimes([bin, '--help'], 15));
  const cli = summarise('`hearth plugin validate lma-collector --json`', spawnTimes(validateArgs, 15));
  const tree = compiled ? summarise('the same from tsc\'s dist/ tree (no bundle)', spawnTimes(validateArgs, 15, treeEnv)) : undefined;
  // CPU time (user + system) is steadier than wall time on a shared machine: measure it too.
  const cpuTimes = (args: string[], runs: number, env: NodeJS.ProcessEnv = process.env): number[] | undefined => {
    if (!existsSync('/usr/bin/time')) return undefined;
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env });
      const [user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(sys)) samples.push((user + sys) * 1000);
    }
    return samples;
  };
  const cliCpu = cpuTimes(validateArgs, 15);
  const treeCpu = compiled ? cpuTimes(validateArgs, 15, treeEnv) : undefined;
  const nodeCpu = cpuTimes(['-e', '0'], 15);
  report('validate: one plugin from the command line, start-up included', [
    { ...cli, targetMs: 200, baselineMs: node.medianMs, note: 'ratio: against a bare node start' },
    ...(tree ? [{ ...tree, baselineMs: node.medianMs }] : []),
    { ...help, baselineMs: node.medianMs },
    node,
  ]);
  if (cliCpu && nodeCpu) {
    const nodeCpuT = summarise('bare `node -e 0`, CPU time (baseline)', nodeCpu);
    const cliCpuT = summarise('`hearth plugin validate lma-collector --json`, CPU time', cliCpu);
    report('validate: the same, CPU time (user + system; 10 ms ticks)', [
      { ...cliCpuT, baselineMs: nodeCpuT.medianMs, note: `${(cliCpuT.medianMs - nodeCpuT.medianMs).toFixed(0)} ms over bare node (aim: about 100)` },
      ...(treeCpu ? [{ ...summarise('the same from tsc\'s dist/ tree, CPU time', treeCpu), baselineMs: nodeCpuT.medianMs }] : []),
      nodeCpuT,
    ]);
  }
}
console.log(`\nload average while measuring: ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')} (2 cores)`);
