/**
 * Deployment tasks: what the reference builder checked (role format, tasks without roles), the
 * plugins-v5 messages for packages 4.0.0 and 5.0.0, and what breaks real deployments: roles that
 * exist nowhere, dependencies on tasks that exist nowhere, dependency cycles, misspelt keys, and
 * restriction expressions that do not parse.
 */
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { parseExpression } from '../../core/expressions/index.js';
import { parseYaql } from '../../core/yaql/index.js';
import { unsafePatternReason } from '../../core/graph/selectors.js';
import { checkKnownKeys } from './keys.js';
import { checkSchema } from './schemas.js';
import { findCycles } from './cycles.js';
import { checkGroupMembership } from './group-membership.js';
import { indexTasks } from './task-index.js';
import { checkRoleMetadataReferences, checkTaskReferences } from './references.js';
import { checkCyclesWithRelease } from './release-cycles.js';
import { checkPackageRules } from './package-rules.js';
import { closestNames, closestSuffix } from './spelling.js';
import { CORE_ROLES, SPECIAL_ROLES, isMapping, releaseTaskIds, type ValidationContext } from './context.js';

/** Where a list of tasks came from. */
export interface TaskSource {
  file: string;
  label: string;
  tasks: Record<string, unknown>[];
  /** The plugin's own deployment_tasks.yaml (the plugins-v5 rules apply to it). */
  deploymentTasksFile: boolean;
  /** Tasks of a release the plugin defines: its graph is complete, so every dependency must resolve. */
  releaseRecord?: number;
}

export const TASK_KEYS = [
  'id', 'type', 'version', 'role', 'roles', 'groups', 'tags', 'requires', 'required_for', 'cross-depends',
  'cross-depended-by', 'tasks', 'parameters', 'condition', 'stage', 'strategy', 'test_pre', 'test_post',
  'refresh_on', 'reexecute_on', 'fault_tolerance', 'description', 'no_predecessors', 'os-version', 'fuel-version',
  'strategy',
];
const ROLE_FORMAT = /^[0-9a-zA-Z_-]+$|^\*$/;

const taskId = (t: Record<string, unknown>): string | undefined => (typeof t.id === 'string' ? t.id : undefined);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

export function collectTaskSources(ctx: ValidationContext): TaskSource[] {
  const { plugin } = ctx;
  const sources: TaskSource[] = [];
  const dt = plugin.files.deployment_tasks;
  if (ctx.major >= 3 && Array.isArray(dt)) {
    sources.push({ file: plugin.filePaths.deployment_tasks, label: plugin.filePaths.deployment_tasks, tasks: dt.filter(isMapping), deploymentTasksFile: true });
  }
  for (const record of plugin.releases) {
    if (ctx.major < 5) break;
    const label = `releases[${record.index}]`;
    const own = record.resolved.deployment_tasks;
    if (Array.isArray(own)) {
      sources.push({ file: 'metadata.yaml', label: `${label}.deployment_tasks`, tasks: own.filter(isMapping), deploymentTasksFile: false, releaseRecord: record.isRelease ? record.index : undefined });
    }
    const graphs = record.resolved.graphs;
    if (!Array.isArray(graphs)) continue;
    graphs.forEach((entry, i) => {
      if (!isMapping(entry)) return;
      const inner = isMapping(entry.graph) ? entry.graph : entry;
      const tasks = inner.tasks;
      if (!Array.isArray(tasks)) {
        if (inner.tasks_path === undefined && inner.graph_path === undefined && entry.graph_path === undefined) {
          ctx.findings.push(finding('graph/no-tasks', 'warning', `${label}.graphs[${i}] (type ${String(entry.type)}) has no tasks`, positionOf(graphs, i), 'add tasks_path: <file of tasks>'));
        }
        return;
      }
      sources.push({ file: 'metadata.yaml', label: `${label}.graphs[${i}]`, tasks: tasks.filter(isMapping), deploymentTasksFile: false, releaseRecord: record.isRelease ? record.index : undefined });
    });
  }
  return sources;
}

