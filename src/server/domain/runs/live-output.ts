/**
 * What the running tasks of a real deployment have printed so far, kept by the server that runs
 * it, so a page opened late shows a running task's whole output (its last 1 MiB) and then follows
 * the live stream. A task's output reaches the database only when the task ends (run-reports.ts),
 * so without this a viewer saw only what was printed after it began following.
 *
 * Bounded twice: each task keeps its last OUTPUT_LIMIT characters, as its stored output does; a
 * run keeps at most RUN_LIVE_LIMIT in all, forgetting first the tasks that printed longest ago
 * (ended tasks stop printing, and their output is read from the database by then).
 */
import type { EventEmitter } from 'node:events';
import { OUTPUT_LIMIT } from '../../../deploy/index.js';

/** All the live output one run keeps (16 tasks printing 1 MiB each at once). */
export const RUN_LIVE_LIMIT = 16 * OUTPUT_LIMIT;

/** A chunk as the run's output emitter carries it; `offset` is added here (see keepLiveOutput). */
export interface LiveChunk {
  node: string;
  task_id: string;
  chunk: string;
  /** Characters this task had printed before this chunk: where the chunk starts in its output. */
  offset?: number;
}

/** The last characters of one task's output, and how many it has printed in all. */
export interface LiveTail {
  output: string;
  /** Characters printed in all; `output` is the part that ends here. */
  end: number;
}

export class LiveOutput {
  // Insertion order is the order of last writes: the first entry printed longest ago.
  private readonly tails = new Map<string, LiveTail>();
  private size = 0;

  constructor(
    private readonly taskLimit = OUTPUT_LIMIT,
    private readonly runLimit = RUN_LIVE_LIMIT,
  ) {}

  /** Keeps a chunk; answers where it starts in its task's output. */
  add(node: string, task: string, chunk: string): number {
    const key = keyOf(node, task);
    const tail = this.tails.get(key) ?? { output: '', end: 0 };
    this.tails.delete(key);
    const offset = tail.end;
    this.size -= tail.output.length;
    const joined = tail.output + chunk;
    tail.output = joined.length > this.taskLimit ? joined.slice(joined.length - this.taskLimit) : joined;
    tail.end += chunk.length;
    this.size += tail.output.length;
    this.tails.set(key, tail);
    for (const [k, t] of this.tails) {
      if (this.size <= this.runLimit || k === key) break;
      this.tails.delete(k);
      this.size -= t.output.length;
    }
    return offset;
  }

  read(node: string, task: string): LiveTail | undefined {
    const t = this.tails.get(keyOf(node, task));
    return t && { ...t };
  }

  /** Characters kept in all (for tests of the bound). */
  get kept(): number {
    return this.size;
  }
}

const keyOf = (node: string, task: string) => `${node}\u0000${task}`;

const kept = new WeakMap<EventEmitter, LiveOutput>();

/**
 * Starts keeping a run's live output from its output emitter. Called when the run is created,
 * before anyone follows it, so this listener runs first on every chunk and stamps the chunk with
 * its `offset`: the live stream sends the chunk as it is, and a page joins what it read here with
 * what it receives there without a gap or a repeat.
 */
export function keepLiveOutput(output: EventEmitter): LiveOutput {
  const live = new LiveOutput();
  kept.set(output, live);
  output.on('chunk', (c: LiveChunk) => {
    c.offset = live.add(c.node, c.task_id, c.chunk);
  });
  return live;
}

/** The live output kept for a run's output emitter (none: this server does not run it). */
export const liveOutputOf = (output: EventEmitter | undefined): LiveOutput | undefined => (output ? kept.get(output) : undefined);
