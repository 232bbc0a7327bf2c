/**
 * What a server keeps of its running tasks' output (issue 25), so a page opened late shows a
 * running task's output so far: each chunk stamped with where it starts (the live stream carries
 * it, so a page joins what it read with what it receives), each task bounded to its last part, and
 * a run bounded in all, forgetting the task that printed longest ago first.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import { keepLiveOutput, LiveOutput, liveOutputOf, type LiveChunk } from '../../src/server/domain/runs/live-output.js';

describe('live output of a running deployment', () => {
  test('every chunk a follower receives says where it starts; the whole output so far is read', () => {
    const emitter = new EventEmitter();
    const live = keepLiveOutput(emitter);
    const seen: LiveChunk[] = [];
    // A follower that joins later (the live stream) sees the offset the keeper stamped.
    emitter.emit('chunk', { node: '1', task_id: 'a', chunk: 'one\n' });
    emitter.on('chunk', (c: LiveChunk) => seen.push({ ...c }));
    emitter.emit('chunk', { node: '1', task_id: 'a', chunk: 'two\n' });
    emitter.emit('chunk', { node: '2', task_id: 'a', chunk: 'other' });
    assert.deepEqual(seen.map((c) => c.offset), [4, 0]);
    assert.deepEqual(live.read('1', 'a'), { output: 'one\ntwo\n', end: 8 });
    assert.equal(liveOutputOf(emitter), live);
    assert.equal(liveOutputOf(new EventEmitter()), undefined, 'a run this server does not keep');
  });

  test('a task keeps its last part; the run forgets the task that printed longest ago first', () => {
    const live = new LiveOutput(10, 25);
    live.add('1', 'old', 'x'.repeat(8));
    live.add('2', 'mid', 'abcdefghijklmno');
    assert.deepEqual(live.read('2', 'mid'), { output: 'fghijklmno', end: 15 }, 'the last 10 characters, and how many were printed');
    live.add('3', 'new', '0123456789');
    assert.ok(live.kept <= 25, `bounded: ${live.kept}`);
    assert.equal(live.read('1', 'old'), undefined, 'the oldest writer is forgotten');
    assert.deepEqual(live.read('3', 'new'), { output: '0123456789', end: 10 });
    assert.equal(live.add('2', 'mid', 'p'), 15, 'offsets count everything printed, forgotten or not');
  });
});
