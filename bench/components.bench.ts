/**
 * The component engine on the synthetic catalogs (corpus/synthetic, 200 to 10,000 components):
 * compile, validate, state from scratch, state after one click (a walk through the panes, one
 * click per group, on a fresh catalog each time), state after unclicking, state with "unselect"
 * fixes. Wall times are what a user waits; CPU times (this process, all its threads) are printed
 * beside them because the machine is shared and its load (printed too) inflates wall times.
 * Fuel's own wizard logic took 87 ms / 1.5 s / 6.6 s for a walk at 200 / 1,000 / 2,000.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { report, summarise, time, type Timing } from './harness.js';
import { compileCatalog, state, validate, type Catalog } from '../src/core/components/index.js';

const corpus = process.env.HEARTH_CORPUS as string;
const PANES = ['hypervisor', 'network:core', 'network:ml2', 'storage:block', 'storage:object', 'storage:image', 'storage:ephemeral', 'additional_service'];
const REQUIRED = { requiredTypes: ['hypervisor', 'network', 'storage'] };

/** Milliseconds of wall and CPU time taken by `fn`. */
function measure<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const u = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const d = process.cpuUsage(u);
  return { value, wall, cpu: (d.user + d.system) / 1000 };
}

/** A walk: in each group, click the first enabled component. */
function walk(catalog: Catalog): { selection: string[]; wall: number[]; cpu: number[] } {
  let selection: string[] = [];
  let s = state(catalog, selection, { fixes: false });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const g of PANES) {
    const pick = s.components.find((c) => c.enabled && !c.checked && c.group === g);
    if (!pick) continue;
    selection = [...selection, pick.name];
    const m = measure(() => state(catalog, selection, { fixes: false }));
    s = m.value;
    wall.push(m.wall);
    cpu.push(m.cpu);
  }
  return { selection, wall, cpu };
}

const median = (xs: number[]) => summarise('', xs).medianMs;
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

console.log(`load average at the start: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on a machine with 2 cores shared by everyone`);
const rows: Array<Timing & { targetMs?: number; note?: string }> = [];
const series: Record<string, number[]> = { compile: [], click: [], clickCpu: [], walk: [], validate: [], scratch: [] };
for (const n of [200, 1000, 2000, 10000]) {
  const components = JSON.parse(readFileSync(join(corpus, 'synthetic', `components-${n}.json`), 'utf8'));
  const compile = time(`compile ${n}`, () => compileCatalog(components, REQUIRED), { runs: 3, warmup: 1 });
  rows.push(compile);
  series.compile.push(compile.medianMs);

  let catalog = compileCatalog(components, REQUIRED);
  const scratch = measure(() => state(catalog, [], { fixes: false }));
  rows.push({ ...summarise(`state from scratch ${n}`, [scratch.wall]), note: `cpu ${fmt(scratch.cpu)} ms; ${scratch.value.components.filter((c) => c.deadEnd).length} dead ends` });
  series.scratch.push(scratch.wall);

  // A fresh catalog per walk so nothing learned on the previous walk helps.
  const walls: number[] = [];
  const clicks: number[] = [];
  const cpus: number[] = [];
  let selection: string[] = [];
  for (let i = 0; i < 3; i++) {
    catalog = compileCatalog(components, REQUIRED);
    state(catalog, [], { fixes: false });
    const w = measure(() => walk(catalog));
    walls.push(w.wall);
    clicks.push(...w.value.wall);
    cpus.push(...w.value.cpu);
    selection = w.value.selection;
  }
  const click = summarise(`state after a click ${n}`, clicks);
  rows.push({ ...click, targetMs: n === 10000 ? 20 : undefined, note: `cpu median ${fmt(median(cpus))} ms` });
  series.click.push(click.medianMs);
  series.clickCpu.push(median(cpus));
  const walkRow = summarise(`walk through the panes ${n}`, walls);
  rows.push({ ...walkRow, note: `${selection.length} clicks, state from scratch included` });
  series.walk.push(walkRow.medianMs);

  // Unclick each chosen component in turn (from the full walk), then click it again.
  const unclicks: number[] = [];
  for (const name of selection) {
    unclicks.push(measure(() => state(catalog, selection.filter((x) => x !== name), { fixes: false })).wall);
    state(catalog, selection, { fixes: false });
  }
  rows.push({ ...summarise(`state after an unclick ${n}`, unclicks), note: 'dead ends whose core held the component are proved again' });

  // Switch the network core (a radio button): the click replaces the checked core and unselects
  // what only it needed, as the wizard does with `replaces`.
  const before = state(catalog, selection, { fixes: false });
  const switches: number[] = [];
  const switchCpu: number[] = [];
  for (const other of before.components.filter((c) => c.group === 'network:core' && c.enabled && !c.checked).slice(0, 5)) {
    const next = [...selection.filter((x) => !(other.replaces ?? []).includes(x)), other.name];
    const m = measure(() => state(catalog, next, { fixes: false }));
    switches.push(m.wall);
    switchCpu.push(m.cpu);
    state(catalog, selection, { fixes: false });
  }
  if (switches.length > 0) rows.push({ ...summarise(`state after switching the network core ${n}`, switches), note: `cpu median ${fmt(median(switchCpu))} ms` });

  const v = time(`validate ${n}`, () => validate(catalog, selection), { runs: 200 });
  rows.push({ ...v, targetMs: 2, note: validate(catalog, selection).valid ? 'valid selection' : 'invalid selection' });
  series.validate.push(v.medianMs);

  const withFixes = measure(() => state(catalog, selection));
  rows.push({ ...summarise(`state with fixes ${n}`, [withFixes.wall]), note: `cpu ${fmt(withFixes.cpu)} ms; "unselect" fixes for every blocked component` });
}
report('component engine (synthetic catalogs)', rows);
const growth = (xs: number[]) => xs.map((x, i) => (i === 0 ? '1x' : `${(x / xs[0]).toFixed(1)}x`)).join(' / ');
console.log(`\ngrowth 200 / 1000 / 2000 / 10000 (median) — click: ${growth(series.click)}; click cpu: ${growth(series.clickCpu)}; walk: ${growth(series.walk)}; validate: ${growth(series.validate)}; compile: ${growth(series.compile)}`);
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on a machine with 2 cores shared by everyone`);
