import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import { nodeLabel, nodeMeaning } from '../components/states.js';

const PAGE = 60;

/**
 * Nodes in no environment: hosts registered without one (`hearth node add` without `--env`) and
 * nodes removed from an environment. They join this one from here; a real host cannot be added
 * again by its address while Hearth knows it, so this is the way back. "Forget" removes them
 * from Hearth.
 */
export function NodePool({ clusterId, clusterName, version, onChanged }: { clusterId: string | number; clusterName: string; version: number; onChanged: () => void }) {
  const pool = useApi('/nodes', { query: { unassigned: true } });
  const { reload } = pool;
  // The environment's nodes changed (one removed from it lands here).
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  // Thousands of simulated nodes may wait here; a page of them is drawn at a time.
  const [shown, setShown] = useState(PAGE);
  const list = pool.data ?? [];
  if (list.length === 0) return <Problems error={pool.error} title="Cannot list the nodes in no environment" />;
  const picked = list.filter((n) => chosen.has(Number(n.id)));
  const names = picked.slice(0, 8).map((n) => n.name).join(', ') + (picked.length > 8 ? ` and ${picked.length - 8} more` : '');

  const act = async (work: () => Promise<void>, said: string) => {
    setError(null);
    setDone(null);
    try {
      await work();
      setChosen(new Set());
      setDone(said);
    } catch (e) {
      setError(e);
    } finally {
      pool.reload();
      onChanged();
    }
  };
  const join = () => act(async () => void (await call('post', '/clusters/{id}/nodes', { params: { id: Number(clusterId) }, body: { assignments: picked.map((n) => ({ node_id: Number(n.id), roles: [] })) } })), `Added ${names} to ${clusterName}.`);
  const forget = () => {
    if (!window.confirm(`Forget ${names}? Hearth removes ${picked.length === 1 ? 'it' : 'them'} with ${picked.length === 1 ? 'its' : 'their'} facts and recorded host key; nothing is done on the hosts. A real host can be added again by its address.`)) return;
    void act(async () => {
      for (const n of picked) await call('delete', '/nodes/{id}', { params: { id: n.id } });
    }, `Forgot ${names}.`);
  };

  return (
    <fieldset className="group node-pool">
      <legend>Nodes in no environment ({list.length})</legend>
      <ul className="pool">
        {list.slice(0, shown).map((n) => (
          <li key={n.id} data-node={n.name}>
            <label>
              <input
                type="checkbox"
                checked={chosen.has(Number(n.id))}
                onChange={(e) =>
                  setChosen((s) => {
                    const next = new Set(s);
                    if (e.target.checked) next.add(Number(n.id));
                    else next.delete(Number(n.id));
                    return next;
                  })
                }
              />{' '}
              {n.name}
            </label>
            {n.simulated === false ? <span className="muted address"> {n.address}</span> : <span className="badge">simulated</span>}
            <span className="muted" title={nodeMeaning(n.status)}> {nodeLabel(n.status)}</span>
          </li>
        ))}
      </ul>
      {list.length > shown && (
        <button type="button" className="link" onClick={() => setShown(shown + PAGE * 5)}>
          Show more ({list.length - shown} more)
        </button>
      )}
      <div className="title-row">
        <button type="button" disabled={picked.length === 0} onClick={() => void join()}>
          Add selected to {clusterName}
        </button>
        <button type="button" className="danger" disabled={picked.length === 0} onClick={forget}>
          Forget selected
        </button>
        {done && (
          <span role="status" className="good">
            {done}
          </span>
        )}
      </div>
      <Problems error={error} />
    </fieldset>
  );
}
