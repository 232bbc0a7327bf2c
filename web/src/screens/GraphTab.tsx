import { useMemo, useRef, useState } from 'react';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { keyOf, schedule, type GraphTask } from '../components/schedule.js';
import { readGraph, type GraphJson } from '../components/graphJson.js';

const ROW = 22;
const LABEL = 160;

/**
 * The deployment graph as a picture: one row per node, each task a bar placed by its earliest start,
 * the critical path highlighted. Only the rows in view are drawn, so 100 nodes stay smooth.
 */
export function GraphTab({ cluster }: { cluster: Cluster }) {
  const [type, setType] = useState('default');
  const graph = useApi<GraphJson>(`/clusters/${cluster.id}/graphs/${type}?format=json`);
  const [zoom, setZoom] = useState(1);
  const [search, setSearch] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const model = useMemo(() => {
    if (!graph.data) return null;
    const { tasks, critical, findings } = readGraph(graph.data);
    const { placed, makespan } = schedule(tasks as GraphTask[]);
    const nodes = [...new Set(placed.map((p) => p.node))].sort((a, b) => (a === 'master' ? -1 : b === 'master' ? 1 : a.localeCompare(b, undefined, { numeric: true })));
    const rows = new Map(nodes.map((n, i) => [n, i]));
    return { placed, makespan, nodes, rows, critical: new Set(critical.map((c) => keyOf(c.node, c.task))), findings };
  }, [graph.data]);

  if (graph.loading && !graph.data) return <p aria-busy="true">Building the graph…</p>;
  if (graph.error) return <Problems error={graph.error} title="The graph cannot be built" />;
  if (!model) return null;
  const pxPerSecond = (0.25 * zoom * 1000) / Math.max(1000, model.makespan);
  const width = LABEL + model.makespan * pxPerSecond * 4 + 40;
  const height = model.nodes.length * ROW + 30;
  const viewHeight = 520;
  const firstRow = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const lastRow = Math.min(model.nodes.length, firstRow + Math.ceil(viewHeight / ROW) + 10);
  const needle = search.trim().toLowerCase();
  const matches = needle ? model.placed.filter((p) => p.task.toLowerCase().includes(needle)) : [];
  const visible = model.placed.filter((p) => {
    const r = model.rows.get(p.node)!;
    return r >= firstRow && r < lastRow;
  });
  const sel = selected ? model.placed.find((p) => p.key === selected) : undefined;
  const scale = pxPerSecond * 4;
  return (
    <div className="graph">
      <div className="title-row">
        <label htmlFor="graph-type">Graph</label>
        <select id="graph-type" value={type} onChange={(e) => setType(e.target.value)}>
          {['default', 'provisioning', 'deletion', 'network_verification'].map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <button type="button" aria-label="Zoom out" onClick={() => setZoom((z) => Math.max(0.25, z / 1.5))}>
          −
        </button>
        <button type="button" aria-label="Zoom in" onClick={() => setZoom((z) => Math.min(40, z * 1.5))}>
          +
        </button>
        <label htmlFor="graph-search">Find task</label>
        <input id="graph-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="e.g. keystone" />
        {needle && <span role="status">{matches.length} matching tasks</span>}
      </div>
      <p className="muted" data-testid="graph-summary">
        {model.nodes.length} nodes, {model.placed.length} tasks, estimated {Math.round(model.makespan / 60)} min; critical path: {model.critical.size} tasks (in red).
      </p>
      <div className="graph-view" ref={box} style={{ height: viewHeight }} onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}>
        <svg width={width} height={height} role="img" aria-label={`Deployment graph of ${model.nodes.length} nodes`}>
          {model.nodes.slice(firstRow, lastRow).map((n, i) => (
            <text key={n} x={4} y={(firstRow + i) * ROW + 15} className="node-label">
              {n}
            </text>
          ))}
          {visible.map((p) => {
            const y = model.rows.get(p.node)! * ROW + 3;
            const hit = needle && p.task.toLowerCase().includes(needle);
            const cls = ['bar', model.critical.has(p.key) ? 'critical' : '', hit ? 'hit' : '', needle && !hit ? 'dim' : '', p.key === selected ? 'selected' : ''].join(' ');
            return (
              <rect key={p.key} className={cls} x={LABEL + p.start * scale} y={y} width={Math.max(2, p.duration * scale)} height={ROW - 6} onClick={() => setSelected(p.key)}>
                <title>{`${p.task} on ${p.node}: ${Math.round(p.start)}–${Math.round(p.end)} s`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      {sel && (
        <div className="task-detail" role="region" aria-label="Selected task">
          <strong>{sel.task}</strong> on {sel.node} ({sel.type ?? 'task'}), {Math.round(sel.start)}–{Math.round(sel.end)} s. Waits for:{' '}
          {sel.deps.length ? sel.deps.map((d) => `${d.task}@${d.node}`).join(', ') : 'nothing'}
        </div>
      )}
      {model.findings.length > 0 && (
        <ul className="notes">
          {model.findings.map((f, i) => (
            <li key={i}>{f.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
