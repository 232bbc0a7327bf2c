import { useEffect, useState } from 'react';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { LiveNodes, useEnvironmentEvents } from './environmentStream.js';
import { environmentLabel, environmentMeaning } from '../components/states.js';
import { Problems } from '../components/Problems.js';
import { NodesTab } from '../nodes/NodesTab.js';
import { SettingsTab } from '../settings/SettingsTab.js';
import { GraphTab } from '../graph/GraphTab.js';
import { DeployTab } from '../deploy/DeployTab.js';
import { NetworksTab } from '../networks/NetworksTab.js';
import { EnvironmentActions } from './EnvironmentActions.js';
import { Crashed } from '../components/Crashed.js';

const TABS = [
  { id: 'nodes', title: 'Nodes' },
  { id: 'networks', title: 'Networks' },
  { id: 'settings', title: 'Settings' },
  { id: 'graph', title: 'Graph' },
  { id: 'deploy', title: 'Deploy' },
];


export function Environment({ id, tab }: { id: string; tab: string }) {
  const cluster = useApi('/clusters/{id}', { params: { id: Number(id) } });
  const releases = useApi('/releases');
  // The environment's live stream keeps the page current, whoever changed it; whichever of it
  // and this page's own reads came last is shown.
  const live = useEnvironmentEvents(Number(id));
  const [current, setCurrent] = useState<Cluster | undefined>(undefined);
  useEffect(() => setCurrent(cluster.data), [cluster.data]);
  useEffect(() => {
    if (live.environment && String(live.environment.id) === id) setCurrent(live.environment);
  }, [live.environment, id]);
  if (cluster.loading && !cluster.data) return <p aria-busy="true">Loading…</p>;
  if (cluster.error) return <Problems error={cluster.error} title="Cannot open this environment" />;
  const c = current && String(current.id) === id ? current : cluster.data!;
  const release = (releases.data ?? []).find((r) => String(r.id) === String(c.release_id));
  return (
    <LiveNodes.Provider value={live.nodes}>
      <section aria-labelledby="env-title">
        <div className="title-row">
          <h1 id="env-title">{c.name}</h1>
          <span className="muted" data-testid="env-status" data-status={c.status}>
            {release ? `${release.name} ${release.version}, ` : ''}
            <span title={environmentMeaning(c.status)}>{environmentLabel(c.status)}</span>
          </span>
        </div>
        <EnvironmentActions key={`${c.id}-${c.name}-${c.status}`} cluster={c} onChanged={cluster.reload} />
        <nav className="tabs" aria-label="Environment">
          {TABS.map((t) => (
            <a key={t.id} href={`#/env/${id}/${t.id}`} aria-current={t.id === tab ? 'page' : undefined}>
              {t.title}
            </a>
          ))}
        </nav>
        {/* A tab that fails says so in its place; the header and the other tabs stay usable. */}
        <Crashed key={tab} what={`the ${TABS.find((t) => t.id === tab)?.title ?? tab} tab`}>
          {tab === 'nodes' && <NodesTab key={c.status} cluster={c} />}
          {tab === 'networks' && <NetworksTab key={c.status} cluster={c} />}
          {tab === 'settings' && <SettingsTab key={c.status} cluster={c} />}
          {tab === 'graph' && <GraphTab cluster={c} />}
          {tab === 'deploy' && <DeployTab cluster={c} onDeployed={cluster.reload} liveDeployments={live.deployments} />}
        </Crashed>
      </section>
    </LiveNodes.Provider>
  );
}
