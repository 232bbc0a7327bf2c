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
