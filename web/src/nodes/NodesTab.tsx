import { useEffect, useMemo, useState } from 'react';
import { ApiError, call } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { NodeTable } from './NodeTable.js';
import { AddRealNode } from './AddRealNode.js';
import { NodeDetails } from './NodeDetails.js';
import { DiskFlags } from './DiskFlags.js';
import { NodePool } from './NodePool.js';
import type { NodeView as Node } from './realNode.js';
import { RolesPanel } from './RolesPanel.js';
import { RemovalChoice } from './RemovalChoice.js';
import { isRecommendation, rankFindings, restrictionReason, type Finding } from './roleRules.js';

type SortKey = 'name' | 'role' | 'status';

/**
 * Nodes of an environment: add real hosts by address (or simulated nodes to plan with), see one
 * node's facts, find them (filter, sort), choose roles one by one or for many nodes at once, see
 * what the role rules say before saving, and remove nodes.
 */
export function NodesTab({ cluster }: { cluster: Cluster }) {
  const nodes = useApi('/clusters/{id}/nodes', { params: { id: cluster.id } });
  const roles = useApi('/clusters/{id}/roles', { params: { id: cluster.id } });
  const attributes = useApi('/clusters/{id}/attributes', { params: { id: cluster.id } });
  const [draft, setDraft] = useState<Record<string, string[]>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [check, setCheck] = useState<{ ok: boolean; findings: Finding[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [count, setCount] = useState(1);
  const [saved, setSaved] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [roleFilter, setRoleFilter] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [open, setOpen] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const next: Record<string, string[]> = {};
    for (const n of nodes.data ?? []) next[String(n.id)] = [...new Set([...n.roles, ...n.pending_roles])];
    setDraft(next);
    setSelected((s) => new Set([...s].filter((id) => id in next)));
  }, [nodes.data]);

  const assignment = () => Object.entries(draft).map(([node_id, r]) => ({ node_id: Number(node_id), roles: r }));

  // Every change is checked by the server's role rules at once, so problems show before saving.
  useEffect(() => {
    if (!nodes.data || nodes.data.length === 0) return;
    let live = true;
    call('post', '/clusters/{id}/nodes', { params: { id: cluster.id }, query: { dry_run: true }, body: { assignments: assignment() } }).then(
      // With dry_run the answer is the verdict (ok and findings), never the node list.
      (c) => live && setCheck('ok' in c ? c : null),
      // During a run (a node's deletion graph too) roles are locked: not an error of this page.
      (e) => live && !(e instanceof ApiError && e.code === 'cluster/deploying') && setError(e),
    );
    return () => {
      live = false;
    };
  }, [draft]);

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const list = (nodes.data ?? []).filter((n) => {
      const held = draft[String(n.id)] ?? [];
      if (roleFilter === '(none)' ? held.length > 0 : roleFilter && !held.includes(roleFilter)) return false;
      return !needle || n.name.toLowerCase().includes(needle) || held.some((r) => r.includes(needle)) || (n.status ?? '').includes(needle);
    });
    const keyOf = (n: Node) => (sort === 'name' ? n.name : sort === 'status' ? `${n.status ?? ''} ${n.name}` : `${(draft[String(n.id)] ?? []).slice().sort().join(',') || '~'} ${n.name}`);
    return list.sort((a, b) => keyOf(a).localeCompare(keyOf(b), undefined, { numeric: true }));
  }, [nodes.data, draft, filter, roleFilter, sort]);

  const run = async (work: () => Promise<string>) => {
    setError(null);
    setSaved(null);
    try {
      setSaved(await work());
      nodes.reload();
      setVersion((v) => v + 1);
    } catch (e) {
      setError(e);
    }
  };
  const addNodes = () =>
    run(async () => {
      // New simulated nodes join this environment with no roles yet; the server names them (`node-<id>`, unique).
      const { ids } = await call('post', '/nodes', { body: { simulate: { count } } });
      await call('post', '/clusters/{id}/nodes', { params: { id: cluster.id }, body: { assignments: ids.map((id) => ({ node_id: id, roles: [] })) } });
      return `Added ${ids.length} node${ids.length === 1 ? '' : 's'}.`;
    });
  const save = () =>
    run(async () => {
      await call('post', '/clusters/{id}/nodes', { params: { id: cluster.id }, body: { assignments: assignment() } });
      return 'Saved.';
    });
  const [removal, setRemoval] = useState<{ chosen: Node[]; deployed: Node[] } | null>(null);
  const removeSelected = () => {
    const chosen = (nodes.data ?? []).filter((n) => selected.has(String(n.id)));
    // Deployed on a real host: the deletion graph cleans it first, unless the operator says not to.
    const deployed = chosen.filter((n) => n.roles.length > 0 && !n.simulated);
    if (deployed.length) return setRemoval({ chosen, deployed });
    const text = `Remove ${chosen.length} node${chosen.length === 1 ? '' : 's'} (${chosen.map((n) => n.name).join(', ')}) from ${cluster.name}? They return to the pool of unassigned nodes.`;
    if (window.confirm(text)) remove(chosen, true);
  };
  const remove = (chosen: Node[], clean: boolean) => {
    setRemoval(null);
    void run(async () => {
      const res = await call('delete', '/clusters/{id}/nodes', { params: { id: cluster.id }, body: { node_ids: chosen.map((n) => n.id), clean } });
      setSelected(new Set());
      return `${res.message.charAt(0).toUpperCase()}${res.message.slice(1)}.${res.deployment ? ' Its output is on the Deploy tab.' : ''}`;
    });
  };
  // Nodes being cleaned leave when their deletion run ends: look again until none is removing.
  const removingNodes = (nodes.data ?? []).filter((n) => n.status === 'removing');
  const removing = removingNodes.length > 0;
  useEffect(() => {
    if (!removing) return;
    const t = setInterval(() => nodes.reload(), 2000);
    return () => {
      clearInterval(t);
      setVersion((v) => v + 1);
    };
  }, [removing]);

  const setRole = (role: string, on: boolean) => {
    setSaved(null);
    setDraft((d) => {
      const next = { ...d };
      for (const n of nodes.data ?? []) {
        const key = String(n.id);
        if (!selected.has(key)) continue;
        const cur = next[key] ?? [];
        if (on && !cur.includes(role)) next[key] = [...cur, role];
        // A deployed role stays: it leaves only with the node.
        if (!on && !n.roles.includes(role)) next[key] = cur.filter((r) => r !== role);
      }
      return next;
    });
  };
  const toggle = (nodeId: string, role: string) => {
    setSaved(null);
    setDraft((d) => {
      const cur = d[nodeId] ?? [];
      return { ...d, [nodeId]: cur.includes(role) ? cur.filter((r) => r !== role) : [...cur, role] };
    });
  };
  const select = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  if (nodes.loading && !nodes.data) return <p aria-busy="true">Loading nodes…</p>;
  const roleList = roles.data ?? [];
  // Roles the settings rule out (a role's restrictions), disabled before any click.
  const context = { settings: attributes.data?.editable ?? {}, cluster: { name: cluster.name, status: cluster.status ?? 'new' } };
  const restricted = new Map(roleList.map((r) => [r.name, attributes.data ? restrictionReason(r, context) : null] as const).filter((e): e is readonly [string, string] => e[1] !== null));
  const ranked = rankFindings(check?.findings ?? []);
  const problems = ranked.filter((f) => f.severity === 'error');
  const notes = ranked.filter((f) => f.severity !== 'error');
  const bare = (nodes.data ?? []).filter((n) => (draft[String(n.id)] ?? []).length === 0);
  return (
    <div className="nodes">
      <AddRealNode
        clusterId={cluster.id}
        onAdded={(n) => {
          setOpen(String(n.id));
          nodes.reload();
        }}
      />
      <div className="title-row">
        <label htmlFor="node-count">Simulated nodes to add</label>
        <input id="node-count" type="number" min={1} max={1000} value={count} onChange={(e) => setCount(Math.min(1000, Math.max(1, Number(e.target.value) || 1)))} />
        <button type="button" onClick={() => void addNodes()}>
          Add nodes
        </button>
        <span className="note">for planning and dry runs: nothing to connect to</span>
      </div>
      <NodePool clusterId={cluster.id} clusterName={cluster.name} version={version} onChanged={nodes.reload} />
      <Problems error={error || nodes.error || roles.error} />
      {open !== null && <NodeDetails key={open} id={open} onClose={() => setOpen(null)} onChanged={nodes.reload} />}
      <DiskFlags nodes={nodes.data} onOpen={(id) => setOpen(id)} />
      {(nodes.data ?? []).length === 0 ? (
        <p>No nodes in this environment yet: add a real host by its address, or simulated nodes to plan with.</p>
      ) : (
        <>
          <RolesPanel roles={roleList} restricted={restricted} selected={(nodes.data ?? []).filter((n) => selected.has(String(n.id)))} draft={draft} onSet={setRole} />
          <div className="title-row filters">
            <label htmlFor="node-filter">Find</label>
            <input id="node-filter" type="search" value={filter} placeholder="name, role or status" onChange={(e) => setFilter(e.target.value)} />
            <label htmlFor="node-role-filter">Role</label>
            <select id="node-role-filter" value={roleFilter} onChange={(e) => setRoleFilter(e.target.value)}>
              <option value="">any</option>
              <option value="(none)">no role</option>
              {roleList.map((r) => (
                <option key={r.name} value={r.name}>
                  {r.label ?? r.name}
                </option>
              ))}
            </select>
            <label htmlFor="node-sort">Sort by</label>
            <select id="node-sort" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
              <option value="name">name</option>
              <option value="role">role</option>
              <option value="status">status</option>
            </select>
            <span role="status" className="muted">
              {shown.length} of {(nodes.data ?? []).length} nodes shown
            </span>
            <button type="button" disabled={selected.size === 0} onClick={removeSelected}>
              Remove selected from the environment
            </button>
          </div>
          {removal && <RemovalChoice cluster={cluster.name} chosen={removal.chosen} deployed={removal.deployed} onChoose={(clean) => remove(removal.chosen, clean)} onCancel={() => setRemoval(null)} />}
          <NodeTable nodes={shown} roles={roleList} restricted={restricted} draft={draft} selected={selected} onSelect={select} onToggle={toggle} onOpen={(id) => setOpen(id)} />
        </>
      )}
      <div aria-live="polite">
        {removingNodes.length > 0 && (
          <p className="notice" data-testid="removing">
            Removing {removingNodes.map((n) => n.name).join(', ')}: the deletion graph runs on {removingNodes.length === 1 ? 'it' : 'them'}; {removingNodes.length === 1 ? 'it leaves' : 'each leaves'} the environment when that succeeded. Its output is on the Deploy tab.
          </p>
        )}
        {bare.length > 0 && (
          <p className="warn-note" data-testid="no-roles">
            {bare.length} node{bare.length === 1 ? ' has' : 's have'} no role and will not be deployed: {bare.slice(0, 8).map((n) => n.name).join(', ')}
            {bare.length > 8 ? ` and ${bare.length - 8} more` : ''}.
          </p>
        )}
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
          <ul className="notes" aria-label="Before deploying">
            {notes.map((f, i) => (
              <li key={i} data-severity={f.severity} data-code={f.code}>
                <span className={isRecommendation(f) ? 'badge' : 'badge warn'}>{isRecommendation(f) ? 'recommended' : 'needed to deploy'}</span> {f.message}
              </li>
            ))}
          </ul>
        )}
        {saved && <p role="status">{saved}</p>}
      </div>
      <div className="actions">
        <button type="button" className="primary" disabled={problems.length > 0} onClick={() => void save()}>
          Save roles
        </button>
      </div>
    </div>
  );
}
