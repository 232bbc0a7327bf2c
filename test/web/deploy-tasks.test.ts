/**
 * The Deploy tab's list of a run's tasks as the live stream changes it: the changes of one look
 * are merged together (mergeTasks) and the list is ordered failures first (failuresFirst). Both
 * must give exactly what merging each event on its own and sorting with byFailuresFirst gave, on
 * any sequence of events, whatever groups they arrive in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byFailuresFirst, failuresFirst, liveKey, mergeTasks, type TaskRun } from '../../web/src/deploy/model.js';

/** A small random generator with a seed, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return (n: number) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const STATUSES = ['pending', 'running', 'ready', 'error', 'stopped', 'skipped'];
const MESSAGES = [null, 'timed out after 30 s', 'killed after the grace period', 'exit status 2', 'not run: a task it needs failed'];
const OUTCOMES = [undefined, 'failed', 'succeeded', 'not_run', 'bogus'];

function randomTask(pick: (n: number) => number, nodes: number, tasks: number, position: number): TaskRun {
  const t: TaskRun = { node: String(pick(nodes) + 1), taskId: `task-${pick(tasks)}`, position, status: STATUSES[pick(STATUSES.length)] };
  const message = MESSAGES[pick(MESSAGES.length)];
  if (message !== null) t.message = message;
  const outcome = OUTCOMES[pick(OUTCOMES.length)];
  if (outcome !== undefined) t.outcome = outcome;
  if (pick(2)) t.exit_status = pick(3);
  return t;
}

/** What the page did before: each event merged on its own, into a copy, found by a search. */
function mergeOneByOne(tasks: readonly TaskRun[], change: TaskRun): TaskRun[] {
  const next = [...tasks];
  const at = next.findIndex((x) => x.node === change.node && x.taskId === change.taskId);
  if (at >= 0) next[at] = { ...next[at], ...change };
  else next.push(change);
  return next;
}

test('changes merged a look at a time give the list that merging them one by one gave, however they are grouped', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const pick = random(seed);
    const nodes = 1 + pick(6);
    const kinds = 1 + pick(12);
    // A first listing with each (node, task) once, as GET /deployments/{id}/tasks gives it.
    const first = new Map<string, TaskRun>();
    for (let i = 0; i < pick(40); i++) {
      const t = randomTask(pick, nodes, kinds, i);
      first.set(liveKey(t.node, t.taskId), t);
    }
    let expected: TaskRun[] = [...first.values()];
    let merged: TaskRun[] = expected;
    for (let look = 0; look < 30; look++) {
      const changes = Array.from({ length: pick(8) }, (_, i) => randomTask(pick, nodes, kinds, 1000 + look * 10 + i));
      for (const c of changes) expected = mergeOneByOne(expected, c);
      const before = merged;
      merged = mergeTasks(merged, changes);
      assert.deepEqual(merged, expected, `seed ${seed}, look ${look}`);
      // React may run an update twice from the same list: the same answer, and the list merged
      // from is left as it was.
      if (changes.length && pick(3) === 0) {
        const copy = structuredClone(before);
        assert.deepEqual(mergeTasks(before, changes), expected, `seed ${seed}, look ${look}, asked twice`);
        assert.deepEqual(before, copy, 'the list merged from is unchanged');
      }
    }
  }
});

test('no change keeps the list; a change to a task listed updates it in place and keeps what the change does not say', () => {
  const list: TaskRun[] = [
    { node: '1', taskId: 'a', position: 0, status: 'running', started_at: '2026-11-29T10:00:00.000Z' },
    { node: '2', taskId: 'a', position: 1, status: 'pending' },
  ];
  assert.equal(mergeTasks(list, []), list);
  const next = mergeTasks(list, [{ node: '1', taskId: 'a', position: 0, status: 'ready', finished_at: '2026-11-29T10:00:03.000Z' }, { node: '3', taskId: 'b', position: 2, status: 'running' }]);
  assert.deepEqual(next, [
    { node: '1', taskId: 'a', position: 0, status: 'ready', started_at: '2026-11-29T10:00:00.000Z', finished_at: '2026-11-29T10:00:03.000Z' },
    { node: '2', taskId: 'a', position: 1, status: 'pending' },
    { node: '3', taskId: 'b', position: 2, status: 'running' },
  ]);
  assert.equal(list.length, 2, 'the old list is not changed');
  assert.equal(list[0].status, 'running');
});

test('failures first: the order byFailuresFirst gives, without changing the list', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const pick = random(seed * 7919);
    const tasks = Array.from({ length: pick(300) }, (_, i) => randomTask(pick, 5, 50, pick(2) ? i : pick(1000)));
    const copy = [...tasks];
    assert.deepEqual(failuresFirst(tasks), [...tasks].sort(byFailuresFirst), `seed ${seed}`);
    assert.deepEqual(tasks, copy, 'the list given is left in its order');
  }
});
