import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { withoutOptimisingCompiler } from './short-run.js';

test('the work runs, its value or its error comes back', () => {
  assert.equal(
    withoutOptimisingCompiler(() => 42),
    42,
  );
  assert.throws(
    () =>
      withoutOptimisingCompiler(() => {
        throw new RangeError('from the work');
      }),
    /from the work/,
  );
});

/**
 * Runs `body` in a child Node with V8's test intrinsics (they need a flag of their own), where
 * `optimised()` forces TurboFan at a fresh function and says whether it was optimised; answers the
 * JSON the body prints.
 */
function probe(body: string, nodeFlags: string[] = []): unknown {
  const source = `
    import { withoutOptimisingCompiler } from ${JSON.stringify(new URL('./short-run.ts', import.meta.url).href)};
    const optimised = () => {
      const f = (x) => x * 2 + 1;
      for (let i = 0; i < 1000; i++) f(i);
      %PrepareFunctionForOptimization(f);
      f(1);
      %OptimizeFunctionOnNextCall(f);
      f(2);
      // V8's own question, not %GetOptimizationStatus's bits, whose meaning moved in Node 26 (V8 14).
      return %ActiveTierIsTurbofan(f);
    };
    ${body}`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', ...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', source], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const leavesFlagsAlone = Number(process.versions.node.split('.')[0]) >= 22;

test('Node 22 and later: V8 flags are not changed at run time, the work is optimised as usual', { skip: leavesFlagsAlone ? false : 'Node 20 switches TurboFan off for the work (tested below)' }, () => {
  const answer = probe(`console.log(JSON.stringify({ during: withoutOptimisingCompiler(optimised), after: optimised() }));`);
  assert.deepEqual(answer, { during: true, after: true });
});

test('nothing is optimised during the work, and optimising works again after it, even after an error', { skip: leavesFlagsAlone ? 'Node 22+ leaves V8 flags alone (tested above)' : false }, () => {
  const answer = probe(`
    const during = withoutOptimisingCompiler(optimised);
    try { withoutOptimisingCompiler(() => { throw new Error('x'); }); } catch {}
    console.log(JSON.stringify({ during, after: optimised() }));`);
  assert.deepEqual(answer, { during: false, after: true });
});

test('a user who chose about optimisation when starting Node keeps the choice', () => {
  const answer = probe(`console.log(JSON.stringify({ during: withoutOptimisingCompiler(optimised) }));`, ['--turbofan']);
  assert.deepEqual(answer, { during: true });
});
