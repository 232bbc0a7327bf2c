import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { NodesTab } from '../nodes/NodesTab.js';
import { SettingsTab } from '../settings/SettingsTab.js';
import { GraphTab } from './GraphTab.js';
import { DeployTab } from './DeployTab.js';

const TABS = [
  { id: 'nodes', title: 'Nodes' },
  { id: 'settings', title: 'Settings' },
  { id: 'graph', title: 'Graph' },
  { id: 'deploy', title: 'Deploy' },
];

export function Environment({ id, tab }: { id: string; tab: string }) {
  const cluster = useApi<Cluster>(`/clusters/${id}`);
  if (cluster.loading && !cluster.data) return <p aria-busy="true">Loading…</p>;
  if (cluster.error) return <Problems error={cluster.error} title="Cannot open this environment" />;
  const c = cluster.data!;
  return (
    <section aria-labelledby="env-title">
      <h1 id="env-title">{c.name}</h1>
      <nav className="tabs" aria-label="Environment">
        {TABS.map((t) => (
          <a key={t.id} href={`#/env/${id}/${t.id}`} aria-current={t.id === tab ? 'page' : undefined}>
            {t.title}
          </a>
        ))}
      </nav>
      {tab === 'nodes' && <NodesTab cluster={c} />}
      {tab === 'settings' && <SettingsTab cluster={c} />}
      {tab === 'graph' && <GraphTab cluster={c} />}
      {tab === 'deploy' && <DeployTab cluster={c} onDeployed={cluster.reload} />}
    </section>
  );
}
