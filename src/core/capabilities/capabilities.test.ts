/** The pure rules: matching, summary, environment reading, merging, resolution and lookup. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  explainMatch,
  findAliasLoops,
  lookupType,
  matchesCapabilities,
  mergeEnvironments,
  readEnvironment,
  resolveEnvironment,
  summariseCapabilities,
  type CandidateCapabilities,
  type Capabilities,
} from './index.js';

const locate = (written: string) => ({ location: `/t/${written}`, display: written });
const env = (value: unknown, file = 'env.yaml') => readEnvironment(value, file, locate);

test('matching is strict, by text, and by list membership', () => {
  const caps: Capabilities = { deployment: 'puppet', version: 6, ha: true, resource_type: ['OS::A', 'OS::B'], gone: null };
  assert.equal(matchesCapabilities(caps, {}), true);
  assert.equal(matchesCapabilities(caps, { deployment: 'puppet', version: '6', ha: 'true', resource_type: 'OS::B' }), true);
  assert.equal(matchesCapabilities(caps, { deployment: 'Puppet' }), false);
  assert.deepEqual(explainMatch(caps, { gone: 'x', layout: 'y', resource_type: 'OS::C', deployment: 'docker' }).failures, [
    { key: 'gone', wanted: 'x', reason: 'missing' },
    { key: 'layout', wanted: 'y', reason: 'missing' },
    { key: 'resource_type', wanted: 'OS::C', reason: 'not-in-list', found: ['OS::A', 'OS::B'] },
    { key: 'deployment', wanted: 'docker', reason: 'different', found: 'puppet' },
  ]);
  assert.equal(matchesCapabilities(undefined, { a: 'b' }), false);
  assert.equal(matchesCapabilities({ a: { nested: 'b' } }, { a: 'b' }), false);
});

test('summary keeps first-seen order without repeats, in file order', () => {
  const summary = summariseCapabilities([
    { template: 'p.yaml', capabilities: { deployment: 'puppet', resource_type: 'OS::C' }, resourceTypes: ['OS::C'] },
    { template: 'd.yaml', capabilities: { deployment: ['docker', 'puppet'], resource_type: ['OS::C', 'OS::D'] }, resourceTypes: ['OS::C', 'OS::D'] },
    { template: 'none.yaml', resourceTypes: [] },
  ]);
  assert.deepEqual(summary, { tags: { deployment: ['puppet', 'docker'] }, types: { 'OS::C': ['p.yaml', 'd.yaml'], 'OS::D': ['d.yaml'] } });
});

test('registry values are classified as Heat classifies them', () => {
  const read = env({ resource_registry: { 'OS::A': 'a.yaml', 'OS::B': 'OS::Heat::None', 'OS::C': [ 'c.template', 'OS::X' ], 'OS::D': null, 'OS::E': 'x.yml', 'OS::F': 3 } });
  const kinds = Object.fromEntries([...read.registry.values()].map((e) => [e.key, e.value.kind === 'single' ? e.value.target.kind : e.value.kind]));
  assert.deepEqual(kinds, { 'OS::A': 'template', 'OS::B': 'type', 'OS::C': 'candidates', 'OS::D': 'delete', 'OS::E': 'other' });
  assert.deepEqual(read.findings.map((f) => f.code), ['environment/not-a-template', 'environment/bad-registry-value']);
  assert.deepEqual(env('text').findings.map((f) => f.code), ['environment/not-a-mapping']);
  assert.deepEqual(env(null).findings, []);
});

test('merging: later files win key by key, requires too; null deletes, a trailing * by prefix', () => {
  const merged = mergeEnvironments([
    env({ requires: { a: '1', b: '2' }, resource_registry: { 'OS::A': 'a.yaml', 'OS::N::X': 'x.yaml', 'OS::N::Y': 'y.yaml', resources: { r1: { 'OS::A': 'r1.yaml' } } } }, 'one.yaml'),
    env({ requires: { b: '3' }, resource_registry: { 'OS::A': ['a.yaml', 'b.yaml'], 'OS::N::*': null, resources: { r2: { hooks: 'pre-create' } } } }, 'two.yaml'),
  ]);
  assert.deepEqual(Object.fromEntries([...merged.requires].map(([k, v]) => [k, [v.value, v.file]])), { a: ['1', 'one.yaml'], b: ['3', 'two.yaml'] });
  assert.deepEqual([...merged.registry.keys()], ['OS::A']);
  assert.equal(merged.registry.get('OS::A')?.value.kind, 'candidates');
  assert.deepEqual([...merged.resources.keys()], ['r1', 'r2']);
});

test('resolution: one fit chosen, zero and several explained; types fit only empty requirements', () => {
  const caps: Record<string, CandidateCapabilities> = {
    '/t/p.yaml': { readable: true, capabilities: { deployment: 'puppet' } },
    '/t/d.yaml': { readable: true, capabilities: { deployment: 'docker' } },
    '/t/gone.yaml': { readable: false, reason: 'no such file' },
  };
  const merged = mergeEnvironments([
    env({ requires: { deployment: 'docker' }, resource_registry: { 'OS::A': ['p.yaml', 'd.yaml', 'OS::Heat::None'], 'OS::B': ['p.yaml', 'gone.yaml'], 'OS::C': 'p.yaml' } }),
  ]);
  const result = resolveEnvironment(merged, (location) => caps[location]);
  assert.deepEqual(result.resolved, { 'OS::A': 'd.yaml', 'OS::C': 'p.yaml' });
  assert.equal(result.errors.length, 1);
  assert.deepEqual(result.errors[0].verdicts.map((v) => [v.candidate, v.fits, v.unreadable ?? null]), [
    ['p.yaml', false, null],
    ['gone.yaml', false, 'no such file'],
  ]);
  assert.match(result.errors[0].message, /gone\.yaml: could not be read \(no such file\)/);
});

test('lookup: per-resource, exact before wildcard, wildcard substitution, aliases followed, exclusions', () => {
  const merged = mergeEnvironments([
    env({
      resource_registry: {
        'OS::Networking::*': 'OS::Neutron::*',
        'OS::Neutron::Port': 'port.yaml',
        'OS::Networking::FIP': 'fip.yaml',
        'OS::Alias': 'OS::Networking::Port',
        'OS::*': 'OS::Heat::None',
        resources: { special: { 'OS::Alias': 'special.yaml' } },
      },
    }),
  ]);
  const resolution = resolveEnvironment(merged, () => ({ readable: true }));
  const found = (type: string, options = {}) => {
    const r = lookupType(resolution, type, options);
    return r.kind === 'template' ? r.ref.display : r.kind === 'unmapped' ? `unmapped:${r.type}` : r.kind;
  };
  assert.equal(found('OS::Networking::Port'), 'port.yaml');
  assert.equal(found('OS::Networking::FIP'), 'fip.yaml');
  assert.equal(found('OS::Alias'), 'port.yaml');
  assert.equal(found('OS::Alias', { resource: 'special' }), 'special.yaml');
  assert.equal(found('OS::Other'), 'unmapped:OS::Heat::None');
  assert.equal(found('OS::Heat::None'), 'unmapped:OS::Heat::None');
  assert.equal(found('OS::Neutron::Port', { excluded: new Set(['OS::Neutron::Port']) }), 'unmapped:OS::Heat::None');
  assert.deepEqual(findAliasLoops(resolution), []);
});
