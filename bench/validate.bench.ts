/**
 * Validation speed: all corpus plugins in one process (target < 1 s), and `hearth plugin
 * validate` on lma-collector as a user runs it, start-up included (target < 200 ms wall).
 * Baselines in the same run: loading alone, and a bare `node` start; with NODE_EXTRA_CA_CERTS set,
 * both CLI and bare node are measured with the environment as is and with it removed.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Module from 'node:module';
import { report, summarise, time } from './harness.js';
import { loadPlugin } from '../src/package/plugin/index.js';
import { validatePlugin } from '../src/package/validate/index.js';

const corpus = process.env.HEARTH_CORPUS!;
const pluginsDir = join(corpus, 'plugins');
const plugins = readdirSync(pluginsDir)
  .map((name) => join(pluginsDir, name))
  .filter((p) => statSync(p).isDirectory());

const loadAtStart = (await import('node:os')).loadavg();
const coldStart = performance.now();
for (const p of plugins) validatePlugin(p);
const coldMs = performance.now() - coldStart;

const load = time('load all plugins (baseline)', () => plugins.forEach((p) => loadPlugin(p)), { runs: 10, warmup: 1 });
const all = time(`validate all ${plugins.length} plugins`, () => plugins.forEach((p) => validatePlugin(p)), { runs: 10, warmup: 1 });
// Against their releases (issue 18): every extension plugin with Fuel's release fixtures and their
// libraries' tasks (mitaka-9.0 and master's newton-10.0, six releases), the release chosen by the
// plugin's metadata.yaml (mitaka's Ubuntu one for plugins naming neither); a release plugin is its
// own release. The releases are read once, as a server holds them.
const { loadReleaseSource } = await import('../src/package/release/source.js');
const fixtureOf = (dir: string) => loadReleaseSource(join(dir, 'fuel-web', 'nailgun', 'nailgun', 'fixtures', 'openstack.yaml'), { tasksDir: join(dir, 'fuel-library') });
const releasesReadStart = performance.now();
const mitaka = fixtureOf(join(corpus, 'release', 'mitaka-eol'));
const newton = fixtureOf(join(corpus, 'release'));
const mitakaReadMs = performance.now() - releasesReadStart;
const releases = [...mitaka.releases, ...newton.releases];
const withRelease = (p: string) => validatePlugin(p, { ...(mitaka.release ? { release: mitaka.release } : {}), releases });
const coldReleaseStart = performance.now();
plugins.forEach(withRelease);
const coldReleaseMs = performance.now() - coldReleaseStart;
const against = time(`validate all ${plugins.length} plugins against their releases`, () => plugins.forEach(withRelease), { runs: 10, warmup: 1 });
report('validate: corpus in one process', [
  { name: `first pass, cold (${plugins.length} plugins)`, runs: 1, medianMs: coldMs, p95Ms: coldMs, minMs: coldMs, targetMs: 1000 },
  { ...all, targetMs: 1000, baselineMs: load.medianMs, note: 'ratio: against loading alone' },
  { name: `against their release, first pass (${plugins.length} plugins; the two fixtures read once before: ${mitakaReadMs.toFixed(0)} ms)`, runs: 1, medianMs: coldReleaseMs, p95Ms: coldReleaseMs, minMs: coldReleaseMs, targetMs: 1000 },
  { ...against, targetMs: 1000, baselineMs: all.medianMs, note: 'ratio: against validating without a release' },
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
  const validateArgs = [bin, 'plugin', 'validate', lma, '--json'];
  // NODE_EXTRA_CA_CERTS (set in some sandboxes and corporate setups) makes Node 20 read and parse
  // that certificate file at start-up, before any of our code runs: every process pays for it,
  // `node -e 0` too. bin/hearth leaves the user's environment alone, so the rows with the
  // environment as it is are what a user here waits for; the rows without it show what the same
  // commands cost where it is not set, and how much of the wall time is Node's and not Hearth's.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  const withoutCa: NodeJS.ProcessEnv = { ...process.env };
  delete withoutCa.NODE_EXTRA_CA_CERTS;
  interface Case { name: string; args: string[]; env: NodeJS.ProcessEnv; wall: number[]; cpu: number[] }
  const cases: Case[] = [];
  const add = (name: string, args: string[], env: NodeJS.ProcessEnv = process.env): Case => {
    const c = { name, args, env, wall: [], cpu: [] };
    cases.push(c);
    return c;
  };
  const asIs = extraCa ? ', environment as is' : '';
  const noCa = ', NODE_EXTRA_CA_CERTS removed';
  const cli = add(`\`hearth plugin validate lma-collector --json\`${asIs}`, validateArgs);
  const cliNoCa = extraCa ? add(`the same${noCa}`, validateArgs, withoutCa) : undefined;
  const tree = compiled ? add("the same from tsc's dist/ tree (no bundle)", validateArgs, treeEnv) : undefined;
  // bin/hearth runs the bundle with the hand-kept V8 cache where the same Node wrote it (the
  // build's), else, on Node 22.1+, with Node's own compile cache: that one is measured beside it,
  // to say which is faster (HEARTH_CODE_CACHE=node).
  const nodeCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  const handKept = nodeCompileCache && bundled ? add("the same with Node's compile cache (HEARTH_CODE_CACHE=node) instead of the hand-kept one", validateArgs, { ...process.env, HEARTH_CODE_CACHE: 'node' }) : undefined;
  // Where npm install (or an image) puts Hearth, its files have other inodes and times than the
  // build's: the schemas are checked by their digest once there, then by the note that run left.
  const installed = bundled ? mkdtempSync(join(tmpdir(), 'hearth-bench-installed-')) : undefined;
  if (installed) for (const part of ['bin', 'package.json', 'schemas', join('dist', 'bundle')]) cpSync(join(root, part), join(installed, part), { recursive: true });
  const copy = installed ? add('the same from an installed copy (bin/, dist/bundle/, schemas/ copied elsewhere)', [join(installed, 'bin', 'hearth'), ...validateArgs.slice(1)]) : undefined;
  const help = add('`hearth --help`', [bin, '--help']);
  const node = add(`bare \`node -e 0\`${asIs} (baseline)`, ['-e', '0']);
  const nodeNoCa = extraCa ? add(`bare \`node -e 0\`${noCa}`, ['-e', '0'], withoutCa) : undefined;
  // CPU time (user + system) is steadier than wall time on a shared machine: measured too, by
  // /usr/bin/time (10 ms ticks) in separate runs. The cases take turns, so a change in the other
  // work on the machine falls on all of them alike.
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const runs = 20;
  for (const c of cases) spawnSync(process.execPath, c.args, { stdio: 'ignore', env: c.env });
  for (let i = 0; i < runs; i++) {
    for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
      const t0 = performance.now();
      spawnSync(process.execPath, c.args, { stdio: 'ignore', env: c.env });
      c.wall.push(performance.now() - t0);
      if (!timeBin) continue;
      const r = spawnSync(timeBin, ['-f', '%U %S', process.execPath, ...c.args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], env: c.env });
      const [user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(sys)) c.cpu.push((user + sys) * 1000);
    }
  }
  if (installed) rmSync(installed, { recursive: true, force: true });
  const fmt = (ms: number) => ms.toFixed(0);
  const wallOf = (c: Case) => summarise(c.name, c.wall);
  const cpuOf = (c: Case) => summarise(c.name, c.cpu);
  const minNote = (t: { minMs: number }) => `min ${fmt(t.minMs)}`;
  const nodeT = wallOf(node);
  const nodeNoCaT = nodeNoCa ? wallOf(nodeNoCa) : undefined;
  const cliT = wallOf(cli);
  const cliNoCaT = cliNoCa ? wallOf(cliNoCa) : undefined;
  report('validate: one plugin from the command line, start-up included (wall time)', [
    { ...cliT, targetMs: 200, baselineMs: nodeT.medianMs, note: `${minNote(cliT)}; ratio: against a bare node start; ${fmt(cliT.medianMs - nodeT.medianMs)} ms over it` },
    ...(cliNoCaT && nodeNoCaT ? [{ ...cliNoCaT, targetMs: 200, baselineMs: nodeNoCaT.medianMs, note: `${minNote(cliNoCaT)}; ratio: against bare node without it; ${fmt(cliNoCaT.medianMs - nodeNoCaT.medianMs)} ms over it` }] : []),
    ...(tree ? [{ ...wallOf(tree), baselineMs: nodeT.medianMs, note: minNote(wallOf(tree)) }] : []),
    ...(handKept ? [{ ...wallOf(handKept), baselineMs: cliT.medianMs, note: `${minNote(wallOf(handKept))}; ratio: against the hand-kept cache (first row)` }] : []),
    ...(copy ? [{ ...wallOf(copy), baselineMs: nodeT.medianMs, note: minNote(wallOf(copy)) }] : []),
    { ...wallOf(help), baselineMs: nodeT.medianMs, note: minNote(wallOf(help)) },
    { ...nodeT, note: minNote(nodeT) },
    ...(nodeNoCaT ? [{ ...nodeNoCaT, baselineMs: nodeT.medianMs, note: `${minNote(nodeNoCaT)}; ratio: against bare node as is` }] : []),
  ]);
  if (timeBin) {
    const nodeCpu = cpuOf(node);
    const cliCpu = cpuOf(cli);
    const nodeNoCaCpu = nodeNoCa ? cpuOf(nodeNoCa) : undefined;
    const cliNoCaCpu = cliNoCa ? cpuOf(cliNoCa) : undefined;
    report('validate: the same, CPU time (user + system; 10 ms ticks)', [
      { ...cliCpu, baselineMs: nodeCpu.medianMs, note: `${minNote(cliCpu)}; ${fmt(cliCpu.medianMs - nodeCpu.medianMs)} ms over bare node (aim: about 100)` },
      ...(cliNoCaCpu && nodeNoCaCpu ? [{ ...cliNoCaCpu, baselineMs: nodeNoCaCpu.medianMs, note: `${minNote(cliNoCaCpu)}; ${fmt(cliNoCaCpu.medianMs - nodeNoCaCpu.medianMs)} ms over bare node without it` }] : []),
      ...(tree ? [{ ...cpuOf(tree), baselineMs: nodeCpu.medianMs, note: minNote(cpuOf(tree)) }] : []),
      ...(handKept ? [{ ...cpuOf(handKept), baselineMs: cliCpu.medianMs, note: `${minNote(cpuOf(handKept))}; ratio: against the hand-kept cache (first row)` }] : []),
      ...(copy ? [{ ...cpuOf(copy), baselineMs: nodeCpu.medianMs, note: minNote(cpuOf(copy)) }] : []),
      { ...nodeCpu, note: minNote(nodeCpu) },
      ...(nodeNoCaCpu ? [{ ...nodeNoCaCpu, baselineMs: nodeCpu.medianMs, note: minNote(nodeNoCaCpu) }] : []),
    ]);
  }
  if (extraCa && nodeNoCaT && cliNoCaT) {
    console.log(
      `\nWhy the rows differ: NODE_EXTRA_CA_CERTS=${extraCa} is set here, and Node ${process.versions.node.split(".")[0]} loads those certificates at start-up, ` +
        `before any of Hearth's code runs (bare node: ${fmt(nodeT.medianMs)} ms with it, ${fmt(nodeNoCaT.medianMs)} ms without, ` +
        `${fmt(nodeT.medianMs - nodeNoCaT.medianMs)} ms; hearth: ${fmt(cliT.medianMs)} against ${fmt(cliNoCaT.medianMs)} ms, ` +
        `${fmt(cliT.medianMs - cliNoCaT.medianMs)} ms). bin/hearth does not touch the user's environment; the target is judged on the first row.`,
    );
  }
}
console.log(`\nload average (1, 5, 15 min) at the start: ${loadAtStart.map((n) => n.toFixed(1)).join(' ')}, at the end: ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')} (${(await import('node:os')).cpus().length} cores)`);
