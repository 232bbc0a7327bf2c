import { useEffect, useRef } from 'react';
import type { Schemas } from '../../../src/api/client.js';
import { useApi } from '../useApi.js';

/**
 * What Deploy would run, before it runs (GET /clusters/{id}/deploy/plan): per node, the tasks that
 * run (+) and those that do not, each with why (its condition and the data that changed since the
 * last deployment, a new node, a resumed run). Markers (stages, groups) run nothing and are left out.
 */
export type DeployPlan = Schemas['DeployPlan'];

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The plan's one line, as the CLI prints it: "3 tasks run on 2 nodes; 6 skipped". */
export const planSummary = (plan: DeployPlan) => `${plural(plan.counts.run, 'task')} run on ${plural(plan.counts.nodes_run, 'node')}; ${plan.counts.skipped} skipped`;

/** The plan of the environment's default graph, loaded again whenever `version` changes (a run ended, nodes changed). */
export function usePlan(clusterId: number, version: string) {
  const plan = useApi('/clusters/{id}/deploy/plan', { params: { id: clusterId } });
  const reload = plan.reload;
  const first = useRef(version);
  useEffect(() => {
    if (version !== first.current) reload();
  }, [version, reload]);
  return plan;
}

export function Plan({ plan, error }: { plan?: DeployPlan; error?: unknown }) {
  if (error) return <p className="plan-note" data-testid="deploy-plan">What a deployment would run could not be worked out: {(error as Error).message}</p>;
  if (!plan) return <p className="plan-note" data-testid="deploy-plan">Working out what a deployment would run…</p>;
  return (
    <details className="plan" data-testid="deploy-plan">
      <summary>
        What Deploy would run: <strong>{planSummary(plan)}</strong>
        {plan.first_deployment ? ' (nothing deployed yet)' : plan.deployed_by ? ` (compared with deployment ${plan.deployed_by})` : ''}
      </summary>
      {plan.nodes.map((n) => (
        <div key={n.id} className="plan-node">
          <div className="plan-node-name">
            {n.name} <span className="muted">({n.roles.join(', ') || 'no roles'}{n.new ? '; new' : ''})</span>
          </div>
          <ul>
            {n.tasks
              .filter((t) => t.cause !== 'marker')
              .map((t) => (
                <li key={t.id} className={t.runs ? 'plan-runs' : 'plan-skips'} title={t.reason}>
                  <code>{t.runs ? '+' : '\u2003'}</code> {t.id} {t.runs ? <span className="muted">{t.cause === 'no_condition' ? '' : `— ${t.reason}`}</span> : <span className="muted">— not run: {t.reason}</span>}
                </li>
              ))}
          </ul>
        </div>
      ))}
    </details>
  );
}
