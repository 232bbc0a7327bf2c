/**
 * A release whose task conditions read a setting it does not define is invalid (issue 16 item 7):
 * the bundled release's monitoring tasks read `$.additional_components.monitoring`, which
 * Nailgun's deployment data never has (it holds `$.monitoring.enabled`), so they ran on every node
 * without Monitoring chosen. The bundled release is clean; a copy with the old conditions is not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validatePlugin } from '../../src/package/validate/index.js';
import { conditionsReadingMissingSettings } from '../../src/core/settings/conditions.js';
import { normalizeTasks } from '../../src/core/tasks/index.js';

const bundled = fileURLToPath(new URL('../../release', import.meta.url));
const graphFile = join('hearth-2026.1', 'graphs', 'deployment.yaml');

test('the bundled release reads only settings it defines', () => {
  const result = validatePlugin(bundled);
  assert.deepEqual(result.findings.filter((f) => f.code === 'task/condition-reads-missing-setting').map((f) => f.message), []);
});

test('a release whose tasks read a folded-away or missing setting is refused, at the task, with the form to write', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-release-'));
  try {
    cpSync(bundled, dir, { recursive: true });
    const file = join(dir, graphFile);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /yaql_exp: \$\.monitoring\.enabled/);
    writeFileSync(file, text.replace(/yaql_exp: \$\.monitoring\.enabled/g, 'yaql_exp: $.additional_components.monitoring').replace('$.storage.objects_ceph', '$.storage.object_ceph'));
    const result = validatePlugin(dir);
    assert.equal(result.valid, false);
    const found = result.findings.filter((f) => f.code === 'task/condition-reads-missing-setting');
    const prometheus = found.find((f) => f.message.startsWith("task 'prometheus'"));
    assert.ok(prometheus, found.map((f) => f.message).join('\n'));
    assert.equal(prometheus.hint, 'read it as $.monitoring.enabled');
    assert.equal(prometheus.file, graphFile.split('\\').join('/'));
    assert.ok((prometheus.line ?? 0) > 1);
    const typo = found.find((f) => f.message.includes('$.storage.object_ceph'));
    assert.ok(typo, 'a misspelt attribute of a real section');
    assert.match(typo.message, /settings section 'storage' has no 'object_ceph'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('restriction-language conditions are checked the same way; keys outside the settings are not judged', () => {
  const attributes = { editable: { storage: { metadata: {}, volumes_ceph: { value: false } }, additional_components: { monitoring: { value: false } } } };
  const tasks = normalizeTasks(
    [
      { id: 'a', type: 'shell', version: '2.0.0', roles: ['controller'], condition: 'settings:storage.volume_ceph.value == true', parameters: { cmd: 'true' } },
      { id: 'b', type: 'shell', version: '2.0.0', roles: ['controller'], condition: 'settings:additional_components.monitoring.value == true', parameters: { cmd: 'true' } },
      { id: 'c', type: 'shell', version: '2.0.0', roles: ['controller'], condition: { yaql_exp: "'controller' in $.roles and $.network_metadata.vips.len() > 0" }, parameters: { cmd: 'true' } },
    ],
    { source: 'test', file: 'tasks.yaml' },
    'deployment',
  ).tasks;
  const found = conditionsReadingMissingSettings(attributes, { default: { tasks } });
  assert.deepEqual(
    found.map((f) => f.message.split(':')[0]),
    ["task 'a' (default graph)"],
  );
  assert.match(found[0].message, /settings:storage\.volume_ceph\.value, but settings section 'storage' has no 'volume_ceph'/);
});
