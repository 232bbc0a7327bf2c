import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodesFromFile, nodesFromSpec } from './graph-command.js';

const hearth = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'graph', ...args], { encoding: 'utf8' });

function library(tasks: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-graph-'));
  mkdirSync(join(dir, 'deployment'), { recursive: true });
  writeFileSync(join(dir, 'deployment/tasks.yaml'), tasks);
  return dir;
}

test('--nodes specs and files', () => {
  assert.deepEqual(nodesFromSpec('controller:2,compute+cinder:1').nodes, [
    { id: 'node-1', roles: ['controller'] },
    { id: 'node-2', roles: ['controller'] },
    { id: 'node-3', roles: ['compute', 'cinder'] },
  ]);
  assert.match(nodesFromSpec('controller:x').error!, /role:count/);
  assert.match(nodesFromSpec('').error!, /no nodes/);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-nodes-'));
  writeFileSync(join(dir, 'nodes.yaml'), '- {id: a, roles: [controller], tags: [x]}\n- {id: b}\n- 7\n');
  const read = nodesFromFile(join(dir, 'nodes.yaml'));
  assert.deepEqual(read.nodes, [{ id: 'a', roles: ['controller'], tags: ['x'] }]);
  assert.deepEqual(read.findings.map((f) => [f.code, f.line]), [['nodes/invalid-node', 2], ['nodes/invalid-node', 3]]);
});

test('hearth graph: summary JSON has exactly the documented keys; exit 0', () => {
  const dir = library('- id: a\n  type: shell\n  role: [compute]\n  parameters: {timeout: 10}\n- id: b\n  type: shell\n  role: [controller]\n  cross-depends: [{name: a, role: [compute]}]\n  parameters: {timeout: 5}\n');
  const run = hearth('--tasks', dir, '--nodes', 'controller:1,compute:3', '--json');
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(out), ['nodes', 'tasks', 'edges', 'critical_path', 'makespan_s', 'findings']);
  assert.equal(out.nodes, 4);
  assert.equal(out.tasks, 4);
  assert.equal(out.makespan_s, 15);
  assert.deepEqual(out.critical_path.at(-1), { node: 'node-1', task: 'b' });
  for (const format of ['dot', 'mermaid', 'json', 'summary']) assert.equal(hearth('--tasks', dir, '--nodes', 'controller:1', '--format', format).status, 0, format);
  assert.match(hearth('--tasks', dir, '--nodes', 'compute:2', '--format', 'dot').stdout, /^digraph deployment \{/);
});

test('hearth graph: a cycle exits 1 and prints it; bad usage exits 2', () => {
  const dir = library('- id: a\n  type: shell\n  role: "*"\n  requires: [b]\n- id: b\n  type: shell\n  role: "*"\n  requires: [a]\n');
  const run = hearth('--tasks', dir, '--nodes', 'compute:1');
  assert.equal(run.status, 1);
  assert.match(run.stdout, /cycle/);
  assert.match(run.stdout, /a on node-1/);
  assert.match(run.stderr, /graph\/cycle/);
  assert.equal(hearth('--tasks', dir).status, 2);
  assert.equal(hearth('--tasks', dir, '--nodes', 'x:1', '--format', 'png').status, 2);
  assert.equal(hearth('--tasks', join(dir, 'missing'), '--nodes', 'x:1').status, 2);
  assert.equal(hearth('--tasks', dir, '--nodes', 'x:1', '--type', 'nope').status, 1);
});
