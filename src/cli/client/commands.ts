/** The client commands' actions (loaded lazily by src/cli/commands/client.ts). */
import { readFile } from 'node:fs/promises';
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { clusterId } from './refs.js';
import { print, table } from './table.js';
import { listOrPage, listOutput, showOutput, chosenFormat, type Column, type OutputOptions } from '../output.js';
import type { AnswerOf } from '../../api/client.js';

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

const splitList = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** One record of a list the API answers. */
type Item<P extends '/releases' | '/plugins' | '/clusters' | '/nodes'> = AnswerOf<P, 'get'>[number];

const RELEASE_COLUMNS: Array<Column<Item<'/releases'>>> = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  { header: 'version', value: (r) => r.version },
  { header: 'os', value: (r) => r.operating_system },
  { header: 'plugin', value: (r) => r.plugin_id },
];

export const releaseList = (o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const out = listOutput(o, RELEASE_COLUMNS);
    process.stdout.write(await out.render(await c.call('get', '/releases')));
  });

export const releaseShow = (id: string, o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    chosenFormat(o); // a bad -f is refused before the server is asked
    const release = await c.call('get', '/releases/{id}', { params: { id } });
    const roles = await c.call('get', '/releases/{id}/roles', { params: { id } });
    const components = await c.call('get', '/releases/{id}/components', { params: { id } });
    process.stdout.write(await showOutput(o, { ...release, roles, components }, () =>
      `${release.name} ${release.version} (${release.id}) on ${release.operating_system}\n${release.description ?? ''}\n\nroles:\n` +
      table(['role', 'label', 'source'], roles.map((r) => [r.name, r.label, r.source])) +
      '\ncomponents:\n' +
      table(['component', 'label', 'plugin'], components.map((x) => [x.name, x.label, x.plugin ? `${x.plugin.name}@${x.plugin.version}` : null])),
      ),
    );
  });

export const releaseDelete = (id: string, o: ServerOptions) =>
  run(o, async (c) => {
    await c.call('delete', '/releases/{id}', { params: { id } });
    if (!o.json) process.stdout.write(`deleted release ${id}\n`);
  });

/** Packages from this size on show their upload's progress. */
const LARGE_PACKAGE = 4 * 1024 * 1024;

