import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPair, type YaqlNode } from './ast.js';
import { NODE_SPECIFIC_KEYS, parseYaqlSyntax, readFlags, yaqlReads } from './index.js';

// Conditions as the Fuel library and its plugins write them: lifecycle functions, element lambdas
// (`$` is the item), `get` with defaults, indexes, long `and`/`or` chains and method chains.
const expressions = [
  'changed($)',
  '$.uid in $.network_metadata.nodes.values().where($.node_roles.any($ in list(controller, primary-controller))).uid',
  "changedAny($.network_scheme, $.network_metadata.vips, $.get('use_neutron'), $.quantum_settings) and not $.uid in added($.nodes).uid",
  "$.get('swift', {}).get('enabled', false) or ($.storage.objects_ceph and $.storage['images_ceph'])",
  "'controller' in $.roles or 'primary-controller' in $.roles or 'compute' in $.roles or $.role = 'cinder' or $.fqdn = new($.fqdn)",
  '$.network_metadata.nodes.values().select($.fqdn).where($ != null).len() > 0 and $common.debug and $node.x',
  "$.nodes.where($.uid = '1').select([$.name, {k => $.role}])[0].get(name, $.fqdn)",
  '$.x.get(\'y\').z[\'w\'].v + $.get($.key, $.fallback)',
];

function subExpressions(node: YaqlNode, out: YaqlNode[] = []): YaqlNode[] {
  out.push(node);
  const children: YaqlNode[] = [];
  if (node.kind === 'list') children.push(...node.items);
  else if (node.kind === 'map') for (const e of node.entries) children.push(e.key, e.value);
  else if (node.kind === 'member') children.push(node.target);
  else if (node.kind === 'index') children.push(node.target, node.index);
  else if (node.kind === 'binary') children.push(node.left, node.right);
  else if (node.kind === 'unary') children.push(node.operand);
  else if (node.kind === 'call') {
    if (node.receiver) children.push(node.receiver);
    for (const a of node.args) children.push(...(isPair(a) ? [a.key, a.value] : [a]));
  }
  for (const child of children) subExpressions(child, out);
  return out;
}

test('readFlags answers for each sub-expression what yaqlReads says of it', () => {
  let checked = 0;
  for (const text of expressions) {
    const { ast, findings } = parseYaqlSyntax(text);
    assert.ok(ast, `${text}: ${findings.map((f) => f.message).join('; ')}`);
    const flagsOf = readFlags(NODE_SPECIFIC_KEYS);
    for (const node of subExpressions(ast)) {
      const reads = yaqlReads(node);
      assert.deepEqual(
        flagsOf(node),
        { wholeData: reads.wholeData, variables: reads.variables.length > 0, lifecycle: reads.lifecycle, paths: reads.paths.length > 0, nodePaths: reads.paths.some((p) => NODE_SPECIFIC_KEYS.has(p[0])) },
        `${text}: at column ${node.column}`,
      );
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} sub-expressions`);
});
