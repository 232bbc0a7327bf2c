/**
 * Wall time of a real deployment against the graph's critical path (the physical limit), on three
 * test hosts (HEARTH_TEST_HOSTS; skipped without): a controller chain of three tasks, then two
 * computes' chains of three waiting for it, every task `sleep S`; critical path 6 S. Nodes are
 * registered (host keys known, connections warm) before the clock starts, as in the server.
 */
import { performance } from 'node:perf_hooks';
import { buildDeploymentGraph } from '../src/core/graph/index.js';
import type { Task } from '../src/core/tasks/model.js';
import { SshTransport, runDeployment, type DeployTarget } from '../src/deploy/index.js';

// HEARTH_BENCH_HOSTS picks three hosts no test is using meanwhile; else the first three test hosts.
const addresses = (process.env.HEARTH_BENCH_HOSTS || process.env.HEARTH_TEST_HOSTS || '').split(',').filter(Boolean);
if (addresses.length < 3) {
  console.log('HEARTH_TEST_HOSTS is not set (sudo scripts/test-hosts.sh up 3): skipped');
  process.exit(0);
}
const keyFile = process.env.HEARTH_TEST_HOSTS_KEY ?? '/run/hearth-test-hosts/client_key';
const t = (id: string, roles: string[], requires: string[], seconds: number, cross?: string): Task => ({
  id, type: 'shell', version: '2.1.0', roles, requires, requiredFor: [], crossDependedBy: [], origin: { source: 'release' },
  crossDepends: cross ? [{ name: cross, role: ['controller'] }] : [],
  parameters: { cmd: `sleep ${seconds}`, timeout: 120 },
});
console.log('| task length | critical path s | wall s | over the critical path | per task on the path |');
console.log('|---|---|---|---|---|');
for (const seconds of [3, 10]) {
  const tasks = [t('c1', ['controller'], [], seconds), t('c2', ['controller'], ['c1'], seconds), t('c3', ['controller'], ['c2'], seconds), t('k1', ['compute'], [], seconds, 'c3'), t('k2', ['compute'], ['k1'], seconds), t('k3', ['compute'], ['k2'], seconds)];
  const graph = buildDeploymentGraph({ tasks, nodes: [{ id: '1', roles: ['controller'] }, { id: '2', roles: ['compute'] }, { id: '3', roles: ['compute'] }] });
  const ssh = new SshTransport({ keyFile });
  const targets = new Map<string, DeployTarget>();
  for (const i of [1, 2, 3]) {
    const first: DeployTarget = { id: String(i), name: `host-${i}`, address: addresses[i - 1], port: 22, user: 'root' };
    await ssh.exec(first, 'true');
    targets.set(String(i), { ...first, hostKey: ssh.seenHostKey(first)! });
  }
  const t0 = performance.now();
  await runDeployment({ graph, targets, data: new Map(), sources: new Map([['release', { folder: 'bench-1.0.0' }]]), workDir: '/tmp', secrets: [] }, { transport: ssh, events: { finished: () => undefined } });
  const wall = (performance.now() - t0) / 1000;
  const path = 6 * seconds;
  console.log(`| ${seconds} s | ${path} | ${wall.toFixed(1)} | ${(((wall - path) / path) * 100).toFixed(1)}% | ${((wall - path) / 6).toFixed(2)} s |`);
  await ssh.close();
}
