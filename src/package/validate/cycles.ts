/**
 * Dependency cycles among tasks: `a requires b` orders b before a, `a required_for b` orders a
 * before b. Each strongly connected component with more than one task (or a task that requires
 * itself) is reported once, as one concrete circle through it.
 */
type Task = Record<string, unknown>;

export function findCycles(tasks: readonly Task[]): string[][] {
  return findCycleComponents(tasks).map((c) => c.circle);
}

/** Each knot of tasks that wait on each other: one concrete circle through it, and every task caught in it. */
export function findCycleComponents(tasks: readonly Task[]): Array<{ circle: string[]; members: string[] }> {
  const edges = new Map<string, Set<string>>();
  const ids = new Set<string>();
  for (const t of tasks) if (typeof t.id === 'string') ids.add(t.id);
  const link = (before: string, after: string) => {
    if (!ids.has(before) || !ids.has(after)) return;
    let set = edges.get(before);
    if (!set) edges.set(before, (set = new Set()));
    set.add(after);
  };
  for (const t of tasks) {
    if (typeof t.id !== 'string') continue;
    for (const r of Array.isArray(t.requires) ? t.requires : []) if (typeof r === 'string') link(r, t.id);
    for (const r of Array.isArray(t.required_for) ? t.required_for : []) if (typeof r === 'string') link(t.id, r);
  }
  // Tarjan's algorithm, iterative so a long chain of tasks cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of ids) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: Iterator<string> }> = [];
    const open = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (edges.get(node) ?? new Set<string>()).values() });
    };
    open(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const step = frame.next.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        const selfLoop = component.length === 1 && edges.get(component[0])?.has(component[0]);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((c) => ({ circle: circleThrough(c, edges), members: c }));
}

/** One concrete circle inside a strongly connected component, starting from its first id in sorted order. */
function circleThrough(component: string[], edges: Map<string, Set<string>>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of edges.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return path;
      }
      if (!seen.has(to)) {
        seen.add(to);
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}
