/**
 * The wizard state of radio members while a sibling is checked (radio.ts says why they are
 * judged against the selection their click makes). Everything shown is about the member's own
 * rules against what the click keeps: its clashes with kept choices, its dead end with them, its
 * requirements on earlier panes, the green light against them — never "more than one network
 * core plugin would be chosen", which the click itself prevents.
 */
import type { Catalog } from './catalog.js';
import { deadEndByCore, describeRule, explainDeadEnd, nameOf, pairText } from './explain.js';
import { NONE, chosenNow, gateShape, labelsOf, unmetGates } from './gates.js';
import { inWitness, type Replacement, type Replacements, type Verdict } from './radio.js';
import type { ComponentState } from './state.js';

export interface RadioContext {
  /** The selection, in the user's order. */
  indices: readonly number[];
  /** `testedWith` of the selection: tested[i][c] when indices[i] and c are listed as compatible. */
  tested: readonly Uint8Array[];
  /** Chosen components a component clashes with. */
  clashes: (c: number) => number[];
  budget: number;
  fixes: boolean;
  /** A model of the whole selection, to steer the search for the kept one. */
  prefer?: Int32Array;
}

export function radioStates(catalog: Catalog, radio: Replacements, replacing: ReadonlyMap<number, Replacement>, ctx: RadioContext, out: ComponentState[]): void {
  const shape = gateShape(catalog);
  const counts = new Map<string, Int32Array>();
  const clashing = new Map<number, number[]>();
  const targets: Array<{ member: number; kept: number[] }> = [];
  for (const [c, rep] of replacing) {
    const kept = new Set(rep.kept);
    const own = ctx.clashes(c).filter((y) => kept.has(y));
    if (own.length > 0) clashing.set(c, own);
    else targets.push({ member: c, kept: rep.kept });
  }
  const verdicts = radio.prove(targets, ctx.budget, ctx.prefer);

  for (const [c, rep] of replacing) {
    const comp = catalog.components[c];
    const reasons: string[] = [];
    const fix: string[] = [];
    let deadEnd = false;
    let blocked = false;
    const own = clashing.get(c);
    const v = verdicts.get(c) as Verdict | undefined;
    if (own) {
      for (const y of own) reasons.push(pairText(catalog, c, y, y));
      blocked = true;
    } else if (v?.status === 'unsat') {
      deadEnd = true;
      blocked = true;
      v.text ??= v.why ? explainDeadEnd(catalog, c, v.why) : deadEndByCore(catalog, c, v.core);
      reasons.push(v.text);
    } else if (v?.status === 'unknown') {
      reasons.push(`${nameOf(catalog, c)} could not be checked within the search budget`);
    } else if (v?.status === 'sat') {
      const key = rep.kept.join(',');
      let count = counts.get(key);
      if (!count) counts.set(key, (count = chosenNow(catalog, rep.kept)));
      const gates = unmetGates(catalog, c, shape, count);
      for (const k of gates) reasons.push(`${describeRule(catalog, k)}, which is not chosen yet`);
      const kept = new Set(rep.kept);
      const add = new Set<number>();
      for (const k of gates) for (const x of catalog.constraints[k].items) if (!kept.has(x) && inWitness(v.witness, x) && catalog.components[x].pane <= comp.pane) add.add(x);
      for (const x of add) fix.push(`also choose ${nameOf(catalog, x)}`);
    }
    if (blocked && ctx.fixes) {
      const y = radio.freedBy(c, rep.kept, ctx.budget);
      if (y !== undefined) fix.push(`unselect ${nameOf(catalog, y)}`);
    }
    const untested = untestedAgainst(catalog, ctx, rep.kept, c);
    const enabled = reasons.length === 0;
    out[c] = {
      name: comp.name,
      type: comp.type,
      group: comp.group,
      label: labelsOf(catalog)[c],
      checked: false,
      enabled,
      green: enabled && rep.kept.length > 0 && untested.length === 0,
      untested,
      deadEnd,
      reasons: reasons.length === 0 ? NONE : reasons,
      fix: fix.length === 0 ? NONE : fix,
      replaces: rep.dropped.map((x) => catalog.components[x].name),
    };
  }
}

/** The kept choices `c` was not tested with (green light against the selection after the click). */
function untestedAgainst(catalog: Catalog, ctx: RadioContext, kept: readonly number[], c: number): string[] {
  const keep = new Set(kept);
  const out: string[] = [];
  ctx.indices.forEach((x, i) => {
    if (keep.has(x) && !ctx.tested[i][c]) out.push(catalog.components[x].name);
  });
  return out.length === 0 ? NONE : out;
}
