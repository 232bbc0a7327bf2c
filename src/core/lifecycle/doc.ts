/** The model's tables as Markdown, for docs/lifecycle.md (kept equal to the doc by a test). */
import { ENVIRONMENT_MEANING, NODE_MEANING, RUN_MEANING, TASK_OUTCOME_MEANING, type StateMeaning } from './states.js';
import { ENVIRONMENT_TRANSITIONS, NODE_TRANSITIONS, RUN_TRANSITIONS, TASK_TRANSITIONS, type Transition } from './transitions.js';

const states = (title: string, table: Record<string, StateMeaning>) =>
  [`### ${title}: states`, '', '| state | UI label | meaning |', '|---|---|---|', ...Object.entries(table).map(([s, m]) => `| \`${s}\` | ${m.label} | ${m.meaning} |`), ''].join('\n');

const transitions = (title: string, table: readonly Transition<string>[]) =>
  [
    `### ${title}: transitions`,
    '',
    '| from | to | cause |',
    '|---|---|---|',
    ...table.map((t) => `| ${t.from === '*' ? 'any' : t.from.map((s) => `\`${s}\``).join(', ')} | ${t.to === 'previous' ? 'the state before' : `\`${t.to}\``} | ${t.cause} |`),
    '',
  ].join('\n');

export function lifecycleTables(): string {
  return [
    states('Environment', ENVIRONMENT_MEANING),
    transitions('Environment', ENVIRONMENT_TRANSITIONS),
    states('Node', NODE_MEANING),
    transitions('Node', NODE_TRANSITIONS),
    states('Run (deployment)', RUN_MEANING),
    transitions('Run (deployment)', RUN_TRANSITIONS),
    states('Task record (`outcome`)', TASK_OUTCOME_MEANING),
    transitions('Task record (`outcome`)', TASK_TRANSITIONS),
  ].join('\n');
}
