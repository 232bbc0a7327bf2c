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

export class LiveCounts {
  /** Each task's outcome as last written, an index into TASK_OUTCOMES. */
  private readonly outcomes: Uint8Array;
  /** Each task's message as last written, where one was (a later report without one keeps it). */
  private readonly messages = new Map<number, string>();
  private written: RunCounts;

  /** The counts of a run as createRealDeployment writes its rows. */
  constructor(tasks: readonly PlannedTask[]) {
    this.outcomes = new Uint8Array(tasks.length);
    this.written = emptyCounts();
    const pending = INDEX.get('pending')!, succeeded = INDEX.get('succeeded')!, skipped = INDEX.get('skipped')!;
    for (let i = 0; i < tasks.length; i++) {
      const t = tasks[i];
      const o = t.doneIn !== undefined ? succeeded : t.skipped ? skipped : pending;
      this.outcomes[i] = o;
      this.written[TASK_OUTCOMES[o]]++;
      if (t.doneIn !== undefined) this.messages.set(i, `done in deployment ${t.doneIn}`);
    }
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
    const changes: Array<[position: number, outcome: number, message: string | undefined]> = [];
    // A task reported twice in one batch reads its own first report (the caller sends one a task).
    const said = new Map<number, string | undefined>();
    const now = new Map<number, number>();
    for (const r of reports) {
      if (r.position < 0 || r.position >= this.outcomes.length) continue;
      const message = r.message ?? (said.has(r.position) ? said.get(r.position) : this.messages.get(r.position));
      said.set(r.position, message);
      const before = now.get(r.position) ?? this.outcomes[r.position];
      const outcome = INDEX.get(outcomeOfStored({ status: storedStatus(r.status), message: message ?? null }))!;
      now.set(r.position, outcome);
      counts[TASK_OUTCOMES[before]]--;
      counts[TASK_OUTCOMES[outcome]]++;
      changes.push([r.position, outcome, r.message]);
    }
    return {
      counts,
      commit: () => {
        for (const [position, outcome, message] of changes) {
          this.outcomes[position] = outcome;
          if (message !== undefined) this.messages.set(position, message);
        }
        this.written = counts;
      },
    };
  }
}
