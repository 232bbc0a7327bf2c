/**
 * The components design's own sample catalog (`hypervisor:sub:A`, `network:C`, `storage:D`) as a
 * plugin's components.yaml: Hearth follows Fuel, whose names are lower case, and says so in plain
 * words at each name (not by quoting the schema's pattern); the same catalog in lower case is valid.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

const SAMPLE = `- name: 'hypervisor:sub:A'
  label: A
- name: 'hypervisor:sub:B'
  label: B
- name: 'network:C'
  label: C
- name: 'storage:D'
  label: D
  requires:
    - name: 'hypervisor:sub:A'
    - name: 'hypervisor:sub:B'
    - name: 'network:C'
- name: 'storage:E'
  label: E
  requires:
    - name: 'hypervisor:sub:*'
    - name: 'network:C'
`;

function pluginWith(components: string): string {
  const created = createPlugin(`names${Math.random().toString(36).slice(2, 8)}`, { parentDir: work.path, packageVersion: '5.0.0' });
  assert.ok(created.ok);
  writeFileSync(join(created.dir!, 'components.yaml'), components);
  return created.dir!;
}

test("the design's capitalised sample names: one plain finding per name, saying names are lower case and why", () => {
  const r = validatePlugin(pluginWith(SAMPLE));
  const cases = r.findings.filter((f) => f.code === 'component/name-not-lower-case');
  assert.deepEqual(cases.map((f) => f.line), [1, 3, 5, 7, 10, 11, 12, 13, 17]);
  assert.ok(cases.every((f) => f.severity === 'error' && f.file === 'components.yaml'));
  assert.match(cases[0].message, /'hypervisor:sub:A' has capital letters; component names are lower case: Fuel accepts only a-z, 0-9, '_' and '-'/);
  assert.match(cases[0].hint ?? '', /write 'hypervisor:sub:a'/);
  assert.deepEqual(r.findings.filter((f) => f.code === 'schema/bad-format' && f.file === 'components.yaml'), [], 'the pattern findings are replaced');
  assert.equal(r.valid, false);
});

test('the same catalog in lower case is valid; a name wrong in another way is still the schema finding', () => {
  const lower = validatePlugin(pluginWith(SAMPLE.replace(/sub:A/g, 'sub:a').replace(/sub:B/g, 'sub:b').replace(/:C'/g, ":c'").replace(/:D'/g, ":d'").replace(/:E'/g, ":e'")));
  assert.deepEqual(lower.findings.filter((f) => f.severity === 'error'), []);
  const other = validatePlugin(pluginWith("- name: 'hypervisor:Sub A'\n  label: A\n"));
  assert.deepEqual(other.findings.filter((f) => f.file === 'components.yaml').map((f) => f.code), ['schema/bad-format']);
});
