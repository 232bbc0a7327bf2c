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

test('nothing is optimised during the work, and optimising works again after it, even after an error', () => {
  // V8's test intrinsics say whether a function was optimised: asked in a child process, as they
  // need a flag of their own.
  const probe = `
    import { withoutOptimisingCompiler } from ${JSON.stringify(new URL('./short-run.ts', import.meta.url).href)};
    const optimised = () => {
      const f = (x) => x * 2 + 1;
      for (let i = 0; i < 1000; i++) f(i);
      %PrepareFunctionForOptimization(f);
      f(1);
      %OptimizeFunctionOnNextCall(f);
      f(2);
      return (%GetOptimizationStatus(f) & 16) !== 0;
    };
    const during = withoutOptimisingCompiler(optimised);
    try { withoutOptimisingCompiler(() => { throw new Error('x'); }); } catch {}
    console.log(JSON.stringify({ during, after: optimised() }));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { during: false, after: true });
});

test('a user who chose about optimisation when starting Node keeps the choice', () => {
  const probe = `
    import { withoutOptimisingCompiler } from ${JSON.stringify(new URL('./short-run.ts', import.meta.url).href)};
    const f = (x) => x * 2 + 1;
    const during = withoutOptimisingCompiler(() => {
      for (let i = 0; i < 1000; i++) f(i);
      %PrepareFunctionForOptimization(f);
      f(1);
      %OptimizeFunctionOnNextCall(f);
      f(2);
      return (%GetOptimizationStatus(f) & 16) !== 0;
    });
    console.log(JSON.stringify({ during }));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--turbofan', '--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { during: true });
});
