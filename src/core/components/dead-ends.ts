/**
 * Dead ends: a component no valid selection with the user's choices contains, the chosen
 * components that rule it out (its core), and the explanation told for it — which stays true,
 * and is shown again, as long as its core and the choices it cites are all still chosen.
 */
import { Reason, type Because, type Refutation } from './solver.js';

export interface DeadEnd {
  /** The explaining solver's refutation, when it found one within its budget. */
  why?: Refutation;
  /** The chosen components the dead end rests on (empty: it can never be chosen). */
  core: number[];
  /** The explanation in words, once told (it lasts as long as the dead end). */
  text?: string;
  /** The choices `why` cites as the user's: while they and the core are chosen, it is still true. */
  cites?: number[];
}

/** Is every one of `xs` marked in `chosen`? */
export function allChosen(chosen: Uint8Array, xs: readonly number[]): boolean {
  for (let i = 0; i < xs.length; i++) if (!chosen[xs[i]]) return false;
  return true;
}

/**
 * The choices the refutation cites (`chosen`: the selection it was told for): those it says the
 * user chose, and either side of a clash that was chosen — what `mentionsChoice` looks for.
 */
export function citedChoices(why: Refutation, chosen: Uint8Array): number[] {
  const out = new Set<number>();
  const seen = new Set<Because>();
  const visit = (b: Because): void => {
    if (seen.has(b)) return;
    seen.add(b);
    if (b.reason === Reason.Chosen) out.add(b.component);
    b.premises.forEach(visit);
    if (b.failed) collect(b.failed);
  };
  const collect = (r: Refutation): void => {
    if (r.conflict.kind === 'pair') {
      if (chosen[r.conflict.a]) out.add(r.conflict.a);
      if (chosen[r.conflict.b]) out.add(r.conflict.b);
    }
    r.premises.forEach(visit);
    for (const t of r.tried) collect(t.why);
  };
  collect(why);
  return [...out];
}

/** Does the refutation cite `x` as the user's choice? (Then it must be told again without it.) */
export function mentionsChoice(why: Refutation, x: number): boolean {
  const seen = new Set<Because>();
  const visit = (b: Because): boolean => {
    if (seen.has(b)) return false;
    seen.add(b);
    if (b.component === x && b.reason === Reason.Chosen) return true;
    if (b.premises.some(visit)) return true;
    return b.failed !== undefined && mentionsChoice(b.failed, x);
  };
  if (why.conflict.kind === 'pair' && (why.conflict.a === x || why.conflict.b === x)) return true;
  return why.premises.some(visit) || why.tried.some((t) => mentionsChoice(t.why, x));
}

/**
 * Are two refutations the same proof: the same clash, premises, failed attempts, and the same
 * sharing of nodes (the wording tells a shared node once)? Then their words are the same
 * (`explainDeadEnd` reads nothing else), and a dead end explained again on a later click with the
 * same proof keeps the sentence already made instead of wording it again — as cheap as reusing
 * it, but the sentence is still a function of this selection's proof alone.
 */
export function sameRefutation(a: Refutation, b: Refutation): boolean {
  return sameWhy(a, b, new Map(), new Map());
}

function sameWhy(a: Refutation, b: Refutation, ab: Map<Because, Because>, ba: Map<Because, Because>): boolean {
  if (a === b) return true;
  const x = a.conflict;
  const y = b.conflict;
  if (x.kind === 'pair') {
    if (y.kind !== 'pair' || x.a !== y.a || x.b !== y.b) return false;
  } else if (y.kind !== 'rule' || x.constraint !== y.constraint || x.violated !== y.violated) return false;
  if (a.premises.length !== b.premises.length || a.tried.length !== b.tried.length) return false;
  for (let i = 0; i < a.premises.length; i++) if (!sameBecause(a.premises[i], b.premises[i], ab, ba)) return false;
  for (let i = 0; i < a.tried.length; i++) {
    const s = a.tried[i];
    const t = b.tried[i];
    if (s.obligation !== t.obligation || s.member !== t.member || !sameWhy(s.why, t.why, ab, ba)) return false;
  }
  return true;
}

function sameBecause(a: Because, b: Because, ab: Map<Because, Because>, ba: Map<Because, Because>): boolean {
  const paired = ab.get(a);
  if (paired !== undefined || ba.has(b)) return paired === b && ba.get(b) === a;
  if (a.component !== b.component || a.chosen !== b.chosen || a.reason !== b.reason || a.ref !== b.ref || a.premises.length !== b.premises.length) return false;
  if ((a.failed === undefined) !== (b.failed === undefined)) return false;
  ab.set(a, b);
  ba.set(b, a);
  for (let i = 0; i < a.premises.length; i++) if (!sameBecause(a.premises[i], b.premises[i], ab, ba)) return false;
  return a.failed === undefined || sameWhy(a.failed, b.failed as Refutation, ab, ba);
}
