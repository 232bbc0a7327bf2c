import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster, Deployment, Node } from '../types.js';
import { Problems } from '../components/Problems.js';

/** What a graph does, said before it runs, for the graphs every release has. */
const GRAPH_WORDS: Record<string, string> = {
  default: 'deploys the roles (as Deploy does)',
  provisioning: 'provisions the nodes',
  deletion: 'removes what the environment installed from the nodes',
  network_verification: 'checks the nodes’ networks',
};

/**
 * Run any graph of the environment (the release's and its plugins': provisioning, deletion,
 * network verification, custom ones) on every node with roles or on the nodes chosen, for real or
 * as a dry run (`POST /clusters/{id}/graphs/{type}/run`). The run is then shown and kept in the
 * history like a deployment, with its graph type.
 */
export function GraphRun({ cluster, nodes, disabled, onStarted }: { cluster: Cluster; nodes: Node[]; disabled: boolean; onStarted: (d: Deployment) => void }) {
  const graphs = useApi('/clusters/{id}/graphs', { params: { id: cluster.id } });
  const withRoles = nodes.filter((n) => n.roles.length + n.pending_roles.length > 0);
  const allSimulated = withRoles.length > 0 && withRoles.every((n) => n.simulated !== false);
  const [type, setType] = useState('');
  const [chosen, setChosen] = useState<Set<number> | null>(null);
  const [dryRun, setDryRun] = useState(allSimulated);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setDryRun(allSimulated), [allSimulated]);

  const list = graphs.data ?? [];
  const selected = type || list.find((g) => g.type !== 'default')?.type || list[0]?.type || '';
  const targets = chosen === null ? withRoles : withRoles.filter((n) => chosen.has(n.id));

  const run = async () => {
    const where = chosen === null ? `every node with roles (${withRoles.length})` : `${targets.map((n) => n.name).join(', ')}`;
    const what = GRAPH_WORDS[selected] ? ` It ${GRAPH_WORDS[selected]}.` : '';
    const how = dryRun ? ' As a dry run: nothing runs on the machines.' : ' For real, over SSH, on the hosts.';
    if (!window.confirm(`Run the ${selected} graph of ${cluster.name} on ${where}?${what}${how}`)) return;
    setBusy(true);
    setError(null);
    try {
      const started = await call('post', '/clusters/{id}/graphs/{type}/run', { params: { id: cluster.id, type: selected }, body: { ...(chosen !== null ? { nodes: targets.map((n) => n.id) } : {}), ...(dryRun ? { dry_run: true } : {}) } });
      // Folded again: the run shows below, where deployments do.
      setOpen(false);
      onStarted(started);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="graph-run" data-testid="graph-run" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Run another graph</summary>
      {graphs.error ? <Problems error={graphs.error} title="The graphs cannot be listed" /> : null}
      <div className="graph-run-form">
        <label htmlFor="graph-run-type">Graph</label>
        <select id="graph-run-type" value={selected} onChange={(e) => setType(e.target.value)} disabled={!list.length}>
          {list.map((g) => (
            <option key={g.type} value={g.type}>
              {g.type}
              {g.name && g.name !== g.type ? ` — ${g.name}` : ''} ({g.tasks} task{g.tasks === 1 ? '' : 's'})
            </option>
          ))}
        </select>
        {GRAPH_WORDS[selected] ? <span className="muted"> it {GRAPH_WORDS[selected]}</span> : null}
      </div>
      <fieldset>
        <legend>On</legend>
        <label>
          <input type="radio" name="graph-run-nodes" checked={chosen === null} onChange={() => setChosen(null)} /> every node with roles ({withRoles.length})
        </label>
        <label>
          <input type="radio" name="graph-run-nodes" checked={chosen !== null} onChange={() => setChosen(new Set())} /> the nodes chosen
        </label>
        {chosen !== null && (
          <ul className="graph-run-nodes">
            {withRoles.map((n) => (
              <li key={n.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(n.id)}
                    onChange={(e) =>
                      setChosen((s) => {
                        const next = new Set(s);
                        if (e.target.checked) next.add(n.id);
                        else next.delete(n.id);
                        return next;
                      })
                    }
                  />{' '}
                  {n.name}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <label>
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> Dry run (simulated: nothing runs on the machines)
      </label>
      <div className="actions">
        <button type="button" disabled={disabled || busy || !selected || targets.length === 0} onClick={() => void run()}>
          Run the {selected || '…'} graph
        </button>
      </div>
      <Problems error={error} title="The graph run was refused" />
    </details>
  );
}
