/** A growable list of edges in two typed arrays: millions of edges without millions of objects. */
export class EdgeBuffer {
  from: Int32Array;
  to: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
  }

  add(from: number, to: number): void {
    if (this.length === this.from.length) this.grow(1);
    this.from[this.length] = from;
    this.to[this.length] = to;
    this.length++;
  }

  /** Edges `from[i] + fromShift -> to[i] + toShift`: a class's edges on one node. */
  addShifted(from: readonly number[], to: readonly number[], fromShift: number, toShift: number): void {
    const n = from.length;
    if (this.length + n > this.from.length) this.grow(n);
    const at = this.length;
    for (let i = 0; i < n; i++) {
      this.from[at + i] = from[i] + fromShift;
      this.to[at + i] = to[i] + toShift;
    }
    this.length = at + n;
  }

  /** Edges from `[from, to, from, to, ...]` pairs, shifted as addShifted does. */
  addPairs(pairs: readonly number[], fromShift: number, toShift: number): void {
    const n = pairs.length >> 1;
    if (this.length + n > this.from.length) this.grow(n);
    const at = this.length;
    for (let i = 0; i < n; i++) {
      this.from[at + i] = pairs[2 * i] + fromShift;
      this.to[at + i] = pairs[2 * i + 1] + toShift;
    }
    this.length = at + n;
  }

  /** Another buffer's edges, shifted as addShifted does, into room made to measure. */
  addBuffer(other: EdgeBuffer, fromShift: number, toShift: number): void {
    const n = other.length;
    this.reserve(n);
    const at = this.length;
    for (let i = 0; i < n; i++) {
      this.from[at + i] = other.from[i] + fromShift;
      this.to[at + i] = other.to[i] + toShift;
    }
    this.length = at + n;
  }

  /** Room for exactly `more` edges beyond those held, when the count is known. */
  reserve(more: number): void {
    if (this.length + more <= this.from.length) return;
    const nextFrom = new Int32Array(this.length + more);
    nextFrom.set(this.from.subarray(0, this.length));
    const nextTo = new Int32Array(this.length + more);
    nextTo.set(this.to.subarray(0, this.length));
    this.from = nextFrom;
    this.to = nextTo;
  }

  /** Room for `more` edges, doubling. */
  private grow(more: number): void {
    let size = Math.max(1, this.from.length * 2);
    while (size < this.length + more) size *= 2;
    const nextFrom = new Int32Array(size);
    nextFrom.set(this.from.subarray(0, this.length));
    const nextTo = new Int32Array(size);
    nextTo.set(this.to.subarray(0, this.length));
    this.from = nextFrom;
    this.to = nextTo;
  }

  /** The edges in arrays of their length (the buffer's own when full), for the finished graph. */
  finish(): { from: Int32Array; to: Int32Array } {
    if (this.length === this.from.length) return { from: this.from, to: this.to };
    return { from: this.from.slice(0, this.length), to: this.to.slice(0, this.length) };
  }
}

/** Compressed adjacency: the successors of `v` are `targets[offsets[v] .. offsets[v+1])`. */
export interface Adjacency {
  offsets: Int32Array;
  targets: Int32Array;
}

export function adjacency(vertexCount: number, from: Int32Array, to: Int32Array, length = from.length): Adjacency {
  const offsets = new Int32Array(vertexCount + 1);
  for (let i = 0; i < length; i++) offsets[from[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] += offsets[v];
  const cursor = offsets.slice(0, vertexCount);
  const targets = new Int32Array(length);
  for (let i = 0; i < length; i++) targets[cursor[from[i]]++] = to[i];
  return { offsets, targets };
}
