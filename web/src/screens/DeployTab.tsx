import { useEffect, useMemo, useState } from 'react';
import { api } from '../api.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';

interface Deployment {
  id: number;
  status: 'running' | 'ready' | 'failed' | string;
  total: number;
  done: number;
  progress: number;
  message: string | null;
  tasks?: Array<{ node: string; taskId: string; position: number; status: string }>;
}

const finished = (d: Deployment | null) => d !== null && d.status !== 'running';

/** Start a deployment and follow it, node by node and task by task. */
export function DeployTab({ cluster, onDeployed }: { cluster: Cluster; onDeployed: () => void }) {
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const fetchOne = (id: number) => api<Deployment>('GET', `/clusters/${cluster.id}/deployments/${id}?tasks=true`);

  useEffect(() => {
    let live = true;
    api<Deployment[]>('GET', `/clusters/${cluster.id}/deployments`).then(
      async (list) => {
        if (live && list.length > 0) setDeployment(await fetchOne(list[0].id));
      },
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [cluster.id]);

  useEffect(() => {
    if (!deployment || finished(deployment)) return;
    const timer = setInterval(async () => {
      try {
        const d = await fetchOne(deployment.id);
        setDeployment(d);
        if (finished(d)) onDeployed();
      } catch (e) {
        setError(e);
      }
    }, 400);
    return () => clearInterval(timer);
  }, [deployment?.id, deployment?.status]);

  const deploy = async () => {
    setBusy(true);
    setError(null);
    try {
      const started = await api<Deployment>('POST', `/clusters/${cluster.id}/deploy`, {});
      setDeployment(await fetchOne(started.id));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const perNode = useMemo(() => {
    const map = new Map<string, Array<{ taskId: string; status: string }>>();
    for (const t of deployment?.tasks ?? []) map.set(t.node, [...(map.get(t.node) ?? []), t]);
    return [...map.entries()];
  }, [deployment]);

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
            Deployment {deployment.status} — {deployment.done} of {deployment.total} tasks done
            {deployment.message ? `: ${deployment.message}` : ''}
          </p>
          <progress max={deployment.total || 1} value={deployment.done} aria-label="Deployment progress" />
          <div className="table-wrap">
            <table>
              <caption>Progress per node</caption>
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">Tasks done</th>
                  <th scope="col">Current or failed task</th>
                </tr>
              </thead>
              <tbody>
                {perNode.map(([node, tasks]) => {
                  const doneHere = tasks.filter((t) => t.status !== 'pending' && t.status !== 'running').length;
                  const current = tasks.find((t) => t.status === 'running' || t.status === 'failed' || t.status === 'error');
                  return (
                    <tr key={node}>
                      <th scope="row">{node}</th>
                      <td>
                        {doneHere} / {tasks.length}
                      </td>
                      <td>{current ? `${current.taskId} (${current.status})` : ''}</td>
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
