/**
 * The estimate of a run in words and on the picture: durations from past real runs
 * (GET /clusters/{id}/graphs/{type}/estimate), timeouts only where a task never ran, and the
 * order the runner starts tasks in.
 */
import type { AnswerOf } from '../../../src/api/client.js';
import { formatSeconds } from '../deploy/model.js';
import { keyOf, type GraphTask } from './schedule.js';

export type Estimate = AnswerOf<'/clusters/{id}/graphs/{type}/estimate', 'get'>;

/** "1 task", "2 tasks". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "~44 s from 3 past runs; 2 tasks estimated from their timeouts". */
export function estimateWords(e: Estimate): string {
  const parts = [`~${formatSeconds(e.makespan_s)}`];
  const measured = e.tasks.environment + e.tasks.release;
  if (e.past_runs.environment > 0 && e.tasks.environment > 0) parts.push(`from ${plural(e.past_runs.environment, 'past run')}`);
  else if (e.tasks.release > 0) parts.push(`from ${plural(e.past_runs.release, 'past run')} of this release`);
  if (e.tasks.environment > 0 && e.tasks.release > 0) parts.push(`(${plural(e.tasks.release, 'task')} from this release's runs)`);
  const words = parts.join(' ');
  if (measured === 0) return `${words} from the tasks' timeouts (no past run to measure: an upper bound)`;
  return e.tasks.timeout > 0 ? `${words}; ${plural(e.tasks.timeout, 'task')} estimated from ${e.tasks.timeout === 1 ? 'its timeout' : 'their timeouts'}` : words;
}

/** The tasks placed as the runner would run them, when the estimate lists every one. */
export function placedByEstimate(tasks: GraphTask[], e: Estimate | undefined): GraphTask[] {
  if (!e || e.order.length < e.order_total) return tasks;
  const at = new Map(e.order.map((o) => [keyOf(o.node, o.task), o]));
  return tasks.map((t) => {
    const o = at.get(keyOf(t.node, t.task));
    return o ? { ...t, start: o.start_s, duration: o.duration_s } : { ...t, start: t.start ?? 0, duration: 0 };
  });
}
