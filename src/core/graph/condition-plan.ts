/**
 * How a YAQL condition is evaluated over a cluster. Most of a Fuel condition reads cluster-wide data
 * (`changed($.network_metadata)`, `$.network_metadata.nodes.values().where(...)`), and only a small
 * part reads the node (`$.uid in ...`, `'controller' in $.roles`). Nailgun evaluated the whole
 * expression on every node, and the cluster-wide parts walk every node's data: quadratic. Here the
 * cluster-wide sub-expressions are lifted out ("hoisted") and evaluated once per cluster (twice when
 * some nodes were deployed before: lifecycle functions answer differently with and without an old
 * state); each node evaluates only what is left, reading the hoisted values as variables.
 */
import { isPair, type YaqlArgument, type YaqlNode } from '../yaql/ast.js';
import { readFlags, yaqlFunctions, yaqlReads } from '../yaql/index.js';

export interface ConditionPlan {
  /** The expression with cluster-wide parts replaced by variables `HOISTED_PREFIX + i`. */
  residue: YaqlNode;
  hoisted: YaqlNode[];
  /** The whole expression reads nothing of the node. */
  clusterWide: boolean;
  /** It reads keys that differ between nodes of one class (uid, fqdn, ...), or the whole `$`. */
  readsIdentity: boolean;
  /** It uses lifecycle functions, so its value depends on the node's old state too. */
  lifecycle: boolean;
  /** The residue reads more than the node's own keys: it needs the node's whole `$`. */
  needsCommon: boolean;
  /** The expression as written, for a node whose own data overrides cluster-wide keys. */
  ast: YaqlNode;
}

/** The YAQL lexer cannot produce this character in a variable name: no clash with `$common` and friends. */
export const HOISTED_PREFIX = '\u0000h';

/** `changedAny(a, b)` is `changed(a) or changed(b)`; split, `changed($.network_metadata)` can be hoisted alone. */
function splitChanged(node: YaqlNode): YaqlNode {
  const map = (n: YaqlNode) => splitChanged(n);
  const mapArg = (a: YaqlArgument): YaqlArgument => (isPair(a) ? { ...a, key: map(a.key), value: map(a.value) } : map(a));
  switch (node.kind) {
    case 'call': {
      if ((node.name === 'changedAny' || node.name === 'changedAll') && !node.receiver && node.args.length > 0 && !node.args.some(isPair)) {
        const operator = node.name === 'changedAny' ? 'or' : 'and';
        const parts: YaqlNode[] = node.args.map((a) => ({ kind: 'call', name: 'changed', args: [a as YaqlNode], column: node.column }));
        return parts.reduce((left, right) => ({ kind: 'binary', operator, left, right, column: node.column }));
      }
      return { ...node, receiver: node.receiver && map(node.receiver), args: node.args.map(mapArg) };
    }
    case 'binary':
      return { ...node, left: map(node.left), right: map(node.right) };
    case 'unary':
      return { ...node, operand: map(node.operand) };
    case 'list':
      return { ...node, items: node.items.map(map) };
    case 'map':
      return { ...node, entries: node.entries.map((e) => ({ key: map(e.key), value: map(e.value) })) };
    case 'member':
      return { ...node, target: map(node.target) };
    case 'index':
      return { ...node, target: map(node.target), index: map(node.index) };
    default:
      return node;
  }
}

export function planCondition(ast: YaqlNode, nodeKeys: ReadonlySet<string>, classKeys: ReadonlySet<string>): ConditionPlan {
  const whole = yaqlReads(ast);
  const readsNode = (reads: ReturnType<typeof yaqlReads>) => reads.wholeData || reads.variables.length > 0 || reads.paths.some((p) => nodeKeys.has(p[0]));
  const lifecycle = whole.lifecycle;
  if (!readsNode(whole)) return { residue: ast, hoisted: [], clusterWide: true, readsIdentity: false, lifecycle, needsCommon: true, ast };

  const hoisted: YaqlNode[] = [];
  // yaqlReads of each sub-expression, from one walk (asking yaqlReads itself would walk each again).
  const flagsOf = readFlags(nodeKeys);
  const hoistable = (node: YaqlNode): boolean => {
    if (node.kind === 'constant' || node.kind === 'keyword' || node.kind === 'variable') return false;
    const reads = flagsOf(node);
    return !(reads.wholeData || reads.variables || reads.nodePaths) && (reads.paths || reads.lifecycle);
  };
  // Only positions where `$` is the node's data are rewritten: not inside element lambdas (their
  // `$` is the item) nor inside lifecycle arguments (evaluated on both the new and the old data).
  const visit = (node: YaqlNode): YaqlNode => {
    if (hoistable(node)) {
      hoisted.push(node);
      return { kind: 'variable', name: `${HOISTED_PREFIX}${hoisted.length - 1}`, column: node.column };
    }
    switch (node.kind) {
      case 'call': {
        const spec = yaqlFunctions[node.name];
        if (spec?.lifecycle) return node;
        const lambdas = spec?.elementLambdas ?? [];
        const offset = node.receiver ? 1 : 0;
        const arg = (a: YaqlArgument, i: number): YaqlArgument => {
          if (lambdas.includes(i + offset)) return a;
          return isPair(a) ? { ...a, key: visit(a.key), value: visit(a.value) } : visit(a);
        };
        return { ...node, receiver: node.receiver && visit(node.receiver), args: node.args.map(arg) };
      }
      case 'binary':
        return { ...node, left: visit(node.left), right: visit(node.right) };
      case 'unary':
        return { ...node, operand: visit(node.operand) };
      case 'list':
        return { ...node, items: node.items.map(visit) };
      case 'map':
        return { ...node, entries: node.entries.map((e) => ({ key: visit(e.key), value: visit(e.value) })) };
      case 'member':
        return { ...node, target: visit(node.target) };
      case 'index':
        return { ...node, target: visit(node.target), index: visit(node.index) };
      default:
        return node;
    }
  };
  const residue = visit(splitChanged(ast));
  const left = yaqlReads(residue);
  const readsIdentity = left.wholeData || left.variables.some((v) => !v.startsWith(HOISTED_PREFIX)) || left.paths.some((p) => nodeKeys.has(p[0]) && !classKeys.has(p[0]));
  const needsCommon = left.wholeData || left.paths.some((p) => !nodeKeys.has(p[0]));
  return { residue, hoisted, clusterWide: false, readsIdentity, lifecycle, needsCommon, ast };
}
