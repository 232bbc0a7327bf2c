/**
 * The OpenAPI document tells the truth: a real server over a real database answers a request to
 * every route of its route table, and every answer's body is validated (Ajv, JSON Schema 2020-12)
 * against the schema the document gives for that operation and status. A route that is not in the
 * document, a status it does not list, or a body its schema does not describe fails here; so does
 * a route no step of this walk reaches, so a new route must come with its documentation and a step.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import * as store from '../../src/store/index.js';
import { buildPlugin } from '../../src/package/build/build.js';
import { writePlugin } from './support/plugins.js';
import { HOSTS_NOTE, testHosts } from '../support/test-hosts.js';
import { operationOf, responseSchemaOf, type OpenApiDocument } from './support/contract.js';

const TOKEN = 'contract-test-token-0123456789';
const hosts = testHosts();
/** Host 4 is only read (facts, host key): other files using it do not notice. */
const HOST_INDEX = 4;

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
  text: string;
}

/** Operations whose success cannot be reached on this machine, and why. */
const UNREACHED_SUCCESS = new Map<string, string>([
  // Stopping answers 202 only for a real run; the walk's deployment is a dry run (409).
  ['POST /api/v1/clusters/:id/stop', 'a real deployment running (test/deploy covers it)'],
  // Verify networks needs two real nodes whose probes hear each other (hosts 34-37).
  ['POST /api/v1/clusters/:id/network_configuration/verify', 'two real nodes (test/deploy/verify-networks-hosts.test.ts covers it)'],
]);
if (!hosts) {
  UNREACHED_SUCCESS.set('POST /api/v1/nodes/:id/refresh', HOSTS_NOTE);
}

let server: RunningServer;
let doc: OpenApiDocument;
let ajv: Ajv2020;
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-contract-'));
const pluginParent = mkdtempSync(join(tmpdir(), 'hearth-contract-plugins-'));
/** `METHOD /route/:pattern` → the statuses it answered. */
const seen = new Map<string, Set<number>>();
const problems: string[] = [];

before(async () => {
  if (hosts) {
    // The test hosts authorize the test client key: the server adopts it as its own at first start.
    mkdirSync(join(dataDir, 'ssh'), { recursive: true });
    writeFileSync(join(dataDir, 'ssh', 'id_ed25519'), hosts.key.private, { mode: 0o600 });
    writeFileSync(join(dataDir, 'ssh', 'id_ed25519.pub'), `${hosts.key.public}\n`);
  }
  // No web UI: its static files are routes too, but not the API's.
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, webDist: join(dataDir, 'no-web-ui'), adminToken: TOKEN, sweepMs: 60_000, deploy: { sliceDelayMs: 0, sliceSize: 100 } });
  doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
});

after(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(pluginParent, { recursive: true, force: true });
});

/** The route pattern of the table that a request's path matches (static segments before parameters, as the router prefers). */
function routeOf(method: string, url: string): string {
  const path = url.split('?')[0].replace(/\/+$/, '') || '/';
  const candidates = server.app.routeRules.filter((r) => r.method === method && patternRegExp(r.url).test(path));
  candidates.sort((a, b) => a.url.split(':').length - b.url.split(':').length);
  return candidates.length ? `${method} ${candidates[0].url}` : `${method} ${path} (no route)`;
}

const patternRegExp = (pattern: string): RegExp => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+').replace(/\*$/, '.*')}$`);

