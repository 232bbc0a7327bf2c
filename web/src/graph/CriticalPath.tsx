import { formatSeconds } from '../deploy/model.js';
import type { Placed } from './schedule.js';
import { plural } from './estimate.js';

/**
 * The critical path in words: the longest chain of tasks that wait for one another. Its length is
 * the deployment's estimated length; a task on it delays the whole deployment by any time it
 * takes longer, while other tasks have slack.
 */
export function CriticalPath({ path, label, makespan, onSelect, measured = false }: { path: Placed[]; label: (node: string) => string; makespan: number; onSelect: (key: string) => void; measured?: boolean }) {
  if (path.length === 0) return null;
  return (
    <details className="critical-path">
      <summary>
        Critical path: {plural(path.length, 'task')}, {formatSeconds(makespan)} in all
      </summary>
      <p>
        These tasks wait for one another, one after the other, so together they set how long the deployment takes {measured ? "(estimated from each task's median in past real runs, its timeout where it never ran)" : "(estimated from each task's timeout, an upper bound)"}. Any of them taking longer delays the whole deployment; the
        other tasks can run late by some margin without delaying it.
      </p>
      <ol>
        {path.map((p) => (
          <li key={p.key}>
            <button type="button" className="link" onClick={() => onSelect(p.key)}>
              {p.task}
            </button>{' '}
            on {label(p.node)}, {formatSeconds(p.duration)} (from {formatSeconds(p.start)})
          </li>
        ))}
      </ol>
    </details>
  );
}
