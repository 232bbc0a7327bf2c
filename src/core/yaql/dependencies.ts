/**
 * What an expression reads, so the graph engine can evaluate once what is the same on every node.
 * Nailgun evaluated every condition on every node, and conditions such as
 * `$.network_metadata.nodes.values().where(...)` walk every node's data: quadratic in the cluster
 * size. Knowing that such an expression reads only cluster-wide keys lets Hearth evaluate it once
 * per distinct (cluster data, old state) instead.
 */
import { isPair, type YaqlArgument, type YaqlNode } from './ast.js';
import { yaqlFunctions } from './functions.js';

export interface YaqlReads {
  /** Paths read from the top-level `$` (`$.a.b` → `['a', 'b']`; `$.get('x')` → `['x']`). */
  paths: string[][];
  /** True when the whole `$` is used as a value (`changed($)`, `$.toYaml()`, `$.keys()`). */
  wholeData: boolean;
  /** `$name` variables read (`common`, `node`, ...). */
  variables: string[];
  /** True when a lifecycle function is used: the result also depends on the old state. */
  lifecycle: boolean;
}

/**
 * Keys of Fuel's deployment data that differ from node to node (the rest — `network_metadata`,
 * the legacy `nodes` list, `storage`, `public_ssl`, service settings, ... — is the cluster's
 * `common` part).
 */
export const NODE_SPECIFIC_KEYS: ReadonlySet<string> = new Set([
  'uid', 'roles', 'role', 'node_roles', 'fqdn', 'name', 'user_node_name', 'status', 'online', 'ip', 'network_scheme', 'node_volumes',
  'swift_zone', 'priority', 'tasks', 'vms_conf', 'provision', 'hugepages', 'cpu_pinning', 'nova_cpu_pinning_enabled', 'nova_hugepages_enabled',
  'dpdk', 'cgroups', 'kernel_params', 'deployed_before', 'tags', 'primary_tags', 'mac', 'meta',
]);

export function yaqlReads(ast: YaqlNode): YaqlReads {
  const paths: string[][] = [];
  const variables = new Set<string>();
  let wholeData = false;
  let lifecycle = false;

  /** The `$`-rooted constant path an expression denotes, if it is one. */
  const pathOf = (node: YaqlNode): string[] | undefined => {
    if (node.kind === 'variable' && node.name === '') return [];
    if (node.kind === 'member') {
      const base = pathOf(node.target);
      return base && [...base, node.name];
    }
    if (node.kind === 'index' && node.index.kind === 'constant' && typeof node.index.value === 'string') {
      const base = pathOf(node.target);
      return base && [...base, node.index.value];
    }
    if (node.kind === 'call' && node.name === 'get' && node.receiver && node.args[0] && !isPair(node.args[0]) && node.args[0].kind === 'constant' && typeof node.args[0].value === 'string') {
      const base = pathOf(node.receiver);
      return base && [...base, node.args[0].value];
    }
    return undefined;
  };

  /** `rooted`: whether `$` here still means the top-level data (false inside element lambdas). */
  const visit = (node: YaqlNode, rooted: boolean): void => {
    const path = rooted ? pathOf(node) : undefined;
    if (path) {
      if (path.length === 0) wholeData = true;
      else paths.push(path);
      // A `get` default or an index expression may read more.
      if (node.kind === 'call') node.args.slice(1).forEach((a) => visitArgument(a, rooted));
      return;
    }
    switch (node.kind) {
      case 'variable':
        if (node.name !== '') variables.add(node.name);
        return;
      case 'list':
        node.items.forEach((n) => visit(n, rooted));
        return;
      case 'map':
        node.entries.forEach((e) => {
          visit(e.key, rooted);
          visit(e.value, rooted);
        });
        return;
      case 'member':
        visit(node.target, rooted);
        return;
      case 'index':
        visit(node.target, rooted);
        visit(node.index, rooted);
        return;
      case 'binary':
        visit(node.left, rooted);
        visit(node.right, rooted);
        return;
      case 'unary':
        visit(node.operand, rooted);
        return;
      case 'call': {
        const spec = yaqlFunctions[node.name];
        if (spec?.lifecycle) lifecycle = true;
        const all: YaqlArgument[] = node.receiver ? [node.receiver, ...node.args] : node.args;
        // Element lambdas bind `$` to each item; lifecycle functions bind it back to the node's
        // data (`where($.fqdn = new($.fqdn))` reads the node's fqdn), wherever they appear.
        all.forEach((a, i) => visitArgument(a, spec?.lifecycle ? true : rooted && !(spec?.elementLambdas ?? []).includes(i)));
        return;
      }
      default:
        return;
    }
  };
  const visitArgument = (a: YaqlArgument, rooted: boolean) => {
    if (isPair(a)) {
      visit(a.key, rooted);
      visit(a.value, rooted);
    } else visit(a, rooted);
  };
  visit(ast, true);
  return { paths, wholeData, variables: [...variables].sort(), lifecycle };
}

/**
 * True when the expression may give different answers on different nodes of one cluster with the
 * same old state: it reads a node-specific key, the whole `$`, or a variable other than `$common`.
 * Lifecycle functions alone do not make it node-specific, but their answer also depends on the old
 * state (`yaqlReads(ast).lifecycle`), which differs between new and already deployed nodes.
 */
