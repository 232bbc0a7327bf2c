/**
 * What a real deployment refuses before anything runs: tasks naming files their release or plugin
 * does not contain (puppet manifests and module folders, copy_files sources, the scripts a shell
 * command plainly runs), listed whole; the bundled release named as the planning model it is; the
 * release skeleton, as created, refused nothing. Read through the server's own code over a real
 * database, with releases installed as the API installs them.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { clusterGraph } from '../../src/server/domain/runs/deploy.js';
import { clusterOr404 } from '../../src/server/domain/environment.js';
import { PluginFiles } from '../../src/server/domain/plugin-files.js';
import { refuseMissingFiles, sourcesOf } from '../../src/server/domain/runs/real-plan.js';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

const engine = engines()[0];

describe('files a real deployment needs', () => {
  let t: TestApp;
  const work = mkdtempSync(join(tmpdir(), 'hearth-deploy-files-'));
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.call(method, `/api/v1${url}`, body);
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  async function environment(name: string, release: string, components: string[], roles: string[][]): Promise<number> {
    const created = await api('POST', '/clusters', { name, release_id: release, components });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const nodes: number[] = (await api('POST', '/nodes', { simulate: { count: roles.length, prefix: name } })).body.ids;
    const assigned = await api('POST', `/clusters/${created.body.id}/nodes`, { assignments: roles.map((r, i) => ({ node_id: nodes[i], roles: r })) });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    return created.body.id;
  }
  /** The refusal a real deployment of the environment would meet, as startRealDeployment computes it. */
  async function refusal(clusterId: number) {
    const cluster = await clusterOr404(t.db, clusterId);
    const { graph } = await clusterGraph(t.db, cluster, 'default');
    return { graph, refused: refuseMissingFiles(graph, await sourcesOf(t.db, cluster, new PluginFiles(undefined))) };
  }
  /** A release plugin made by `plugin create --release-plugin` with this default graph, registered as a folder. */
  async function releaseWith(name: string, graph?: string): Promise<{ dir: string; release: string }> {
    const made = createPlugin(name, { releasePlugin: true, parentDir: work });
    assert.ok(made.ok, JSON.stringify(made.findings));
    if (graph) writeFileSync(join(made.dir!, `${name}-release`, 'graphs', 'deployment.yaml'), graph);
    const res = await api('POST', '/plugins/folders', { path: made.dir });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const release = (await api('GET', '/releases')).body.find((r: { id: string }) => r.id.startsWith(`${name}@`)).id;
    return { dir: made.dir!, release };
  }

  before(async () => {
    t = await testApp(engine);
  });
  after(async () => {
    await t.close();
    await engine.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  test('the bundled release is refused as a planning model, with every puppet manifest it names', async () => {
    const bundled = (await api('GET', '/releases')).body.find((r: { id: string }) => r.id.startsWith('hearth-openstack')).id;
    const id = await environment('planning', bundled, ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'], [['controller'], ['database'], ['messaging'], ['compute']]);
    const { graph, refused } = await refusal(id);
    assert.ok(refused);
    const body = refused.toBody() as { code: string; message: string; details: { findings: Array<{ code: string; message: string; hint: string }> } };
    assert.equal(body.code, 'deploy/files-missing');
    assert.match(body.message, /nothing was run\. The bundled release is a planning model: it plans, graphs and dry-runs deployments/);
    assert.match(body.message, /hearth plugin create --release-plugin/);
    // Every puppet task on the environment's nodes is listed, by its manifest.
    const puppet = new Set(graph.classes.flatMap((c) => c.slots.map((s) => s.task)).filter((task) => task.type === 'puppet').map((task) => `task '${task.id}'`));
    assert.ok(puppet.size > 5, `${puppet.size} puppet tasks`);
    const listed = new Set(body.details.findings.map((f) => /^task '[^']+'/.exec(f.message)?.[0]));
    for (const task of puppet) assert.ok(listed.has(task), `${task} is not listed`);
    for (const f of body.details.findings) {
      assert.equal(f.code, 'deploy/missing-file');
      assert.match(f.hint, /planning model/);
    }
    // The dry run of the same environment is not refused.
    const dry = await api('POST', `/clusters/${id}/deploy`, { dry_run: true });
    assert.equal(dry.status, 202, JSON.stringify(dry.body));
  });

  test('the release skeleton, as created, names no file it does not contain', async () => {
    const { release } = await releaseWith('skeleton');
    const id = await environment('skel', release, ['hypervisor:qemu', 'network:neutron:core:ml2'], [['controller'], ['compute']]);
    const { graph, refused } = await refusal(id);
    assert.equal(refused, undefined, JSON.stringify(refused?.toBody()));
    assert.deepEqual(graph.classes.flatMap((c) => c.slots.map((s) => s.task.type)).filter((type) => type === 'shell').length > 0, true);
  });

  test('missing scripts, manifests, module folders and copy sources are listed whole; what the shell computes is not guessed at', async () => {
    const shell = (id: string, parameters: string) => `- id: ${id}\n  type: shell\n  version: 2.0.0\n  roles: [controller]\n  parameters: ${parameters}\n`;
    const graph = [
      shell('present', '{cmd: "bash controller.sh && ./compute.sh", timeout: 60}'),
      shell('missing-bash', '{cmd: "set -e; DEBUG=1 bash -x missing.sh --now", timeout: 60}'),
      shell('missing-dot', '{cmd: "./gone.sh", timeout: 60}'),
      shell('missing-in-cwd', '{cmd: "python3 tools/check.py", cwd: sub, timeout: 60}'),
      shell('computed', '{cmd: "bash $SCRIPT; bash /usr/local/bin/x.sh; cd /opt && bash elsewhere.sh", timeout: 60}'),
      shell('node-cwd', '{cmd: "bash on-node.sh", cwd: /root, timeout: 60}'),
      `- id: manifest\n  type: puppet\n  version: 2.0.0\n  roles: [compute]\n  parameters: {puppet_manifest: site.pp, puppet_modules: "modules:/etc/puppet/modules", timeout: 60}\n`,
      `- id: copy\n  type: copy_files\n  version: 2.0.0\n  roles: [compute]\n  parameters: {files: [{src: conf/app.conf, dst: /etc/app.conf}, {src: common.sh, dst: /etc/common.sh}]}\n`,
    ].join('');
    const { dir, release } = await releaseWith('scripted', graph);
    const id = await environment('scripted', release, ['hypervisor:qemu', 'network:neutron:core:ml2'], [['controller'], ['compute']]);
    const missingNow = async () => {
      const { refused } = await refusal(id);
      const findings = ((refused?.toBody() as { details?: { findings?: Array<{ message: string; hint: string }> } } | undefined)?.details?.findings ?? []);
      for (const f of findings) assert.doesNotMatch(f.hint, /planning model/);
      return { message: refused?.toBody().message, named: findings.map((f) => (/task '([^']+)' \(scripted\) needs (\S+), which/.exec(f.message) ?? [f.message, f.message]).slice(1).join(' ')).sort() };
    };
    const first = await missingNow();
    assert.deepEqual(first.named, ['copy conf/app.conf', 'manifest modules', 'manifest site.pp', 'missing-bash missing.sh', 'missing-dot gone.sh', 'missing-in-cwd sub/tools/check.py']);
    assert.match(first.message!, /^a real deployment needs files its release and plugins do not hold: 6 problems; nothing was run$/);
    // Once the files are there, nothing is refused.
    const scripts = join(dir, 'scripted-release', 'deployment_scripts');
    for (const f of ['missing.sh', 'gone.sh', 'sub/tools/check.py', 'site.pp', 'conf/app.conf']) {
      mkdirSync(join(scripts, f, '..'), { recursive: true });
      writeFileSync(join(scripts, f), '');
    }
    mkdirSync(join(scripts, 'modules'));
    assert.deepEqual((await missingNow()).named, []);
  });
});
