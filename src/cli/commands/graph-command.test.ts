import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodesFromFile, nodesFromSpec, previousFromFile, runGraphCommand, settingsFromFile, type GraphCommandOptions } from './graph-command.js';

// Every folder this file makes lives under one, removed after the last test whatever happened (issue 31).
const root = mkdtempSync(join(tmpdir(), 'hearth-graph-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The command run in this process (a process per run cost seconds each under load); output captured. */
async function hearth(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const options: GraphCommandOptions = { plugin: [] };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--json') options.json = true;
    else if (flag === '--no-conditions') options.conditions = false;
    else {
      const key = flag.slice(2).replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as keyof GraphCommandOptions;
      (options as unknown as Record<string, unknown>)[key] = args[++i];
    }
  }
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const before = process.exitCode;
  process.exitCode = undefined;
  process.stdout.write = ((chunk: string) => ((stdout += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  try {
    await runGraphCommand(options);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  const status = Number(process.exitCode ?? 0);
  process.exitCode = before;
  return { status, stdout, stderr };
}

function library(tasks: string): string {
  const dir = mkdtempSync(join(root, 'graph-'));
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
  const dir = mkdtempSync(join(root, 'nodes-'));
  writeFileSync(join(dir, 'nodes.yaml'), '- {id: a, roles: [controller], tags: [x]}\n- {id: b}\n- 7\n');
  const read = nodesFromFile(join(dir, 'nodes.yaml'));
  assert.deepEqual(read.nodes, [{ id: 'a', roles: ['controller'], tags: ['x'] }]);
  assert.deepEqual(read.findings.map((f) => [f.code, f.line]), [['nodes/invalid-node', 2], ['nodes/invalid-node', 3]]);
});

test('hearth graph: summary JSON has exactly the documented keys; exit 0', async () => {
  const dir = library('- id: a\n  type: shell\n  role: [compute]\n  parameters: {timeout: 10}\n- id: b\n  type: shell\n  role: [controller]\n  cross-depends: [{name: a, role: [compute]}]\n  parameters: {timeout: 5}\n');
  const run = await hearth('--tasks', dir, '--nodes', 'controller:1,compute:3', '--json');
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(out), ['nodes', 'tasks', 'edges', 'critical_path', 'makespan_s', 'findings']);
  assert.equal(out.nodes, 4);
  assert.equal(out.tasks, 4);
  assert.equal(out.makespan_s, 15);
  assert.deepEqual(out.critical_path.at(-1), { node: 'node-1', task: 'b' });
  for (const format of ['dot', 'mermaid', 'json', 'summary']) assert.equal((await hearth('--tasks', dir, '--nodes', 'controller:1', '--format', format)).status, 0, format);
  assert.match((await hearth('--tasks', dir, '--nodes', 'compute:2', '--format', 'dot')).stdout, /^digraph deployment \{/);
  // The real binary, once: commander wiring and the exit status.
  const real = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'graph', '--tasks', dir, '--nodes', 'compute:2', '--json'], { encoding: 'utf8' });
  assert.equal(real.status, 0, real.stderr);
  assert.equal(JSON.parse(real.stdout).nodes, 2);
});

test('hearth graph: a cycle exits 1 and prints it; bad usage exits 2', async () => {
  const dir = library('- id: a\n  type: shell\n  role: "*"\n  requires: [b]\n- id: b\n  type: shell\n  role: "*"\n  requires: [a]\n');
  const run = await hearth('--tasks', dir, '--nodes', 'compute:1');
  assert.equal(run.status, 1);
  assert.match(run.stdout, /cycle/);
  assert.match(run.stdout, /a on node-1/);
  assert.match(run.stderr, /graph\/cycle/);
  assert.equal((await hearth('--tasks', dir)).status, 2);
  assert.equal((await hearth('--tasks', dir, '--nodes', 'x:1', '--format', 'png')).status, 2);
  assert.equal((await hearth('--tasks', join(dir, 'missing'), '--nodes', 'x:1')).status, 2);
  assert.equal((await hearth('--tasks', dir, '--nodes', 'x:1', '--settings', join(dir, 'missing.yaml'))).status, 2);
  assert.equal((await hearth('--tasks', dir, '--nodes', 'x:1', '--type', 'nope')).status, 1);
});

test('hearth graph: conditions read --settings; --previous makes lifecycle conditions compare; --no-conditions', async () => {
  const dir = library(
    [
      '- {id: ceph, type: shell, role: "*", condition: {yaql_exp: "$.storage.objects_ceph"}}',
      '- {id: debug, type: shell, role: "*", condition: "settings:common.debug.value == true"}',
      '- {id: on-change, type: shell, role: "*", condition: {yaql_exp: "changed($.storage)"}}',
      '- {id: new-node, type: shell, role: "*", condition: {yaql_exp: "$.uid in added($.network_metadata.nodes.values()).uid"}}',
      '- {id: bad, type: shell, role: "*", condition: {yaql_exp: "$.storage.nope.deeper"}}',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'settings.yaml'), 'storage: {objects_ceph: true}\ncommon: {debug: {value: false}}\n');
  writeFileSync(join(dir, 'previous.yaml'), 'settings:\n  storage: {objects_ceph: true}\n  common: {debug: false}\nnodes:\n  - {id: node-1, roles: [compute]}\n');
  const skipped = (run: { stdout: string }) => {
    const graph = JSON.parse(run.stdout);
    return (graph.nodes as Array<{ id: string; tasks: Array<{ id: string; skipped?: boolean }> }>).filter((n) => n.id.startsWith('node-')).map((n) => `${n.id}:${n.tasks.filter((t) => t.skipped).map((t) => t.id).join(',')}`);
  };
  const first = await hearth('--tasks', dir, '--nodes', 'compute:2', '--settings', join(dir, 'settings.yaml'), '--format', 'json');
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(skipped(first), ['node-1:debug', 'node-2:debug']);
  const findings = JSON.parse(first.stdout).summary.findings as Array<{ code: string; message: string }>;
  assert.ok(findings.some((f) => f.code === 'graph/condition-failed' && /'bad'/.test(f.message)));
  const again = await hearth('--tasks', dir, '--nodes', 'compute:2', '--settings', join(dir, 'settings.yaml'), '--previous', join(dir, 'previous.yaml'), '--format', 'json');
  assert.deepEqual(skipped(again), ['node-1:debug,on-change,new-node', 'node-2:debug']);
  const off = await hearth('--tasks', dir, '--nodes', 'compute:2', '--no-conditions', '--format', 'json');
  assert.deepEqual(skipped(off), ['node-1:', 'node-2:']);
  // Without a release or settings there is nothing for conditions to read: said once, taken as true.
  const bare = await hearth('--tasks', dir, '--nodes', 'compute:1', '--json');
  assert.ok(JSON.parse(bare.stdout).findings.some((f: { code: string }) => f.code === 'graph/no-deployment-data'));
});

test('--settings and --previous files: bad shapes are positioned findings', () => {
  const dir = mkdtempSync(join(root, 'settings-'));
  writeFileSync(join(dir, 'list.yaml'), '- 1\n');
  writeFileSync(join(dir, 'ok.yaml'), 'storage:\n  objects_ceph: true\n');
  writeFileSync(join(dir, 'broken.yaml'), 'a: [\n');
  writeFileSync(join(dir, 'prev.yaml'), 'settings: 3\nnodes:\n  - {id: a, roles: [compute], attributes: 5}\n');
  assert.deepEqual(settingsFromFile(join(dir, 'ok.yaml')).settings, { storage: { objects_ceph: true } });
  assert.equal(settingsFromFile(join(dir, 'list.yaml')).findings[0].code, 'settings/not-a-mapping');
  assert.ok(settingsFromFile(join(dir, 'broken.yaml')).findings.some((f) => f.severity === 'error'));
  const prev = previousFromFile(join(dir, 'prev.yaml'));
  assert.deepEqual(prev.findings.map((f) => [f.code, f.line]), [['nodes/invalid-attributes', 3], ['settings/not-a-mapping', 1]]);
  assert.deepEqual(prev.previous!.nodes, [{ id: 'a', roles: ['compute'] }]);
});
