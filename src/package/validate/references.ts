/**
 * Class 4 of issue 18: references that match nothing. Task ids and `/regex/`es in `cross-depends`,
 * `cross-depended-by` and the `tasks:` lists of groups and node roles are checked against the
 * plugin and, when a release is given, the release (an extension's dependencies on the release
 * cannot be judged without it; class 5's note says which flags to add). Role names a plugin writes
 * in its role metadata (`update_required`, `update_once`, role names tested in `restrictions` and
 * `limits` conditions) are checked against the plugin's and the release's roles (Fuel's core roles
 * without one). Each warning says what exists instead (closest names). A reference that leaves a
 * task running nowhere, or a role with nothing to deploy, is an error.
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { parseExpression, type Expr } from '../../core/expressions/index.js';
import { closestNames, closestSuffix, editDistance } from './spelling.js';
import { fromPythonRegex, type TaskSource } from './tasks.js';
import { isMapping, releaseTaskIds, type ValidationContext } from './context.js';

/** A slip rather than a different name: the distance closestNames allows, without containment. */
const editDistanceClose = (a: string, b: string) => editDistance(a.toLowerCase(), b.toLowerCase()) <= (a.length <= 4 ? 1 : a.length <= 8 ? 2 : 3);

const isRegex = (s: string) => s.length >= 2 && s.startsWith('/') && s.endsWith('/');

/** A `/regex/` as Fuel compiled it, or undefined when it does not compile (reported elsewhere). */
function compile(pattern: string): RegExp | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  let re: RegExp | undefined;
  try {
    const { source, flags } = fromPythonRegex(pattern.slice(1, -1));
    re = new RegExp(source, flags);
  } catch {
    re = undefined;
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(pattern, re);
  return re;
}
const compiled = new Map<string, RegExp | undefined>();

/** Does `name` (an id or `/regex/`) match anything in `known`? A regex that does not compile counts as matching (its own finding says why). */
function matches(name: string, known: Set<string>): boolean {
  if (!isRegex(name)) return known.has(name);
  const re = compile(name);
  if (!re) return true;
  for (const k of known) if (re.test(k)) return true;
  return false;
}

const hintFor = (name: string, known: Set<string>, what: string) => {
  const near = isRegex(name) ? [] : closestNames(name, known);
  return near.length > 0 ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : `fix the ${what}, or remove the reference`;
};

export function checkTaskReferences(ctx: ValidationContext, sources: TaskSource[], roles: Set<string>, inGroups: Set<string>): void {
  const release = ctx.release;
  const releaseName = release ? `release ${release.name}` : 'the release';
  const pluginIds = new Set<string>();
  for (const s of sources) for (const t of s.tasks) if (typeof t.id === 'string') pluginIds.add(t.id);
  const known = new Set([...pluginIds, ...releaseTaskIds(release)]);
  for (const source of sources) {
    // An extension's references to the release's tasks need the release; a release plugin's graph is complete.
    if (!release && source.releaseRecord === undefined) continue;
    const scope = source.releaseRecord !== undefined && !release ? new Set(source.tasks.map((t) => t.id).filter((x): x is string => typeof x === 'string')) : known;
    for (const task of source.tasks) {
      const label = typeof task.id === 'string' ? `task '${task.id}'` : `a task in ${source.label}`;
      for (const key of ['cross-depends', 'cross-depended-by']) {
        const list = task[key];
        if (!Array.isArray(list)) continue;
        list.forEach((entry) => {
          if (!isMapping(entry) || typeof entry.name !== 'string' || matches(entry.name, scope)) return;
          const name = entry.name;
          // A near miss of the plugin's own ids (or a slip of a release id) is a defect; a name
          // unlike anything here is most likely another plugin's task (the StackLight plugins
          // cross-depend on each other's): a note, since it holds once that plugin is installed.
          const near = isRegex(name) ? [] : [...closestNames(name, pluginIds), ...closestNames(name, releaseTaskIds(release)).filter((n) => editDistanceClose(name, n))];
          if (near.length > 0 || isRegex(name)) {
            ctx.findings.push(
              finding(
                'task/unknown-cross-dependency',
                'warning',
                `${label}: ${key} names ${isRegex(name) ? `the pattern '${name}', which matches no task of the plugin or of ${releaseName}` : `'${name}', a task of neither the plugin nor ${releaseName}`}, so the cross-node order it meant is lost${near.length ? `; closest: ${near.map((n) => `'${n}'`).join(', ')}` : ''}`,
                positionOf(entry, 'name'),
                near.length ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : 'fix the pattern, or remove the dependency',
              ),
            );
          } else {
            ctx.findings.push(
              finding(
                'task/cross-dependency-elsewhere',
                'info',
                `${label}: ${key} names '${name}', a task of neither the plugin nor ${releaseName}; if it is another plugin's task, this order holds only when that plugin is installed too`,
                positionOf(entry, 'name'),
                "nothing to do if it belongs to a plugin installed alongside; otherwise fix the task id",
              ),
            );
          }
        });
      }
      if (task.type === 'group' && Array.isArray(task.tasks)) checkMemberList(ctx, task.tasks, `group '${String(task.id)}'`, scope, releaseName);
    }
  }
  if (release) {
    checkNodeRoleTasks(ctx, known, releaseName, sources);
    checkTasksRunNowhere(ctx, sources, roles, inGroups, releaseName);
  }
}

