import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { outcomeOf, type TaskRun } from './model.js';
import type { LiveText } from './liveText.js';
import { AnsiText } from './AnsiText.js';

/**
 * A task's reason and output, the width of the page, with its ANSI colours. While it runs: what
 * the server kept of it so far (read when the viewer opens), then the live stream (`live`). Once
 * it has ended: the stored output (the last 1 MiB), read from the server when opened, because
 * outputs can be 1 MiB each, and read again if it ends while open.
 */
export function TaskOutput({ task, dryRun, deploymentId, live, onSnapshot }: { task: TaskRun; dryRun: boolean; deploymentId: number; live?: LiveText | undefined; onSnapshot?: (snapshot: { output: string | null; end: number }) => void }) {
  const [output, setOutput] = useState<string | null | undefined>(task.output);
  const [failed, setFailed] = useState<string | null>(null);
  const [kept, setKept] = useState<'reading' | 'read' | 'elsewhere'>('reading');
  const running = task.status === 'running' || task.status === 'pending';
  const outcome = outcomeOf(task);

  useEffect(() => {
    if (running || output !== undefined || dryRun) return;
    let current = true;
    call('get', '/deployments/{id}/tasks', { params: { id: deploymentId }, query: { node: task.node, task: task.taskId, output: true } }).then(
      (list) => current && setOutput(list[0]?.output ?? null),
      (e: Error) => current && setFailed(e.message),
    );
    return () => {
      current = false;
    };
  }, [running, output, dryRun, deploymentId, task.node, task.taskId]);
  // A running task's output printed before the page followed it: the server running it kept it.
  const started = task.status === 'running';
  useEffect(() => {
    if (!started || dryRun) return;
    let current = true;
    call('get', '/deployments/{id}/live-output', { params: { id: deploymentId }, query: { node: task.node, task: task.taskId } }).then(
      (s) => {
        if (!current) return;
        setKept(s.live ? 'read' : 'elsewhere');
        onSnapshot?.(s);
      },
      () => current && setKept('elsewhere'),
    );
    return () => {
      current = false;
    };
    // Read once a start (onSnapshot is a new function each render, so it is left out).
  }, [started, dryRun, deploymentId, task.node, task.taskId]);
  // A task that ends while open: its stored output replaces the streamed one.
  useEffect(() => {
    if (!running && task.output === undefined) setOutput(undefined);
  }, [running, task.output]);

  const empty =
    outcome === 'skipped' || outcome === 'not_run' || outcome === 'stopped'
      ? 'It did not run, so it has no output.'
      : dryRun
        ? 'This was a dry run: the task did not run on a machine, so it has no output.'
        : task.status === 'pending'
          ? 'It has not started yet.'
          : 'The task printed nothing.';
  const shown = running ? live?.text : dryRun ? null : output;
  return (
    <div className="task-output-panel">
      {task.message && <p className="task-message">{task.message}</p>}
      {failed ? (
        <p className="bad">The output could not be read: {failed}</p>
      ) : shown ? (
        <pre className="json output" data-live={running || undefined}>
          <AnsiText text={shown} />
        </pre>
      ) : shown === null || running ? (
        <p className="muted">
          {task.status === 'running'
            ? kept === 'reading'
              ? 'Reading what it printed so far…'
              : kept === 'elsewhere'
                ? 'Another server runs this deployment: its output so far is shown when the task ends; what it prints from now on appears here.'
                : 'Nothing printed yet.'
            : empty}
        </p>
      ) : (
        <p aria-busy="true">Reading…</p>
      )}
    </div>
  );
}
