/**
 * The design's rule for the ML2 radio button: "If all checkboxes under ML2 radio button are
 * disabled, it should be disabled as well" (issue 28). The solver already refutes ML2 when no
 * driver fits any completion (the `ml2-drivers` rule, catalog.ts); this adds the wizard's own
 * view: a driver waiting for something on its pane or an earlier one that is not chosen (DVS for
 * vCenter while only KVM is chosen), or clashing with a choice, is disabled now, and ML2 with
 * only such drivers cannot be used now either. Waiting for ML2 itself does not count: every
 * driver does until ML2 is chosen.
 */
import type { Catalog } from './catalog.js';
import { describeRule, nameOf, pairText } from './explain.js';
import { sortedHas } from './catalog.js';
import type { GateShape } from './gates.js';
import type { ComponentState } from './state.js';

/**
 * Why no driver of the ML2 core `c` can be chosen after the click that chooses `c` (which keeps
 * `after`), or undefined when one can (or `c` has no drivers).
 */
export function ml2Unusable(catalog: Catalog, c: number, after: readonly number[], shape: GateShape): string | undefined {
  const rule = Array.from(catalog.triggeredBy[c], (k) => catalog.constraints[k]).find((k) => k.kind === 'ml2-drivers');
  if (!rule) return undefined;
  const chosen = new Set(after);
  chosen.add(c);
  const why: string[] = [];
  for (const d of rule.items) {
    const reason = driverBlocked(catalog, d, chosen, shape);
    if (reason === undefined) return undefined;
    if (why.length < 3) why.push(reason);
  }
  const more = rule.items.length > why.length ? `; and ${rule.items.length - why.length} more` : '';
  return `every ML2 mechanism driver is unavailable with the current selection (${why.join('; ')}${more}), so ${nameOf(catalog, c)} cannot be used now`;
}

/** Why driver `d` cannot be chosen with `chosen` (ML2 included), or undefined when it can. */
function driverBlocked(catalog: Catalog, d: number, chosen: ReadonlySet<number>, shape: GateShape): string | undefined {
  if (chosen.has(d)) return undefined;
  for (const y of chosen) if (sortedHas(catalog.conflicts[d], y)) return pairText(catalog, d, y, y);
  const pane = shape.pane[d];
  for (const k of catalog.triggeredBy[d]) {
    const test = shape.test[k];
    if (test === 0) continue;
    let now = 0;
    for (const x of catalog.constraints[k].items) if (chosen.has(x) && shape.pane[x] <= pane) now++;
    const later = shape.later[k];
    const ok = test === 1 ? now === shape.now[k] : test === 2 ? now === 1 || (now === 0 && later > 0) : now >= 1 || later > 0;
    if (!ok) return `${describeRule(catalog, k)}, not chosen`;
  }
  return undefined;
}

const ml2Rules = new WeakMap<Catalog, number[]>();

/** ML2 cores that are enabled but whose every driver is blocked: disabled, with the reason. */
export function disableMl2WithoutDrivers(catalog: Catalog, out: ComponentState[], indices: readonly number[], kept: (c: number) => readonly number[] | undefined, shape: GateShape): void {
  // Found once per catalog: a click must not walk every rule of a large catalog for the one or two ML2 cores.
  let rules = ml2Rules.get(catalog);
  if (!rules) ml2Rules.set(catalog, (rules = catalog.constraints.filter((k) => k.kind === 'ml2-drivers').map((k) => k.id)));
  for (const id of rules) {
    const rule = catalog.constraints[id];
    const c = rule.trigger;
    const s = out[c];
    if (!s || s.checked || !s.enabled) continue;
    const reason = ml2Unusable(catalog, c, kept(c) ?? indices, shape);
    // A new object: the answers are frozen and shared with later clicks (shown.ts).
    if (reason) out[c] = { ...s, enabled: false, green: false, reasons: [reason], fix: [] };
  }
}
