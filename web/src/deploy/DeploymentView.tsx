import { useMemo, useState } from 'react';
import { byFailuresFirst, formatSeconds, liveKey, seconds, STATUS_WORDS, taskSeconds, type Deployment, type TaskRun } from './model.js';
import { TaskOutput } from './TaskOutput.js';

const PAGE = 200;

/**
 * One deployment as it runs or ran: overall progress, progress per node (by name), and every task
 * with its status, exit status, attempts, times and output (streamed while it runs), failures first.
 */
export function DeploymentView({ deployment, nodeName, live = {} }: { deployment: Deployment; nodeName: (id: string) => string; live?: Record<string, string> }) {
  const [nodeFilter, setNodeFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const tasks = deployment.tasks ?? [];

  const perNode = useMemo(() => {
    const map = new Map<string, TaskRun[]>();
    for (const t of tasks) map.set(t.node, [...(map.get(t.node) ?? []), t]);
    return [...map.entries()].sort((a, b) => nodeName(a[0]).localeCompare(nodeName(b[0]), undefined, { numeric: true }));
  }, [tasks, nodeName]);
  const shown = useMemo(() => tasks.filter((t) => (!nodeFilter || t.node === nodeFilter) && (!statusFilter || t.status === statusFilter)).sort(byFailuresFirst), [tasks, nodeFilter, statusFilter]);
  const failed = tasks.filter((t) => t.status === 'error').length;
  const took = seconds(deployment.started_at, deployment.finished_at);
  const dryRun = deployment.mode === 'dry-run' || deployment.mode === undefined;

  return (
    <div aria-live="polite" className="deployment">
      <p role="status" data-status={deployment.status} data-mode={dryRun ? 'dry-run' : 'real'}>
        {dryRun ? 'Dry run' : 'Deployment'} {deployment.id} {deployment.status}
        {dryRun ? ' (a simulation: nothing is installed on machines)' : ' (real, over SSH on the hosts)'} — {deployment.done} of {deployment.total} tasks done
        {failed ? `, ${failed} failed` : ''}
        {took !== null ? `, in ${formatSeconds(took)}` : ''}
        {deployment.message ? `: ${namesIn(deployment.message, nodeName)}` : ''}
      </p>
      <progress max={deployment.total || 1} value={deployment.done} aria-label="Deployment progress" />
      <div className="table-wrap">
        <table className="per-node">
          <caption>Progress per node</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Tasks done</th>
              <th scope="col">Progress</th>
              <th scope="col">Running or failed task</th>
            </tr>
          </thead>
          <tbody>
            {perNode.map(([node, list]) => {
              const doneHere = list.filter((t) => t.status !== 'pending' && t.status !== 'running').length;
              const current = list.find((t) => t.status === 'error') ?? list.find((t) => t.status === 'running');
              return (
                <tr key={node} data-node={nodeName(node)}>
                  <th scope="row">
                    <button type="button" className="link" onClick={() => setNodeFilter(node)}>
                      {nodeName(node)}
                    </button>
                  </th>
                  <td>
                    {doneHere} / {list.length}
                  </td>
                  <td>
                    <progress max={list.length || 1} value={doneHere} aria-label={`Progress of ${nodeName(node)}`} />
                  </td>
                  <td className={current?.status === 'error' ? 'bad' : undefined}>{current ? `${current.taskId} (${STATUS_WORDS[current.status] ?? current.status})` : ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="title-row filters">
        <label htmlFor="task-node">Node</label>
        <select id="task-node" value={nodeFilter} onChange={(e) => setNodeFilter(e.target.value)}>
          <option value="">every node</option>
          {perNode.map(([node]) => (
            <option key={node} value={node}>
              {nodeName(node)}
            </option>
          ))}
        </select>
        <label htmlFor="task-status">Status</label>
        <select id="task-status" value={statusFilter} onChange={(e) => setStatusFilter(e.target.value)}>
          <option value="">any</option>
          {['error', 'running', 'pending', 'ready', 'skipped'].map((s) => (
            <option key={s} value={s}>
              {STATUS_WORDS[s]?.split(' (')[0] ?? s}
            </option>
          ))}
        </select>
        <span className="muted">{shown.length} tasks, failures first</span>
      </div>
      <div className="table-wrap">
        <table className="tasks">
          <caption>Tasks</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
              <th scope="col">Duration</th>
              <th scope="col">Output</th>
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, limit).map((t) => (
              <tr key={`${t.node}|${t.taskId}`} data-task={t.taskId} data-state={t.status}>
                <td className="nowrap">{nodeName(t.node)}</td>
                <td>
                  {t.taskId}
                  {t.type ? <span className="badge">{t.type}</span> : null}
                </td>
                <td className={t.status === 'error' ? 'bad' : undefined}>
                  {STATUS_WORDS[t.status]?.split(' (')[0] ?? t.status}
                  {(t.exit_status ?? t.exitStatus) !== undefined && (t.exit_status ?? t.exitStatus) !== null ? ` (exit ${t.exit_status ?? t.exitStatus})` : ''}
                  {t.attempts && t.attempts > 1 ? `, ${t.attempts} attempts` : t.attempts === 1 && !dryRun ? ', 1 attempt' : ''}
                </td>
                <td className="nowrap">{clock(t.started_at ?? t.startedAt)}</td>
                <td className="nowrap">{clock(t.finished_at ?? t.finishedAt)}</td>
                <td className="nowrap">{formatSeconds(taskSeconds(t))}</td>
                <td>
                  <TaskOutput task={t} deploymentId={deployment.id} dryRun={dryRun} live={live[liveKey(t.node, t.taskId)]} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length > limit && (
        <button type="button" onClick={() => setLimit(limit + PAGE * 5)}>
          Show more tasks ({shown.length - limit} more)
        </button>
      )}
    </div>
  );
}

/** The server's run messages name nodes by id ("failed on node 8"); people read names. */
export const namesIn = (text: string, nodeName: (id: string) => string) => text.replace(/\bnode (\d+)\b/g, (_, id: string) => nodeName(id));

/** A time of day to the second, as people compare the times of tasks of one run. */
const clock = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '—');
