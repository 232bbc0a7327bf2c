/**
 * The wizard pane by pane, Fuel UI's own logic beside Hearth's engine, on the same synthetic
 * catalogs (corpus/synthetic, 200 to 10,000 components), in the same process, alternating runs.
 *
 * A run opens the wizard on a fresh catalog and walks the panes: on each pane, in each group, the
 * first choice that is neither disabled nor chosen is clicked (Fuel picks from its state, Hearth from
 * its own, so the clicks can differ where the two rule differently). Preparing the catalog is timed
 * apart and not compared (Fuel's collection, expandWildcards, restoreDefaultValue, preprocessRequires;
 * Hearth's compileCatalog).
 * - Fuel: entering a pane runs the left pane's restriction pass, the next pane's hasErrors and the
 *   next pane's mount pass; a click runs onChange and the pane's pass (a radio: one per option).
 * - Hearth, as the web UI asks since issue 30: opening the wizard asks the state of the empty
 *   selection for the Compute pane (the web UI asks for the release's defaults, but the synthetic
 *   ones contradict each other: see hearthWalk); entering a pane asks the same selection's state for
 *   that pane; a click asks the new selection's state for the pane shown
 *   (`state(catalog, selection, {fixes: false, panes: [pane]})`). The whole state of the empty
 *   selection (every pane proved, as the UI asked before) is timed too, for reference.
 * A pane's figure is everything done on it: Fuel's entry and clicks, Hearth's entry and clicks (on
 * Compute, the entry is the opening state). Fuel is skipped at 10,000 (its init alone is quadratic: 4 s at 2,000).
 * Fuel's code is read at bench time (bench/fuel-ui-peer.ts); without it only Hearth is timed.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileCatalog, state, type Catalog, type WizardState } from '../src/core/components/index.js';
import { loadFuelUi, type FuelUi } from './fuel-ui-peer.js';

const corpus = process.env.HEARTH_CORPUS as string;
const sizes = (process.env.HEARTH_WIZARD_SIZES ?? '200,1000,2000,10000').split(',').map(Number);
const runs = Number(process.env.HEARTH_WIZARD_RUNS ?? 3);
const REQUIRED = { requiredTypes: ['hypervisor', 'network', 'storage'] };
const PANES = ['Compute', 'Network', 'Storage', 'Additional'] as const;
const PANE_OF = { Compute: 'compute', Network: 'network', Storage: 'storage', Additional: 'additional' } as const;
const GROUPS: Record<(typeof PANES)[number], string[]> = {
  Compute: ['hypervisor'],
  Network: ['network:core', 'network:ml2'],
  Storage: ['storage:block', 'storage:object', 'storage:image', 'storage:ephemeral'],
  Additional: ['additional_service'],
};

/** One run's figures in ms: `open` (the Compute pane's first answer), per pane the total, each click. */
interface Walk {
  prepare: number;
  open: number;
  /** Hearth: the empty selection's whole state (every pane), on a fresh engine. */
  whole?: number;
  pane: number[];
  clicks: number[];
}

const load = () => loadavg()[0];
const now = () => performance.now();

function fuelWalk(fuel: FuelUi, components: unknown[]): Walk {
  let t = now();
  const w = fuel.open(components);
  const prepare = now() - t;
  const pane: number[] = [];
  const clicks: number[] = [];
  let open = 0;
  for (let p = 1; p <= 4; p++) {
    t = now();
    w.enter(p);
    let spent = now() - t;
    if (p === 1) open = spent;
    for (const pick of w.picks()) {
      t = now();
      w.click(pick.name);
      const d = now() - t;
      clicks.push(d);
      spent += d;
    }
    pane.push(spent);
  }
  return { prepare, open, pane, clicks };
}

