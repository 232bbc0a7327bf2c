/**
 * Hostile input to the pure core and the readers, through their public functions: YAML text,
 * expressions, YAQL, components, role assignment, task lists and deployment graphs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../../src/core/findings.js';
import { evaluateExpressionDetailed, parseExpression } from '../../../src/core/expressions/index.js';
import { evaluateYaql, parseYaql } from '../../../src/core/yaql/index.js';
import { compileCatalog, state, validate } from '../../../src/core/components/index.js';
import { checkRoleAssignment } from '../../../src/core/roles/index.js';
import { normalizeTasks, type Task } from '../../../src/core/tasks/index.js';
import { buildDeploymentGraph } from '../../../src/core/graph/index.js';
import type { Component, RoleMetadata } from '../../../src/core/release/index.js';
import { parseYaml } from '../../../src/package/yaml/index.js';
import { readTasksFolder } from '../../../src/package/tasks/index.js';
import type { Face, LibraryCase } from '../case.js';

function lib(face: Face, name: string, codes: string[], run: LibraryCase['run'], unplaced = false): LibraryCase {
  return { kind: 'library', face, name, codes, run, unplaced };
}

const yaml = (text: string) => parseYaml(text, 'hostile.yaml').findings;
const expression = (text: string) => parseExpression(text).findings;
const yaql = (text: string) => parseYaql(text).findings;

/** Prototype pollution shows as a key every object suddenly has. */
function assertUnpolluted(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
}

/** Tasks as the readers make them, from one YAML line per task. */
function tasks(lines: string[]): Task[] {
  const read = normalizeTasks(parseYaml(lines.join('\n'), 'tasks.yaml').value, { source: 'hostile', file: 'tasks.yaml' }, 'deployment');
  assert.deepEqual(read.findings.filter((f) => f.severity === 'error'), []);
  return read.tasks;
}
const shell = (id: string, extra = '') => `- {id: ${id}, type: shell, version: 2.0.0, roles: [controller], parameters: {cmd: 'true'}${extra}}`;
const graphFindings = (list: Task[]) => buildDeploymentGraph({ tasks: list, nodes: [{ id: 'n1', roles: ['controller'] }], roles: { controller: {} } }).findings;

const roles = { controller: { name: 'Controller', description: 'c' }, compute: { name: 'Compute', description: 'c', conflicts: ['controller'] } } as unknown as Record<string, RoleMetadata>;

