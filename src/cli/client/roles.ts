/**
 * `hearth role list|show|add|change|delete` (Nailgun's role API from the CLI, as `fuel role` had it):
 * roles of a release (`--release`, every environment on it) or of one environment (`--env`). A role
 * is written in a YAML or JSON file, Nailgun's `{name, meta, volumes_roles_mapping}`. The file is
 * read here with positions, so a refusal points at the line and column to change: its syntax, a
 * missing key, and the field a server's schema refusal names.
 */
import type { Finding, SourcePosition } from '../../core/findings.js';
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { escapeControls } from '../../core/text/controls.js';
import { readYamlFile } from '../../package/yaml/index.js';
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { formatFinding } from '../finding-line.js';
import { chosenFormat, listOutput, showOutput, yamlText, type Column, type OutputOptions } from '../output.js';
import { ClientError, run, type ServerOptions } from './http.js';
import { clusterId } from './refs.js';
import type { AnswerOf } from '../../api/client.js';

export interface RoleScope {
  release?: string;
  env?: string;
}

type Role = AnswerOf<'/releases/{id}/roles', 'get'>[number];

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

/** Where a role goes: exactly one of --release and --env. */
function scopeOf(o: RoleScope): { release: string } | { env: string } {
  if (o.release !== undefined && o.env !== undefined) throw usage('say --release or --env, not both: a role is added to a release (every environment on it) or to one environment');
  if (o.release !== undefined) return { release: o.release };
  if (o.env !== undefined) return { env: o.env };
  throw usage('say where the role is: --release <id> (hearth release list shows them) or --env <env>');
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One finding as `plugin build` prints them; a file's text or the server's words may hold control characters. */
const printFinding = (f: Finding): void => void process.stderr.write(escapeControls(formatFinding(f)));

/** The role file read, or its problems printed (exit status 1). */
export function readRoleFile(path: string): Record<string, unknown> | undefined {
  const parsed = readYamlFile(path, path);
  const findings: Finding[] = [...parsed.findings];
  const value = parsed.value;
  if (parsed.ok) {
    if (!isMapping(value)) {
      findings.push(finding('role/not-a-mapping', 'error', 'a role file is a mapping of name, meta and volumes_roles_mapping', positionOf(value) ?? { file: path, line: 1, column: 1 }, 'write name: my-role, meta: {name: …, description: …, tags: [my-role]}, volumes_roles_mapping: [{id: os, allocate_size: min}]'));
    } else {
      const missing = ['name', 'meta', 'volumes_roles_mapping'].filter((k) => !Object.hasOwn(value, k));
      if (missing.length) findings.push(finding('role/missing-key', 'error', `the role file has no ${missing.join(', ')}`, positionOf(value) ?? { file: path, line: 1, column: 1 }, "Nailgun's role format: name, meta (name, description, tags) and volumes_roles_mapping"));
    }
  }
  if (findings.some((f) => f.severity === 'error')) {
    findings.forEach(printFinding);
    // A file that is not there (or not readable) is bad usage, as a missing folder is for other commands.
    process.exitCode = findings.some((f) => f.code === 'file/missing' || f.code === 'file/unreadable' || f.code === 'file/not-a-file') ? EXIT_USAGE : EXIT_FINDINGS;
    return undefined;
  }
  return value as Record<string, unknown>;
}

/**
 * Where in the file a schema refusal's field is: `/meta/tags/0` walks the parsed value; a missing
 * property points at the mapping that lacks it. Undefined when the path leads nowhere.
 */
export function positionOfField(role: unknown, instancePath: string, missing?: string): SourcePosition | undefined {
  const steps = instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let container: unknown = role;
  let at = positionOf(role);
  for (const step of steps) {
    if (!container || typeof container !== 'object') return at;
    const key = Array.isArray(container) ? Number(step) : step;
    at = typeof key === 'string' ? keyPositionOf(container, key) ?? at : positionOf(container, key) ?? at;
    container = (container as Record<string | number, unknown>)[key];
  }
  if (missing !== undefined) return positionOf(container) ?? at;
  return at;
}

/** A refusal of the role's body, with the file's line and column for each field the server names. */
async function sending<T>(path: string, role: unknown, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const errors: Array<{ instancePath?: string; params?: { missingProperty?: string; allowedValues?: unknown[] }; message?: string }> | undefined = err instanceof ClientError ? err.body?.details?.errors : undefined;
    if (errors?.length) {
      for (const e of errors) {
        const field = `${e.instancePath ?? ''}${e.params?.missingProperty ? `/${e.params.missingProperty}` : ''}`.replace(/^\//, '').replace(/\//g, '.') || '(the role)';
        const where = positionOfField(role, e.instancePath ?? '', e.params?.missingProperty) ?? { file: path, line: 1, column: 1 };
        const allowed = e.params?.allowedValues ? ` (${e.params.allowedValues.map(String).join(', ')})` : '';
        printFinding(finding('role/refused', 'error', `${field}: ${e.message ?? 'refused by the server'}${allowed}`, { ...where, file: path }));
      }
    }
    throw err;
  }
}

/** The server's hints name API requests; from the CLI, the command to run says it better. */
function withCommandHint(err: unknown, hint: Record<string, string>): unknown {
  if (err instanceof ClientError && err.body?.code && hint[err.body.code] && err.body.details) err.body.details.hint = hint[err.body.code];
  return err;
}

const flagOf = (scope: { release: string } | { env: string }) => ('release' in scope ? `--release ${scope.release}` : `--env ${scope.env}`);

const ROLE_COLUMNS: Array<Column<Role>> = [
  { header: 'role', value: (r) => r.name },
  { header: 'label', value: (r) => r.label },
  { header: 'source', value: (r) => r.source },
  { header: 'description', value: (r) => r.description },
];

export const roleList = (o: RoleScope & ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const scope = scopeOf(o);
    const out = listOutput(o, ROLE_COLUMNS);
    const roles = 'release' in scope ? await c.call('get', '/releases/{id}/roles', { params: { id: scope.release } }) : await c.call('get', '/clusters/{id}/roles', { params: { id: await clusterId(c, scope.env) } });
    process.stdout.write(await out.render(roles));
  });

