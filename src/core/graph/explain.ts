/**
 * Why a task's condition holds or not on one node, in words an operator can check: for lifecycle
 * functions (`changed($.x)`, `changedAny(...)`, `added(...)`, `deleted(...)`) what differs between
 * the deployment data and what was deployed last ("1 node added (node-30)", "false → true",
 * "unchanged since the last deployment", "the node is new"); for other conditions the values of
 * the `$` paths they read. The verdict itself is the graph's (build.ts); this only explains it, so
 * the two cannot disagree about what runs.
 */
import { isPair, type YaqlArgument, type YaqlNode } from '../yaql/ast.js';
import { evaluateYaqlValue, formatYaql, memoizedEqual, parseYaql, yaqlFunctions, yaqlReads } from '../yaql/index.js';
import { isDict, isIterable, itemsOf, toPlain, UNDEFINED } from '../yaql/values.js';

/** The data one node's condition was evaluated on. */
export interface ExplainScope {
  /** The node's `$` now. */
  data: Record<string, unknown>;
  /** Its `$` as deployed last; absent when it was never deployed. */
  old?: Record<string, unknown>;
  /** Why there is no old state: a first deployment of the environment, or a node added since. */
  whyNoOld: 'first deployment' | 'new node';
  /** "the last deployment (12)": what unchanged values are unchanged since. */
  since: string;
  /** A readable name for a key of the data that names a node (`node-30` → `node-30 (web-3)`). */
  label?: (key: string) => string;
}

/** Keys of the per-node part of `$`: what reads them is explained per node, the rest once. */
export interface ExplainCache {
  nodeKeys: ReadonlySet<string>;
  parts: Map<string, string>;
  parsed: Map<string, YaqlNode | string>;
  equal: (a: unknown, b: unknown) => boolean;
}

export const explainCache = (nodeKeys: ReadonlySet<string>): ExplainCache => ({ nodeKeys, parts: new Map(), parsed: new Map(), equal: memoizedEqual() });

const LIFECYCLE_CHANGED = new Set(['changed', 'changedAny', 'changedAll']);
const LIFECYCLE_DIFF = new Set(['added', 'deleted']);
const MAX_NAMES = 5;
const MAX_VALUE = 60;
/** Longer expressions are cut in reasons: the task's definition has them whole. */
const MAX_TEXT = 60;

const short = (v: unknown): string => {
  const text = JSON.stringify(toPlain(v)) ?? 'null';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
};
const names = (list: string[]): string => (list.length > MAX_NAMES ? `${list.slice(0, MAX_NAMES).join(', ')} and ${list.length - MAX_NAMES} more` : list.join(', '));
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** `$.network_metadata.nodes` → `node`: what the items of a value are called, from its path. */
function nounOf(arg: YaqlNode): string {
  if (arg.kind === 'member' && arg.name.length > 2 && arg.name.endsWith('s')) return arg.name.slice(0, -1);
  return 'key';
}

/** Lifecycle calls where `$` is still the node's data (not inside element lambdas), outermost first. */
function lifecycleCalls(node: YaqlNode, out: Array<Extract<YaqlNode, { kind: 'call' }>> = []): typeof out {
  const visit = (n: YaqlNode) => lifecycleCalls(n, out);
  const visitArg = (a: YaqlArgument) => (isPair(a) ? (visit(a.key), visit(a.value)) : visit(a));
  switch (node.kind) {
    case 'call': {
      if (LIFECYCLE_CHANGED.has(node.name) || LIFECYCLE_DIFF.has(node.name)) {
        out.push(node);
        return out;
      }
      const lambdas = yaqlFunctions[node.name]?.elementLambdas ?? [];
      const offset = node.receiver ? 1 : 0;
      if (node.receiver) visit(node.receiver);
      node.args.forEach((a, i) => (lambdas.includes(i + offset) ? undefined : visitArg(a)));
      return out;
    }
    case 'binary':
      visit(node.left);
      visit(node.right);
      return out;
    case 'unary':
      visit(node.operand);
      return out;
    case 'list':
      node.items.forEach(visit);
      return out;
    case 'map':
      node.entries.forEach((e) => (visit(e.key), visit(e.value)));
      return out;
    case 'member':
      visit(node.target);
      return out;
    case 'index':
      visit(node.target);
      visit(node.index);
      return out;
    default:
      return out;
  }
}

type Read = { value: unknown } | { error: string };
function read(ast: YaqlNode, data: unknown, equal: ExplainCache['equal']): Read {
  try {
    return { value: evaluateYaqlValue(ast, { data, equal }) };
  } catch (e) {
    return { error: (e as { message?: string }).message ?? String(e) };
  }
}

