import { useState } from 'react';
import { formatSeconds } from '../deploy/model.js';
import { plural, type Estimate } from './estimate.js';
import { keyOf } from './schedule.js';

const PAGE = 200;

/**
 * The tasks in the order the runner starts them (deploy/run.ts's choices within the graph's
 * constraints), each with its estimated start and how its duration is known.
 */
export function RunOrder({ estimate, label, onSelect }: { estimate: Estimate; label: (node: string) => string; onSelect: (key: string) => void }) {
  const [limit, setLimit] = useState(PAGE);
  if (estimate.order_total === 0) return null;
  const basis = (o: Estimate['order'][number]) => (o.basis === 'timeout' ? 'its timeout: never ran' : `median of ${o.runs ?? 0} past run${o.runs === 1 ? '' : 's'}${o.basis === 'release' ? ' of this release' : ''}`);
  return (
    <details className="run-order">
      <summary>
        Run order: {plural(estimate.order_total, 'task')}, as the runner starts them
      </summary>
      <ol>
        {estimate.order.slice(0, limit).map((o) => (
          <li key={keyOf(o.node, o.task)} data-task={o.task} data-basis={o.basis}>
            <button type="button" className="link" onClick={() => onSelect(keyOf(o.node, o.task))}>
              {o.task}
            </button>{' '}
            on {label(o.node)}: from {formatSeconds(o.start_s)}, {formatSeconds(o.duration_s)} ({basis(o)})
          </li>
        ))}
      </ol>
      {estimate.order.length > limit && (
        <button type="button" onClick={() => setLimit(limit + PAGE * 5)}>
          Show more ({estimate.order.length - limit} more)
        </button>
      )}
      {estimate.order_total > estimate.order.length && <p className="muted">The first {estimate.order.length} of {estimate.order_total} are listed.</p>}
    </details>
  );
}
