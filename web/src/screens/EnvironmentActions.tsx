import { useState } from 'react';
import { call } from '../api.js';
import { go } from '../route.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { NameField, nameProblem } from '../components/NameField.js';
import { RemovalChoice } from '../nodes/RemovalChoice.js';
import type { NodeView } from '../nodes/realNode.js';

/**
 * Rename, reset and delete an environment. Each asks first, saying what it does; the server's
 * refusal (an environment being deployed, a name taken) is shown here.
 */
export function EnvironmentActions({ cluster, onChanged }: { cluster: Cluster; onChanged: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(cluster.name);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const clusters = useApi(renaming ? '/clusters' : null);
  const problem = nameProblem(name, (clusters.data ?? []).filter((c) => c.id !== cluster.id).map((c) => c.name));
  const nodes = cluster.nodes ?? 0;

  const act = async (question: string, work: () => Promise<string | null>) => {
    if (question && !window.confirm(question)) return;
    setError(null);
    setDone(null);
    try {
      const message = await work();
      if (message) setDone(message);
    } catch (e) {
      setError(e);
    }
  };
  const rename = () =>
    act('', async () => {
      await call('patch', '/clusters/{id}', { params: { id: cluster.id }, body: { name } });
      setRenaming(false);
      onChanged();
      return `Renamed to ${name}.`;
    });
  const reset = () =>
    act(
      `Reset ${cluster.name} to undeployed? Its ${nodes} node${nodes === 1 ? '' : 's'} keep their roles as pending roles, to be installed again by the next deployment; what was deployed is forgotten (plugins it was deployed with can be disabled again). Past deployments stay in the history.`,
      async () => {
        await call('post', '/clusters/{id}/reset', { params: { id: cluster.id } });
        onChanged();
        return `${cluster.name} is reset: nothing is deployed, and every role is pending.`;
      },
    );
  const [deletion, setDeletion] = useState<{ chosen: NodeView[]; deployed: NodeView[] } | null>(null);
  const remove = async () => {
    // Nodes deployed on real hosts: clean them first (the deletion graph) or forget them, as chosen.
    const list = await call('get', '/clusters/{id}/nodes', { params: { id: cluster.id } }).catch(() => []);
    const deployed = list.filter((n) => n.roles.length > 0 && !n.simulated);
    if (deployed.length) return setDeletion({ chosen: list, deployed });
    return act(`Delete ${cluster.name}? The environment, its settings and its deployment history are removed; its ${nodes} node${nodes === 1 ? '' : 's'} return to the pool of unassigned nodes. This cannot be undone.`, async () => {
      await call('delete', '/clusters/{id}', { params: { id: cluster.id } });
      go('/');
      return null;
    });
  };
  const removeWith = (clean: boolean) => {
    setDeletion(null);
    void act('', async () => {
      const res = await call('delete', '/clusters/{id}', { params: { id: cluster.id }, query: { clean } });
      if (!res) {
        go('/');
        return null;
      }
      onChanged();
      return `${res.message.charAt(0).toUpperCase()}${res.message.slice(1)}.`;
    });
  };

  return (
    <div className="env-actions">
      {renaming ? (
        <form
          className="form rename"
          onSubmit={(e) => {
            e.preventDefault();
            if (!problem) void rename();
          }}
        >
          <NameField id="env-rename" label="New name" value={name} onChange={setName} problem={problem} touched />
          <span />
          <span>
            <button type="submit" className="primary" disabled={problem !== null || name === cluster.name}>
              Rename
            </button>{' '}
            <button type="button" onClick={() => (setRenaming(false), setName(cluster.name))}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <div className="title-row">
          <button type="button" onClick={() => setRenaming(true)}>
            Rename…
          </button>
          <button type="button" disabled={cluster.status === 'new' || cluster.status === 'deploying'} title={cluster.status === 'new' ? 'Nothing is deployed yet' : undefined} onClick={() => void reset()}>
            Reset to undeployed…
          </button>
          <button type="button" className="danger" disabled={cluster.status === 'deploying' || cluster.status === 'removing'} onClick={() => void remove()}>
            Delete environment…
          </button>
        </div>
      )}
      {deletion && <RemovalChoice environment cluster={cluster.name} chosen={deletion.chosen} deployed={deletion.deployed} onChoose={removeWith} onCancel={() => setDeletion(null)} />}
      {done && <p role="status">{done}</p>}
      <Problems error={error} title="The environment was not changed" />
    </div>
  );
}