function hearthWalk(components: unknown[]): Walk {
  let t = now();
  const catalog: Catalog = compileCatalog(components as never, REQUIRED);
  const prepare = now() - t;
  // Nothing chosen: the synthetic catalogs' defaults contradict each other (hypervisor:x0 refuses
  // storage:object:*), which would leave the wizard blocked, everything disabled and nothing to click.
  let selection: string[] = [];
  let s: WizardState | undefined;
  let open = 0;
  const pane: number[] = [];
  const clicks: number[] = [];
  for (const p of PANES) {
    const panes = [PANE_OF[p]];
    t = now();
    s = state(catalog, selection, { fixes: false, panes });
    let spent = now() - t;
    if (p === 'Compute') open = spent;
    for (const g of GROUPS[p]) {
      const pick = s.components.find((c) => c.enabled && !c.checked && c.group === g);
      if (!pick) continue;
      selection = [...selection.filter((x) => !(pick.replaces ?? []).includes(x)), pick.name];
      t = now();
      s = state(catalog, selection, { fixes: false, panes });
      const d = now() - t;
      clicks.push(d);
      spent += d;
    }
    pane.push(spent);
  }
  // For reference: every pane proved at once, on a fresh engine of the same catalog.
  const again = compileCatalog(components as never, REQUIRED);
  t = now();
  state(again, [], { fixes: false });
  const whole = now() - t;
  return { prepare, open, whole, pane, clicks };
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const min = (xs: number[]) => (xs.length ? sorted(xs)[0] : NaN);
const med = (xs: number[]) => (xs.length ? sorted(xs)[Math.floor((xs.length - 1) / 2)] : NaN);
const ms = (x: number | undefined) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2));
const ratio = (fuel: number | undefined, hearth: number) => (fuel === undefined || !(hearth > 0) ? '-' : fuel >= hearth ? `Hearth ${(fuel / hearth).toFixed(1)}x faster` : `FUEL ${(hearth / fuel).toFixed(1)}x faster`);

const fuel = loadFuelUi();
if (typeof fuel === 'string') console.log(`note: ${fuel}`);
else console.log(`Fuel UI's wizard logic read from ${fuel.source}`);
console.log(`load average at the start: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on a machine with 2 cores shared by everyone; ${runs} runs per size, Fuel and Hearth alternating`);
const table = ['| N | step | Fuel min / median ms | Hearth min / median ms | Fuel / Hearth (medians) | load |', '|---|---|---|---|---|---|'];
for (const n of sizes) {
  const components = JSON.parse(readFileSync(join(corpus, 'synthetic', `components-${n}.json`), 'utf8'));
  const withFuel = typeof fuel !== 'string' && n <= 2000;
  const f: Walk[] = [];
  const h: Walk[] = [];
  const loads: number[] = [];
  for (let r = 0; r < runs; r++) {
    loads.push(load());
    if (withFuel) f.push(fuelWalk(fuel, components));
    h.push(hearthWalk(components));
  }
  const row = (step: string, of: (w: Walk) => number[]) => {
    const fs = withFuel ? f.flatMap(of) : [];
    const hs = h.flatMap(of);
    table.push(`| ${n} | ${step} | ${withFuel ? `${ms(min(fs))} / ${ms(med(fs))}` : '-'} | ${ms(min(hs))} / ${ms(med(hs))} | ${ratio(withFuel ? med(fs) : undefined, med(hs))} | ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} |`);
  };
  row('prepare the catalog (not compared)', (w) => [w.prepare]);
  row('open: the Compute pane first shown', (w) => [w.open]);
  row('open, every pane proved (Hearth before issue 30; Fuel: the Compute pane)', (w) => (w.whole === undefined ? [w.open] : [w.whole]));
  row('prepare and open, together', (w) => [w.prepare + w.open]);
  PANES.forEach((p, i) => row(`pane ${p} (entry and clicks)`, (w) => [w.pane[i]]));
  row('a click, any pane (every click of every run)', (w) => w.clicks);
  row('the slowest click of a walk', (w) => [Math.max(...w.clicks)]);
}
console.log(`\n## the wizard, pane by pane: Fuel UI's logic and Hearth's engine\n${table.join('\n')}`);
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
