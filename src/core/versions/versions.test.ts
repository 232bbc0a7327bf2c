import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareNumbers, compareReleaseVersions, parseConstraint, parseReleaseVersion, satisfies, selectBestFit, sortReleaseVersions, targetVersion } from './index.js';

const v = (text: string) => {
  const parsed = parseReleaseVersion(text);
  assert.ok(parsed, `${text} parses`);
  return parsed;
};
const holds = (constraint: string, release: string, bare: 'fuel' | 'os' | 'guess' = 'guess') => {
  const c = parseConstraint(constraint, bare);
  assert.ok(c.ok, `${constraint} parses`);
  return satisfies(targetVersion({ release }), c.constraint);
};

test('Fuel release versions parse into their OpenStack and Fuel sides', () => {
  assert.deepEqual(v('2015.1.0-7.0'), { text: '2015.1.0-7.0', os: [2015, 1, 0], fuel: [7, 0] });
  assert.deepEqual(v('liberty-8.0'), { text: 'liberty-8.0', os: [2015, 2], osName: 'liberty', fuel: [8, 0] });
  assert.deepEqual(v('9.0'), { text: '9.0', fuel: [9, 0] });
  assert.deepEqual(v('2014.2'), { text: '2014.2', os: [2014, 2] });
  assert.deepEqual(parseReleaseVersion('9.0', 'os'), { text: '9.0', os: [9, 0] });
  assert.equal(parseReleaseVersion('test-1.0.0')?.osName, 'test');
  for (const bad of ['', '  ', 'x y', '1..2', '-8.0', 'liberty-', '>=8', 'mitaka-x']) assert.equal(parseReleaseVersion(bad), undefined, bad);
});

test('release versions order as Fuel shipped them', () => {
  const shipped = ['2014.2-6.0', '2014.2.2-6.1', '2015.1.0-7.0', 'liberty-8.0', 'liberty-9.0', 'mitaka-9.0', 'newton-10.0'];
  for (let i = 1; i < shipped.length; i++) assert.equal(compareReleaseVersions(v(shipped[i - 1]), v(shipped[i])), -1, `${shipped[i - 1]} < ${shipped[i]}`);
  assert.deepEqual(sortReleaseVersions([...shipped].reverse()), shipped);
  assert.equal(compareReleaseVersions(v('kilo-7.0'), v('2015.1-7.0')), 0);
  assert.equal(compareReleaseVersions(v('8'), v('8.0.0')), 0);
  assert.equal(compareReleaseVersions(v('9.0'), v('2014.2')), undefined, 'no shared side');
});

test('constraints: ranges must all hold, == clauses are alternatives', () => {
  assert.equal(holds('>=7,<=8', '2015.1.0-7.0', 'fuel'), true);
  assert.equal(holds('>=7,<=8', 'liberty-8.0', 'fuel'), true);
  assert.equal(holds('>=7,<=8', 'mitaka-9.0', 'fuel'), false);
  assert.equal(holds('==2014.2,==2015.1', '2014.2.2-6.1', 'os'), true);
  assert.equal(holds('==2014.2,==2015.1', '2015.1.0-7.0', 'os'), true);
  assert.equal(holds('==2014.2,==2015.1', 'liberty-8.0', 'os'), false);
  assert.equal(holds('>=liberty-8.0', 'mitaka-9.0'), true);
  assert.equal(holds('>=liberty-8.0', 'liberty-8.0'), true);
  assert.equal(holds('>=liberty-8.0', '2015.1.0-7.0'), false);
  assert.equal(holds('!=9.0', 'mitaka-9.0', 'fuel'), false);
  assert.equal(holds('>8,<10', 'mitaka-9.0', 'fuel'), true);
  assert.equal(holds('==9', 'mitaka-9.1', 'fuel'), true, '== compares only the parts it names');
  assert.equal(holds('>=7,==7.0,==8.0', 'liberty-8.0', 'fuel'), true);
  assert.equal(holds('>=8,==7.0,==8.0', '2015.1.0-7.0', 'fuel'), false);
});

test('bad constraints are reported, not guessed', () => {
  for (const bad of ['', '>=', '>=7,', '~>8', '>=seven', 42 as unknown as string, null as unknown as string]) {
    const r = parseConstraint(bad);
    if (bad === (42 as unknown as string)) assert.equal(r.ok, true, 'a bare number is a version');
    else assert.equal(r.ok, false, String(bad));
  }
});

