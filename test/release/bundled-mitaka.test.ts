/**
 * The bundled release says plugins for mitaka-9.0 work with it (compatible_versions), so it has
 * every Fuel 9.0 task id and role group real Mitaka plugins order their tasks against (issue 28
 * item 13): composed with it, a real plugin loses no ordering that Fuel's own Mitaka release kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../src/core/findings.js';
import { loadReleaseSource } from '../../src/package/release/source.js';
import { packageRoot } from '../../src/package/root.js';
import { join } from 'node:path';
import { needsCorpus } from '../support/corpus.js';
import { mitakaRelease, validateCorpusPlugin } from '../validator/support.js';

const ORDER_LOST = new Set(['task/unknown-dependency', 'task/unknown-group-member', 'task/unknown-cross-dependency']);
const lost = (findings: Finding[]) => findings.filter((f) => ORDER_LOST.has(f.code)).map((f) => `${f.code} ${f.file}:${f.line} ${f.message}`);

test('real Mitaka plugins compose with the bundled release losing no order that Fuel 9.0 kept', needsCorpus, () => {
  const bundled = loadReleaseSource(join(packageRoot(), 'release')).release;
  assert.ok(bundled);
  for (const name of ['fuel-plugin-detach-database', 'fuel-plugin-murano', 'fuel-plugin-lma-collector', 'fuel-plugin-openstack-telemetry', 'fuel-plugin-contrail', 'fuel-plugin-detach-keystone', 'fuel-plugin-manila']) {
    // What Fuel's own Mitaka release says too is the plugin's (a task of another plugin), not the release's.
    const place = (l: string): string => l.split(' ').slice(0, 2).join(' ');
    const inMitaka: Set<string> = new Set(lost(validateCorpusPlugin(name, mitakaRelease()).findings).map(place));
    const here: string[] = lost(validateCorpusPlugin(name, bundled).findings).filter((l) => !inMitaka.has(place(l)));
    assert.deepEqual(here, [], name);
  }
});

test("the Fuel 9.0 ids the bundled release adds run nothing on a node (type skipped), the release's own tasks unchanged", () => {
  const bundled = loadReleaseSource(join(packageRoot(), 'release')).release;
  const tasks = bundled?.graphs?.default?.tasks ?? [];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const id of ['controller', 'primary-controller', 'fuel_pkgs', 'hiera_default_route', 'primary-cluster', 'primary-database', 'primary-keystone', 'connectivity_tests']) {
    assert.equal(byId.get(id)?.type, 'skipped', id);
  }
  // The release's own work is still done by its own tasks.
  for (const id of ['hiera', 'globals', 'netconfig', 'hosts']) assert.notEqual(byId.get(id)?.type, 'skipped', id);
});