/** One request; its answer is checked against the document before the walk goes on. */
async function call(method: string, url: string, options: { body?: unknown; raw?: Buffer; token?: string | null; headers?: Record<string, string>; until?: (text: string) => boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
  let body: string | Buffer | undefined;
  if (options.raw) {
    body = options.raw;
    headers['content-type'] = 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${server.url}${url}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = options.until ? await readUntil(res, options.until) : await res.text();
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
  const answer: Answer = { status: res.status, contentType, text, body: contentType.endsWith('json') && text ? JSON.parse(text) : text };
  check(method, url, answer, options.raw ? undefined : options.body);
  return answer;
}

/** A stream that does not end (an environment's) is read until `until` holds of its text (10 s at most), then closed. */
async function readUntil(res: Response, until: (text: string) => boolean): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + 10_000;
  let text = '';
  try {
    while (!until(text) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, text.lastIndexOf('\n\n') + 2);
}

function check(method: string, url: string, answer: Answer, sent?: unknown): void {
  const route = routeOf(method, url);
  const statuses = seen.get(route) ?? new Set<number>();
  statuses.add(answer.status);
  seen.set(route, statuses);
  const [, pattern] = route.split(' ');
  const op = operationOf(doc, method, pattern);
  if (!op) return void problems.push(`${route}: not in the OpenAPI document`);
  // A body the server accepted is one its documentation allows (the document is not stricter than the server).
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  if (answer.status < 400 && sent !== undefined) {
    if (!bodySchema) problems.push(`${route} accepted a JSON body its documentation does not describe`);
    else {
      const validate = ajv.compile(bodySchema);
      if (!validate(sent)) problems.push(`${route} accepted a body its documented request schema refuses: ${ajv.errorsText(validate.errors)}`);
    }
  }
  const found = responseSchemaOf(op, answer.status, answer.contentType);
  if ('problem' in found) return void problems.push(`${route} answered ${answer.status} (${answer.contentType || 'no body'}): ${found.problem}`);
  if (found.schema === undefined) {
    if (answer.text !== '') problems.push(`${route} answered ${answer.status} with a body its documentation says it does not have`);
    return;
  }
  if (answer.contentType === 'text/event-stream') return checkEvents(route, answer.text);
  const validate = ajv.compile(found.schema);
  if (!validate(answer.body)) {
    problems.push(`${route} answered ${answer.status}; the body does not match its documented schema: ${ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 800)}\n  body: ${answer.text.slice(0, 300)}`);
  }
}

/**
 * The live streams' events carry the documented shapes: a deployment's `task` a TaskRun,
 * `deployment` and `end` a Deployment; an environment's `environment` a Cluster, `node` a Node,
 * `deployment` a Deployment (it does not end while the environment lives).
 */
function checkEvents(route: string, text: string): void {
  const environment = route.endsWith('/clusters/:id/events');
  const shapes: Record<string, string> = environment ? { environment: 'Cluster', node: 'Node', deployment: 'Deployment' } : { task: 'TaskRun', deployment: 'Deployment', end: 'Deployment' };
  const events = text.split('\n\n').filter(Boolean).map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1] ?? '', data: /^data: (.*)$/m.exec(block)?.[1] ?? '' }));
  if (!environment && !events.some((e) => e.event === 'end')) problems.push(`${route}: the stream ended without an end event`);
  for (const shape of environment ? ['environment', 'node', 'deployment'] : []) if (!events.some((e) => e.event === shape)) problems.push(`${route}: no '${shape}' event in the stream's first state`);
  for (const { event, data } of events) {
    const shape = shapes[event];
    if (!shape) continue;
    const validate = ajv.getSchema(`#/components/schemas/${shape}`)!;
    if (!validate(JSON.parse(data))) problems.push(`${route}: a '${event}' event is not a ${shape}: ${ajv.errorsText(validate.errors)}`);
  }
}

const json = (a: Answer) => a.body as any;