/** What differs between an old and a new value, in words; undefined when they are equal. */
export function describeChange(old: unknown, now: unknown, noun: string, equal: ExplainCache['equal'], label: (key: string) => string = (k) => k): string | undefined {
  if (equal(old, now)) return undefined;
  if (isDict(old) && isDict(now)) {
    const added = Object.keys(now).filter((k) => !Object.hasOwn(old, k));
    const removed = Object.keys(old).filter((k) => !Object.hasOwn(now, k));
    const changed = Object.keys(now).filter((k) => Object.hasOwn(old, k) && !equal(old[k], now[k]));
    const parts: string[] = [];
    if (added.length) parts.push(`${plural(added.length, noun)} added (${names(added.map(label))})`);
    if (removed.length) parts.push(`${plural(removed.length, noun)} removed (${names(removed.map(label))})`);
    if (changed.length === 1 && !isDict(now[changed[0]]) && !isIterable(now[changed[0]])) parts.push(`${label(changed[0])} changed (${short(old[changed[0]])} → ${short(now[changed[0]])})`);
    else if (changed.length) parts.push(`${plural(changed.length, noun)} changed (${names(changed.map(label))})`);
    return parts.join(', ');
  }
  if (isIterable(old) && isIterable(now)) {
    const before = itemsOf(old).map((x) => JSON.stringify(toPlain(x)));
    const after = itemsOf(now).map((x) => JSON.stringify(toPlain(x)));
    const unused = new Map<string, number>();
    for (const k of before) unused.set(k, (unused.get(k) ?? 0) + 1);
    let added = 0;
    for (const k of after) {
      const left = unused.get(k) ?? 0;
      if (left > 0) unused.set(k, left - 1);
      else added++;
    }
    const removed = [...unused.values()].reduce((a, b) => a + b, 0);
    if (!added && !removed) return 'the order changed';
    return [added ? `${plural(added, 'item')} added` : '', removed ? `${plural(removed, 'item')} removed` : ''].filter(Boolean).join(', ');
  }
  return `${short(old)} → ${short(now)}`;
}

/** One lifecycle comparison of a condition, in words. */
function explainCall(call: Extract<YaqlNode, { kind: 'call' }>, scope: ExplainScope, cache: ExplainCache): string {
  const args = call.args.filter((a): a is YaqlNode => !isPair(a));
  const text = formatYaql(call);
  if (LIFECYCLE_DIFF.has(call.name)) {
    if (!scope.old) return `${text}: ${scope.whyNoOld === 'new node' ? 'the node is new' : 'nothing deployed yet'}`;
    // `added`/`deleted` read the old state through the evaluator's lifecycle context.
    let diff: unknown;
    try {
      diff = evaluateYaqlValue(call, { data: scope.data, old: scope.old, equal: cache.equal });
    } catch (e) {
      return `${text}: could not be evaluated (${(e as { message?: string }).message ?? String(e)})`;
    }
    const empty = diff === null || (isDict(diff) && Object.keys(diff).length === 0) || (isIterable(diff) && itemsOf(diff).length === 0);
    return `${text}: ${empty ? `nothing ${call.name} since ${scope.since}` : short(diff)}`;
  }
  const parts = args.map((arg) => {
    const full = formatYaql(arg);
    const argText = full.length > MAX_TEXT ? `${full.slice(0, MAX_TEXT - 1)}…` : full;
    const reads = yaqlReads(arg);
    const clusterWide = !reads.wholeData && reads.variables.length === 0 && reads.paths.every((p) => !cache.nodeKeys.has(p[0]));
    const key = `${full}\u0000${scope.old ? 'old' : scope.whyNoOld}`;
    if (clusterWide && cache.parts.has(key)) return cache.parts.get(key)!;
    let part: string;
    if (!scope.old) part = scope.whyNoOld === 'new node' ? 'the node is new' : 'nothing deployed yet';
    else {
      const now = read(arg, scope.data, cache.equal);
      const before = read(arg, scope.old, cache.equal);
      if ('error' in before) part = 'not in the deployed state';
      else if ('error' in now) part = `could not be read (${now.error})`;
      else part = describeChange(before.value, now.value, nounOf(arg), cache.equal, scope.label) ?? `unchanged since ${scope.since}`;
    }
    part = `changed(${argText}): ${part}`;
    if (clusterWide) cache.parts.set(key, part);
    return part;
  });
  return parts.join('; ');
}

/** The values of the `$` paths an expression reads (a condition without lifecycle functions). */
function explainReads(ast: YaqlNode, scope: ExplainScope): string {
  const reads = yaqlReads(ast);
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const path of reads.paths) {
    const key = path.join('.');
    if (seen.has(key) || parts.length >= 3) continue;
    seen.add(key);
    let value: unknown = scope.data;
    for (const step of path) value = isDict(value) && Object.hasOwn(value, step) ? value[step] : UNDEFINED;
    parts.push(`$.${key} is ${value === UNDEFINED ? 'not set' : short(value)}`);
  }
  return parts.join(', ');
}

/**
 * Why a condition holds (`verdict` true) or not on one node. `text`: the condition as written;
 * a YAQL one is `{yaql_exp}`, a string is the restriction language, a boolean is itself.
 */
export function explainCondition(condition: string | { yaql_exp: string } | boolean, verdict: boolean, scope: ExplainScope, cache: ExplainCache): string {
  const word = verdict ? 'true' : 'false';
  if (typeof condition === 'boolean') return `condition: ${word}`;
  if (typeof condition === 'string') return `condition '${condition}' is ${word}`;
  const text = condition.yaql_exp;
  let ast = cache.parsed.get(text);
  if (ast === undefined) {
    const parsed = parseYaql(text);
    ast = parsed.ast ?? parsed.findings.map((f) => f.message).join('; ');
    cache.parsed.set(text, ast);
  }
  if (typeof ast === 'string') return `condition '${text}' could not be parsed (${ast}); the task is kept as running`;
  const calls = lifecycleCalls(ast);
  const shown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  // Without an old state every lifecycle function sees a change: one reason, not one per call.
  if (calls.length && !scope.old) return `${calls.length === 1 && calls[0] === ast ? shown : `condition '${shown}' is ${word}`}: ${scope.whyNoOld === 'new node' ? 'the node is new' : 'nothing deployed yet'}`;
  const whole = calls.length === 1 && calls[0] === ast && calls[0].args.length === 1;
  const detail = calls.length ? calls.map((c) => explainCall(c, scope, cache)).join('; ') : explainReads(ast, scope);
  if (whole) return detail;
  return `condition '${shown}' is ${word}${detail ? `: ${detail}` : ''}`;
}
