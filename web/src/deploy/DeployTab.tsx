import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster, Node } from '../types.js';
import { Problems } from '../components/Problems.js';
import { finished, normalizeTask, type Deployment, type TaskRun } from './model.js';
import { DeploymentView } from './DeploymentView.js';
import { History } from './History.js';

/** Start a deployment (or deploy again), watch it node by node and task by task, and read past ones. */
export function DeployTab({ cluster, onDeployed }: { cluster: Cluster; onDeployed: () => void }) {
  const nodes = useApi<Node[]>(`/clusters/${cluster.id}/nodes`);
  const [history, setHistory] = useState<Deployment[]>([]);
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // The run, and its tasks as the deployments API lists them (failures first, with times, exit status and reasons).
  const fetchOne = useCallback(
    async (id: number) => {
      const [d, tasks] = await Promise.all([api<Deployment>('GET', `/clusters/${cluster.id}/deployments/${id}`), api<TaskRun[]>('GET', `/deployments/${id}/tasks`)]);
      return { ...d, tasks: tasks.map(normalizeTask) };
    },
    [cluster.id],
  );
  const fetchHistory = useCallback(() => api<Deployment[]>('GET', `/clusters/${cluster.id}/deployments`).then(setHistory), [cluster.id]);

  useEffect(() => {
    let live = true;
    api<Deployment[]>('GET', `/clusters/${cluster.id}/deployments`).then(
      async (list) => {
        if (!live) return;
        setHistory(list);
        if (list.length > 0) setDeployment(await fetchOne(list[0].id));
      },
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [cluster.id, fetchOne]);

  // A running deployment is followed until it ends.
  useEffect(() => {
    if (!deployment || finished(deployment)) return;
    const timer = setInterval(async () => {
      try {
        const d = await fetchOne(deployment.id);
        setDeployment(d);
        if (finished(d)) {
          onDeployed();
          void fetchHistory();
        }
      } catch (e) {
        setError(e);
      }
    }, 300);
    return () => clearInterval(timer);
  }, [deployment?.id, deployment?.status, fetchOne, fetchHistory, onDeployed]);

  const names = useMemo(() => new Map((nodes.data ?? []).map((n) => [String(n.id), n.name])), [nodes.data]);
  // Tasks are recorded by node id; people read names (`master` and `sync` are Hearth's own steps).
  const nodeName = useCallback((id: string) => names.get(id) ?? (id === 'master' || id === 'sync' ? `${id} (Hearth)` : `node ${id}`), [names]);

  const withRoles = (nodes.data ?? []).filter((n) => n.roles.length + n.pending_roles.length > 0);
  const pending = withRoles.filter((n) => n.pending_roles.length > 0);
  const again = cluster.status === 'operational' && pending.length === 0;
  const deploy = async () => {
    const question = again
      ? `Deploy ${cluster.name} again? The default graph runs once more on its ${withRoles.length} nodes, with the settings as they are now.`
      : `Deploy ${cluster.name}? The default graph runs on ${withRoles.length} node${withRoles.length === 1 ? '' : 's'}; ${pending.length} of them get new roles.`;
    if (!window.confirm(question)) return;
    setBusy(true);
    setError(null);
    try {
      const started = await api<Deployment>('POST', `/clusters/${cluster.id}/deploy`, {});
      setDeployment(await fetchOne(started.id));
      void fetchHistory();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    if (!window.confirm(`Stop deploying ${cluster.name}? Tasks running now are let finish; no new task starts, and the environment is left as far as it got.`)) return;
    try {
      await api('POST', `/clusters/${cluster.id}/stop`);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div className="deploy">
      <div className="actions">
        {deployment?.status === 'running' && deployment.mode === 'real' && (
          <button type="button" className="danger" onClick={() => void stop()}>
            Stop the deployment
          </button>
        )}
        <button type="button" className="primary" disabled={busy || !nodes.data || deployment?.status === 'running'} onClick={() => void deploy()}>
          {again ? 'Redeploy' : 'Deploy changes'}
        </button>
      </div>
      <Problems error={error} title="Deployment refused" />
      {deployment && <DeploymentView key={deployment.id} deployment={deployment} nodeName={nodeName} />}
      <h2 className="section-title">History</h2>
      <History list={history} current={deployment?.id ?? null} nodeName={nodeName} onOpen={(id) => void fetchOne(id).then(setDeployment, setError)} />
    </div>
  );
}
