/**
 * The component engine on the synthetic catalogs (corpus/synthetic, 200 to 10,000 components):
 * compile, validate, state from scratch, state after one click, and a walk through the panes.
 * Fuel's own wizard logic took 87 ms / 1.5 s / 6.6 s for a walk at 200 / 1,000 / 2,000.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { report, summarise, time, type Timing } from './harness.js';
import { compileCatalog, state, validate, type Catalog } from '../src/core/components/index.js';

const corpus = process.env.HEARTH_CORPUS as string;
const PANES = ['hypervisor', 'network:core', 'network:ml2', 'storage:block', 'storage:object', 'storage:image', 'storage:ephemeral', 'additional_service'];

/** A walk: in each group, click the first enabled component; returns the selection and per-click timings. */
function walk(catalog: Catalog): { selection: string[]; clicks: number[] } {
  let selection: string[] = [];
  let s = state(catalog, selection, { fixes: false });
  const clicks: number[] = [];
  for (const g of PANES) {
    const pick = s.components.find((c) => c.enabled && !c.checked && c.group === g);
    if (!pick) continue;
    selection = [...selection, pick.name];
    const t0 = performance.now();
    s = state(catalog, selection, { fixes: false });
    clicks.push(performance.now() - t0);
  }
  return { selection, clicks };
}

const rows: Array<Timing & { targetMs?: number; note?: string }> = [];
const medians: Record<string, number[]> = { click: [], validate: [] };
for (const n of [200, 1000, 2000, 10000]) {
  const components = JSON.parse(readFileSync(join(corpus, 'synthetic', `components-${n}.json`), 'utf8'));
  let catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
  rows.push({ ...time(`compile ${n}`, () => compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] }), { runs: 3, warmup: 0 }) });
  const t0 = performance.now();
  const first = state(catalog, [], { fixes: false });
  rows.push({ ...summarise(`state from scratch ${n}`, [performance.now() - t0]), note: `${first.components.filter((c) => c.deadEnd).length} dead ends` });
  // A fresh catalog per walk so no cache from the previous walk helps.
  const walks: number[] = [];
  const clicks: number[] = [];
  let selection: string[] = [];
  for (let i = 0; i < 3; i++) {
    catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
    state(catalog, [], { fixes: false });
    const t = performance.now();
    const w = walk(catalog);
    walks.push(performance.now() - t);
    clicks.push(...w.clicks);
    selection = w.selection;
  }
  const click = summarise(`state after a click ${n}`, clicks);
  rows.push({ ...click, targetMs: n === 10000 ? 20 : undefined });
  rows.push({ ...summarise(`walk through the panes ${n}`, walks), note: `${selection.length} clicks` });
  const v = time(`validate ${n}`, () => validate(catalog, selection), { runs: 200 });
  rows.push({ ...v, targetMs: 2, note: validate(catalog, selection).valid ? 'valid selection' : 'invalid selection' });
  rows.push({ ...time(`state with fixes ${n}`, () => state(compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] }), selection), { runs: 1, warmup: 0 }), note: 'from scratch, removal fixes included' });
  medians.click.push(click.medianMs);
  medians.validate.push(v.medianMs);
}
report('component engine (synthetic catalogs)', rows);
const growth = (xs: number[]) => xs.map((x, i) => (i === 0 ? '1x' : `${(x / xs[0]).toFixed(1)}x`)).join(' / ');
console.log(`\ngrowth 200 / 1000 / 2000 / 10000 — click: ${growth(medians.click)}; validate: ${growth(medians.validate)}`);
