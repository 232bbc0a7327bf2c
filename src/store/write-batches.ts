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
   * written, as if each had been written alone, in the order asked).
   */
  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly keyOf: (item: I) => string,
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
    this.draining = false;
  }

  private async run(batch: Array<Waiting<I, O>>): Promise<void> {
    let out: O[];
    try {
      out = await this.write(batch.map((w) => w.item));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // The statement wrote nothing: each is written alone, so that one item's refusal (a name
      // another server took meanwhile, say) is its own answer and not the others'.
      for (const w of batch) await this.run([w]);
      return;
    }
    batch.forEach((w, i) => w.resolve(out[i]));
  }
}
