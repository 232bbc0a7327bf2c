/**
 * Task conditions that read a setting the release does not define. A graph evaluates conditions
 * on the deployment data, which holds the settings as Nailgun flattened them (`common` lifted to
 * the top, each `additional_components.X` turned into `X.enabled`); a condition reading a key
 * that is not there cannot be decided, and the graph keeps its task "as running". So the bundled
 * release once ran its monitoring tasks on every node without Monitoring chosen, because they read
 * `$.additional_components.monitoring`. Such a condition is an error in the release.
 *
 * Only paths that start at a settings section are judged: the deployment data has many other keys
 * (network_metadata, roles, uid, ...), which the release does not define and this check does not
 * guess at.
 */
import { parseExpression, referencesOf } from '../expressions/index.js';
import { finding, type Finding } from '../findings.js';
import { flattenSettings } from '../graph/index.js';
import { parseYaql, yaqlReads } from '../yaql/index.js';
import type { Task } from '../tasks/model.js';

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sections of the settings file that Nailgun folds away before conditions see them. */
const FOLDED: Record<string, (attr: string) => string> = {
  additional_components: (attr) => `$.${attr}.enabled`,
  common: (attr) => `$.${attr}`,
};

export function conditionsReadingMissingSettings(attributes: Record<string, unknown>, graphs: Record<string, { tasks: readonly Task[] }>): Finding[] {
  const editable = isMapping(attributes.editable) ? attributes.editable : {};
  const data = flattenSettings(attributes, undefined);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const report = (task: Task, type: string, read: string, why: string, hint: string) => {
    const key = `${type}|${task.id}|${read}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(finding('task/condition-reads-missing-setting', 'error', `task '${task.id}' (${type} graph): its condition reads ${read}, ${why}; the condition cannot be decided and the task would run whatever the settings`, task.origin, hint));
  };
  for (const [type, graph] of Object.entries(graphs)) {
    for (const task of graph.tasks) {
      const condition = task.condition;
      if (isMapping(condition) && typeof condition.yaql_exp === 'string') {
        const parsed = parseYaql(condition.yaql_exp);
        if (!parsed.ast) continue;
        for (const path of yaqlReads(parsed.ast).paths) {
          const [section, attr] = path;
          if (section === undefined) continue;
          const fold = FOLDED[section];
          if (fold && isMapping(editable[section]) && !Object.hasOwn(data, section)) {
            report(task, type, `$.${path.join('.')}`, `but the deployment data has no '${section}' (Nailgun folds that section away)`, attr ? `read it as ${fold(attr)}` : `read its settings directly`);
            continue;
          }
          const values = data[section];
          if (attr === undefined || !isMapping(editable[section]) || !isMapping(values)) continue;
          if (!Object.hasOwn(values, attr)) report(task, type, `$.${path.join('.')}`, `but settings section '${section}' has no '${attr}'`, `settings of ${section}: ${Object.keys(values).sort().join(', ') || 'none'}`);
        }
      } else if (typeof condition === 'string') {
        const parsed = parseExpression(condition);
        if (!parsed.ast) continue;
        for (const ref of referencesOf(parsed.ast)) {
          if (ref.model !== 'settings') continue;
          const [section, attr] = ref.path;
          if (section === undefined || attr === undefined || FOLDED[section] || !isMapping(editable[section])) continue;
          if (!Object.hasOwn(editable[section], attr)) report(task, type, `settings:${ref.path.join('.')}`, `but settings section '${section}' has no '${attr}'`, `settings of ${section}: ${Object.keys(editable[section]).filter((k) => k !== 'metadata').sort().join(', ') || 'none'}`);
        }
      }
    }
  }
  return findings;
}
