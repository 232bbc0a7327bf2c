import { useMemo, useState } from 'react';
import { api } from '../api.js';
import { byFailuresFirst, formatSeconds, seconds, STATUS_WORDS, taskSeconds, type Deployment, type TaskRun } from './model.js';

const PAGE = 200;

/**
 * One deployment as it runs or ran: overall progress, progress per node (by name), and every task
 * with its status, duration and output, failures first.
 */
export function DeploymentView({ deployment, nodeName }: { deployment: Deployment; nodeName: (id: string) => string }) {
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

  return (
    <div aria-live="polite" className="deployment">
      <p role="status" data-status={deployment.status}>
        Deployment {deployment.id} {deployment.status}
        {deployment.mode === 'dry-run' || deployment.mode === undefined ? ' (dry run: nothing is installed on machines)' : ''} — {deployment.done} of {deployment.total} tasks done
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
              <th scope="col">Duration</th>
              <th scope="col">Output</th>
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, limit).map((t) => (
              <tr key={`${t.node}|${t.taskId}`} data-task={t.taskId} data-state={t.status}>
                <td>{nodeName(t.node)}</td>
                <td>
                  {t.taskId}
                  {t.type ? <span className="badge">{t.type}</span> : null}
                </td>
                <td className={t.status === 'error' ? 'bad' : undefined}>
                  {STATUS_WORDS[t.status]?.split(' (')[0] ?? t.status}
                  {(t.exit_status ?? t.exitStatus) !== undefined && (t.exit_status ?? t.exitStatus) !== null ? ` (exit ${t.exit_status ?? t.exitStatus})` : ''}
                  {t.attempts && t.attempts > 1 ? `, ${t.attempts} attempts` : ''}
                </td>
                <td>{formatSeconds(taskSeconds(t))}</td>
                <td>
                  <TaskOutput task={t} deploymentId={deployment.id} dryRun={deployment.mode === undefined || deployment.mode === 'dry-run'} />
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

/** A task's reason and output, read from the server when opened (outputs can be 1 MiB each). */
function TaskOutput({ task, dryRun, deploymentId }: { task: TaskRun; dryRun: boolean; deploymentId: number }) {
  const [output, setOutput] = useState<string | null | undefined>(task.output);
  const [failed, setFailed] = useState<string | null>(null);
  const open = async () => {
    if (output !== undefined) return;
    try {
      const list = await api<TaskRun[]>('GET', `/deployments/${deploymentId}/tasks?node=${encodeURIComponent(task.node)}&task=${encodeURIComponent(task.taskId)}&output=true`);
      setOutput(list[0]?.output ?? null);
    } catch (e) {
      setFailed((e as Error).message);
    }
  };
  const empty = task.status === 'skipped' ? 'It did not run, so it has no output.' : dryRun ? 'This was a dry run: the task did not run on a machine, so it has no output.' : task.status === 'pending' || task.status === 'running' ? 'No output yet.' : 'The task printed nothing.';
  return (
    <details onToggle={(e) => (e.currentTarget.open ? void open() : undefined)}>
      <summary>{task.message ? task.message.split('\n')[0].slice(0, 80) : 'output'}</summary>
      {task.message && <p>{task.message}</p>}
      {failed ? <p className="bad">The output could not be read: {failed}</p> : output ? <pre className="json output">{output}</pre> : output === null ? <p className="muted">{empty}</p> : <p aria-busy="true">Reading…</p>}
    </details>
  );
}

/** The server's run messages name nodes by id ("failed on node 8"); people read names. */
export const namesIn = (text: string, nodeName: (id: string) => string) => text.replace(/\bnode (\d+)\b/g, (_, id: string) => nodeName(id));
