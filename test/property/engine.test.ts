/**
 * Engine invariants the unit tests do not already cover with fast-check: component names and
 * wildcards, version constraints on any input, and composition of a release with plugins, which
 * must be deterministic and must not depend on the order the plugins are given in.
 * (Component state against validation and graph order against every edge are property-tested in
 * src/core/components/properties.test.ts and src/core/graph/build.test.ts.)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { matches, parsePattern } from '../../src/core/components/index.js';
import { patternProblem } from '../../src/core/components/names.js';
import { parseConstraint, parseReleaseVersion, satisfies } from '../../src/core/versions/index.js';
import { composeRelease, type PluginContribution } from '../../src/core/release/index.js';
import { loadPlugin } from '../../src/package/plugin/index.js';
import { contributionFromPlugin } from '../../src/package/release/contribution.js';
import { readReleasePlugin } from '../../src/package/release/source.js';
import { writePlugin } from '../server/support/plugins.js';
import { defaultRelease } from '../hostile/harness.js';
import { runs } from './options.js';

const segment = fc.stringMatching(/^[a-z0-9_-]{1,6}$/);
const name = fc.tuple(fc.constantFrom('hypervisor', 'network', 'storage', 'additional_service'), fc.array(segment, { minLength: 1, maxLength: 3 })).map(([t, rest]) => [t, ...rest].join(':'));

/** A second reading of Fuel's wildcard rule, as a regular expression: `*` is one whole segment; a trailing `*` is one or more. */
function reference(pattern: string, candidate: string): boolean {
  const segments = pattern.split(':');
  if (!segments.includes('*')) return pattern === candidate;
  const source = segments.map((s, i) => (s !== '*' ? s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : i === segments.length - 1 ? '[^:]*(?::[^:]*)*' : '[^:]*')).join(':');
  return new RegExp(`^${source}$`).test(candidate);
}

test('property: a component name matches itself; wildcard patterns match exactly what the rule says', () => {
  const pattern = fc.tuple(name, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.boolean()).map(([n, stars, trailing]) => {
    const segs = n.split(':').map((s, i) => (i > 0 && stars[i] ? '*' : s));
    return (trailing ? [...segs, '*'] : segs).join(':');
  });
  const candidate = fc.oneof(name, name.map((n) => `${n}:extra`), fc.string({ maxLength: 20 }));
  fc.assert(
    fc.property(name, pattern, candidate, (n, p, c) => {
      assert.equal(patternProblem(n), undefined);
      assert.ok(matches(parsePattern(n), n));
      assert.equal(patternProblem(p), undefined, p);
      assert.equal(matches(parsePattern(p), c), reference(p, c), `${p} against ${c}`);
      // A pattern made from a name by starring segments still matches that name (or its children, when trailing).
      const base = p.endsWith(':*') ? p.slice(0, -2) : p;
      const filled = base.split(':').map((s, i) => (s === '*' ? n.split(':')[i] ?? 'x' : s)).join(':');
      if (!p.endsWith(':*')) assert.ok(matches(parsePattern(p), filled));
    }),
    runs(500),
  );
});

test('property: version constraints never throw; a parsed range holds exactly for versions inside it', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 })), (input) => {
      const parsed = parseConstraint(input);
      if (!parsed.ok) assert.ok(parsed.error.length > 10, 'a refusal says why');
    }),
    runs(1000),
  );
  fc.assert(
    fc.property(fc.integer({ min: 5, max: 12 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 4 }), (major, minor, width) => {
      const parsed = parseConstraint(`>=${major}.${minor},<${major + width}.0`);
      assert.ok(parsed.ok);
      for (let m = major - 1; m <= major + width; m++) {
        const v = parseReleaseVersion(`newton-${m}.${minor}`);
        assert.ok(v, `newton-${m}.${minor} parses`);
        assert.equal(satisfies(v, parsed.constraint), m >= major && m < major + width, `${m}.${minor}`);
      }
    }),
    runs(200),
  );
});

const folder = mkdtempSync(join(tmpdir(), 'hearth-property-plugins-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Plugins that touch the same things from different sides: roles, components, tasks, settings. */
function contributions(): PluginContribution[] {
  const specs = [
    { name: 'alpha', setting: { name: 'level', value: 'low' }, tasks: ['alpha-task'] },
    { name: 'beta', incompatible: ['additional_service:alpha'], tasks: ['shared-task'] },
    { name: 'gamma', roleConflicts: '*' as const, roleMax: 1, tasks: ['shared-task'] },
    { name: 'delta', role: 'delta-node', tasks: ['netconfig'] },
    { name: 'epsilon', component: 'network:neutron:ml2:epsilon', tasks: ['epsilon-task'] },
  ];
  return specs.map((spec) => {
    const loaded = loadPlugin(writePlugin(spec, folder));
    assert.ok(loaded.plugin, JSON.stringify(loaded.findings));
    return contributionFromPlugin(loaded.plugin).contribution;
  });
}

test('property: composing a release with plugins is deterministic and does not depend on their order', () => {
  const release = readReleasePlugin(defaultRelease).releases[0];
  assert.ok(release);
  const all = contributions();
  /** Everything but the list of applied plugins, which records the order on purpose. */
  const comparable = (plugins: PluginContribution[]) => {
    const c = composeRelease(release, plugins);
    const { applied_plugins: applied, ...composed } = c.composed;
    return { composed, applied: [...applied].sort((a, b) => a.name.localeCompare(b.name)), findings: [...c.findings].map((f) => `${f.code} ${f.message}`).sort(), outcomes: c.plugins.map((p) => `${p.name} ${String(p.applied)}`).sort() };
  };
  fc.assert(
    fc.property(fc.shuffledSubarray(all, { minLength: 1 }), (chosen) => {
      const once = comparable(chosen);
      assert.ok(once.outcomes.some((o) => o.endsWith(' true')), `some plugin applies: ${once.outcomes.join(', ')}`);
      assert.deepEqual(comparable(chosen), once, 'the same input composes the same way twice');
      assert.deepEqual(comparable([...chosen].reverse()), once, 'the order of the plugins does not matter');
    }),
    runs(40),
  );
});
