/**
 * The wizard state of radio members while a sibling is checked (radio.ts says why they are
 * judged against the selection their click makes). Everything shown is about the member's own
 * rules against what the click keeps: its clashes with kept choices, its dead end with them, its
 * requirements on earlier panes, the green light against them — never "more than one network
 * core plugin would be chosen", which the click itself prevents.
 */
import type { Catalog } from './catalog.js';
import { deadEndByCore, explainDeadEnd, nameOf, pairText } from './explain.js';
import { NONE, chosenNow, gateShape, labelsOf, unmetGates } from './gates.js';
import { inWitness, type Previously, type Replacement, type Replacements, type Verdict } from './radio.js';
import type { ComponentState } from './state.js';
import type { Shown } from './shown.js';
import { alsoChooseItems } from './also-choose.js';

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
  /** The main proofs' answers for the selection they proved before this click. */
  previously?: Previously;
}

/** What every member sharing one replacement (almost always all of them) shares. */
interface Shared {
  kept: Set<number>;
  counts: Int32Array;
  replaces: string[];
  untested: Map<number, string[]>;
}

export function radioStates(catalog: Catalog, radio: Replacements, replacing: ReadonlyMap<number, Replacement>, ctx: RadioContext, shown: Shown, out: ComponentState[]): void {
  const shape = gateShape(catalog);
  const shared = new Map<Replacement, Shared>();
  const sharedOf = (rep: Replacement): Shared => {
    let s = shared.get(rep);
    if (!s) {
      s = { kept: new Set(rep.kept), counts: chosenNow(catalog, rep.kept), replaces: shown.replaces(rep.dropped), untested: new Map() };
      shared.set(rep, s);
    }
    return s;
  };
  const clashing = new Map<number, number[]>();
  const targets: Array<{ member: number; kept: number[] }> = [];
  // forEach rather than for-of with destructuring: once a click, and unoptimised code made an entry array per member.
  replacing.forEach((rep, c) => {
    const { kept } = sharedOf(rep);
    const own = ctx.clashes(c).filter((y) => kept.has(y));
    if (own.length > 0) clashing.set(c, own);
    else targets.push({ member: c, kept: rep.kept });
  });
  const verdicts = radio.prove(targets, ctx.budget, ctx.prefer, ctx.previously);
  const texts: string[] = [];
  const fixes: string[] = [];
  const ids: number[] = [];
  const labels = labelsOf(catalog);

  replacing.forEach((rep, c) => {
    const s = sharedOf(rep);
    let n = 0;
    let f = 0;
    let deadEnd = false;
    let blocked = false;
    const own = clashing.get(c);
    const v = verdicts.get(c) as Verdict | undefined;
    if (own) {
      for (const y of own) texts[n++] = pairText(catalog, c, y, y);
      blocked = true;
    } else if (v?.status === 'unsat') {
      deadEnd = true;
      blocked = true;
      v.text ??= v.why ? explainDeadEnd(catalog, c, v.why) : deadEndByCore(catalog, c, v.core);
      texts[n++] = v.text;
    } else if (v?.status === 'unknown') {
      texts[n++] = `${nameOf(catalog, c)} could not be checked within the search budget`;
    } else if (v?.status === 'sat') {
      const gates = unmetGates(catalog, c, shape, s.counts);
      for (const k of gates) texts[n++] = shown.notChosenYet(k);
      if (gates.length > 0) {
        const witness = v.witness;
        const q = { chosen: (x: number) => s.kept.has(x), inProof: (_: number, x: number) => inWitness(witness, x), completable: (extra: readonly number[]) => radio.completable(rep.kept, extra, ctx.budget) };
        const k = alsoChooseItems(catalog, shape, c, gates, gates.length, q, ids);
        for (let i = 0; i < k; i++) fixes[f++] = shown.alsoChoose(ids[i]);
      }
    }
    if (blocked && ctx.fixes) {
      const y = radio.freedBy(c, rep.kept, ctx.budget);
      if (y !== undefined) fixes[f++] = `unselect ${nameOf(catalog, y)}`;
    }
    const untested = untestedAgainst(ctx, s, c, shown);
    const reasons = shown.reasons(c, texts, n);
    const enabled = n === 0;
    out[c] = shown.answer(c, false, enabled, enabled && rep.kept.length > 0 && untested.length === 0, untested, deadEnd, reasons, shown.fix(c, fixes, f), labels[c], s.replaces);
  });
}

/** The kept choices `c` was not tested with (green light against the selection after the click). */
function untestedAgainst(ctx: RadioContext, s: Shared, c: number, shown: Shown): string[] {
  let mask = 0;
  const members: number[] = [];
  ctx.indices.forEach((x, i) => {
    if (s.kept.has(x) && !ctx.tested[i][c]) {
      members.push(x);
      if (i < 30) mask |= 1 << i;
    }
  });
  if (members.length === 0) return NONE;
  if (ctx.indices.length > 30) return shown.untested(members);
  let list = s.untested.get(mask);
  if (!list) s.untested.set(mask, (list = shown.untested(members)));
  return list;
}