export const pluginInstall = (source: string, o: ServerOptions & { folder?: boolean }) =>
  run(o, async (c) => {
    let res;
    if (o.folder) {
      const { resolve } = await import('node:path');
      res = await c.call('post', '/plugins/folders', { body: { path: resolve(source) } });
    } else {
      let bytes: Buffer;
      try {
        bytes = await readFile(source);
      } catch {
        throw usage(`cannot read the package '${source}' (build one with hearth plugin build; use --folder for a plugin folder on the server)`);
      }
      // A large package takes a while to send (and the server to check): its progress is shown.
      const line = bytes.length >= LARGE_PACKAGE ? (await import('../progress-line.js')).progressLine(process.stderr) : undefined;
      const mib = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MiB`;
      try {
        res = await c.upload(bytes, line && ((sent) => line.update(sent < bytes.length ? `uploading ${source}: ${mib(sent)} of ${mib(bytes.length)} (${Math.floor((sent / bytes.length) * 100)}%)` : `uploaded ${mib(bytes.length)}; the server is checking and installing it`)));
      } finally {
        line?.end();
      }
    }
    print(o.json, res, () => `installed ${res.plugin.id}\n` + res.findings.filter((f) => f.severity === 'warning').map((f) => `  warning ${f.code}: ${f.message}\n`).join(''));
  });

const PLUGIN_COLUMNS: Array<Column<Item<'/plugins'>>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'title', value: (p) => p.title },
  { header: 'package', value: (p) => p.package_version },
  { header: 'release plugin', value: (p) => (p.is_release ? 'yes' : 'no') },
  { header: 'source', value: (p) => p.source },
];

export const pluginList = (o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const out = listOutput(o, PLUGIN_COLUMNS);
    process.stdout.write(await out.render(await c.call('get', '/plugins')));
  });

export const pluginShow = (id: string, o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    chosenFormat(o);
    const p = await c.call('get', '/plugins/{id}', { params: { id } });
    process.stdout.write(await showOutput(o, p, () =>
      `${p.title} (${p.id}), package ${p.package_version}, from ${p.source}${p.path ? ` ${p.path}` : ''}\n` +
      `releases: ${p.releases.map((r) => `${String(r.os)}/${String(r.version)}`).join(', ') || (p.defines_releases.join(', ') || '-')}\n\nroles:\n` +
      table(['role', 'label'], p.roles.map((r) => [r.name, r.label])) +
      '\ncomponents:\n' +
      table(['component', 'label'], p.components.map((x) => [x.name, x.label])) +
      `\ntasks: ${Object.entries(p.tasks).map(([type, list]) => `${type} ${list.length}`).join(', ') || 'none'}\n`,
      ),
    );
  });

export const pluginUninstall = (id: string, o: ServerOptions) =>
  run(o, async (c) => {
    await c.call('delete', '/plugins/{id}', { params: { id } });
    if (!o.json) process.stdout.write(`uninstalled ${id}\n`);
  });

export const pluginSync = (id: string, o: ServerOptions) =>
  run(o, async (c) => {
    const res = await c.call('post', '/plugins/{id}/sync', { params: { id } });
    print(o.json, res, () => `synced ${res.plugin.id}\n`);
  });

export const envCreate = (name: string, o: ServerOptions & { release?: string; components?: string }) =>
  run(o, async (c) => {
    if (!o.release) throw usage('env create needs --release <id> (hearth release list shows them)');
    // Components left out mean the release's defaults, as the API reads an absent list.
    const res = await c.call('post', '/clusters', { body: { name, release_id: o.release, ...(o.components !== undefined ? { components: splitList(o.components) } : {}) } });
    print(o.json, res, () => `created environment ${res.name} (id ${res.id})${Object.keys(res.plugins).length ? `, plugins enabled: ${Object.values(res.plugins).join(', ')}` : ''}\n`);
  });

const ENV_COLUMNS: Array<Column<Item<'/clusters'>>> = [
  { header: 'id', value: (x) => x.id },
  { header: 'name', value: (x) => x.name },
  { header: 'release', value: (x) => x.release_id },
  { header: 'status', value: (x) => x.status },
  { header: 'plugins', value: (x) => Object.values(x.plugins) },
];

export const envList = (o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const out = listOutput(o, ENV_COLUMNS);
    process.stdout.write(await out.render(await c.call('get', '/clusters')));
  });

export const envShow = (ref: string, o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    chosenFormat(o);
    const id = await clusterId(c, ref);
    const env = await c.call('get', '/clusters/{id}', { params: { id } });
    const nodes = await c.call('get', '/clusters/{id}/nodes', { params: { id } });
    process.stdout.write(await showOutput(o, { ...env, nodes }, () =>
      `${env.name} (id ${env.id}), release ${env.release_id}, ${env.status}\ncomponents: ${env.components.join(', ')}\nplugins: ${Object.values(env.plugins).join(', ') || '-'}\n\n` +
      table(['node', 'name', 'roles', 'pending roles'], nodes.map((n) => [n.id, n.name, n.roles, n.pending_roles])),
      ),
    );
  });

/** `--set section.field=value` (value read as JSON when it parses, else as text). */
function parseSet(items: string[]): Record<string, Record<string, { value: unknown }>> {
  const out: Record<string, Record<string, { value: unknown }>> = {};
  for (const item of items) {
    const m = /^([^.=]+)\.([^.=]+)=(.*)$/s.exec(item);
    if (!m) throw usage(`--set '${item}' must look like section.field=value`);
    let value: unknown = m[3];
    try {
      value = JSON.parse(m[3]);
    } catch {
      // plain text
    }
    (out[m[1]] ??= {})[m[2]] = { value };
  }
  return out;
}

/** A setting as `env settings` lists it: `section.field` and its value. */
const SETTING_COLUMNS: ReadonlyArray<Column<[string, unknown]>> = [
  { header: 'setting', value: ([name]) => name },
  { header: 'value', value: ([, value]) => value },
];

export const envSettings = (ref: string, o: ServerOptions & OutputOptions & { set: string[]; plugin: string[]; dryRun?: boolean }) =>
  run(o, async (c) => {
    chosenFormat(o); // a bad -f is refused before the server is asked
    const id = await clusterId(c, ref);
    if (!o.set.length && !o.plugin.length) {
      const attrs = await c.call('get', '/clusters/{id}/attributes', { params: { id } });
      const settings: Array<[string, unknown]> = [];
      for (const [section, fields] of Object.entries(attrs.editable as Record<string, Record<string, any>>)) {
        for (const [field, slot] of Object.entries(fields)) if (field !== 'metadata' && slot && typeof slot === 'object' && 'value' in slot) settings.push([`${section}.${field}`, slot.value]);
      }
      const page = () =>
        table(['setting', 'value'], settings.map(([name, value]) => [name, JSON.stringify(value)])) +
        '\nplugins:\n' +
        table(['plugin', 'enabled', 'version', 'available', 'locked'], attrs.plugins.map((p) => [p.name, p.enabled ? 'yes' : 'no', p.chosen_version, p.versions.filter((v) => v.fits).map((v) => v.version), p.locked_reason]));
      process.stdout.write(await listOrPage(o, SETTING_COLUMNS, settings, attrs, page));
      return;
    }
    const plugins: Record<string, string | null> = {};
    for (const item of o.plugin) {
      const m = /^([^=]+)=(.+)$/.exec(item);
      if (!m) throw usage(`--plugin '${item}' must be name=version or name=off`);
      plugins[m[1]] = m[2] === 'off' ? null : m[2];
    }
    const res = await c.call('put', '/clusters/{id}/attributes', { params: { id }, body: { ...(o.set.length ? { editable: parseSet(o.set) } : {}), ...(o.plugin.length ? { plugins } : {}), ...(o.dryRun ? { dry_run: true } : {}) } });
    process.stdout.write(await showOutput(o, res, () => {
      const d = res.plugins;
      const lines = [`${res.dry_run ? 'would change' : 'changed'}: ${res.changed.join(', ') || 'no settings'}`];
      if (d) {
        for (const id of d.enable) lines.push(`enable ${id}`);
        for (const id of d.disable) lines.push(`disable ${id}`);
        for (const s of d.switch) lines.push(`switch ${s.from} -> ${s.to}`);
        for (const part of ['roles', 'components', 'tasks'] as const) {
          if (d[part].added.length) lines.push(`${part} added: ${d[part].added.join(', ')}`);
          if (d[part].removed.length) lines.push(`${part} removed: ${d[part].removed.join(', ')}`);
        }
      }
      return lines.join('\n') + '\n';
    }));
  });

export const envDeploy = (ref: string, o: ServerOptions & { graph?: string; wait?: boolean; dryRun?: boolean; maxParallel?: string; follow?: boolean; resume?: boolean; skipOffline?: boolean; plan?: boolean }) =>
  run(o, async (c) => {
    const id = await clusterId(c, ref);
    if (o.plan) return (await import('./plan.js')).printPlan(c, id, o);
    const maxParallel = o.maxParallel === undefined ? undefined : Number(o.maxParallel);
    if (maxParallel !== undefined && !(Number.isInteger(maxParallel) && maxParallel >= 1 && maxParallel <= 1000)) throw usage('--max-parallel must be a whole number from 1 to 1000');
    const d = await c.call('post', '/clusters/{id}/deploy', { params: { id }, body: { ...(o.graph ? { graph_type: o.graph } : {}), ...(o.dryRun !== undefined ? { dry_run: o.dryRun } : {}), ...(maxParallel ? { max_parallel: maxParallel } : {}), ...(o.resume ? { resume: true } : {}), ...(o.skipOffline ? { skip_offline: true } : {}) } });
    const { awaitEnd, follow, printOutcome } = await import('./follow.js');
    if (o.wait === false && !o.follow) return print(o.json, d, () => `started ${d.dry_run ? 'dry run' : 'deployment'} ${d.id} (hearth deployment follow ${d.id} watches it)\n`);
    const end = o.follow ? await follow(c, d, o.json ?? false) : await awaitEnd(c, d, o.json ?? false);
    printOutcome(end.deployment, o.json ?? false, end.tasks);
  });

export const envGraph = (ref: string, o: ServerOptions & { type?: string; format?: string }) =>
  run(o, async (c) => {
    const id = await clusterId(c, ref);
    const format = o.format ?? (o.json ? 'json' : 'summary');
    if (!['json', 'dot', 'mermaid', 'summary'].includes(format)) throw usage('--format must be json, dot, mermaid or summary');
    const params = { id, type: o.type ?? 'default' };
    if (format === 'dot' || format === 'mermaid') {
      process.stdout.write(await c.text('/clusters/{id}/graphs/{type}', { format }, params));
      return;
    }
    const res = await c.call('get', '/clusters/{id}/graphs/{type}', { params, query: { format: 'json' } });
    if (format === 'json') process.stdout.write(`${JSON.stringify(res, null, 2)}\n`);
    else {
      const s = res.summary;
      process.stdout.write(
        `${s.nodes} nodes, ${s.tasks} tasks, ${s.edges} edges; estimated ${Math.round(res.makespan_s / 60)} min; critical path of ${res.critical_path.length} tasks\n` +
          table(['node', 'roles', 'tasks'], res.nodes.map((n) => [n.id, n.roles, n.tasks.length])) +
          res.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}: ${f.message}\n`).join(''),
      );
    }
  });

