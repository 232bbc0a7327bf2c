/**
 * Turning the solver's refutations into sentences a person can follow, in the order one would
 * tell it: the clash first, then why each side of it holds ("DVS requires vCenter; vCenter cannot
 * be used with Contrail, which you chose").
 */
import type { Catalog, Constraint } from './catalog.js';
import { incompatibilityBetween } from './catalog.js';
import { Reason, type Because, type Refutation } from './solver.js';

const LIST_MAX = 4;

export function nameOf(catalog: Catalog, c: number): string {
  return catalog.components[c].display;
}

/** A rule's items in words, once per catalog (the radio rule's is told on every click). */
function list(catalog: Catalog, rule: Constraint): string {
  // Looked up before anything is made: an opening wizard asks for hundreds of rules' words, and made a closure per ask.
  const texts = textsOf(listTexts, catalog);
  const text = texts.get(rule.id);
  return text === undefined ? keep(texts, rule.id, listText(catalog, rule)) : text;
}

function listText(catalog: Catalog, rule: Constraint): string {
  const { items } = rule;
  if (items.length === 0) return rule.names.join(', ');
  // The same words as naming the first LIST_MAX items and joining them, without the copies.
  let text = nameOf(catalog, items[0]);
  for (let i = 1; i < items.length && i < LIST_MAX; i++) text += `, ${nameOf(catalog, items[i])}`;
  if (items.length > LIST_MAX) text += `, ${items.length - LIST_MAX} more (${rule.names.join(', ')})`;
  return text;
}

/** Authors' messages as trimmed (`authorMessage`), shared by every catalog (bounded as the sentences are). */
const trimmed = new Map<string, string>();

/**
 * "<rule>: <the author's message>". Authors end their messages with a full stop ("Choose one
 * hypervisor."), and these clauses are joined into longer sentences ("…; so X cannot be chosen"),
 * so the message's own closing punctuation is dropped here and the sentence ends where it ends.
 */
export function authorMessage(message: string | undefined): string {
  if (!message) return '';
  // A catalog has few distinct messages and a click tells a thousand pairs under one of them:
  // each is trimmed once (the regular expression per sentence was a tenth of telling a pair).
  let said = trimmed.get(message);
  if (said === undefined) {
    if (trimmed.size >= MAX_KEPT_SENTENCES) trimmed.clear();
    trimmed.set(message, (said = message.trim().replace(/[\s.;,:!]+$/, '')));
  }
  return said;
}
const withMessage = (text: string, message: string | undefined) => {
  // Trimmed once: a click words a thousand new clashes.
  const said = authorMessage(message);
  return said ? `${text}: ${said}` : text;
};

/**
 * Sentences depend on the catalog alone, and the wizard asks for the same ones after every click
 * (a radio rule lists hundreds of names): each is put into words once per catalog.
 */
const ruleTexts = new WeakMap<Catalog, Map<number, string>>();
const pairTexts = new WeakMap<Catalog, Map<number, string>>();
const listTexts = new WeakMap<Catalog, Map<number, string>>();
/**
 * Sentences kept per catalog and kind, at most: a server keeps a catalog for as long as it runs,
 * and the pairs of a large radio group alone could fill hundreds of megabytes (a fresh 10,000
 * catalog put about 1,000 new pair sentences into words per click). Past it the kind starts over;
 * a sentence is the same whenever it is made, so only the time to make it again is lost.
 */
export const MAX_KEPT_SENTENCES = 20_000;

function keep<K>(texts: Map<K, string>, key: K, text: string): string {
  if (texts.size >= MAX_KEPT_SENTENCES) texts.clear();
  texts.set(key, text);
  return text;
}

/** Sentences kept for `catalog`, of every kind (for tests of the bound). */
export function sentencesKept(catalog: Catalog): number {
  return [ruleTexts, pairTexts, listTexts].reduce((n, store) => n + (store.get(catalog)?.size ?? 0), 0);
}

