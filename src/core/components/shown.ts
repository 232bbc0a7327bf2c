/**
 * What the wizard shows for each component, kept from one click to the next. A click changes the
 * answer of few components, but `state` answers for all of them: at 10,000 components, building
 * 10,000 objects and their reason lists anew on every click made the garbage collector copy the
 * previous click's results (still held by the caller) on every collection. Here an answer equal
 * to the one given last time for the same component is that same object; only the changed ones
 * are new. Objects and lists handed out are frozen, since later answers share them.
 */
import type { Catalog } from './catalog.js';
import { authorMessage, nameOf, pairText, ruleClause } from './explain.js';
import { NONE } from './gates.js';
import { paneOfGroup, type WizardPane } from './names.js';
import type { ComponentState } from './state.js';

export class Shown {
  private readonly catalog: Catalog;
  private readonly last: (ComponentState | undefined)[];
  /** The `unchecked` answers (outside the panes asked for). */
  private readonly outside: (ComponentState | undefined)[];
  private readonly also: (string | undefined)[];
  private readonly gate: (string | undefined)[];
  private readonly clashIds: (number[] | undefined)[];
  private readonly clashTexts: (string[] | undefined)[];
  /** Untested lists by the chosen components they name (and `replaces` lists, keyed with a '-'), shared across clicks. */
  private readonly untestedLists = new Map<string, string[]>();

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.last = new Array(catalog.components.length);
    this.outside = new Array(catalog.components.length);
    this.also = new Array(catalog.components.length);
    this.gate = new Array(catalog.constraints.length);
    this.clashIds = new Array(catalog.components.length);
    this.clashTexts = new Array(catalog.components.length);
  }

  /** "X requires Y, which is not chosen yet: <the author's message>", told once per rule and catalog. */
  notChosenYet(k: number): string {
    return (this.gate[k] ??= this.notChosenYetText(k));
  }

  /** Made once per rule: the author's message is trimmed by a regular expression, too slow to run for every gated component on every click. */
  private notChosenYetText(k: number): string {
    const message = authorMessage(this.catalog.constraints[k].message);
    return `${ruleClause(this.catalog, k)}, which is not chosen yet${message ? `: ${message}` : ''}`;
  }

  /**
   * "A cannot be used with B (which you chose)" for each of the first `len` chosen `ids`: last
   * time's list when they are the same, last time's sentences when the list only grew (a chosen
   * component that rules out `storage:object:*` clashes with a thousand of them).
   */
  clashReasons(c: number, ids: readonly number[], len: number): string[] {
    const was = this.clashIds[c];
    let same = 0;
    if (was) while (same < len && same < was.length && was[same] === ids[same]) same++;
    const last = this.clashTexts[c] as string[];
    if (was && same === len && was.length === len) return last;
    const texts: string[] = new Array(len);
    for (let i = 0; i < len; i++) texts[i] = i < same ? last[i] : pairText(this.catalog, c, ids[i], ids[i]);
    this.clashIds[c] = ids.slice(0, len);
    return (this.clashTexts[c] = Object.freeze(texts) as unknown as string[]);
  }

  /** "also choose X", told once per catalog. */
  alsoChoose(x: number): string {
    return (this.also[x] ??= `also choose ${nameOf(this.catalog, x)}`);
  }

  /**
   * The first `len` texts of `scratch` as a list: the one `c` showed last time when it has the
   * same texts, else a new frozen one.
   */
  reasons(c: number, scratch: readonly string[], len: number): string[] {
    return len === 0 ? NONE : sameOr(this.last[c]?.reasons, scratch, len);
  }

  /** As `reasons`, for the fixes. */
  fix(c: number, scratch: readonly string[], len: number): string[] {
    return len === 0 ? NONE : sameOr(this.last[c]?.fix, scratch, len);
  }

  /** The untested list naming exactly `members` (component indices, in selection order). */
  untested(members: readonly number[]): string[] {
    if (members.length === 0) return NONE;
    const key = members.join(',');
    let list = this.untestedLists.get(key);
    if (!list) {
      // Bounded: a long session meets many selections, each with a handful of lists.
      if (this.untestedLists.size > 4096) this.untestedLists.clear();
      list = Object.freeze(members.map((x) => this.catalog.components[x].name)) as unknown as string[];
      this.untestedLists.set(key, list);
    }
    return list;
  }

  /** The names a radio member's click unselects, one list per set of names and catalog. */
  replaces(dropped: readonly number[]): string[] {
    const key = `-${dropped.join(',')}`;
    let list = this.untestedLists.get(key);
    if (!list) {
      list = Object.freeze(dropped.map((x) => this.catalog.components[x].name)) as unknown as string[];
      this.untestedLists.set(key, list);
    }
    return list;
  }

  /**
   * The answer for a component outside the panes asked for: not proved either way, so disabled
   * (never shown as enabled without a proof) and marked `unchecked`, one frozen object per
   * component and label.
   */
  unchecked(c: number, label: string | undefined): ComponentState {
    const last = this.outside[c];
    if (last && last.label === label) return last;
    const comp = this.catalog.components[c];
    const made: ComponentState = Object.freeze({
      name: comp.name, type: comp.type, group: comp.group, label, checked: false, enabled: false, green: false, untested: NONE, deadEnd: false,
      reasons: notCheckedYet(paneOfGroup(comp.group)), fix: NONE, unchecked: true,
    });
    this.outside[c] = made;
    return made;
  }

  /** The answer for a component: last time's object when nothing changed. */
  answer(c: number, checked: boolean, enabled: boolean, green: boolean, untested: string[], deadEnd: boolean, reasons: string[], fix: string[], label: string | undefined, replaces?: string[]): ComponentState {
    const last = this.last[c];
    if (
      last &&
      last.checked === checked &&
      last.enabled === enabled &&
      last.green === green &&
      last.untested === untested &&
      last.deadEnd === deadEnd &&
      last.reasons === reasons &&
      last.fix === fix &&
      last.label === label &&
      last.replaces === replaces
    )
      return last;
    const comp = this.catalog.components[c];
    const made: ComponentState = Object.freeze(
      replaces
        ? { name: comp.name, type: comp.type, group: comp.group, label, checked, enabled, green, untested, deadEnd, reasons, fix, replaces }
        : { name: comp.name, type: comp.type, group: comp.group, label, checked, enabled, green, untested, deadEnd, reasons, fix },
    );
    this.last[c] = made;
    return made;
  }
}