test('best fit picks, per id, the record whose bounds sit closest below the release', () => {
  const tasks = [
    { id: 'my-task', 'os-version': '==2014.2,==2015.1', 'fuel-version': '>=7,<=8', manifest: 'legacy' },
    { id: 'my-task', 'os-version': '>=liberty-8.0', 'fuel-version': '>=9', manifest: 'ten' },
    { id: 'plain', manifest: 'always' },
    { id: 'only-old', 'fuel-version': '<8' },
    { id: 'fallback' },
    { id: 'fallback', 'fuel-version': '>=9', manifest: 'specific' },
    { id: 'broken', 'fuel-version': '>=nine' },
  ];
  const pick = (release: string) => selectBestFit(tasks, (t) => t.id, { release });
  const at9 = pick('mitaka-9.0');
  assert.deepEqual(at9.selected.map((t) => `${t.id}:${t.manifest ?? ''}`), ['my-task:ten', 'plain:always', 'fallback:specific']);
  assert.deepEqual(at9.unsatisfied.sort(), ['broken', 'only-old']);
  assert.equal(at9.problems.length, 1);
  const at7 = pick('2015.1.0-7.0');
  assert.deepEqual(at7.selected.map((t) => `${t.id}:${t.manifest ?? ''}`), ['my-task:legacy', 'plain:always', 'only-old:', 'fallback:']);
});

const versionArb = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 9 }), fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }));
const text = ([a, b, c]: [number, number, number | undefined]) => (c === undefined ? `${a}.${b}` : `${a}.${b}.${c}`);

test('property: comparison is antisymmetric and transitive on Fuel versions', () => {
  fc.assert(
    fc.property(versionArb, versionArb, versionArb, (x, y, z) => {
      const [a, b, c] = [x, y, z].map((t) => parseReleaseVersion(text(t), 'fuel')!);
      const ab = compareReleaseVersions(a, b)!;
      assert.equal(compareReleaseVersions(b, a), -ab || 0);
      if (ab <= 0 && compareReleaseVersions(b, c)! <= 0) assert.ok(compareReleaseVersions(a, c)! <= 0);
    }),
  );
});

test('property: ">=x,<y" holds exactly for x <= v < y; "==x,==y" for either', () => {
  fc.assert(
    fc.property(versionArb, versionArb, versionArb, (x, y, t) => {
      const [vx, vy, vt] = [x, y, t].map((p) => parseReleaseVersion(text(p), 'fuel')!);
      const range = parseConstraint(`>=${text(x)},<${text(y)}`, 'fuel');
      assert.ok(range.ok);
      const expected = compareReleaseVersions(vt, vx)! >= 0 && compareReleaseVersions(vt, vy)! < 0;
      assert.equal(satisfies(vt, range.constraint), expected);
      const either = parseConstraint(`==${text(x)},==${text(y)}`, 'fuel');
      assert.ok(either.ok);
      // `==x` names a prefix: 9 covers 9.0 and 9.1; a longer x must equal t once padded with zeros.
      const eq = (x: number[]) => (x.length <= vt.fuel!.length ? x.every((n, i) => vt.fuel![i] === n) : compareNumbers(vt.fuel!, x) === 0);
      assert.equal(satisfies(vt, either.constraint), eq(vx.fuel!) || eq(vy.fuel!));
    }),
  );
});

test('property: best fit keeps exactly one record per satisfiable group', () => {
  const recordArb = fc.record({ id: fc.constantFrom('a', 'b', 'c'), lo: fc.integer({ min: 5, max: 11 }) });
  fc.assert(
    fc.property(fc.array(recordArb, { maxLength: 12 }), fc.integer({ min: 5, max: 11 }), (raw, fuel) => {
      const records = raw.map((r) => ({ id: r.id, 'fuel-version': `>=${r.lo}` }));
      const { selected, unsatisfied } = selectBestFit(records, (r) => r.id, { fuel: `${fuel}.0` });
      const ids = selected.map((r) => r.id);
      assert.equal(new Set(ids).size, ids.length);
      for (const id of new Set(raw.map((r) => r.id))) {
        const fits = raw.filter((r) => r.id === id && r.lo <= fuel);
        if (fits.length === 0) assert.ok(unsatisfied.includes(id));
        else {
          const chosen = selected.find((r) => r.id === id)!;
          assert.equal(chosen['fuel-version'], `>=${Math.max(...fits.map((f) => f.lo))}`);
        }
      }
    }),
  );
});

test('OpenStack releases after zed order by name and by their year numbers alike', () => {
  const names = ['zed', 'antelope', 'bobcat', 'caracal', 'dalmatian', 'epoxy', 'flamingo', 'gazpacho'];
  const v = (t: string) => parseReleaseVersion(t)!;
  for (let i = 1; i < names.length; i++) assert.equal(compareReleaseVersions(v(`${names[i - 1]}-9.0`), v(`${names[i]}-9.0`)), -1, `${names[i - 1]} < ${names[i]}`);
  assert.equal(compareReleaseVersions(v('antelope-9.0'), v('2023.1-9.0')), 0, 'antelope is 2023.1');
  assert.equal(compareReleaseVersions(v('gazpacho-9.0'), v('2026.1-9.0')), 0, 'gazpacho is 2026.1');
  assert.equal(compareReleaseVersions(v('2023.2-9.0'), v('caracal-9.0')), -1);
  assert.deepEqual(sortReleaseVersions(['2026.1-9.0', 'epoxy-9.0', 'zed-9.0', '2023.1-9.0']), ['zed-9.0', '2023.1-9.0', 'epoxy-9.0', '2026.1-9.0']);
});