/** Every role name a task may name: the plugin's, the release's (or Fuel's core ones), and group ids. */
export function knownRoles(ctx: ValidationContext, sources: TaskSource[]): Set<string> {
  const roles = new Set<string>(SPECIAL_ROLES);
  const add = (name: string, meta: unknown) => {
    roles.add(name);
    if (isMapping(meta) && meta.has_primary === true) roles.add(`primary-${name}`);
  };
  const nodeRoles = ctx.plugin.files.node_roles;
  if (isMapping(nodeRoles)) for (const [name, meta] of Object.entries(nodeRoles)) add(name, meta);
  for (const record of ctx.plugin.releases) {
    for (const key of ['roles', 'roles_metadata', 'node_roles']) {
      const r = record.resolved[key];
      if (isMapping(r)) for (const [name, meta] of Object.entries(r)) add(name, meta);
    }
  }
  if (ctx.release) {
    for (const [name, meta] of Object.entries(ctx.release.roles_metadata ?? {})) add(name, meta);
    // Fuel 9+ keeps has_primary on tags: `primary-controller` comes from the controller tag.
    for (const [name, meta] of Object.entries(ctx.release.tags_metadata ?? {})) add(name, meta);
  }
  else for (const name of CORE_ROLES) roles.add(name);
  for (const s of sources) for (const t of s.tasks) if (t.type === 'group' && typeof t.id === 'string') roles.add(t.id);
  return roles;
}

export function checkTasks(ctx: ValidationContext): void {
  const sources = collectTaskSources(ctx);
  const roles = knownRoles(ctx, sources);
  const inGroups = tasksListedByGroups(ctx, sources);
  for (const source of sources) {
    if (!source.deploymentTasksFile && source.releaseRecord === undefined && !source.label.endsWith('.deployment_tasks')) {
      // Per-release task files of extensions are not covered by the file matrix (release records are, by their schema).
      ctx.findings.push(...checkSchema('graph.json#/definitions/tasks', source.tasks, { file: source.file }));
    }
    for (const task of source.tasks) checkOneTask(ctx, task, source, roles, inGroups);
  }
  checkPackageRules(ctx, sources);
  checkDependencies(ctx, sources);
  checkGroupMembership(ctx, indexTasks(ctx, sources));
  checkTaskReferences(ctx, sources, roles, inGroups);
  checkRoleMetadataReferences(ctx, roles);
  checkLegacyTaskRoles(ctx, roles);
}

function taskLabel(task: Record<string, unknown>, source: TaskSource): string {
  const id = taskId(task);
  return id ? `task '${id}'` : `a task in ${source.label}`;
}

/**
 * Task ids a group names in its `tasks:` list: a group task's (the plugin's or, with a release,
 * the release's) and a node role's (node_roles.yaml, package 5.0.0). Such a task reaches the
 * group's nodes without roles of its own, as Nailgun placed it.
 */
function tasksListedByGroups(ctx: ValidationContext, sources: TaskSource[]): Set<string> {
  const listed = new Set<string>();
  const add = (list: unknown) => {
    if (Array.isArray(list)) for (const id of list) if (typeof id === 'string') listed.add(id);
  };
  for (const s of sources) for (const t of s.tasks) if (t.type === 'group') add(t.tasks);
  const nodeRoles = ctx.plugin.files.node_roles;
  if (isMapping(nodeRoles)) for (const meta of Object.values(nodeRoles)) if (isMapping(meta)) add(meta.tasks);
  for (const record of ctx.plugin.releases) {
    for (const key of ['node_roles', 'roles', 'roles_metadata']) {
      const r = record.resolved[key];
      if (isMapping(r)) for (const meta of Object.values(r)) if (isMapping(meta)) add(meta.tasks);
    }
  }
  for (const graph of Object.values(ctx.release?.graphs ?? {})) for (const t of graph.tasks ?? []) if (t.type === 'group') add(t.tasks);
  for (const meta of Object.values(ctx.release?.roles_metadata ?? {})) add(meta.tasks);
  return listed;
}