test('every route answers as the OpenAPI document says, status and body', { timeout: 300_000 }, async () => {
  // Server, probes, schemas.
  await call('GET', '/healthz', { token: null });
  await call('GET', '/readyz', { token: null });
  // OpenStack's: oslo.middleware's health check, version discovery at /api and at / for JSON clients.
  await call('GET', '/healthcheck', { token: null, headers: { accept: 'text/plain' } });
  await call('GET', '/api', { token: null });
  await call('GET', '/', { token: null });
  const schemas = json(await call('GET', '/schemas', { token: null }));
  await call('GET', schemas[0].url, { token: null });
  await call('GET', '/schemas/nothing.json', { token: null });
  await call('GET', '/api/v1/version');
  await call('GET', '/api/v1/token');
  await call('GET', '/api/v1/token', { token: 'not-the-token-at-all' });
  const sshKey = await call('GET', '/api/v1/ssh-key');

  // Releases.
  const releases = json(await call('GET', '/api/v1/releases'));
  const release = releases[0].id as string;
  await call('GET', `/api/v1/releases/${release}`);
  await call('GET', '/api/v1/releases/no-such-release');
  await call('GET', `/api/v1/releases/${release}/components`);
  await call('GET', `/api/v1/releases/${release}/roles`);
  await call('GET', `/api/v1/releases/${release}/graphs/default`);
  await call('GET', `/api/v1/releases/${release}/graphs/nothing`);
  await call('GET', `/api/v1/releases/${release}/findings`);
  await call('GET', `/api/v1/releases/${release}/components/state?select=`);
  // Nailgun's role API on a release (issue 28 item 12): added, refused twice, changed, deleted, unknown.
  const customRole = { name: 'contract-role', meta: { name: 'Contract', description: 'A role of the contract walk.', tags: ['contract-role'] }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'all' }] };
  await call('POST', `/api/v1/releases/${release}/roles`, { body: customRole });
  await call('POST', `/api/v1/releases/${release}/roles`, { body: customRole });
  await call('GET', `/api/v1/releases/${release}/roles/contract-role`);
  await call('GET', `/api/v1/releases/${release}/roles/controller`);
  await call('GET', `/api/v1/releases/${release}/roles/no-such-role`);
  await call('PUT', `/api/v1/releases/${release}/roles/contract-role`, { body: { meta: customRole.meta, volumes_roles_mapping: [{ id: 'nowhere', allocate_size: 'all' }] } });
  await call('PUT', `/api/v1/releases/${release}/roles/contract-role`, { body: { meta: customRole.meta, volumes_roles_mapping: customRole.volumes_roles_mapping } });
  await call('DELETE', `/api/v1/releases/${release}/roles/contract-role`);
  await call('DELETE', `/api/v1/releases/${release}/roles/contract-role`);

  // Plugins: a folder registered and synced, a package installed and uninstalled.
  const folder = writePlugin({ name: 'contract', role: 'contract-node', setting: { name: 'level', value: 'low' } }, pluginParent);
  writeFileSync(join(folder, 'repositories', 'ubuntu', 'Packages'), 'Package: contract\n');
  const registered = json(await call('POST', '/api/v1/plugins/folders', { body: { path: folder } }));
  await call('POST', '/api/v1/plugins/folders', { body: { path: 'relative/path' } });
  await call('POST', '/api/v1/plugins/folders', { body: { path: 7 } });
  const pluginId = registered.plugin.id as string;
  await call('POST', `/api/v1/plugins/${pluginId}/sync`);
  await call('GET', '/api/v1/plugins');
  await call('GET', '/api/v1/plugins?limit=1');
  await call('GET', `/api/v1/plugins/${pluginId}`);
  await call('GET', '/plugins/contract-1.0.0/repositories/Packages', { token: null });
  await call('GET', '/plugins/contract-1.0.0/repositories/nothing/Packages', { token: null });
  const packaged = writePlugin({ name: 'packaged' }, pluginParent);
  const built = await buildPlugin(packaged, { outDir: pluginParent, runHook: false });
  assert.ok(built.ok && built.path, JSON.stringify(built.findings));
  const installed = json(await call('POST', '/api/v1/plugins', { raw: readFileSync(built.path) }));
  await call('POST', '/api/v1/plugins', { raw: Buffer.from('not a package') });
  await call('DELETE', `/api/v1/plugins/${installed.plugin.id}`);
  await call('DELETE', `/api/v1/plugins/${installed.plugin.id}`);

  // Environments.
  const cluster = json(await call('POST', '/api/v1/clusters', { body: { name: 'contract', release_id: release } }));
  await call('POST', '/api/v1/clusters', { body: { name: 'contract', release_id: release } });
  await call('POST', '/api/v1/clusters', { body: { name: 'no components', release_id: release, components: [] } });
  await call('POST', '/api/v1/clusters', { body: { name: 'no token', release_id: release }, token: null });
  const id = cluster.id as number;
  await call('GET', '/api/v1/clusters');
  await call('GET', `/api/v1/clusters/${id}`);
  await call('GET', '/api/v1/clusters/999999');
  await call('PATCH', `/api/v1/clusters/${id}`, { body: { name: 'contract-env' } });
  await call('PUT', `/api/v1/clusters/${id}`, { body: { release_id: release } });
  await call('PUT', `/api/v1/clusters/${id}`, { body: { release_id: 'no-such-release' } });
  // The same role API on one environment.
  await call('POST', `/api/v1/clusters/${id}/roles`, { body: customRole });
  await call('GET', `/api/v1/clusters/${id}/roles/contract-role`);
  await call('GET', `/api/v1/clusters/${id}/roles/no-such-role`);
  await call('POST', `/api/v1/clusters/${id}/roles`, { body: { ...customRole, volumes_roles_mapping: [] } });
  await call('PUT', `/api/v1/clusters/${id}/roles/contract-role`, { body: { meta: customRole.meta, volumes_roles_mapping: customRole.volumes_roles_mapping } });
  await call('PUT', `/api/v1/clusters/${id}/roles/controller`, { body: { meta: customRole.meta, volumes_roles_mapping: customRole.volumes_roles_mapping } });
  await call('DELETE', `/api/v1/clusters/${id}/roles/contract-role`);
  await call('DELETE', `/api/v1/clusters/${id}/roles/contract-role`);
  await call('GET', `/api/v1/clusters/${id}/attributes`);
  await call('PUT', `/api/v1/clusters/${id}/attributes`, { body: { plugins: { contract: '1.0.0' }, dry_run: true } });
  await call('PUT', `/api/v1/clusters/${id}/attributes`, { body: { plugins: { contract: '1.0.0' } } });
  await call('PUT', `/api/v1/clusters/${id}/attributes`, { body: { editable: { no_such_section: { x: { value: 1 } } } } });
  await call('GET', `/api/v1/clusters/${id}/components/state`);
  await call('GET', `/api/v1/clusters/${id}/roles`);

  // Nodes.
  const simulated = json(await call('POST', '/api/v1/nodes', { body: { simulate: { count: 3, prefix: 'sim' } } }));
  await call('POST', '/api/v1/nodes', { body: { nodes: [{ name: 'named-node', hardware: { cpus: 4, memory_gb: 8, disks_gb: [100] } }] } });
  await call('POST', '/api/v1/nodes', { body: {} });
  const [n1, n2, n3] = simulated.ids as number[];
  await call('GET', '/api/v1/nodes');
  await call('GET', '/api/v1/nodes?unassigned=true&limit=2');
  await call('GET', `/api/v1/nodes/${n1}`);
  await call('GET', '/api/v1/nodes/999999');
  await call('POST', `/api/v1/clusters/${id}/nodes?dry_run=true`, { body: { assignments: [{ node_id: n1, roles: ['controller'] }] } });
  await call('POST', `/api/v1/clusters/${id}/nodes`, { body: { assignments: [{ node_id: n1, roles: ['controller', 'database', 'messaging'] }, { node_id: n2, roles: ['compute'] }, { node_id: n3, roles: ['compute'] }] } });
  await call('POST', `/api/v1/clusters/${id}/nodes`, { body: { assignments: [{ node_id: n2, roles: ['no-such-role'] }] } });
  await call('GET', `/api/v1/clusters/${id}/nodes`);
  // Networks (issue 27): the configuration, a change refused and one saved, VIPs, a node's addresses and interfaces.
  await call('GET', `/api/v1/clusters/${id}/network_configuration`);
  await call('PUT', `/api/v1/clusters/${id}/network_configuration`, { body: { networks: [{ name: 'storage', cidr: '192.168.0.0/24' }] } });
  await call('PUT', `/api/v1/clusters/${id}/network_configuration`, { body: { networks: [{ name: 'storage', vlan_start: 202 }], dry_run: true } });
  await call('PUT', `/api/v1/clusters/${id}/network_configuration`, { body: { networks: [{ name: 'storage', vlan_start: 202 }] } });
  await call('GET', `/api/v1/clusters/${id}/vips`);
  // The Ansible inventory (issue 31 item 13): its nodes are simulated, so it has no hosts (real ones: test/deploy/inventory-hosts.test.ts).
  await call('GET', `/api/v1/clusters/${id}/inventory`);
  await call('GET', `/api/v1/clusters/${id}/inventory?format=ini`, { headers: { accept: 'text/plain' } });
  await call('GET', `/api/v1/clusters/${id}/inventory?format=yaml`, { headers: { accept: 'application/yaml' } });
  await call('GET', '/api/v1/clusters/999999/inventory');
  await call('GET', `/api/v1/nodes/${n2}`);
  const nics = (await call('GET', `/api/v1/nodes/${n2}/interfaces`)).body as Array<{ name: string; assigned_networks: Array<{ name: string }> }>;
  await call('PUT', `/api/v1/nodes/${n2}/interfaces`, { body: nics });
  await call('PUT', `/api/v1/nodes/${n2}/interfaces`, { body: [{ name: 'eth1', assigned_networks: [{ name: 'fuelweb_admin' }] }] });
  // Disks (issue 26): a node's layout, its defaults and check, sizes saved and refused, reset; its volumes.
  const disks = (await call('GET', `/api/v1/nodes/${n2}/disks`)).body as Array<{ name: string; volumes: Array<{ name: string; size: number }> }>;
  await call('GET', `/api/v1/nodes/${n2}/disks/defaults`);
  await call('GET', `/api/v1/nodes/${n2}/volumes`);
  await call('PUT', `/api/v1/nodes/${n2}/disks`, { body: disks });
  await call('PUT', `/api/v1/nodes/${n2}/disks`, { body: disks.map((d) => ({ ...d, volumes: d.volumes.map((v) => ({ ...v, size: 1e9 })) })) });
  await call('GET', `/api/v1/nodes/${n2}/disks/check`);
  await call('DELETE', `/api/v1/nodes/${n2}/disks`);
  await call('GET', '/api/v1/nodes/999999/disks');
  // Verify networks (issue 27): this environment's nodes are simulated, so it is refused (409) with how to add real ones.
  await call('POST', `/api/v1/clusters/${id}/network_configuration/verify`, { body: {} });
  await call('POST', `/api/v1/clusters/${id}/nodes/unassign`, { body: { node_ids: [n3] } });
  // Never deployed (simulated): it leaves at once, nothing runs (200).
  await call('POST', `/api/v1/clusters/${id}/nodes`, { body: { assignments: [{ node_id: n3, roles: ['compute'] }] } });
  await call('DELETE', `/api/v1/clusters/${id}/nodes`, { body: { node_ids: [n3] } });
  await call('DELETE', `/api/v1/nodes/${n1}`);
  await call('DELETE', `/api/v1/nodes/${n3}`);
  await call('POST', `/api/v1/nodes/${n2}/refresh`, { body: {} });
  // A real node that does not answer: refused with the SSH error in words.
  await call('POST', '/api/v1/nodes', { body: { address: '127.0.0.1', ssh_port: 1 } });

  // Graphs and a (dry-run) deployment, watched to its end.
  const graph = await call('GET', `/api/v1/clusters/${id}/graphs/default`);
  await call('GET', `/api/v1/clusters/${id}/graphs/default?format=dot`);
  await call('GET', `/api/v1/clusters/${id}/graphs/default?format=mermaid&limit=1`);
  const etag = graph.text && (await fetch(`${server.url}/api/v1/clusters/${id}/graphs/default`)).headers.get('etag');
  if (etag) await call('GET', `/api/v1/clusters/${id}/graphs/default`, { headers: { 'if-none-match': etag } });
  // The estimate from past runs (none yet: timeouts), and a graph type the environment lacks.
  await call('GET', `/api/v1/clusters/${id}/graphs/default/estimate`);
  await call('GET', `/api/v1/clusters/${id}/graphs/no-such-graph/estimate`);
  // What a deployment would run and why; a graph the environment lacks; a resume with nothing to resume.
  await call('GET', `/api/v1/clusters/${id}/deploy/plan`);
  await call('GET', `/api/v1/clusters/${id}/deploy/plan?graph_type=no-such-graph`);
  await call('GET', `/api/v1/clusters/${id}/deploy/plan?resume=true`);
  const deployment = json(await call('POST', `/api/v1/clusters/${id}/deploy`, { body: { dry_run: true } }));
  await call('GET', `/api/v1/deployments/${deployment.id}/events`, { headers: { accept: 'text/event-stream' } });
  await call('GET', `/api/v1/clusters/${id}/deployments`);
  // The environment's live stream: its current state (the environment, its nodes, the last run), then closed.
  await call('GET', `/api/v1/clusters/${id}/events`, { headers: { accept: 'text/event-stream' }, until: (text) => /event: environment/.test(text) && /event: node/.test(text) && /event: deployment/.test(text) && text.endsWith('\n\n') });
  await call('GET', '/api/v1/clusters/999999/events', { headers: { accept: 'text/event-stream' } });
  // The graph types it can run.
  await call('GET', `/api/v1/clusters/${id}/graphs`);
  await call('GET', '/api/v1/clusters/999999/graphs');
  await call('GET', `/api/v1/clusters/${id}/deployments/${deployment.id}?tasks=true`);
  await call('GET', `/api/v1/clusters/${id}/deployments/999999`);
  await call('GET', `/api/v1/deployments/${deployment.id}/tasks`);
  await call('GET', '/api/v1/deployments');
  await call('GET', `/api/v1/deployments?cluster_id=${id}&limit=1`);
  await call('GET', '/api/v1/deployments?cluster_id=999999');
  await call('GET', `/api/v1/deployments/${deployment.id}`);
  await call('GET', '/api/v1/deployments/999999');
  await call('GET', `/api/v1/deployments/${deployment.id}/tasks?status=ready&output=true`);
  // Filtered by the lifecycle's outcome, the word the CLI and the UI show.
  const allTasks: Array<{ outcome: string }> = json(await call('GET', `/api/v1/deployments/${deployment.id}/tasks`));
  for (const outcome of ['succeeded', 'skipped', 'failed']) {
    const only: Array<{ outcome: string }> = json(await call('GET', `/api/v1/deployments/${deployment.id}/tasks?outcome=${outcome}`));
    assert.deepEqual(only, allTasks.filter((t) => t.outcome === outcome), outcome);
  }
  assert.ok(allTasks.some((t) => t.outcome === 'succeeded'), 'the filter is tried on a run with tasks');
  await call('GET', `/api/v1/deployments/${deployment.id}/tasks?outcome=done`);
  // A running task's output so far: a dry run is run by no server, so nothing is kept.
  await call('GET', `/api/v1/deployments/${deployment.id}/live-output?node=1&task=x`);
  await call('GET', '/api/v1/deployments/999999/live-output?node=1&task=x');
  // Any graph, on the nodes chosen (a dry run here: the nodes are simulated), and the refusals.
  const nodeIds = json(await call('GET', `/api/v1/clusters/${id}/nodes`)).map((n: { id: number }) => n.id);
  await call('POST', `/api/v1/clusters/${id}/graphs/default/run`, { body: { nodes: nodeIds.slice(0, 1), dry_run: true } });
  await call('POST', `/api/v1/clusters/${id}/graphs/default/run`, { body: { nodes: [999999], dry_run: true } });
  await call('POST', `/api/v1/clusters/${id}/graphs/no-such-graph/run`, { body: { dry_run: true } });
  await call('POST', `/api/v1/clusters/${id}/stop`);
  await call('POST', `/api/v1/clusters/${id}/stop`, { body: { grace_s: 5 } });
  await call('POST', `/api/v1/clusters/${id}/stop`, { body: { grace_s: -1 } });
  await call('POST', `/api/v1/clusters/${id}/reset`);

  // Real nodes, when the test hosts are up.
  if (hosts) {
    assert.equal(json(sshKey).public_key, hosts.key.public);
    const address = hosts.addresses[HOST_INDEX - 1];
    const real = json(await call('POST', '/api/v1/nodes', { body: { address, name: 'contract-real' } }));
    await call('POST', `/api/v1/nodes/${real.ids[0]}/refresh`, { body: {} });
    await call('GET', `/api/v1/nodes/${real.ids[0]}`);
    await call('DELETE', `/api/v1/nodes/${real.ids[0]}`);
  }

  // Templates, sent as Heat's API takes them.
  const files = {
    'server.yaml': 'heat_template_version: 2016-10-14\ndescription: a server\nparameters: {}\nresources: {}\noutputs: {}\n',
    'env.yaml': 'resource_registry:\n  OS::Hearth::Server: server.yaml\n',
  };
  await call('POST', '/api/v1/templates/find', { body: { files, constraints: {} } });
  await call('POST', '/api/v1/templates/capabilities', { body: { files, environments: ['env.yaml'] } });
  await call('POST', '/api/v1/templates/resolve', { body: { files, environment: 'env.yaml' } });
  await call('POST', '/api/v1/templates/resolve', { body: { files } });

  // Accounts (issue 29): users, signing in and out, personal tokens, and their refusals.
  await call('POST', '/api/v1/users', { body: { name: 'contract-user', role: 'operator', password: 'contract password' } });
  await call('POST', '/api/v1/users', { body: { name: 'contract-user', role: 'operator', password: 'contract password' } });
  await call('GET', '/api/v1/users');
  await call('PATCH', '/api/v1/users/contract-user', { body: { role: 'viewer' } });
  await call('PATCH', '/api/v1/users/nobody-here', { body: { disabled: true } });
  await call('POST', '/api/v1/session', { token: null, body: { name: 'contract-user', password: 'not the password' } });
  const signedIn = await fetch(`${server.url}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'contract-user', password: 'contract password' }) });
  check('POST', '/api/v1/session', { status: signedIn.status, contentType: 'application/json', text: '', body: await signedIn.json() }, { name: 'contract-user', password: 'contract password' });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = json(await call('GET', '/api/v1/session', { token: null, headers: { cookie } }));
  // Your own password: a wrong current one, then the change (the session that asked stays).
  const own = { token: null, headers: { cookie, 'x-csrf-token': session.csrf_token } };
  await call('PUT', '/api/v1/session/password', { ...own, body: { current_password: 'not the password', password: 'contract password 2' } });
  await call('PUT', '/api/v1/session/password', { ...own, body: { current_password: 'contract password', password: 'contract password 2' } });
  await call('PUT', '/api/v1/session/password', { body: { current_password: 'x', password: 'contract password 3' } });
  const made = json(await call('POST', '/api/v1/tokens', { body: { name: 'contract-token', user: 'contract-user', expires_in: 3600 } }));
  await call('POST', '/api/v1/tokens', { token: made.token, body: { name: 'too-much', role: 'admin' } });
  await call('GET', '/api/v1/tokens', { token: made.token });
  await call('GET', '/api/v1/users', { token: made.token });
  await call('DELETE', '/api/v1/tokens/contract-token', { token: made.token });
  await call('DELETE', '/api/v1/tokens/contract-token', { token: made.token });
  await call('DELETE', '/api/v1/session', { token: null, headers: { cookie, 'x-csrf-token': session.csrf_token } });
  await call('DELETE', '/api/v1/session', { token: null, headers: { cookie, 'x-csrf-token': session.csrf_token } });
  await call('DELETE', '/api/v1/users/contract-user');
  await call('DELETE', '/api/v1/users/contract-user');
  // The audit log of all the above (issue 29): a page, filtered, and a bad filter refused.
  await call('GET', '/api/v1/audit?actor=contract-user&limit=5');
  await call('GET', '/api/v1/audit?object=galaxy');

  // Deletions last. A release no plugin owns (as `hearth db import` brings them) can be deleted.
  await call('DELETE', `/api/v1/releases/${release}`);
  const bundled = (await store.getRelease(server.db, release))!.release;
  await store.insertRelease(server.db, { ...bundled, id: 'imported@1', name: 'imported' });
  await call('DELETE', '/api/v1/releases/imported@1');
  await call('DELETE', `/api/v1/clusters/${id}`);
  await call('DELETE', `/api/v1/clusters/${id}`);
  await call('DELETE', '/api/v1/releases/no-such-release');

  // The walk reached every route, and each one's success where this machine can reach it.
  for (const rule of server.app.routeRules) {
    if (rule.method === 'HEAD' || rule.url === '/' || rule.url === '/docs' || rule.url === '/api/v1/openapi.json') continue;
    const route = `${rule.method} ${rule.url}`;
    const statuses = seen.get(route);
    if (!statuses) {
      problems.push(`${route}: no step of this walk requests it (add one, with its documentation)`);
      continue;
    }
    const succeeded = [...statuses].some((s) => s >= 200 && s < 400);
    if (!succeeded && !UNREACHED_SUCCESS.has(route)) problems.push(`${route}: never answered a success (${[...statuses].join(', ')})`);
  }
  for (const [route, why] of UNREACHED_SUCCESS) if ([...(seen.get(route) ?? [])].some((s) => s < 400)) problems.push(`${route} succeeded: take it off UNREACHED_SUCCESS (${why})`);
  assert.deepEqual(problems, []);
});