const NODE_COLUMNS: Array<Column<Item<'/nodes'>>> = [
  { header: 'id', value: (n) => n.id },
  { header: 'name', value: (n) => n.name },
  { header: 'env', value: (n) => n.cluster_id },
  { header: 'roles', value: (n) => n.roles },
  { header: 'pending roles', value: (n) => n.pending_roles },
  { header: 'status', value: (n) => n.status },
];

export const nodeList = (o: ServerOptions & OutputOptions & { env?: string; unassigned?: boolean }) =>
  run(o, async (c) => {
    const out = listOutput(o, NODE_COLUMNS);
    const query = o.env ? { cluster_id: await clusterId(c, o.env) } : o.unassigned ? { unassigned: true } : {};
    process.stdout.write(await out.render(await c.call('get', '/nodes', { query })));
  });

/** Node ids from ids or names (node names are unique; one lookup for all the names of a command). */
async function nodeIdsByName(c: Client, refs: string[]): Promise<number[]> {
  const nodes = refs.every((r) => /^\d+$/.test(r)) ? [] : await c.call('get', '/nodes');
  return refs.map((ref) => {
    if (/^\d+$/.test(ref)) return Number(ref);
    const found = nodes.find((n) => n.name === ref);
    if (!found) throw new ClientError(`there is no node named '${ref}' (hearth node list shows them)`, EXIT_FINDINGS);
    return found.id;
  });
}

