import { useEffect, useState } from 'react';
import { api } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster, Node, Role } from '../types.js';
import { Problems } from '../components/Problems.js';

interface Check {
  ok: boolean;
  findings: Array<{ code: string; severity: string; message: string }>;
}

/** Add simulated nodes, choose their roles, and see what the role rules say before saving. */
export function NodesTab({ cluster }: { cluster: Cluster }) {
  const nodes = useApi<Node[]>(`/clusters/${cluster.id}/nodes`);
  const roles = useApi<Role[]>(`/clusters/${cluster.id}/roles`);
  const [draft, setDraft] = useState<Record<string, string[]>>({});
  const [check, setCheck] = useState<Check | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [count, setCount] = useState(1);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    const next: Record<string, string[]> = {};
    for (const n of nodes.data ?? []) next[String(n.id)] = [...new Set([...n.roles, ...n.pending_roles])];
    setDraft(next);
  }, [nodes.data]);

  const assignment = () => Object.entries(draft).map(([node_id, roles]) => ({ node_id: Number(node_id), roles }));

  // Every change is checked by the server's role rules at once, so problems show before saving.
  useEffect(() => {
    if (!nodes.data || nodes.data.length === 0) return;
    let live = true;
    api<Check>('POST', `/clusters/${cluster.id}/nodes?dry_run=true`, { assignments: assignment() }).then(
      (c) => live && setCheck(c),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [draft]);

  const addNodes = async () => {
    setError(null);
    try {
      // New simulated nodes join this environment with no roles yet; the server names them (`node-<id>`, unique).
      const { ids } = await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count } });
      await api('POST', `/clusters/${cluster.id}/nodes`, { assignments: ids.map((id) => ({ node_id: id, roles: [] })) });
      nodes.reload();
    } catch (e) {
      setError(e);
    }
  };

  const save = async () => {
    setError(null);
    setSaved(false);
    try {
      await api('POST', `/clusters/${cluster.id}/nodes`, { assignments: assignment() });
      setSaved(true);
      nodes.reload();
    } catch (e) {
      setError(e);
    }
  };

  const toggle = (nodeId: string, role: string) => {
    setSaved(false);
    setDraft((d) => {
      const cur = d[nodeId] ?? [];
      return { ...d, [nodeId]: cur.includes(role) ? cur.filter((r) => r !== role) : [...cur, role] };
    });
  };

  if (nodes.loading && !nodes.data) return <p aria-busy="true">Loading nodes…</p>;
  const roleList = roles.data ?? [];
  const problems = (check?.findings ?? []).filter((f) => f.severity === 'error');
  const notes = (check?.findings ?? []).filter((f) => f.severity !== 'error');
  return (
    <div className="nodes">
      <div className="title-row">
        <label htmlFor="node-count">Simulated nodes to add</label>
        <input id="node-count" type="number" min={1} max={1000} value={count} onChange={(e) => setCount(Math.max(1, Number(e.target.value) || 1))} />
        <button type="button" onClick={addNodes}>
          Add nodes
        </button>
      </div>
      <Problems error={error || nodes.error || roles.error} />
      {(nodes.data ?? []).length === 0 ? (
        <p>No nodes in this environment yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="roles-table">
            <caption>Roles per node</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                {roleList.map((r) => (
                  <th scope="col" key={r.name} title={r.description}>
                    {r.label ?? r.name}
                    {r.source && r.source !== 'release' && <span className="badge">{r.source}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(nodes.data ?? []).map((n) => (
                <tr key={n.id}>
                  <th scope="row">
                    {n.name}
                    {n.roles.length > 0 && <span className="muted"> deployed: {n.roles.join(', ')}</span>}
                  </th>
                  {roleList.map((r) => {
                    // A deployed role leaves a node only through the deletion graph (removing the node).
                    const deployed = n.roles.includes(r.name);
                    const why = deployed ? `deployed-${n.id}-${r.name}` : undefined;
                    return (
                      <td key={r.name}>
                        <input
                          type="checkbox"
                          aria-label={`${r.name} on ${n.name}`}
                          checked={(draft[String(n.id)] ?? []).includes(r.name)}
                          aria-disabled={deployed || undefined}
                          aria-describedby={why}
                          onClick={(e) => {
                            if (deployed) e.preventDefault();
                          }}
                          onChange={() => {
                            if (!deployed) toggle(String(n.id), r.name);
                          }}
                        />
                        {why && (
                          <span id={why} className="sr-only">
                            {r.name} is deployed on {n.name}: it is removed only by removing the node from the environment (the deletion graph runs then).
                          </span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div aria-live="polite">
        {problems.length > 0 && (
          <div className="problems" role="alert">
            <strong>These roles cannot be saved as they are</strong>
            <ul>
              {problems.map((f, i) => (
                <li key={i} data-code={f.code}>
                  {f.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {notes.length > 0 && (
          <ul className="notes">
            {notes.map((f, i) => (
              <li key={i}>{f.message}</li>
            ))}
          </ul>
        )}
        {saved && <p role="status">Saved.</p>}
      </div>
      <div className="actions">
        <button type="button" className="primary" disabled={problems.length > 0} onClick={save}>
          Save roles
        </button>
      </div>
    </div>
  );
}
