/**
 * `hearth env deploy <env> --plan`: what a deployment would run, before it runs, like `terraform
 * plan`. Per node a line per task: `+ task` for one that runs, `  task (reason)` for one that does
 * not; markers (stages, groups) run nothing and are left out of the text (the JSON has them).
 */
import type { components } from '../../api/schema.js';
import type { Client, ServerOptions } from './http.js';
import { print } from './table.js';

type Plan = components['schemas']['DeployPlan'];

export async function printPlan(c: Client, id: number, o: ServerOptions & { graph?: string; resume?: boolean }): Promise<void> {
  const plan = await c.call('get', '/clusters/{id}/deploy/plan', { params: { id }, query: { ...(o.graph ? { graph_type: o.graph } : {}), ...(o.resume ? { resume: true } : {}) } });
  print(o.json, plan, () => planText(plan));
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function planText(plan: Plan): string {
  const lines: string[] = [];
  const against = plan.first_deployment ? 'nothing deployed yet: every lifecycle condition holds' : `compared with what deployment ${plan.deployed_by ?? '?'} deployed`;
  lines.push(`plan for the '${plan.graph_type}' graph (${against}${plan.resumes ? `; resuming deployment ${plan.resumes}` : ''}):`);
  const block = (title: string, tasks: Plan['nodes'][number]['tasks']) => {
    lines.push('', title);
    for (const t of tasks) {
      if (t.cause === 'marker') continue;
      lines.push(t.runs ? `  + ${t.id}` : `    ${t.id} (${t.reason})`);
    }
  };
  for (const n of plan.nodes) block(`${n.name} (node ${n.id}; ${n.roles.join(', ') || 'no roles'}${n.new ? '; new' : ''}):`, n.tasks);
  if (plan.master) block('master:', plan.master.tasks);
  if (plan.cycle) lines.push('', `the graph has a cycle: nothing can run (${plan.cycle.map((p) => `${p.task} on ${p.node}`).join(' → ')})`);
  for (const f of plan.findings.filter((x) => x.severity !== 'info')) lines.push(`${f.severity} ${f.code}: ${f.message}`);
  const { run, nodes_run, skipped } = plan.counts;
  lines.push('', `${plural(run, 'task')} run on ${plural(nodes_run, 'node')}; ${skipped} skipped`);
  return `${lines.join('\n')}\n`;
}