export const roleShow = (name: string, o: RoleScope & ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const scope = scopeOf(o);
    chosenFormat(o); // a bad -f is refused before the server is asked
    const role =
      'release' in scope
        ? await c.call('get', '/releases/{id}/roles/{name}', { params: { id: scope.release, name } })
        : await c.call('get', '/clusters/{id}/roles/{name}', { params: { id: await clusterId(c, scope.env), name } });
    // Shown as YAML: the file `role add` and `role change` take back, edited.
    const text = await yamlText(role);
    process.stdout.write(await showOutput(o, role, () => text));
  });

export const roleAdd = (file: string, o: RoleScope & ServerOptions) =>
  run(o, async (c) => {
    const scope = scopeOf(o);
    const role = readRoleFile(file);
    if (!role) return;
    const body = role as never;
    const added = await sending(file, role, async () =>
      'release' in scope ? c.call('post', '/releases/{id}/roles', { params: { id: scope.release }, body }) : c.call('post', '/clusters/{id}/roles', { params: { id: await clusterId(c, scope.env) }, body }),
    ).catch((err) => {
      throw withCommandHint(err, { 'role/exists': `change it with: hearth role change ${file} ${flagOf(scope)}` });
    });
    if (o.json) process.stdout.write(`${JSON.stringify(added, null, 2)}\n`);
    else process.stdout.write(`added role ${added.name} to ${'release' in scope ? `release ${scope.release}` : `environment ${scope.env}`}\n`);
  });

export const roleChange = (file: string, o: RoleScope & ServerOptions) =>
  run(o, async (c) => {
    const scope = scopeOf(o);
    const role = readRoleFile(file);
    if (!role) return;
    if (typeof role.name !== 'string') throw new ClientError(`${file}: name must be the role's name (a string), to say which role changes`, EXIT_FINDINGS);
    const name = role.name;
    // PUT takes meta and volumes_roles_mapping; the name is in the path.
    const { name: _name, ...body } = role;
    const changed = await sending(file, role, async () =>
      'release' in scope
        ? c.call('put', '/releases/{id}/roles/{name}', { params: { id: scope.release, name }, body: body as never })
        : c.call('put', '/clusters/{id}/roles/{name}', { params: { id: await clusterId(c, scope.env), name }, body: body as never }),
    ).catch((err) => {
      throw withCommandHint(err, { 'role/not-found': `only roles added with hearth role add change; hearth role list ${flagOf(scope)} shows the roles there` });
    });
    if (o.json) process.stdout.write(`${JSON.stringify(changed, null, 2)}\n`);
    else process.stdout.write(`changed role ${changed.name} of ${'release' in scope ? `release ${scope.release}` : `environment ${scope.env}`}\n`);
  });

export const roleDelete = (name: string, o: RoleScope & ServerOptions) =>
  run(o, async (c) => {
    const scope = scopeOf(o);
    try {
      if ('release' in scope) await c.call('delete', '/releases/{id}/roles/{name}', { params: { id: scope.release, name } });
      else await c.call('delete', '/clusters/{id}/roles/{name}', { params: { id: await clusterId(c, scope.env), name } });
    } catch (err) {
      throw withCommandHint(err, {
        'role/not-found': `only roles added with hearth role add are deleted; hearth role list ${flagOf(scope)} shows the roles there`,
        'role/in-use': 'take the role off those nodes first (hearth node assign ENV --node NODE=other-roles, or hearth node unassign), then delete it',
      });
    }
    if (!o.json) process.stdout.write(`deleted role ${name} of ${'release' in scope ? `release ${scope.release}` : `environment ${scope.env}`}\n`);
  });
