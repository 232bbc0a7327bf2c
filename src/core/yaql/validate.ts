/**
 * Checks a parsed YAQL tree against Fuel's subset, so an expression the graph engine cannot
 * evaluate is reported when a plugin is validated, not in the middle of a deployment.
 */
import { finding, type Finding } from '../findings.js';
import { isPair, type YaqlArgument, type YaqlNode } from './ast.js';
import { yaqlFunctions } from './functions.js';
import { yaqlPatternProblem } from './regex.js';

const known = Object.keys(yaqlFunctions).sort().join(', ');

export function validateYaql(root: YaqlNode): Finding[] {
  const findings: Finding[] = [];
  // A pattern written in the expression is checked now; one computed from data, when evaluated.
  const checkPattern = (pattern: YaqlArgument | undefined, column: number): void => {
    if (pattern?.kind !== 'constant' || typeof pattern.value !== 'string') return;
    const problem = yaqlPatternProblem(pattern.value);
    if (problem) {
      findings.push(
        finding('yaql/bad-regex', 'error', `'${pattern.value.length > 80 ? `${pattern.value.slice(0, 80)}…` : pattern.value}' is not a usable regular expression: ${problem}.`, { column }, 'Hearth matches in linear time (RE2 syntax): write the pattern without back-references or lookaround.'),
      );
    }
  };
  const visitArgument = (a: YaqlArgument, pairsAllowed: boolean): void => {
    if (isPair(a)) {
      if (!pairsAllowed) {
        findings.push(finding('yaql/unexpected-pair', 'error', `A 'key => value' argument at column ${a.column} is only meaningful in dict(), switch() or a {map}.`, { column: a.column }, 'Remove the `=>` or use dict(...).'));
      }
      visit(a.key);
      visit(a.value);
    } else visit(a);
  };
  const visit = (node: YaqlNode): void => {
    switch (node.kind) {
      case 'list':
        node.items.forEach(visit);
        return;
      case 'map':
        node.entries.forEach((e) => {
          visit(e.key);
          visit(e.value);
        });
        return;
      case 'member':
        visit(node.target);
        return;
      case 'index':
        visit(node.target);
        visit(node.index);
        return;
      case 'binary':
        if (node.operator === '=~' || node.operator === '!~') checkPattern(node.right, node.column);
        visit(node.left);
        visit(node.right);
        return;
      case 'unary':
        visit(node.operand);
        return;
      case 'call': {
        const spec = yaqlFunctions[node.name];
        const asMethod = node.receiver !== undefined;
        if (!spec) {
          findings.push(
            finding('yaql/unknown-function', 'error', `'${node.name}' is not a function of the YAQL subset Fuel's tasks use.`, { column: node.column }, `Known functions: ${known}.`),
          );
        } else {
          if (asMethod && spec.form === 'function') {
            findings.push(finding('yaql/not-a-method', 'error', `${node.name}() is called as a function, not as a method.`, { column: node.column }, `Write ${node.name}(...).`));
          }
          if (!asMethod && spec.form === 'method') {
            findings.push(finding('yaql/not-a-function', 'error', `${node.name}() is a method: call it on a value.`, { column: node.column }, `Write value.${node.name}(...).`));
          }
          const count = node.args.length + (asMethod ? 1 : 0);
          if (count < spec.min || count > spec.max) {
            const range = spec.max === Infinity ? `at least ${spec.min}` : spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
            findings.push(
              finding('yaql/wrong-argument-count', 'error', `${node.name}() takes ${range} argument(s)${spec.form !== 'function' ? ' counting the value it is called on' : ''}, not ${count}.`, { column: node.column }, 'Check the call against the YAQL documentation.'),
            );
          }
          if (node.name === 'switch' && node.args.some((a) => !isPair(a))) {
            findings.push(finding('yaql/switch-needs-pairs', 'error', 'Every argument of switch() is `condition => value`.', { column: node.column }, 'Write switch($.x = 1 => a, true => b).'));
          }
        }
        if (node.name === 'matches') checkPattern(node.receiver ? node.args[0] : node.args[1], node.column);
        if (node.receiver) visit(node.receiver);
        node.args.forEach((a) => visitArgument(a, spec?.pairs === true));
        return;
      }
      default:
        return;
    }
  };
  visit(root);
  return findings;
}
