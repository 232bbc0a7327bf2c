/**
 * Order, timing and cycles. One pass of list scheduling gives all three: a vertex becomes ready when
 * everything before it has finished; ready vertices start in order of readiness (ties by vertex id,
 * so the result is deterministic); a node runs one task at a time, as Astute did; stage, group
 * bound and barrier vertices take no time and no node. The order vertices start in is a valid
 * topological order; vertices never reached are on or behind a cycle.
 */
import { adjacency, type Adjacency } from './edges.js';

export interface Schedule {
  order: Int32Array;
  /** How many vertices were ordered; fewer than the vertex count means a cycle. */
  ordered: number;
  start: Float64Array;
  finish: Float64Array;
  /** The vertex that decided each vertex's start (a predecessor, or the node's previous task); -1 if none. */
  decidedBy: Int32Array;
  adjacency: Adjacency;
}

/** Index of the lowest set bit of a non-zero 32-bit word. */
const lowestBit = (word: number) => 31 - Math.clz32(word & -word);

/**
 * A set of vertex ids that hands out its smallest: a bitset with a summary level per 32 words
 * (a word of level k+1 says which words of level k are non-empty), so finding the next id takes a
 * few word operations at any size.
 */
class IdSet {
  private levels: Int32Array[] = [];
  /** No id below it is in the set. */
  private floor = 0;
  size = 0;

  constructor(capacity: number) {
    let words = Math.max(1, capacity);
    do {
      words = (words + 31) >>> 5;
      this.levels.push(new Int32Array(words));
    } while (words > 1);
  }

  add(id: number): void {
    this.size++;
    if (id < this.floor) this.floor = id;
    const levels = this.levels;
    for (let depth = 0; depth < levels.length; depth++) {
      const w = id >>> 5;
      const before = levels[depth][w];
      levels[depth][w] = before | (1 << (id & 31));
      if (before !== 0) return;
      id = w;
    }
  }

  /** Removes and returns the smallest id (the set must not be empty). */
  takeSmallest(): number {
    const levels = this.levels;
    // Up from the floor until a word with a set bit at or after it, then down to that bit.
    let depth = 0;
    let at = this.floor;
    for (;;) {
      const w = at >>> 5;
      const word = w < levels[depth].length ? levels[depth][w] & (-1 << (at & 31)) : 0;
      if (word !== 0) {
        at = (w << 5) | lowestBit(word);
        break;
      }
      depth++;
      at = w + 1;
    }
    while (depth > 0) at = (at << 5) | lowestBit(levels[--depth][at]);
    const id = at;
    this.size--;
    this.floor = id + 1;
    for (depth = 0; depth < levels.length; depth++) {
      const w = at >>> 5;
      const word = levels[depth][w] & ~(1 << (at & 31));
      levels[depth][w] = word;
      if (word !== 0) break;
      at = w;
    }
    return id;
  }
}

/**
 * Ready vertices, popped by ready time, ties by vertex id: what a binary heap of (time, id) pops,
 * cheaper. List scheduling pushes no time earlier than the last one popped (a vertex is ready no
 * earlier than its last predecessor started), so vertices wait in one bucket per ready time; when a
 * time comes, its bucket goes into an IdSet, as do the vertices that become ready at that same time
 * meanwhile (successors of tasks that take no time). A time earlier than the current one is still
 * ordered right: the current time's vertices go back to a bucket.
 */
class ReadyQueue {
  size = 0;
  /** The time being popped; none yet at first. */
  private current = Number.NEGATIVE_INFINITY;
  private now: IdSet;
  /** Each later time's vertices, as a list linked through `next` (a vertex waits in one bucket at most). */
  private buckets = new Map<number, { head: number; tail: number }>();
  private next: Int32Array;
  /** The later times, a min-heap. */
  private times = new Float64Array(64);
  private timeCount = 0;

  constructor(capacity: number) {
    this.now = new IdSet(capacity);
    this.next = new Int32Array(Math.max(1, capacity));
  }

  push(id: number, key: number): void {
    this.size++;
    if (key === this.current) {
      this.now.add(id);
      return;
    }
    if (key < this.current) this.putBack();
    this.next[id] = -1;
    const bucket = this.buckets.get(key);
    if (bucket) {
      this.next[bucket.tail] = id;
      bucket.tail = id;
    } else {
      this.buckets.set(key, { head: id, tail: id });
      this.pushTime(key);
    }
  }

  /** Every vertex without predecessors, ready at time 0, into the queue while it is still empty. */
  pushSources(indegree: Int32Array): void {
    let head = -1;
    let tail = -1;
    for (let v = 0; v < indegree.length; v++) {
      if (indegree[v] !== 0) continue;
      if (tail < 0) head = v;
      else this.next[tail] = v;
      tail = v;
      this.size++;
    }
    if (tail < 0) return;
    this.next[tail] = -1;
    this.buckets.set(0, { head, tail });
    this.pushTime(0);
  }

