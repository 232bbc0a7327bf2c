import { useMemo, useState } from 'react';
import { token } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { keyOf, schedule, type GraphTask } from './schedule.js';
import { readGraph } from './graphJson.js';
import { AXIS, LABEL, MIN_SPAN_S, ROW, download, pictureSvg, svgToPng, ticks, type Picture } from './picture.js';
import { CriticalPath } from './CriticalPath.js';
import { estimateWords, placedByEstimate, plural } from './estimate.js';
import { RunOrder } from './RunOrder.js';

/**
 * The deployment graph as a picture: one row per node (by name, with its roles), each task a bar
 * placed by its earliest start on a time axis, the critical path in red and explained. Only the
 * rows in view are drawn, so 100 nodes stay smooth; exports draw them all.
 */
export function GraphTab({ cluster }: { cluster: Cluster }) {
  const [type, setType] = useState('default');
  const graph = useApi('/clusters/{id}/graphs/{type}', { params: { id: cluster.id, type }, query: { format: 'json' } });
  const nodes = useApi('/clusters/{id}/nodes', { params: { id: cluster.id } });
  // The graph types the environment has (its release's and its plugins'), not a fixed list.
  const types = useApi('/clusters/{id}/graphs', { params: { id: cluster.id } });
  // How long it takes from past runs, and the order the runner starts tasks in (not needed to draw).
  const estimate = useApi('/clusters/{id}/graphs/{type}/estimate', { params: { id: cluster.id, type } });
  const [zoom, setZoom] = useState(1);
  const [search, setSearch] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);

  // The estimate's critical path (from past runs) can differ from the graph's own (from timeouts):
  // the picture waits for the estimate's answer, so the path a person clicks does not change under them.
  const estimateSettled = !!estimate.data || !!estimate.error || !estimate.loading;
  const model = useMemo<(Picture & { findings: Array<{ message: string }>; path: Picture['placed'] }) | null>(() => {
    if (!graph.data || !estimateSettled) return null;
    const read = readGraph(graph.data);
    const { findings, roles } = read;
    const e = estimate.data;
    const tasks = placedByEstimate(read.tasks, e);
    const critical = e ? e.critical_path : read.critical;
    const { placed, makespan } = schedule(tasks as GraphTask[]);
    const names = new Map((nodes.data ?? []).map((n) => [String(n.id), n.name]));
    const label = (id: string) => {
      if (id === 'master' || id === 'sync') return `${id} (Hearth)`;
      const r = roles.get(id) ?? [];
      return `${names.get(id) ?? `node ${id}`}${r.length ? ` · ${r.join(', ')}` : ''}`;
    };
    const ids = [...new Set(placed.map((p) => p.node))].sort((a, b) => (a === 'master' || a === 'sync' ? -1 : b === 'master' || b === 'sync' ? 1 : label(a).localeCompare(label(b), undefined, { numeric: true })));
    const criticalKeys = new Set(critical.map((c) => keyOf(c.node, c.task)));
    const byKey = new Map(placed.map((p) => [p.key, p]));
    const path = critical.map((c) => byKey.get(keyOf(c.node, c.task))).filter((p): p is NonNullable<typeof p> => p !== undefined);
    return { placed, makespan, nodes: ids, rows: new Map(ids.map((n, i) => [n, i])), critical: criticalKeys, label, findings, path };
  }, [graph.data, nodes.data, estimate.data, estimateSettled]);

  if ((graph.loading && !graph.data) || (graph.data && !estimateSettled)) return <p aria-busy="true">Building the graph…</p>;
  if (graph.error) return <Problems error={graph.error} title="The graph cannot be built" />;
  if (!model) return null;
  // The run spans 800 px at zoom 1, beside the labels within the page's width, however short
  // (down to MIN_SPAN_S): a 9 s run was 9 px wide.
  const span = Math.max(MIN_SPAN_S, model.makespan);
  const scale = (zoom * 800) / span;
  const width = LABEL + span * scale + 40;
  const height = AXIS + model.nodes.length * ROW + 10;
  // As tall as the rows need, up to a screenful (then it scrolls); room for a horizontal scrollbar.
  const viewHeight = Math.min(520, height + 20);
  const firstRow = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const lastRow = Math.min(model.nodes.length, firstRow + Math.ceil(viewHeight / ROW) + 10);
  const needle = search.trim().toLowerCase();
  const matches = needle ? model.placed.filter((p) => p.task.toLowerCase().includes(needle)) : [];
  const visible = model.placed.filter((p) => {
    const r = model.rows.get(p.node)!;
    return r >= firstRow && r < lastRow;
  });
  const sel = selected ? model.placed.find((p) => p.key === selected) : undefined;
  const base = `${cluster.name}-${type}-graph`.replace(/[^A-Za-z0-9_.-]+/g, '-');

  // DOT and Mermaid come from the server (the CLI's own formats); SVG and PNG are this picture, whole.
  const exportAs = async (format: 'dot' | 'mermaid' | 'svg' | 'png') => {
    setExportError(null);
    try {
      if (format === 'dot' || format === 'mermaid') {
        const response = await fetch(`/api/v1/clusters/${cluster.id}/graphs/${type}?format=${format}`, { headers: token() ? { authorization: `Bearer ${token()}` } : {} });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        download(`${base}.${format === 'dot' ? 'dot' : 'mmd'}`, await response.text());
        return;
      }
      const svg = pictureSvg(model, scale, `Deployment graph of ${cluster.name} (${type})`);
      if (format === 'svg') download(`${base}.svg`, svg, 'image/svg+xml');
      else download(`${base}.png`, await svgToPng(svg));
    } catch (e) {
      setExportError(e);
    }
  };
  return (
    <div className="graph">
      <div className="title-row">
        <label htmlFor="graph-type">Graph</label>
        <select id="graph-type" value={type} onChange={(e) => setType(e.target.value)}>
          {(types.data?.map((g) => g.type) ?? ['default']).map((t) => (
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
      <div className="title-row exports" role="group" aria-label="Export the graph">
        <span className="muted">Export:</span>
        {(['dot', 'mermaid', 'svg', 'png'] as const).map((f) => (
          <button key={f} type="button" onClick={() => void exportAs(f)}>
            {f === 'dot' ? 'DOT' : f === 'mermaid' ? 'Mermaid' : f.toUpperCase()}
          </button>
        ))}
      </div>
      <Problems error={exportError} title="The export did not work" />
      <p className="muted" data-testid="graph-summary">
        {plural(model.nodes.length, 'node')}, {plural(model.placed.length, 'task')}, estimated <span data-testid="graph-estimate">{estimate.data ? estimateWords(estimate.data) : `at most ${Math.round(model.makespan / 60)} min (from the tasks' timeouts)`}</span>; critical path: {plural(model.critical.size, 'task')} (in red).
      </p>
      <p className="legend" aria-label="Legend">
        <span className="swatch task" /> a task <span className="swatch critical" /> on the critical path <span className="swatch hit" /> matches the search <span className="swatch selected" /> selected
      </p>
      <p className="muted legend-note">Bars run from a task's start, in the order the runner starts them, for its median time in past runs (its timeout where it never ran).</p>
      <div className="graph-view" style={{ height: viewHeight }} onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}>
        <svg width={width} height={height} role="img" aria-label={`Deployment graph of ${model.nodes.length} nodes`}>
          <g className="axis" aria-hidden="true">
            {ticks(model.makespan).map((t) => (
              <g key={t.at}>
                <line x1={LABEL + t.at * scale} y1={AXIS - 6} x2={LABEL + t.at * scale} y2={height} />
                <text x={LABEL + t.at * scale + 2} y={AXIS - 10}>
                  {t.label}
                </text>
              </g>
            ))}
          </g>
          {model.nodes.slice(firstRow, lastRow).map((n, i) => (
            <text key={n} x={4} y={AXIS + (firstRow + i) * ROW + 15} className="node-label">
              {model.label(n)}
            </text>
          ))}
          {visible.map((p) => {
            const y = AXIS + model.rows.get(p.node)! * ROW + 3;
            const hit = needle && p.task.toLowerCase().includes(needle);
            const cls = ['bar', model.critical.has(p.key) ? 'critical' : '', hit ? 'hit' : '', needle && !hit ? 'dim' : '', p.key === selected ? 'selected' : ''].join(' ');
            return (
              <rect key={p.key} className={cls} x={LABEL + p.start * scale} y={y} width={Math.max(2, p.duration * scale)} height={ROW - 6} onClick={() => setSelected(p.key)}>
                <title>{`${p.task} on ${model.label(p.node)}: ${Math.round(p.start)}–${Math.round(p.end)} s`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      {sel && (
        <div className="task-detail" role="region" aria-label="Selected task">
          <strong>{sel.task}</strong> on {model.label(sel.node)} ({sel.type ?? 'task'}), {Math.round(sel.start)}–{Math.round(sel.end)} s{model.critical.has(sel.key) ? ', on the critical path' : ''}. Waits for:{' '}
          {sel.deps.length ? sel.deps.map((d) => `${d.task} on ${d.node === 'all' ? 'every node of a role' : model.label(d.node)}`).join(', ') : 'nothing'}
        </div>
      )}
      <CriticalPath path={model.path} label={model.label} makespan={model.makespan} onSelect={setSelected} measured={estimate.data !== undefined} />
      {estimate.data && <RunOrder estimate={estimate.data} label={model.label} onSelect={setSelected} />}
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