function checkMemberList(ctx: ValidationContext, list: unknown[], owner: string, known: Set<string>, releaseName: string): string[] {
  const missing: string[] = [];
  list.forEach((id, i) => {
    if (typeof id !== 'string' || matches(id, known)) return;
    missing.push(id);
    ctx.findings.push(
      finding(
        'task/unknown-group-member',
        'warning',
        `${owner} lists ${isRegex(id) ? `the pattern '${id}', which matches no task of the plugin or of ${releaseName},` : `'${id}', a task of neither the plugin nor ${releaseName},`} in tasks:, so nothing of that name runs on its nodes${isRegex(id) ? '' : closestSuffix(id, known)}`,
        positionOf(list, i),
        hintFor(id, known, 'task id'),
      ),
    );
  });
  return missing;
}

/** Package 5.0.0 node roles carry their own `tasks:`; when none of them exists and no task names the role, the role deploys nothing. */
function checkNodeRoleTasks(ctx: ValidationContext, known: Set<string>, releaseName: string, sources: TaskSource[]): void {
  const nodeRoles = ctx.plugin.files.node_roles;
  if (!isMapping(nodeRoles)) return;
  const file = ctx.plugin.filePaths.node_roles ?? 'node_roles.yaml';
  for (const [role, meta] of Object.entries(nodeRoles)) {
    if (!isMapping(meta) || !Array.isArray(meta.tasks)) continue;
    const list = meta.tasks;
    const missing = checkMemberList(ctx, list, `role '${role}' (${file})`, known, releaseName);
    const strings = list.filter((x) => typeof x === 'string');
    if (strings.length === 0 || missing.length < strings.length) continue;
    if (sources.some((s) => s.tasks.some((t) => selects(t, role)))) continue;
    ctx.findings.push(
      finding(
        'role/deploys-nothing',
        'error',
        `role '${role}': none of the tasks its tasks: list names (${missing.map((m) => `'${m}'`).join(', ')}) exists in the plugin or ${releaseName}, and no task names the role, so a node given this role would deploy nothing of it`,
        keyPositionOf(meta, 'tasks') ?? keyPositionOf(nodeRoles, role),
        'name existing task ids in tasks:, or give the role tasks with roles: [<role>]',
      ),
    );
  }
}

/** Whether a task's role, roles, groups or tags select `role` (exactly, as primary-<role>, or by a /regex/). */
function selects(task: Record<string, unknown>, role: string): boolean {
  for (const key of ['role', 'roles', 'groups', 'tags']) {
    const v = task[key];
    const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    for (const s of list) {
      if (typeof s !== 'string') continue;
      if (s === '*' || s === role || s === `primary-${role}`) return true;
      if (isRegex(s) && compile(s)?.test(role)) return true;
    }
  }
  return false;
}

