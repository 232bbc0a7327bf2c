import { Fragment, useMemo, useState } from 'react';
import { TASK_OUTCOMES, type TaskOutcome } from '../../../src/core/lifecycle/states.js';
import { countOutcomes } from '../../../src/core/lifecycle/outcomes.js';
import { apartWords, countsOf, failuresFirst, doneOf, formatSeconds, isoTime, liveKey, outcomeMeaning, outcomeOf, outcomeWord, runMeaning, runWord, seconds, taskSeconds, type Deployment, type TaskRun } from './model.js';
import type { LiveText } from './liveText.js';
import { TaskOutput } from './TaskOutput.js';
import { groupBy } from '../components/groupBy.js';

const PAGE = 200;

/**
 * One deployment as it runs or ran: overall progress, progress per node (by name), and every task
 * with its status, exit status, attempts, times and output (streamed while it runs), failures first.
 */
export function DeploymentView({ deployment, nodeName, live = {}, onSnapshot }: { deployment: Deployment; nodeName: (id: string) => string; live?: Record<string, LiveText>; onSnapshot?: (key: string, snapshot: { output: string | null; end: number }) => void }) {
  const [nodeFilter, setNodeFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  const [limit, setLimit] = useState(PAGE);
  // Nodes shown in the per-node table: its rows are worked out and drawn again at every look of a
  // watched run, and an environment of 10,000 nodes drew 10,000 of them.
  const [nodeLimit, setNodeLimit] = useState(PAGE);
  // The tasks whose output is open (a row the width of the table below the task's row).
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const tasks = deployment.tasks ?? [];

  const perNode = useMemo(() => {
    const map = groupBy(tasks, (t) => t.node);
    return [...map.entries()].sort((a, b) => nodeName(a[0]).localeCompare(nodeName(b[0]), undefined, { numeric: true }));
  }, [tasks, nodeName]);
  const shown = useMemo(() => failuresFirst(nodeFilter || statusFilter ? tasks.filter((t) => (!nodeFilter || t.node === nodeFilter) && (!statusFilter || outcomeOf(t) === statusFilter)) : tasks), [tasks, nodeFilter, statusFilter]);
  const counts = countsOf(deployment);
  const done = doneOf(deployment);
  const apart = apartWords(counts);
  const took = seconds(deployment.started_at, deployment.finished_at);
  const dryRun = deployment.mode === 'dry-run' || deployment.mode === undefined;

  return (
    <div aria-live="polite" className="deployment">
      <p role="status" data-status={deployment.status} data-mode={dryRun ? 'dry-run' : 'real'} title={runMeaning(deployment.status)}>
        {dryRun ? 'Dry run' : 'Deployment'} {deployment.id}
        {deployment.graph_type && deployment.graph_type !== 'default' ? ` of the ${deployment.graph_type} graph` : ''} {runWord(deployment.status)}
        {dryRun ? ' (a simulation: nothing is installed on machines)' : ' (real, over SSH on the hosts)'} — {done} of {deployment.total} tasks done
        {apart ? ` (${apart})` : ''}
        {took !== null ? `, in ${formatSeconds(took)}` : ''}
        {deployment.message ? `: ${namesIn(deployment.message, nodeName)}` : ''}
      </p>
      <Progress counts={counts} done={done} total={deployment.total} label="Deployment progress" />
      <div className="table-wrap">
        <table className="per-node">
          <caption>Progress per node</caption>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Tasks done</th>
              <th scope="col">Progress</th>
              <th scope="col">Not done</th>
              <th scope="col">Running or failed task</th>
            </tr>
          </thead>
          <tbody>
            {perNode.slice(0, nodeLimit).map(([node, list]) => {
              const here = countOutcomes(list.map(outcomeOf));
              const doneHere = here.succeeded;
              const broke = (t: TaskRun) => BROKE.has(outcomeOf(t));
              const current = list.find(broke) ?? list.find((t) => outcomeOf(t) === 'running');
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
                    <Progress counts={here} done={doneHere} total={list.length} label={`Progress of ${nodeName(node)}`} />
                  </td>
                  <td className="muted">{apartWords({ ...here, running: 0, pending: 0 })}</td>
                  <td className={current && broke(current) ? 'bad' : undefined}>{current ? `${current.taskId} (${outcomeWord(outcomeOf(current))})` : ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {perNode.length > nodeLimit && (
        <button type="button" onClick={() => setNodeLimit(nodeLimit + PAGE * 5)}>
          Show more nodes ({perNode.length - nodeLimit} more)
        </button>
      )}
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
          {TASK_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {outcomeWord(o)}
            </option>
          ))}
        </select>
        <span className="muted">
          {shown.length} task{shown.length === 1 ? '' : 's'}, failures first
        </span>
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
            {shown.slice(0, limit).map((t) => {
              const key = liveKey(t.node, t.taskId);
              const outcome = outcomeOf(t);
              const exit = t.exit_status ?? t.exitStatus;
              const isOpen = open.has(key);
              return (
                <Fragment key={key}>
                  <tr data-task={t.taskId} data-state={t.status} data-outcome={outcome} className={isOpen ? 'open' : undefined}>
                    <td className="nowrap">{nodeName(t.node)}</td>
                    <td>
                      {t.taskId}
                      {t.type ? <span className="badge">{t.type}</span> : null}
                    </td>
                    <td className={BROKE.has(outcome) ? 'bad' : undefined} title={outcomeMeaning(outcome)}>
                      {outcomeWord(outcome)}
                      {exit !== undefined && exit !== null ? ` (exit ${exit})` : ''}
                      {t.attempts && t.attempts > 1 ? `, ${t.attempts} attempts` : t.attempts === 1 && !dryRun ? ', 1 attempt' : ''}
                    </td>
                    <td className="nowrap">{isoTime(t.started_at ?? t.startedAt)}</td>
                    <td className="nowrap">{isoTime(t.finished_at ?? t.finishedAt)}</td>
                    <td className="nowrap">{formatSeconds(taskSeconds(t))}</td>
                    <td>
                      <button type="button" className="link output-toggle" aria-expanded={isOpen} onClick={() => toggle(key)}>
                        {isOpen ? '▾ ' : '▸ '}
                        {t.message ? t.message.split('\n')[0].slice(0, 80) : outcome === 'running' ? 'output (live)' : 'output'}
                      </button>
                    </td>
                  </tr>
                  {isOpen && (
                    <tr className="task-output" data-output-of={t.taskId} data-node={nodeName(t.node)}>
                      <td colSpan={7}>
                        <TaskOutput task={t} deploymentId={deployment.id} dryRun={dryRun} live={live[key]} onSnapshot={(s) => onSnapshot?.(key, s)} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
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

const BROKE: ReadonlySet<TaskOutcome> = new Set(['failed', 'timed_out', 'killed']);

/**
 * Progress as a bar of parts: succeeded (done) in green, failed (timed out, killed) in red, and
 * skipped, not run and stopped apart in grey, so a stopped run never reads as a full bar.
 */
export function Progress({ counts, done, total, label }: { counts: ReturnType<typeof countsOf>; done: number; total: number; label: string }) {
  const of = total || 1;
  const parts: Array<[string, number]> = counts
    ? [
        ['done', counts.succeeded],
        ['failed', counts.failed + counts.timed_out + counts.killed],
        ['skipped', counts.skipped],
        ['not-run', counts.not_run + counts.stopped],
      ]
    : [['done', done]];
  return (
    <span className="progress-parts" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={`${done} of ${total} done${counts && apartWords(counts) ? `; ${apartWords(counts)}` : ''}`}>
      {parts.map(([name, n]) => (n > 0 ? <span key={name} className={`part ${name}`} style={{ width: `${(100 * n) / of}%` }} data-part={name} data-count={n} /> : null))}
    </span>
  );
}