/** `--node 3=controller,cinder` or `--node ctl-1=controller` (repeatable). */
export const nodeAssign = (ref: string, o: ServerOptions & { node: string[] }) =>
  run(o, async (c) => {
    if (!o.node.length) throw usage('node assign needs --node <node>=<role>[,<role>...] (repeatable; a node id or name)');
    const items = o.node.map((item) => {
      const m = /^([^=\s]+)=(.*)$/.exec(item);
      if (!m) throw usage(`--node '${item}' must look like 3=controller,cinder or ctl-1=controller`);
      return { node: m[1], roles: splitList(m[2]) };
    });
    const ids = await nodeIdsByName(c, items.map((x) => x.node));
    const assignments = items.map((x, i) => ({ node_id: ids[i], roles: x.roles }));
    const res = await c.call('post', '/clusters/{id}/nodes', { params: { id: await clusterId(c, ref) }, body: { assignments } });
    // Without dry_run the answer is always the environment's nodes.
    const nodes = 'nodes' in res ? res.nodes : [];
    print(o.json, res, () => table(['node', 'name', 'roles', 'pending roles'], nodes.map((n) => [n.id, n.name, n.roles, n.pending_roles])) + res.findings.map((f) => `${f.severity} ${f.code}: ${f.message}\n`).join(''));
  });