export const libraryCases: LibraryCase[] = [
  lib('YAML', 'a merge-key bomb (<<: nine aliases, nine levels)', ['yaml/too-large'], () => {
    const lines = ['a0: &a0 {k: v}'];
    for (let i = 1; i <= 9; i++) lines.push(`a${i}: &a${i}\n${Array.from({ length: 9 }, (_, j) => `  k${j}: *a${i - 1}`).join('\n')}`);
    return yaml(lines.join('\n') + '\n');
  }),
  lib('YAML', '__proto__ and constructor keys stay plain data', [], () => {
    const parsed = parseYaml('__proto__: {polluted: yes}\nconstructor: {prototype: {polluted: yes}}\nlist: [{__proto__: {polluted: 1}}]\n', 'hostile.yaml');
    assertUnpolluted();
    const value = parsed.value as Record<string, unknown>;
    assert.ok(Object.hasOwn(value, '__proto__'), '__proto__ must be an own key');
    assert.deepEqual(Object.getPrototypeOf(value), Object.prototype);
    return parsed.findings;
  }),
  lib('YAML', 'a flow mapping of 40,000 keys (tolerated)', [], () => yaml(`{${Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}`).join(', ')}}\n`)),
  lib('YAML', 'a 4 MB single-line string with CRLF and tabs around it (tolerated)', [], () => yaml(`a:\t"${'x'.repeat(4 * 1024 * 1024)}"\r\nb: 1\r\n`)),
  lib('YAML', "python and other language tags (refused, as PyYAML's safe loader refuses them; nothing is constructed)", ['yaml/unknown-tag'], () => {
    const parsed = parseYaml('a: !!python/object/apply:os.system ["touch /tmp/owned"]\nb: !ruby/hash {}\n', 'hostile.yaml');
    assert.equal(parsed.ok, false);
    return parsed.findings;
  }),
  lib('YAML', "an '=' value key PyYAML refuses", ['yaml/value-key'], () => yaml('a: =\n')),
  lib('expression', 'a restriction nested 4,000 brackets deep (under the length limit)', ['expression/too-deep'], () => expression(`${'('.repeat(4000)}true${')'.repeat(4000)}`), true),
  lib('expression', 'a one-megabyte restriction', ['expression/too-long'], () => expression(`settings:a.b == '${'x'.repeat(1_000_000)}'`), true),
  lib('expression', '1,200 chained operators (under the length limit)', ['expression/too-complex'], () => expression(Array(1200).fill('1').join(' or ')), true),
  lib('expression', 'settings:constructor.name and settings:__proto__ read nothing', [], () => {
    for (const text of ["settings:constructor.name == 'Object'", 'settings:__proto__ != null', 'settings:a.toString != null']) {
      const parsed = parseExpression(text);
      assert.ok(parsed.ast, text);
      const result = evaluateExpressionDetailed(parsed.ast, { settings: { a: {} } });
      assert.equal(result.value, false, `${text} must not reach Object's own properties`);
      assert.ok(result.unresolved.length > 0, `${text} must be reported unresolved`);
    }
    return [];
  }),
  lib('expression', 'a YAQL expression nested 9,000 brackets deep', ['yaql/too-deep'], () => yaql(`${'('.repeat(9000)}1${')'.repeat(9000)}`), true),
  lib('expression', 'a 600 KB YAQL path', ['yaql/too-long'], () => yaql(`$.a${'.b'.repeat(300_000)}`), true),
  lib('expression', 'YAQL reading $.constructor and $.__proto__', ['yaql/missing-key'], () => {
    const out: Finding[] = [];
    for (const text of ['$.constructor', '$.__proto__', '$.a.toString']) {
      const parsed = parseYaql(text);
      assert.ok(parsed.ast, text);
      const result = evaluateYaql(parsed.ast, { data: { a: {} } });
      assert.equal(result.ok, false, `${text} must not reach Object's own properties`);
      if (!result.ok) out.push(result.error);
    }
    return out;
  }, true),
  lib('components', 'components named __proto__ and constructor, a wildcard, an unknown toString', ['component/incompatible', 'component/unknown'], () => {
    const catalog = compileCatalog([
      { name: 'hypervisor:__proto__', label: 'p' },
      { name: 'hypervisor:constructor', label: 'c', incompatible: [{ name: 'hypervisor:*' }] },
    ] as unknown as Component[]);
    assertUnpolluted();
    return [...catalog.findings, ...validate(catalog, ['hypervisor:constructor', 'hypervisor:__proto__', 'network:toString']).findings];
  }, true),
  lib('components', '1,000 components, each incompatible with every hypervisor:*, wizard state after a click', ['component/incompatible'], () => {
    const list = Array.from({ length: 1000 }, (_, i) => ({ name: `hypervisor:h${i}`, label: `h${i}`, incompatible: [{ name: 'hypervisor:*' }] }));
    const catalog = compileCatalog(list as unknown as Component[]);
    const wizard = state(catalog, ['hypervisor:h1']);
    assert.ok(wizard.components.length === 1000);
    return validate(catalog, ['hypervisor:h1', 'hypervisor:h2']).findings;
  }, true),
  lib('roles', 'nodes given the roles __proto__, constructor and toString (used to pass as known)', ['role/unknown'], () => checkRoleAssignment({ roles_metadata: roles }, [{ id: 1, roles: ['__proto__', 'constructor', 'toString'] }], {}), true),
  lib('roles', 'a role limit written as a 4,000-deep expression', ['expression/too-deep'], () => {
    const limited = { ...roles, controller: { ...roles.controller, limits: { max: `${'('.repeat(4000)}1${')'.repeat(4000)}` } } } as Record<string, RoleMetadata>;
    return checkRoleAssignment({ roles_metadata: limited }, [{ id: 1, roles: ['controller'] }], {});
  }, true),
  lib('task file', 'a task list that is a mapping', ['task/not-a-list'], () => normalizeTasks(parseYaml('id: a\ntype: shell\n', 'tasks.yaml').value, { source: 'hostile', file: 'tasks.yaml' }, 'deployment').findings),
  lib('task file', 'task ids that are numbers, lists and empty', ['task/missing-id'], () =>
    normalizeTasks(parseYaml('- {id: 12, type: shell, roles: [a]}\n- {id: [x], type: shell, roles: [a]}\n- {id: "", type: shell, roles: [a]}\n', 'tasks.yaml').value, { source: 'hostile', file: 'tasks.yaml' }, 'deployment').findings,
  ),
  lib('task file', 'a timeout of "forever" and a strategy of 7', ['task/invalid-timeout'], () =>
    normalizeTasks(parseYaml('- {id: a, type: shell, roles: [a], parameters: {timeout: forever, strategy: 7}}\n', 'tasks.yaml').value, { source: 'hostile', file: 'tasks.yaml' }, 'deployment').findings,
  ),
  {
    ...lib('task file', 'a tasks folder whose links point back at itself twice (used to hang)', [], (f) => {
      const read = readTasksFolder(join(f.in, 'library'));
      assert.equal(read.graphs.default?.tasks.length, 1, 'the one task is read once');
      return read.findings;
    }),
    setup: (f) => {
      const dir = join(f.in, 'library', 'deployment');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'tasks.yaml'), '- {id: a, type: puppet, groups: [primary-controller], requires: [], parameters: {puppet_manifest: a.pp, puppet_modules: m, timeout: 10}}\n');
      symlinkSync('.', join(dir, 'l1'));
      symlinkSync('.', join(dir, 'l2'));
    },
  },
  lib('graph', 'two tasks requiring each other', ['graph/cycle'], () => graphFindings(tasks([shell('a', ', requires: [b]'), shell('b', ', requires: [a]')])), true),
  lib('graph', 'a task requiring itself', ['graph/cycle'], () => graphFindings(tasks([shell('a', ', requires: [a]')])), true),
  lib('graph', 'a task for the roles /^(a+)+$/ (catastrophic backtracking)', ['graph/unsafe-pattern'], () =>
    graphFindings(tasks(["- {id: a, type: shell, version: 2.0.0, roles: '/^(a+)+$/', parameters: {cmd: 'true'}}"])), true),
  lib('graph', 'a cycle through 2,000 tasks', ['graph/cycle'], () => graphFindings(tasks(Array.from({ length: 2000 }, (_, i) => shell(`t${i}`, `, requires: [t${(i + 1) % 2000}]`)))), true),
];