/** A task whose every role selector names something that exists nowhere runs on no node. */
function checkTasksRunNowhere(ctx: ValidationContext, sources: TaskSource[], roles: Set<string>, inGroups: Set<string>, releaseName: string): void {
  for (const source of sources) {
    if (source.releaseRecord !== undefined) continue;
    for (const task of source.tasks) {
      if (['group', 'stage', 'skipped'].includes(String(task.type)) || (typeof task.id === 'string' && inGroups.has(task.id))) continue;
      const selectors: string[] = [];
      for (const key of ['role', 'roles', 'groups', 'tags']) {
        const v = task[key];
        for (const s of Array.isArray(v) ? v : typeof v === 'string' ? [v] : []) if (typeof s === 'string') selectors.push(s);
      }
      if (selectors.length === 0 || selectors.some((s) => matches(s, roles) || s === '*')) continue;
      const label = typeof task.id === 'string' ? `task '${task.id}'` : `a task in ${source.label}`;
      const near = [...new Set(selectors.filter((s) => !isRegex(s)).flatMap((s) => closestNames(s, roles)))];
      ctx.findings.push(
        finding(
          'task/runs-nowhere',
          'error',
          `${label} runs on ${selectors.map((s) => `'${s}'`).join(', ')}, ${selectors.length === 1 ? 'which is not' : 'none of which is'} a role, group or tag of the plugin or ${releaseName}, and no group lists it: the task runs on no node${near.length ? `; closest: ${near.map((n) => `'${n}'`).join(', ')}` : ''}`,
          positionOf(task, ['role', 'roles', 'groups', 'tags'].find((k) => task[k] !== undefined)) ?? positionOf(task),
          near.length ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}? (a role another plugin defines counts only when that plugin is installed too)` : 'name a role of the plugin or the release, or define the role in node_roles.yaml',
        ),
      );
    }
  }
}

/** Role names the plugin writes in its role metadata: update lists, and names tested in conditions. */
export function checkRoleMetadataReferences(ctx: ValidationContext, roles: Set<string>): void {
  const nodeRoles = ctx.plugin.files.node_roles;
  if (!isMapping(nodeRoles) || ctx.major < 3) return;
  const file = ctx.plugin.filePaths.node_roles ?? 'node_roles.yaml';
  const against = ctx.release ? `release ${ctx.release.name}` : "Fuel's core roles";
  for (const [role, meta] of Object.entries(nodeRoles)) {
    if (!isMapping(meta)) continue;
    for (const key of ['update_required', 'update_once']) {
      const list = meta[key];
      if (!Array.isArray(list)) continue;
      list.forEach((name, i) => {
        if (typeof name !== 'string' || name === '*' || roles.has(name)) return;
        ctx.findings.push(
          finding(
            'role/unknown-update-role',
            'warning',
            `role '${role}' (${file}) lists '${name}' in ${key}, a role that neither the plugin nor ${against} define, so no node is redeployed for it${closestSuffix(name, roles)}`,
            positionOf(list, i),
            hintFor(name, roles, 'role name'),
          ),
        );
      });
    }
    const conditions: Array<{ text: string; at: ReturnType<typeof positionOf>; where: string }> = [];
    const collect = (container: unknown, key: string, where: string) => {
      if (isMapping(container) && typeof container[key] === 'string') conditions.push({ text: container[key] as string, at: positionOf(container, key), where });
    };
    if (Array.isArray(meta.restrictions)) {
      meta.restrictions.forEach((r, i) => {
        if (typeof r === 'string') conditions.push({ text: r, at: positionOf(meta.restrictions, i), where: 'a restriction' });
        else collect(r, 'condition', 'a restriction');
      });
    }
    if (isMapping(meta.limits)) {
      for (const k of ['min', 'max', 'recommended', 'condition']) collect(meta.limits, k, `limits.${k}`);
      if (Array.isArray(meta.limits.overrides)) for (const o of meta.limits.overrides) collect(o, 'condition', 'a limits override');
    }
    for (const c of conditions) {
      for (const name of rolesTestedIn(c.text)) {
        if (roles.has(name)) continue;
        ctx.findings.push(
          finding(
            'role/unknown-role-in-condition',
            'warning',
            `role '${role}' (${file}): ${c.where} tests for '${name}', a role that neither the plugin nor ${against} define, so the test never holds${closestSuffix(name, roles)}`,
            c.at,
            hintFor(name, roles, 'role name'),
          ),
        );
      }
    }
  }
}

/** `'name' in <...roles>`: the role names a condition tests for (Fuel's `in` over a roles list). */
function rolesTestedIn(text: string): string[] {
  const { ast } = parseExpression(text);
  const found: string[] = [];
  const visit = (e: Expr | undefined) => {
    if (!e) return;
    if (e.kind === 'not') visit(e.operand);
    if (e.kind !== 'binary') return;
    if (e.operator === 'in' && e.left.kind === 'literal' && typeof e.left.value === 'string' && e.right.kind === 'reference' && /roles$/.test(e.right.path[e.right.path.length - 1] ?? '')) found.push(e.left.value);
    visit(e.left);
    visit(e.right);
  };
  visit(ast);
  return found;
}
