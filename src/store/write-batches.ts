/**
 * Group commit for one kind of write: while a statement writing a batch is in flight, the writes
 * asked meanwhile wait, and go together in the next statement. No write waits for a timer: one
 * asked while nothing is in flight is written at once (with those asked in the same tick), so a
 * lone write costs what it did, and under load each statement carries what arrived during the
 * last one.
 */
interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

export class WriteBatches<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private draining = false;

  /**
   * `write` writes a batch in one statement and answers each item's result in order. Items with
   * the same key never share a batch (a later one goes in a later batch, after the earlier is
   * written, as if each had been written alone, in the order asked). `rolledBack` tells a
   * statement the database refused, so wrote nothing (a constraint, a deadlock), from a failure
   * that may have come after its commit (a connection lost): only the former is written again.
   */
  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly keyOf: (item: I) => string,
    private readonly rolledBack: (err: unknown) => boolean,
    private readonly most = 50,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      queueMicrotask(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length) {
        const batch: Array<Waiting<I, O>> = [];
        const rest: Array<Waiting<I, O>> = [];
        const keys = new Set<string>();
        for (const w of this.waiting) {
          const key = this.keyOf(w.item);
          if (batch.length < this.most && !keys.has(key)) {
            keys.add(key);
            batch.push(w);
          } else rest.push(w);
        }
        this.waiting = rest;
        await this.run(batch);
      }
    } catch (err) {
      // Only a bug gets here (run answers its own batch): those still waiting are told, not left waiting.
      for (const w of this.waiting.splice(0)) w.reject(err);
    } finally {
      // In the same microtask as the loop's last check (no await between): a write asked after
      // that check finds draining false and starts the next drain; one asked before is in the loop.
      this.draining = false;
    }
  }

  private async run(batch: Array<Waiting<I, O>>): Promise<void> {
    let out: O[];
    try {
      out = await this.write(batch.map((w) => w.item));
    } catch (err) {
      // A statement the database refused wrote nothing: each is written alone, so that one
      // item's refusal (a name another server took meanwhile, a deadlock with its statement) is
      // its own answer and not the others'. Any other failure (the database gone, a connection
      // lost after the commit perhaps) is every waiter's answer: written again, a creation that
      // was committed would be answered as a name taken.
      if (batch.length === 1 || !this.rolledBack(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await this.run([w]);
      return;
    }
    if (out.length !== batch.length) {
      const err = new Error(`a batch of ${batch.length} writes answered ${out.length} results`);
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => w.resolve(out[i]));
  }
}