/** `catalog`'s sentences of one kind. */
function textsOf<K>(store: WeakMap<Catalog, Map<K, string>>, catalog: Catalog): Map<K, string> {
  let texts = store.get(catalog);
  if (!texts) store.set(catalog, (texts = new Map()));
  return texts;
}

/** One rule in words: "DVS (network:neutron:ml2:dvs) requires VMware vCenter (hypervisor:vmware)". */
export function describeRule(catalog: Catalog, k: number): string {
  const texts = textsOf(ruleTexts, catalog);
  const text = texts.get(k);
  return text === undefined ? keep(texts, k, ruleText(catalog, k)) : text;
}

function ruleText(catalog: Catalog, k: number): string {
  return withMessage(ruleClause(catalog, k), catalog.constraints[k].message);
}

/** The rule in words, without its author's message. */
export function ruleClause(catalog: Catalog, k: number): string {
  const rule = catalog.constraints[k];
  const who = rule.trigger >= 0 ? nameOf(catalog, rule.trigger) : '';
  const many = rule.items.length !== 1;
  let text: string;
  switch (rule.kind) {
    case 'requires':
    case 'any_of':
      if (rule.items.length === 0) text = `${who} requires ${rule.names.join(' or ')}, which nothing in this release or its plugins provides`;
      else text = `${who} requires ${many ? 'one of ' : ''}${list(catalog, rule)}`;
      break;
    case 'one_of':
      if (rule.items.length === 0) text = `${who} requires ${rule.names.join(' or ')}, which nothing in this release or its plugins provides`;
      else text = `${who} requires ${many ? 'exactly one of ' : ''}${list(catalog, rule)}`;
      break;
    case 'none_of':
      text = `${who} cannot be used with ${many ? 'any of ' : ''}${list(catalog, rule)}`;
      break;
    case 'all_of':
      text = `${who} requires ${many ? 'all of ' : ''}${list(catalog, rule)}`;
      break;
    case 'required-type':
      text = rule.items.length === 0 ? `the release requires a ${rule.type} component, and none is provided` : `the release requires a ${rule.type} component`;
      break;
    case 'radio':
      text = rule.min === 0 ? `at most one network core plugin can be chosen (${list(catalog, rule)})` : `exactly one network core plugin must be chosen (${list(catalog, rule)})`;
      break;
    case 'ml2-drivers':
      text = `${who} needs at least one ML2 mechanism driver (${list(catalog, rule)})`;
      break;
  }
  return text;
}

/** "A cannot be used with B: <message>", told from the side that declared it; `chosen` marks the one the user picked. */
export function pairText(catalog: Catalog, a: number, b: number, chosen = -1): string {
  const key = (a * catalog.components.length + b) * 3 + (chosen === a ? 1 : chosen === b ? 2 : 0);
  // Looked up before anything is made: a click asks thousands of pairs, and a closure per ask was most of what it allocated.
  const texts = textsOf(pairTexts, catalog);
  const text = texts.get(key);
  return text === undefined ? keep(texts, key, pairSentence(catalog, a, b, chosen)) : text;
}

function pairSentence(catalog: Catalog, a: number, b: number, chosen: number): string {
  const rule = incompatibilityBetween(catalog, a, b);
  const first = rule ? rule.declarer : a;
  const second = rule ? rule.other : b;
  // No closure or arrays per pair: a click at 10,000 components tells a thousand new ones.
  return withMessage(`${marked(catalog, first, chosen)} cannot be used with ${marked(catalog, second, chosen)}`, rule?.message);
}

function marked(catalog: Catalog, c: number, chosen: number): string {
  return c === chosen ? `${nameOf(catalog, c)} (which you chose)` : nameOf(catalog, c);
}

interface Telling {
  catalog: Catalog;
  told: Set<Because>;
  /** Rules already put into words. */
  said: Set<number>;
  sentences: string[];
  depth: number;
}

const MAX_SENTENCES = 8;

