import { useEffect, useState } from 'react';
import { call } from '../api.js';
import type { TaskRun } from './model.js';

/**
 * A task's reason and output. While it runs, the output streamed so far (`live`); once it has
 * ended, the stored output (the last 1 MiB), read from the server when opened, because outputs
 * can be 1 MiB each, and read again if it ends while open.
 */
export function TaskOutput({ task, dryRun, deploymentId, live }: { task: TaskRun; dryRun: boolean; deploymentId: number; live?: string | undefined }) {
  const [output, setOutput] = useState<string | null | undefined>(task.output);
  const [failed, setFailed] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const running = task.status === 'running' || task.status === 'pending';

  useEffect(() => {
    if (!open || running || output !== undefined || dryRun) return;
    let current = true;
    call('get', '/deployments/{id}/tasks', { params: { id: deploymentId }, query: { node: task.node, task: task.taskId, output: true } }).then(
      (list) => current && setOutput(list[0]?.output ?? null),
      (e: Error) => current && setFailed(e.message),
    );
    return () => {
      current = false;
    };
  }, [open, running, output, dryRun, deploymentId, task.node, task.taskId]);
  // A task that ends while open: its stored output replaces the streamed one.
  useEffect(() => {
    if (!running && task.output === undefined) setOutput(undefined);
  }, [running, task.output]);

  const empty = task.status === 'skipped' ? 'It did not run, so it has no output.' : dryRun ? 'This was a dry run: the task did not run on a machine, so it has no output.' : task.status === 'pending' ? 'It has not started yet.' : 'The task printed nothing.';
  const shown = running ? live : dryRun ? null : output;
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{task.message ? task.message.split('\n')[0].slice(0, 80) : running && task.status === 'running' ? 'output (live)' : 'output'}</summary>
      {task.message && <p>{task.message}</p>}
      {failed ? (
        <p className="bad">The output could not be read: {failed}</p>
      ) : shown ? (
        <pre className="json output" data-live={running || undefined}>
          {shown}
        </pre>
      ) : shown === null || running ? (
        <p className="muted">{running && task.status === 'running' ? 'No output since this page began following the run; the whole output is kept when the task ends.' : empty}</p>
      ) : (
        <p aria-busy="true">Reading…</p>
      )}
    </details>
  );
}
