import { useEffect, useState } from 'react';
import { api } from '../api.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';

interface Deployment {
  id: string | number;
  status: 'pending' | 'running' | 'ready' | 'error' | string;
  progress?: number;
  message?: string;
  nodes?: Array<{ node: string; status: string; tasks: Array<{ task: string; status: string }> }>;
}

/** Start a deployment and follow it, node by node and task by task. */
export function DeployTab({ cluster, onDeployed }: { cluster: Cluster; onDeployed: () => void }) {
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const poll = async () => {
    try {
      const d = await api<Deployment | null>('GET', `/clusters/${cluster.id}/deployment`);
      setDeployment(d);
      return d;
    } catch {
      return null;
    }
  };

  useEffect(() => {
    void poll();
  }, [cluster.id]);

  useEffect(() => {
    if (!deployment || (deployment.status !== 'running' && deployment.status !== 'pending')) return;
    const timer = setInterval(async () => {
      const d = await poll();
      if (d && d.status !== 'running' && d.status !== 'pending') onDeployed();
    }, 500);
    return () => clearInterval(timer);
  }, [deployment?.status]);

  const deploy = async () => {
    setBusy(true);
    setError(null);
    try {
      setDeployment(await api<Deployment>('POST', `/clusters/${cluster.id}/deploy`, {}));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const done = (deployment?.nodes ?? []).reduce((n, node) => n + node.tasks.filter((t) => t.status === 'ready' || t.status === 'skipped').length, 0);
  const total = (deployment?.nodes ?? []).reduce((n, node) => n + node.tasks.length, 0);
  return (
    <div className="deploy">
      <div className="actions">
        <button type="button" className="primary" disabled={busy || deployment?.status === 'running'} onClick={deploy}>
          Deploy changes
        </button>
      </div>
      <Problems error={error} title="Deployment refused" />
      {deployment && (
        <div aria-live="polite">
          <p role="status" data-status={deployment.status}>
            Deployment {deployment.status}
            {total > 0 && ` — ${done} of ${total} tasks done`}
            {deployment.message && `: ${deployment.message}`}
          </p>
          <progress max={total || 1} value={done} aria-label="Deployment progress" />
          <div className="table-wrap">
            <table>
              <caption>Progress per node</caption>
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Status</th>
                  <th scope="col">Tasks done</th>
                  <th scope="col">Current or failed task</th>
                </tr>
              </thead>
              <tbody>
                {(deployment.nodes ?? []).map((n) => {
                  const doneHere = n.tasks.filter((t) => t.status === 'ready' || t.status === 'skipped').length;
                  const current = n.tasks.find((t) => t.status === 'running' || t.status === 'error');
                  return (
                    <tr key={n.node}>
                      <th scope="row">{n.node}</th>
                      <td>{n.status}</td>
                      <td>
                        {doneHere} / {n.tasks.length}
                      </td>
                      <td>{current ? `${current.task} (${current.status})` : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}