  pop(): number {
    this.size--;
    if (this.now.size === 0) {
      this.current = this.popTime();
      const bucket = this.buckets.get(this.current)!;
      this.buckets.delete(this.current);
      for (let v = bucket.head; v >= 0; v = this.next[v]) this.now.add(v);
    }
    return this.now.takeSmallest();
  }

  /** The current time's vertices back to a bucket, as if its time had not come yet. */
  private putBack(): void {
    const time = this.current;
    this.current = Number.NEGATIVE_INFINITY;
    const count = this.now.size;
    this.size -= count;
    for (let i = 0; i < count; i++) this.push(this.now.takeSmallest(), time);
  }

  private pushTime(key: number): void {
    if (this.timeCount === this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times);
      this.times = grown;
    }
    const heap = this.times;
    let i = this.timeCount++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= key) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = key;
  }

  private popTime(): number {
    const heap = this.times;
    const top = heap[0];
    const n = --this.timeCount;
    const last = heap[n];
    let i = 0;
    for (;;) {
      let m = 2 * i + 1;
      if (m >= n) break;
      if (m + 1 < n && heap[m + 1] < heap[m]) m++;
      if (heap[m] >= last) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = last;
    return top;
  }
}

function inDegrees(vertexCount: number, to: Int32Array): Int32Array {
  const indegree = new Int32Array(vertexCount);
  for (let i = 0; i < to.length; i++) indegree[to[i]]++;
  return indegree;
}

/**
 * `worker[v]` is the node that runs v (-1 for none); `workerCount` bounds those ids.
 */
export function schedule(vertexCount: number, from: Int32Array, to: Int32Array, duration: Float64Array, worker: Int32Array, workerCount: number): Schedule {
  const adj = adjacency(vertexCount, from, to);
  const { offsets, targets } = adj;
  const indegree = inDegrees(vertexCount, to);
  // A vertex no edge has reached yet is ready at -Infinity, below any finish: its first
  // predecessor sets it. Vertices without predecessors are ready at 0.
  const ready = new Float64Array(vertexCount).fill(Number.NEGATIVE_INFINITY);
  const readyBy = new Int32Array(vertexCount).fill(-1);
  const start = new Float64Array(vertexCount);
  const finish = new Float64Array(vertexCount);
  const decidedBy = new Int32Array(vertexCount).fill(-1);
  const nodeFree = new Float64Array(workerCount);
  const nodeLast = new Int32Array(workerCount).fill(-1);
  const order = new Int32Array(vertexCount);
  const queue = new ReadyQueue(vertexCount);
  queue.pushSources(indegree);
  let ordered = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    order[ordered++] = v;
    const w = worker[v];
    let by = readyBy[v];
    let begin = by < 0 ? 0 : ready[v];
    const d = duration[v];
    if (w >= 0 && d > 0) {
      if (nodeFree[w] > begin) {
        begin = nodeFree[w];
        by = nodeLast[w];
      }
      nodeFree[w] = begin + d;
      nodeLast[w] = v;
    }
    const f = begin + d;
    start[v] = begin;
    finish[v] = f;
    decidedBy[v] = by;
    const end = offsets[v + 1];
    for (let e = offsets[v]; e < end; e++) {
      const u = targets[e];
      if (f > ready[u]) {
        ready[u] = f;
        readyBy[u] = v;
      }
      if (--indegree[u] === 0) queue.push(u, ready[u]);
    }
  }
  return { order, ordered, start, finish, decidedBy, adjacency: adj };
}

/**
 * A cycle among the vertices the schedule could not order, as a list of vertex ids with the first
 * repeated at the end. Iterative, so a long cycle cannot overflow the stack.
 */
export function findCycle(vertexCount: number, adj: Adjacency, orderedMask: Uint8Array): number[] | undefined {
  const state = new Uint8Array(vertexCount); // 0 new, 1 on the path, 2 done
  const parent = new Int32Array(vertexCount).fill(-1);
  const cursor = new Int32Array(vertexCount);
  for (let root = 0; root < vertexCount; root++) {
    if (orderedMask[root] || state[root]) continue;
    const stack = [root];
    state[root] = 1;
    cursor[root] = adj.offsets[root];
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      if (cursor[v] < adj.offsets[v + 1]) {
        const u = adj.targets[cursor[v]++];
        if (orderedMask[u]) continue;
        if (state[u] === 1) {
          const cycle = [u];
          for (let x = v; x !== u; x = parent[x]) cycle.push(x);
          cycle.push(u);
          return cycle.reverse();
        }
        if (state[u] === 0) {
          state[u] = 1;
          parent[u] = v;
          cursor[u] = adj.offsets[u];
          stack.push(u);
        }
      } else {
        state[v] = 2;
        stack.pop();
      }
    }
  }
  return undefined;
}
