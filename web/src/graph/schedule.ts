/**
 * Lay out a deployment graph for the picture: each task gets a start and an end (seconds) from the
 * longest path through its dependencies, unless the server already scheduled it.
 */
export interface GraphTask {
  node: string;
  task: string;
  type?: string;
  duration: number;
  start?: number;
  deps: Array<{ node: string; task: string }>;
}

export interface Placed extends GraphTask {
  start: number;
  end: number;
  key: string;
}

export const keyOf = (node: string, task: string) => `${node}\u0000${task}`;

export function schedule(tasks: GraphTask[]): { placed: Placed[]; makespan: number } {
  const byKey = new Map<string, GraphTask>();
  for (const t of tasks) byKey.set(keyOf(t.node, t.task), t);
  const end = new Map<string, number>();
  const visiting = new Set<string>();
  // Iterative depth-first walk: 10,000 tasks must not hit the stack limit.
  const finish = (root: string) => {
    const stack: Array<[string, number]> = [[root, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [key, i] = top;
      const t = byKey.get(key)!;
      if (i === 0) visiting.add(key);
      if (i < t.deps.length) {
        top[1]++;
        const dep = keyOf(t.deps[i].node, t.deps[i].task);
        if (byKey.has(dep) && !end.has(dep) && !visiting.has(dep)) stack.push([dep, 0]);
        continue;
      }
      stack.pop();
      visiting.delete(key);
      let start = t.start ?? 0;
      if (t.start === undefined) for (const d of t.deps) start = Math.max(start, end.get(keyOf(d.node, d.task)) ?? 0);
      end.set(key, start + t.duration);
    }
  };
  for (const key of byKey.keys()) if (!end.has(key)) finish(key);
  const placed = tasks.map((t) => {
    const key = keyOf(t.node, t.task);
    const e = end.get(key) ?? t.duration;
    return { ...t, key, start: e - t.duration, end: e };
  });
  return { placed, makespan: Math.max(0, ...placed.map((p) => p.end)) };
}
