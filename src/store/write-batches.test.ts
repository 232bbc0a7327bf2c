/** Group commit (write-batches.ts): what goes in which statement, and whose answer a failure is. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBatches } from './write-batches.js';

/** A writer that keeps each batch it was given; `refuse` names items whose batch it throws for. */
function writer(refuse = new Set<string>()) {
  const batches: string[][] = [];
  let release: () => void = () => undefined;
  let held = false;
  let down = false;
  const write = async (items: string[]) => {
    batches.push(items);
    if (held) await new Promise<void>((r) => (release = r));
    if (items.some((i) => refuse.has(i))) throw Object.assign(new Error(`refused ${items.join(',')}`), { code: '23514' });
    if (down) throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    return items.map((i) => `wrote ${i}`);
  };
  return { batches, write, hold: () => (held = true), let: () => ((held = false), release()), down: () => (down = true) };
}

/** What the store calls a statement refused (clusters.ts's statementRefused, in short). */
const refused = (err: unknown) => (err as { code?: string }).code === '23514';

test('a write asked while none is in flight is written at once, alone', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i, refused);
  assert.equal(await batches.add('a'), 'wrote a');
  assert.deepEqual(w.batches, [['a']]);
});

test('writes asked while one is in flight go together in the next statement, each with its own answer', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i, refused);
  w.hold();
  const first = batches.add('a');
  await new Promise((r) => setImmediate(r));
  const rest = ['b', 'c', 'd'].map((i) => batches.add(i));
  w.let();
  assert.deepEqual(await Promise.all([first, ...rest]), ['wrote a', 'wrote b', 'wrote c', 'wrote d']);
  assert.deepEqual(w.batches, [['a'], ['b', 'c', 'd']]);
});

test('two writes with one key never share a statement: the later goes after, in the order asked', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i.split('#')[0]!, refused);
  const answers = await Promise.all(['x#1', 'y', 'x#2', 'x#3'].map((i) => batches.add(i)));
  assert.deepEqual(answers, ['wrote x#1', 'wrote y', 'wrote x#2', 'wrote x#3']);
  assert.deepEqual(w.batches, [['x#1', 'y'], ['x#2'], ['x#3']]);
});

test('a batch refused is written again one by one: only the write refused alone fails', async () => {
  const w = writer(new Set(['bad']));
  const batches = new WriteBatches(w.write, (i) => i, refused);
  const answers = await Promise.allSettled(['a', 'bad', 'c'].map((i) => batches.add(i)));
  assert.deepEqual(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message)), ['wrote a', 'refused bad', 'wrote c']);
  assert.deepEqual(w.batches, [['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
});

test('a batch holds at most the given number of writes', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i, refused, 2);
  await Promise.all(['a', 'b', 'c', 'd', 'e'].map((i) => batches.add(i)));
  assert.deepEqual(w.batches, [['a', 'b'], ['c', 'd'], ['e']]);
});

test('a batch that failed otherwise (the database gone) fails every waiter, and is not written again', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i, refused);
  w.down();
  const answers = await Promise.allSettled(['a', 'b', 'c'].map((i) => batches.add(i)));
  assert.deepEqual(answers.map((a) => (a.status === 'rejected' ? (a.reason as Error).message : a.value)), ['connection lost', 'connection lost', 'connection lost']);
  assert.deepEqual(w.batches, [['a', 'b', 'c']]);
});

test('after a failed batch the next write is written: no write waits for a drain that is over', async () => {
  const w = writer(new Set(['bad']));
  const batches = new WriteBatches(w.write, (i) => i, refused);
  await assert.rejects(batches.add('bad'), /refused bad/);
  assert.equal(await batches.add('next'), 'wrote next');
});

test('rounds of writes, each asked as soon as the last round is settled, refused ones among them: every write is answered', async () => {
  const w = writer(new Set(['r1-bad', 'r3-bad']));
  const batches = new WriteBatches(w.write, (i) => i, refused);
  for (let round = 0; round < 5; round++) {
    // Asked in the microtasks that follow the last round's answers, while its drain is ending.
    const settled = await Promise.allSettled([`r${round}-a`, `r${round}-bad`, `r${round}-b`].map((i) => batches.add(i)));
    assert.deepEqual(settled.map((x) => x.status), ['fulfilled', round === 1 || round === 3 ? 'rejected' : 'fulfilled', 'fulfilled']);
  }
});
