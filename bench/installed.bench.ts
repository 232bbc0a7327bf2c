/**
 * Hearth as a user installs it against Hearth in the checkout (issue 19): `npm pack`, `npm install
 * -g` of the tarball into a temporary prefix, then `hearth --version` and `hearth plugin validate
 * lma-collector --json` run from both, side by side with `node -e 0`, the cases taking turns so a
 * change of load falls on all of them. An installed copy once ran tsc's tree instead of the bundle
 * (twice the CPU); the ratio installed/checkout should stay near 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { report, summarise } from './harness.js';

const root = join(import.meta.dirname, '..');
const corpus = process.env.HEARTH_CORPUS ?? '';
const lma = join(corpus, 'plugins', 'fuel-plugin-lma-collector');
const plugin = existsSync(lma) ? lma : join(root, 'release');
const ROUNDS = Number(process.env.HEARTH_INSTALLED_ROUNDS ?? 20);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(join(root, 'dist', 'bundle', 'hearth.cjs'))) {
  console.log('(dist/ is not built: run `npm run build` first)');
  process.exit(0);
}
const loadAtStart = loadavg();
const work = mkdtempSync(join(tmpdir(), 'hearth-bench-installed-'));
try {
  const t0 = performance.now();
  const pack = spawnSync(npm, ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  const prefix = join(work, 'prefix');
  const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', tarball], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install -g of the tarball failed:\n${install.stderr}`);
  console.log(`packed and installed into ${prefix} in ${((performance.now() - t0) / 1000).toFixed(1)} s; validating ${plugin === lma ? 'lma-collector (corpus)' : 'release/ (no corpus)'}`);

  // The installed command as npm links it, run by this Node (its #! line could find another).
  const installedBin = realpathSync(join(prefix, 'bin', 'hearth'));
  const checkoutBin = join(root, 'bin', 'hearth');
  interface Case { name: string; args: string[]; wall: number[]; cpu: number[] }
  const cases: Case[] = [];
  const add = (name: string, args: string[]): Case => {
    const c = { name, args, wall: [], cpu: [] };
    cases.push(c);
    return c;
  };
  const node = add('bare `node -e 0` (baseline)', ['-e', '0']);
  const versionCheckout = add('`hearth --version`, checkout', [checkoutBin, '--version']);
  const versionInstalled = add('`hearth --version`, installed', [installedBin, '--version']);
  const validateCheckout = add('`hearth plugin validate --json`, checkout', [checkoutBin, 'plugin', 'validate', plugin, '--json']);
  const validateInstalled = add('`hearth plugin validate --json`, installed', [installedBin, 'plugin', 'validate', plugin, '--json']);

  // Which code each copy runs (the bundle reports its code cache), said once before measuring.
  for (const c of [validateCheckout, validateInstalled]) {
    const r = spawnSync(process.execPath, c.args, { encoding: 'utf8', env: { ...process.env, HEARTH_DEBUG_CODE_CACHE: '1' } });
    console.log(`${c.name}: exit ${r.status}; ${r.stderr.match(/hearth: code cache[^\n]*/)?.[0] ?? "no code cache line: tsc's tree ran, not the bundle"}`);
  }
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  for (const c of cases) spawnSync(process.execPath, c.args, { stdio: 'ignore' });
  for (let i = 0; i < ROUNDS; i++) {
    for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
      const start = performance.now();
      spawnSync(process.execPath, c.args, { stdio: 'ignore' });
      c.wall.push(performance.now() - start);
      if (!timeBin) continue;
      const r = spawnSync(timeBin, ['-f', '%U %S', process.execPath, ...c.args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      const [user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(sys)) c.cpu.push((user + sys) * 1000);
    }
  }
  const wall = (c: Case) => summarise(c.name, c.wall);
  const cpu = (c: Case) => summarise(c.name, c.cpu);
  const nodeWall = wall(node).medianMs;
  report(`installed against checkout, wall time (${ROUNDS} rounds; ratio against the checkout's run of the same command)`, [
    { ...wall(node), note: 'baseline' },
    { ...wall(versionCheckout), note: `${(wall(versionCheckout).medianMs / nodeWall).toFixed(2)}x node -e 0` },
    { ...wall(versionInstalled), baselineMs: wall(versionCheckout).medianMs, note: `${(wall(versionInstalled).medianMs / nodeWall).toFixed(2)}x node -e 0` },
    { ...wall(validateCheckout), note: `${(wall(validateCheckout).medianMs / nodeWall).toFixed(2)}x node -e 0` },
    { ...wall(validateInstalled), baselineMs: wall(validateCheckout).medianMs, note: `${(wall(validateInstalled).medianMs / nodeWall).toFixed(2)}x node -e 0` },
  ]);
  if (timeBin) {
    report('the same, CPU time (user + system; 10 ms ticks)', [
      cpu(node),
      cpu(versionCheckout),
      { ...cpu(versionInstalled), baselineMs: cpu(versionCheckout).medianMs },
      cpu(validateCheckout),
      { ...cpu(validateInstalled), baselineMs: cpu(validateCheckout).medianMs },
    ]);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const fmt = (l: number[]) => l.map((n) => n.toFixed(1)).join(' ');
console.log(`\nload average (1, 5, 15 min) at the start: ${fmt(loadAtStart)}, at the end: ${fmt(loadavg())}; Node ${process.version}`);
