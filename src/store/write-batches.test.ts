/** Group commit (write-batches.ts): what goes in which statement, and whose answer a failure is. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBatches } from './write-batches.js';

/** A writer that keeps each batch it was given; `refuse` names items whose batch it throws for. */
function writer(refuse = new Set<string>()) {
  const batches: string[][] = [];
  let release: () => void = () => undefined;
  let held = false;
  const write = async (items: string[]) => {
    batches.push(items);
    if (held) await new Promise<void>((r) => (release = r));
    if (items.some((i) => refuse.has(i))) throw new Error(`refused ${items.join(',')}`);
    return items.map((i) => `wrote ${i}`);
  };
  return { batches, write, hold: () => (held = true), let: () => ((held = false), release()) };
}

test('a write asked while none is in flight is written at once, alone', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i);
  assert.equal(await batches.add('a'), 'wrote a');
  assert.deepEqual(w.batches, [['a']]);
});

test('writes asked while one is in flight go together in the next statement, each with its own answer', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i);
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
  const batches = new WriteBatches(w.write, (i) => i.split('#')[0]!);
  const answers = await Promise.all(['x#1', 'y', 'x#2', 'x#3'].map((i) => batches.add(i)));
  assert.deepEqual(answers, ['wrote x#1', 'wrote y', 'wrote x#2', 'wrote x#3']);
  assert.deepEqual(w.batches, [['x#1', 'y'], ['x#2'], ['x#3']]);
});

test('a batch refused is written again one by one: only the write refused alone fails', async () => {
  const w = writer(new Set(['bad']));
  const batches = new WriteBatches(w.write, (i) => i);
  const answers = await Promise.allSettled(['a', 'bad', 'c'].map((i) => batches.add(i)));
  assert.deepEqual(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message)), ['wrote a', 'refused bad', 'wrote c']);
  assert.deepEqual(w.batches, [['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
});

test('a batch holds at most the given number of writes', async () => {
  const w = writer();
  const batches = new WriteBatches(w.write, (i) => i, 2);
  await Promise.all(['a', 'b', 'c', 'd', 'e'].map((i) => batches.add(i)));
  assert.deepEqual(w.batches, [['a', 'b'], ['c', 'd'], ['e']]);
});