/** The reason of an `unchecked` answer, one frozen list per pane (a thousand such answers share four). */
const NOT_CHECKED_YET = new Map<WizardPane, string[]>();
function notCheckedYet(pane: WizardPane): string[] {
  let list = NOT_CHECKED_YET.get(pane);
  if (!list) NOT_CHECKED_YET.set(pane, (list = Object.freeze([`not checked yet: ask for the state of its pane (${pane})`]) as unknown as string[]));
  return list;
}

function sameOr(last: string[] | undefined, scratch: readonly string[], len: number): string[] {
  if (last && last.length === len) {
    let same = true;
    for (let i = 0; i < len && same; i++) same = last[i] === scratch[i];
    if (same) return last;
  }
  return Object.freeze(scratch.slice(0, len)) as unknown as string[];
}

/**
 * The chosen components each component clashes with, gathered from the chosen side (a handful,
 * each with up to a thousand neighbours) into linked lists over typed arrays, in selection order.
 */
export class Clashes {
  private readonly head: Int32Array;
  /** Entries with lengths of their own: a click links thousands, and regrowing the lists each click was garbage. */
  private readonly next: number[] = [];
  private readonly who: number[] = [];
  private len = 0;
  private readonly touched: number[] = [];
  private touchedLen = 0;

  constructor(n: number) {
    this.head = new Int32Array(n).fill(-1);
  }

  build(catalog: Catalog, indices: readonly number[]): void {
    for (let i = 0; i < this.touchedLen; i++) this.head[this.touched[i]] = -1;
    this.touchedLen = 0;
    this.len = 0;
    for (let i = indices.length - 1; i >= 0; i--) {
      const y = indices[i];
      const cs = catalog.conflicts[y];
      for (let j = 0; j < cs.length; j++) {
        const c = cs[j];
        if (this.head[c] < 0) this.touched[this.touchedLen++] = c;
        this.next[this.len] = this.head[c];
        this.who[this.len] = y;
        this.head[c] = this.len++;
      }
    }
  }

  has(c: number): boolean {
    return this.head[c] >= 0;
  }

  /** Writes the chosen components `c` clashes with into `out` (from 0); returns how many. */
  into(c: number, out: number[]): number {
    let n = 0;
    for (let e = this.head[c]; e >= 0; e = this.next[e]) out[n++] = this.who[e];
    return n;
  }

  /** The chosen components `c` clashes with, as a new list. */
  of(c: number): number[] {
    const out: number[] = [];
    this.into(c, out);
    return out;
  }
}
