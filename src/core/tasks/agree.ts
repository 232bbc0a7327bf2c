/**
 * When two plugins define one task id, their definitions may still do the same thing on a node:
 * both switch the task off (`type: skipped`, the usual way a plugin replaces a release service),
 * or they are identical apart from where they were written. Such definitions never conflict.
 */
import type { Task } from './model.js';

export function definitionsAgree(a: Task, b: Task): boolean {
  if (a.type === 'skipped' && b.type === 'skipped') return true;
  const { origin: _a, ...restA } = a;
  const { origin: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}
