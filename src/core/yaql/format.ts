/**
 * Prints a YAQL tree as text that parses back to the same tree. Every compound operand is
 * parenthesised: the output is for machines (round trips, messages), not for beauty.
 */
import { isPair, type YaqlArgument, type YaqlNode } from './ast.js';

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
const simple = (n: YaqlNode) => ['constant', 'keyword', 'variable', 'list', 'map', 'call', 'member', 'index'].includes(n.kind) && !(n.kind === 'constant' && typeof n.value === 'number' && n.value < 0);
const wrap = (n: YaqlNode) => (simple(n) ? formatYaql(n) : `(${formatYaql(n)})`);
const argument = (a: YaqlArgument) => (isPair(a) ? `${formatYaql(a.key)} => ${formatYaql(a.value)}` : formatYaql(a));

export function formatYaql(node: YaqlNode): string {
  switch (node.kind) {
    case 'constant':
      if (typeof node.value === 'string') return quote(node.value);
      if (typeof node.value === 'number' && node.value < 0) return `-${-node.value}`;
      return String(node.value);
    case 'keyword':
      return node.name;
    case 'variable':
      return `$${node.name}`;
    case 'list':
      return `[${node.items.map(formatYaql).join(', ')}]`;
    case 'map':
      return `{${node.entries.map((e) => `${formatYaql(e.key)} => ${formatYaql(e.value)}`).join(', ')}}`;
    case 'member':
      return `${wrap(node.target)}${node.safe ? '?.' : '.'}${node.name}`;
    case 'index':
      return `${wrap(node.target)}[${formatYaql(node.index)}]`;
    case 'call':
      return `${node.receiver ? wrap(node.receiver) + '.' : ''}${node.name}(${node.args.map(argument).join(', ')})`;
    case 'unary':
      return node.operator === 'not' ? `not ${wrap(node.operand)}` : `${node.operator}${wrap(node.operand)}`;
    case 'binary':
      return `${wrap(node.left)} ${node.operator} ${wrap(node.right)}`;
  }
}
