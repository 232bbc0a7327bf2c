/**
 * A running real run's counts by outcome, kept by its writer and stored with each batch of reports
 * (`deployments.live_counts`, migration 17), so a look at the run reads them instead of counting
 * its rows. The live stream looks every 500 ms, and counting a 200,000-task run's rows took 0.15-0.3 s
 * of the server's CPU each time (issue 30). The writer knows every row it wrote: each task's stored
 * status and last message, from which the outcome follows exactly as the database reads it
 * (outcomes.ts's OUTCOME_SQL, core's outcomeOfStored; a test runs both). Pure: no I/O.
 */
import { emptyCounts, outcomeOfStored, TASK_OUTCOMES, type RunCounts, type TaskOutcome } from '../core/lifecycle/index.js';

/** What a report writes that its outcome reads: the status as applyTaskUpdates stores it, and a message if it says one. */
export interface CountedReport {
  position: number;
  status: string;
  message?: string;
}

/** A run's task as created: skipped by the graph, or done in the run it resumes (createRealDeployment's input). */
export interface PlannedTask {
  taskId: string;
  skipped?: boolean;
  doneIn?: number;
}

/** The status a report is stored with: Nailgun's statuses have no `stopped` (task-runs.ts). */
export const storedStatus = (status: string): string => (status === 'stopped' ? 'skipped' : status);

const INDEX = new Map<TaskOutcome, number>(TASK_OUTCOMES.map((o, i) => [o, i]));
const PENDING = INDEX.get('pending')!;
const RUNNING = INDEX.get('running')!;

/** Each planned task's outcome as createRealDeployment writes its row, an index into TASK_OUTCOMES. */
const plannedOutcome = (t: PlannedTask): number => INDEX.get(t.doneIn !== undefined ? 'succeeded' : t.skipped ? 'skipped' : 'pending')!;

export class LiveCounts {
  /** Each task's outcome as last written, an index into TASK_OUTCOMES. */
  private readonly outcomes: Uint8Array;
  /** Each task's message as last written, where one was (a later report without one keeps it). */
  private readonly messages = new Map<number, string>();
  private written: RunCounts;

  /** The counts of a run as createRealDeployment writes its rows. */
  constructor(tasks: readonly PlannedTask[]) {
    this.outcomes = new Uint8Array(tasks.length);
    for (let i = 0; i < tasks.length; i++) {
      this.outcomes[i] = plannedOutcome(tasks[i]);
      if (tasks[i].doneIn !== undefined) this.messages.set(i, `done in deployment ${tasks[i].doneIn}`);
    }
    this.written = LiveCounts.planned(tasks);
  }

  /** The counts of a run as created, without keeping anything (createRealDeployment's first counts). */
  static planned(tasks: readonly PlannedTask[]): RunCounts {
    const counts = emptyCounts();
    for (const t of tasks) counts[TASK_OUTCOMES[plannedOutcome(t)]]++;
    return counts;
  }

  /**
   * The places of the tasks whose rows, as written so far, are pending or running (the outcome of
   * those two statuses is the status itself): what the run's end has to mark, so it reads those
   * rows and not all of them (endRealDeployment). A write that failed after its commit leaves a
   * row more finished than this says, never less: the end skips it by its status.
   */
  unfinishedPositions(): number[] {
    const out: number[] = [];
    const o = this.outcomes;
    for (let i = 0; i < o.length; i++) if (o[i] === PENDING || o[i] === RUNNING) out.push(i);
    return out;
  }

  /** The counts as written so far. */
  get counts(): RunCounts {
    return { ...this.written };
  }

  /**
   * The counts once `reports` are written (in order), and `commit` to keep them once they are:
   * a batch the database refused leaves the counts as they were, and is counted again when sent again.
   */
  after(reports: Iterable<CountedReport>): { counts: RunCounts; commit: () => void } {
    const counts = { ...this.written };
    // Each task's outcome and message once the batch is written; a task reported twice in one
    // batch (the caller sends one a task) reads its own earlier report.
    const batch = new Map<number, { outcome: number; message: string | undefined }>();
    for (const r of reports) {
      if (r.position < 0 || r.position >= this.outcomes.length) continue;
      const earlier = batch.get(r.position);
      const message = r.message ?? (earlier ? earlier.message : this.messages.get(r.position));
      const outcome = INDEX.get(outcomeOfStored({ status: storedStatus(r.status), message: message ?? null }))!;
      counts[TASK_OUTCOMES[earlier ? earlier.outcome : this.outcomes[r.position]]]--;
      counts[TASK_OUTCOMES[outcome]]++;
      batch.set(r.position, { outcome, message });
    }
    return {
      counts,
      commit: () => {
        for (const [position, { outcome, message }] of batch) {
          this.outcomes[position] = outcome;
          if (message !== undefined) this.messages.set(position, message);
        }
        this.written = counts;
      },
    };
  }
}