export function dependsOnNode(ast: YaqlNode, nodeKeys: ReadonlySet<string> = NODE_SPECIFIC_KEYS): boolean {
  const reads = yaqlReads(ast);
  return reads.wholeData || reads.variables.some((v) => v !== 'common') || reads.paths.some((p) => nodeKeys.has(p[0]));
}

/** What planning a condition asks of a sub-expression's reads: yaqlReads's answer, as flags. */
export interface ReadFlags {
  /** The whole `$` is used as a value. */
  wholeData: boolean;
  /** Some `$name` variable is read. */
  variables: boolean;
  lifecycle: boolean;
  /** Some `$`-rooted path is read; `nodePaths`: one whose first key is in the given set. */
  paths: boolean;
  nodePaths: boolean;
}

/**
 * yaqlReads of every sub-expression of a tree, as flags, for one walk in all: `flagsOf(node)` is
 * what yaqlReads(node) says (same walk, same rules), kept per node. Planning a condition asks it
 * of each sub-expression from the top down, and yaqlReads on each would walk each subtree again:
 * quadratic in the depth of `a and b and c ...` or of a long method chain.
 */
export function readFlags(firstKeys: ReadonlySet<string>): (node: YaqlNode) => ReadFlags {
  // The first key of the `$`-rooted path a node denotes: null for `$` itself, undefined if none.
  const heads = new Map<YaqlNode, string | null | undefined>();
  const headOf = (node: YaqlNode): string | null | undefined => {
    if (heads.has(node)) return heads.get(node);
    let base: string | null | undefined;
    let key: string | undefined;
    if (node.kind === 'variable' && node.name === '') base = null;
    else if (node.kind === 'member') [base, key] = [headOf(node.target), node.name];
    else if (node.kind === 'index' && node.index.kind === 'constant' && typeof node.index.value === 'string') [base, key] = [headOf(node.target), node.index.value];
    else if (node.kind === 'call' && node.name === 'get' && node.receiver && node.args[0] && !isPair(node.args[0]) && node.args[0].kind === 'constant' && typeof node.args[0].value === 'string') [base, key] = [headOf(node.receiver), node.args[0].value];
    const head = node.kind === 'variable' ? base : base === undefined ? undefined : base === null ? key : base;
    heads.set(node, head);
    return head;
  };
  const none = (): ReadFlags => ({ wholeData: false, variables: false, lifecycle: false, paths: false, nodePaths: false });
  const add = (into: ReadFlags, more: ReadFlags) => {
    into.wholeData ||= more.wholeData;
    into.variables ||= more.variables;
    into.lifecycle ||= more.lifecycle;
    into.paths ||= more.paths;
    into.nodePaths ||= more.nodePaths;
  };
  const rootedFlags = new Map<YaqlNode, ReadFlags>();
  const itemFlags = new Map<YaqlNode, ReadFlags>();
  // yaqlReads's visit, with `rooted` as there.
  const visit = (node: YaqlNode, rooted: boolean): ReadFlags => {
    const memo = rooted ? rootedFlags : itemFlags;
    const known = memo.get(node);
    if (known) return known;
    const flags = none();
    const head = rooted ? headOf(node) : undefined;
    if (head !== undefined) {
      if (head === null) flags.wholeData = true;
      else {
        flags.paths = true;
        flags.nodePaths = firstKeys.has(head);
      }
      if (node.kind === 'call') node.args.slice(1).forEach((a) => add(flags, visitArgument(a, rooted)));
    } else {
      switch (node.kind) {
        case 'variable':
          flags.variables = node.name !== '';
          break;
        case 'list':
          node.items.forEach((n) => add(flags, visit(n, rooted)));
          break;
        case 'map':
          node.entries.forEach((e) => {
            add(flags, visit(e.key, rooted));
            add(flags, visit(e.value, rooted));
          });
          break;
        case 'member':
          add(flags, visit(node.target, rooted));
          break;
        case 'index':
          add(flags, visit(node.target, rooted));
          add(flags, visit(node.index, rooted));
          break;
        case 'binary':
          add(flags, visit(node.left, rooted));
          add(flags, visit(node.right, rooted));
          break;
        case 'unary':
          add(flags, visit(node.operand, rooted));
          break;
        case 'call': {
          const spec = yaqlFunctions[node.name];
          if (spec?.lifecycle) flags.lifecycle = true;
          const all: YaqlArgument[] = node.receiver ? [node.receiver, ...node.args] : node.args;
          all.forEach((a, i) => add(flags, visitArgument(a, spec?.lifecycle ? true : rooted && !(spec?.elementLambdas ?? []).includes(i))));
          break;
        }
        default:
          break;
      }
    }
    memo.set(node, flags);
    return flags;
  };
  const visitArgument = (a: YaqlArgument, rooted: boolean): ReadFlags => {
    if (!isPair(a)) return visit(a, rooted);
    const flags = none();
    add(flags, visit(a.key, rooted));
    add(flags, visit(a.value, rooted));
    return flags;
  };
  return (node) => visit(node, true);
}