function tell(t: Telling, node: Because): void {
  if (t.told.has(node) || t.sentences.length >= MAX_SENTENCES) return;
  t.told.add(node);
  const { catalog } = t;
  const x = nameOf(catalog, node.component);
  switch (node.reason) {
    case Reason.Chosen:
      t.sentences.push(`you chose ${x}`);
      return;
    case Reason.Subject:
    case Reason.None:
      return;
    case Reason.Decision:
      t.sentences.push(`taking ${x} to meet: ${describeRule(catalog, node.ref)}`);
      return;
    case Reason.Incompatible: {
      const other = node.premises[0];
      const chosen = other?.reason === Reason.Chosen;
      t.sentences.push(pairText(catalog, node.component, node.ref, chosen ? node.ref : -1));
      if (other && !chosen) tell(t, other);
      if (other) t.told.add(other);
      break;
    }
    case Reason.Rule: {
      const rule = catalog.constraints[node.ref];
      if (t.said.has(node.ref)) break;
      t.said.add(node.ref);
      if (rule.trigger === node.component) t.sentences.push(`${describeRule(catalog, node.ref)}, which cannot hold`);
      else if (node.chosen) t.sentences.push(`${describeRule(catalog, node.ref)}, so ${x} is needed`);
      else if (rule.kind === 'radio') t.sentences.push(`only one network core plugin can be used at a time (${list(catalog, rule)}), which rules out ${x}`);
      else t.sentences.push(`${describeRule(catalog, node.ref)}, which rules out ${x}`);
      break;
    }
    case Reason.Failed:
      if (node.failed && t.depth < 2) {
        t.sentences.push(`${x} cannot be chosen either: ${render(catalog, node.failed, t.depth + 1)}`);
      } else {
        t.sentences.push(`${x} cannot be chosen either`);
      }
      return;
  }
  for (const p of node.premises) tell(t, p);
}

/** A refutation as one paragraph: the clash, then its reasons, joined with semicolons. */
export function render(catalog: Catalog, why: Refutation, depth = 0): string {
  const t: Telling = { catalog, told: new Set(), said: new Set(), sentences: [], depth };
  const c = why.conflict;
  if (c.kind === 'pair') {
    const chosen = why.premises.find((p) => p.reason === Reason.Chosen);
    if (c.a !== c.b) t.sentences.push(pairText(catalog, c.a, c.b, chosen ? chosen.component : -1));
    if (chosen) t.told.add(chosen);
  } else if (c.constraint >= 0) {
    t.said.add(c.constraint);
    const rule = catalog.constraints[c.constraint];
    const base = describeRule(catalog, c.constraint);
    if (c.violated === 'min') t.sentences.push(rule.items.length === 0 ? base : `${base}, and ${rule.min > 1 ? 'not all of them' : 'none of them'} can be chosen`);
    // The radio rule broken from above: the click replaces, so say what cannot be combined instead.
    else if (rule.kind === 'radio') t.sentences.push(`only one network core plugin can be used at a time (${list(catalog, rule)})`);
    else t.sentences.push(rule.kind === 'none_of' ? base : `${base}, and more than that would be chosen`);
  }
  for (const p of why.premises) tell(t, p);
  return t.sentences.join('; ');
}

/** "<subject> cannot be chosen" with its reasons. */
export function explainDeadEnd(catalog: Catalog, subject: number, why: Refutation): string {
  const reasons = render(catalog, why);
  return reasons ? `${reasons}; so ${nameOf(catalog, subject)} cannot be chosen` : `${nameOf(catalog, subject)} cannot be chosen`;
}

/** Without the explaining solver's chain: the chosen components the dead end rests on. */
export function deadEndByCore(catalog: Catalog, c: number, core: number[]): string {
  if (core.length === 0) return `${nameOf(catalog, c)} cannot be part of any valid selection of this release and its plugins`;
  return `no valid selection contains ${nameOf(catalog, c)} together with ${core.map((x) => nameOf(catalog, x)).join(' and ')} (which you chose)`;
}