function checkOneTask(ctx: ValidationContext, task: Record<string, unknown>, source: TaskSource, roles: Set<string>, inGroups: Set<string>): void {
  const { findings } = ctx;
  const label = taskLabel(task, source);
  checkKnownKeys(ctx, task, TASK_KEYS, label);
  // The reference builder's role format (4.0.0 and later); 3.0.0's schema already restricts roles.
  const selectorKeys = ['role', 'roles', 'groups'] as const;
  for (const key of selectorKeys) {
    const value = task[key];
    const list = asList(value);
    list.forEach((item, i) => {
      if (typeof item !== 'string') return;
      const at = Array.isArray(value) ? positionOf(value, i) : positionOf(task, key);
      if (item.length >= 2 && item.startsWith('/') && item.endsWith('/')) {
        try {
          const { source, flags } = fromPythonRegex(item.slice(1, -1));
          new RegExp(source, flags);
        } catch (err) {
          findings.push(
            finding('task/bad-role-regex', 'error', `${label}: ${key} '${item}' is not a valid regular expression (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`, at, 'fix the expression between the slashes, or name the roles one by one'),
          );
          return;
        }
        if (ctx.release) {
          const { source: body, flags } = fromPythonRegex(item.slice(1, -1));
          const re = new RegExp(body, flags);
          if (![...roles].some((r) => r !== '*' && re.test(r))) {
            findings.push(
              finding('task/role-regex-matches-nothing', 'warning', `${label}: ${key} '${item}' matches no role of the plugin or of release ${ctx.release.name}, so the task runs nowhere`, at, 'fix the expression, or name the roles one by one'),
            );
          }
        }
        // The graph refuses such a pattern (it would then reach no role): say so before deployment.
        const unsafe = unsafePatternReason(item.slice(1, -1));
        if (unsafe) {
          findings.push(
            finding('task/unsafe-role-regex', 'error', `${label}: ${key} '${item}' is refused: ${unsafe}`, at, 'write a simpler expression (no repeated group that repeats inside), or name the roles one by one'),
          );
        }
        return;
      }
      if (ctx.major >= 4 && !ROLE_FORMAT.test(item)) {
        findings.push(
          finding('task/bad-role-name', 'error', `${label}: ${key} '${item}' is neither a role name (letters, digits, '_', '-'), '*', nor a /regex/`, at, "write a role name, '*', or a regular expression between slashes"),
        );
        return;
      }
      if (ROLE_FORMAT.test(item) && !roles.has(item)) {
        findings.push(
          finding(
            'task/unknown-role',
            'warning',
            `${label} runs on '${item}' (${key}), a role that neither the plugin nor ${ctx.release ? `release ${ctx.release.name}` : "Fuel's core roles"} define; the task will run nowhere${closestSuffix(item, roles)}`,
            at,
            nearHint(item, roles) ?? (ctx.release ? 'fix the name, or define the role in node_roles.yaml' : 'fix the name, define the role in node_roles.yaml, or pass --release to check against a real release'),
          ),
        );
      }
    });
  }
  // A skipped task runs nowhere by design (it switches a release task off), and a task a group
  // lists runs on the group's nodes: neither needs roles of its own.
  const placedByGroup = typeof task.id === 'string' && inGroups.has(task.id);
  if (ctx.major >= 4 && task.type !== 'stage' && task.type !== 'skipped' && !placedByGroup && !['role', 'roles', 'groups'].some((k) => truthy(task[k]))) {
    findings.push(
      finding('task/no-roles', 'warning', `${label} has no role, roles or groups, so it may be assigned to no node`, positionOf(task) ?? { file: source.file, line: 1, column: 1 }, "add roles: [...] (or '*' for every node)"),
    );
  }
  if (task.strategy !== undefined) {
    findings.push(
      finding('task/misplaced-strategy', 'warning', `${label} sets strategy at its top level, where Fuel does not read it`, keyPositionOf(task, 'strategy'), 'move it under parameters: (parameters: {strategy: {type: one_by_one}})'),
    );
  }
  checkCondition(ctx, task, label);
}

/** "did you mean 'x' or 'y'?", when some known name is near. */
const nearHint = (name: string, known: Iterable<string>): string | undefined => {
  const near = closestNames(name, known);
  return near.length > 0 ? `did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : undefined;
};

/** Python truthiness, as the reference builder tested for roles. */
const truthy = (v: unknown): boolean => !(v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isMapping(v) && Object.keys(v).length === 0));

function checkCondition(ctx: ValidationContext, task: Record<string, unknown>, label: string): void {
  const condition = task.condition;
  // A YAQL condition that cannot be evaluated (or whose regex Hearth refuses) is said now, not in a deployment.
  if (isMapping(condition) && typeof condition.yaql_exp === 'string') {
    const at = positionOf(condition, 'yaql_exp');
    for (const f of parseYaql(condition.yaql_exp).findings) {
      ctx.findings.push(finding(f.code, f.severity, `${label}: condition${f.column ? ` (at character ${f.column})` : ''}: ${f.message}`, at, f.hint));
    }
    return;
  }
  if (typeof condition !== 'string') return;
  reportExpression(ctx.findings, condition, positionOf(task, 'condition'), `${label}: condition`);
}

/** Parse a restriction/condition expression; report where it fails. */
export function reportExpression(findings: Finding[], text: string, at: ReturnType<typeof positionOf>, label: string): void {
  const parsed = parseExpression(text);
  if (parsed.ast) return;
  const first = parsed.findings.find((f) => f.severity === 'error') ?? parsed.findings[0];
  if (!first) return;
  findings.push(
    finding(
      'expression/does-not-parse',
      'error',
      `${label} '${text.length > 80 ? text.slice(0, 77) + '...' : text}' does not parse: ${first.message}${first.column ? ` (at character ${first.column})` : ''}`,
      at,
      first.hint ?? 'fix the expression (see the Fuel restriction language: settings:..., cluster:..., ==, and, or, not)',
    ),
  );
}

/** requires/required_for naming tasks that exist nowhere, and cycles among the tasks. */
function checkDependencies(ctx: ValidationContext, sources: TaskSource[]): void {
  const { findings } = ctx;
  const releaseIds = releaseTaskIds(ctx.release);
  const pluginIds = new Set<string>();
  for (const s of sources) for (const t of s.tasks) if (taskId(t)) pluginIds.add(taskId(t)!);
  const known = new Set([...pluginIds, ...releaseIds]);
  let unchecked = false;
  for (const source of sources) {
    // A release the plugin defines has a complete graph; an extension can only be checked against a given release.
    const checkable = ctx.release !== undefined || source.releaseRecord !== undefined;
    const scope = source.releaseRecord !== undefined ? new Set(source.tasks.map(taskId).filter(Boolean) as string[]) : pluginIds;
    for (const task of source.tasks) {
      for (const key of ['requires', 'required_for']) {
        const list = task[key];
        if (!Array.isArray(list)) continue;
        list.forEach((name, i) => {
          if (typeof name !== 'string') return;
          if (!checkable) {
            unchecked = unchecked || !pluginIds.has(name);
            return;
          }
          if (scope.has(name) || pluginIds.has(name) || releaseIds.has(name)) return;
          findings.push(
            finding(
              'task/unknown-dependency',
              'warning',
              `${taskLabel(task, source)} ${key === 'requires' ? 'requires' : 'is required for'} '${name}', a task that exists neither in the plugin nor in ${ctx.release ? `release ${ctx.release.name}` : 'this release'}; Fuel drops such a dependency, so the order it meant is lost${closestSuffix(name, known)}`,
              positionOf(list, i),
              nearHint(name, known) ?? 'fix the task id, or remove the dependency',
            ),
          );
        });
      }
    }
  }
  if (unchecked && ctx.release === undefined) {
    findings.push(
      finding('task/dependencies-unchecked', 'info', 'tasks depend on tasks the plugin does not define (presumably the release\'s); pass --release to check that they exist', { file: sources[0]?.file ?? 'deployment_tasks.yaml', line: 1, column: 1 }, 'hearth plugin validate <dir> --release <release plugin or openstack.yaml> --tasks <fuel-library tasks>'),
    );
  }
  checkCyclesWithRelease(ctx, sources);
  for (const source of sources) {
    const cycles = findCycles(source.tasks);
    for (const cycle of cycles) {
      const first = source.tasks.find((t) => taskId(t) === cycle[0]);
      const circle = [...cycle, cycle[0]].join(' → ');
      findings.push(
        finding(
          'task/dependency-cycle',
          'error',
          `tasks wait for each other in a circle (each must run before the next): ${circle}; none of them can ever start`,
          first ? positionOf(first) : { file: source.file, line: 1, column: 1 },
          'remove one of these requires/required_for links',
        ),
      );
      // Every link of the circle is a defect of its own, at the line that writes it (issue 28).
      cycle.forEach((before, i) => {
        const after = cycle[(i + 1) % cycle.length];
        const link = cycleLink(source.tasks, before, after);
        if (!link) return;
        findings.push(
          finding('task/dependency-cycle', 'error', `${link.words}, a link of the circle ${circle}; none of its tasks can ever start`, link.at ?? { file: source.file, line: 1, column: 1 }, 'remove this link, or another link of the circle'),
        );
      });
    }
  }
}

/** Legacy tasks.yaml roles: a role list naming roles that exist nowhere runs nowhere. */
function checkLegacyTaskRoles(ctx: ValidationContext, roles: Set<string>): void {
  const tasks = ctx.plugin.files.tasks;
  if (!Array.isArray(tasks)) return;
  const file = ctx.plugin.filePaths.tasks ?? 'tasks.yaml';
  tasks.forEach((task, index) => {
    if (!isMapping(task)) return;
    const role = task.role;
    if (!Array.isArray(role)) return;
    role.forEach((name, i) => {
      if (typeof name === 'string' && !roles.has(name)) {
        ctx.findings.push(
          finding('task/unknown-role', 'warning', `${file} task ${index} runs on '${name}', a role that neither the plugin nor ${ctx.release ? `release ${ctx.release.name}` : "Fuel's core roles"} define`, positionOf(role, i), 'fix the role name'),
        );
      }
    });
  });
}

/**
 * Fuel compiled role patterns with Python's `re`. Spell Python-only syntax the JavaScript way
 * before judging a pattern, so a valid Python pattern is not called broken: named groups
 * `(?P<n>...)` and `(?P=n)`, leading inline flags `(?i)`, and `\A` / `\Z` anchors.
 */
export function fromPythonRegex(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const f of inline[1]) if ('ims'.includes(f) && !flags.includes(f)) flags += f;
  }
  source = source.replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>').replace(/\\A/g, '^').replace(/\\Z/g, '$');
  return { source, flags };
}

/** Who writes "before runs before after": after's requires, else before's required_for. */
function cycleLink(tasks: readonly Record<string, unknown>[], before: string, after: string): { words: string; at: ReturnType<typeof positionOf> } | undefined {
  const a = tasks.find((t) => taskId(t) === after);
  const b = tasks.find((t) => taskId(t) === before);
  const requires = a && Array.isArray(a.requires) ? a.requires : [];
  const i = requires.indexOf(before);
  if (i >= 0) return { words: `task '${after}' requires '${before}'`, at: positionOf(requires, i) };
  const requiredFor = b && Array.isArray(b.required_for) ? b.required_for : [];
  const j = requiredFor.indexOf(after);
  if (j >= 0) return { words: `task '${before}' is required_for '${after}'`, at: positionOf(requiredFor, j) };
  return undefined;
}
