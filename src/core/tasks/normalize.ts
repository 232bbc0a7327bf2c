/**
 * Every task format Fuel knew, normalised into one `Task` model:
 * - `legacy`: a plugin's `tasks.yaml` (package 1.0.0–4.0.0 hooks): no ids, `stage:
 *   pre_deployment|post_deployment[/N]`, `role`, types shell/puppet/reboot;
 * - `deployment`: `deployment_tasks.yaml` of plugins and the Fuel library (`version` 1.0.0 or 2.x);
 * - `graph`: a graph file (`{name, metadata, tasks}`) or a bare task list from a release plugin.
 * Bad input never throws: each problem becomes a finding that points at the file, line and column.
 */
import { finding, type Finding } from '../findings.js';
import { keyPositionOf, positionOf } from '../positions.js';
import { KNOWN_TASK_KEYS, suggestKey } from './keys.js';
import type { CrossDependency, RoleSelector, Task, TaskOrigin, TaskStrategy, TaskType } from './model.js';

export type TaskFormat = 'legacy' | 'deployment' | 'graph';

export interface NormalizedTasks {
  tasks: Task[];
  findings: Finding[];
}

export const KNOWN_TASK_TYPES: ReadonlySet<string> = new Set([
  'puppet',
  'shell',
  'group',
  'stage',
  'skipped',
  'reboot',
  'upload_file',
  'copy_files',
  'sync',
  'master_shell',
  'move_to_bootstrap',
  'erase_node',
  // Nailgun's enum still lists `role` (Fuel 6.x group tasks); accepted as a group-like no-op.
  'role',
]);

/** Package 1.0.0–4.0.0 `tasks.yaml` hooks could only be these. */
const LEGACY_TYPES: ReadonlySet<string> = new Set(['shell', 'puppet', 'reboot']);
const LEGACY_STAGES: ReadonlySet<string> = new Set(['pre_deployment', 'post_deployment']);
const STRATEGY_TYPES = ['parallel', 'one_by_one'];
const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;

/** Reads one raw task; `push` collects findings positioned within the task. */
class TaskReader {
  constructor(
    readonly raw: Record<string, unknown>,
    readonly origin: TaskOrigin,
    readonly findings: Finding[],
    readonly label: string,
  ) {}

  where(key?: string) {
    const pos = key === undefined ? positionOf(this.raw) : keyPositionOf(this.raw, key);
    return pos ?? { file: this.origin.file, line: this.origin.line, column: this.origin.column };
  }

  valueWhere(key: string) {
    return positionOf(this.raw, key) ?? this.where(key);
  }

  push(code: string, severity: Finding['severity'], message: string, key?: string, hint?: string): void {
    this.findings.push(finding(code, severity, `${this.label}: ${message}`, key ? this.where(key) : this.where(), hint));
  }

  /** A list of names: a string becomes a one-element list; anything else is a finding. */
  names(key: string): string[] | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) {
      const out: string[] = [];
      value.forEach((item, i) => {
        if (typeof item === 'string' || typeof item === 'number') out.push(String(item));
        else {
          const pos = positionOf(value, i) ?? this.valueWhere(key);
          this.findings.push(
            finding('task/invalid-name', 'error', `${this.label}: '${key}' entry ${i + 1} is ${describe(item)}, not a task or role name`, pos, 'write a plain name or a /regex/'),
          );
        }
      });
      return out;
    }
    this.push('task/invalid-field', 'error', `'${key}' must be a list of names, not ${describe(value)}`, key, `write ${key}: [name, ...]`);
    return undefined;
  }

  /** `role`/`roles`/`tags` as a selector: `*` (string or single-element list) stays `*`. */
  selector(key: string): RoleSelector | undefined {
    const list = this.names(key);
    if (!list) return undefined;
    if (list.length === 1 && list[0] === '*') return '*';
    return list;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parse `pre_deployment/-100`, `post_deployment/+101.0`, `post_deployment`. */
export function parseLegacyStage(text: string): { name: string; order: number } | undefined {
  const match = /^([a-z_]+)(?:\/([+-]?\d+(?:\.\d+)?))?$/.exec(text.trim());
  if (!match || !LEGACY_STAGES.has(match[1])) return undefined;
  return { name: match[1], order: match[2] === undefined ? 0 : Number(match[2]) };
}

function crossDependencies(reader: TaskReader, dashed: string, underscored: string): CrossDependency[] {
  const key = reader.raw[dashed] !== undefined ? dashed : underscored;
  const value = reader.raw[key];
  if (value === undefined || value === null) return [];
  if (isMapping(value) && typeof value.yaql_exp === 'string') {
    // A whole list computed per node by YAQL: only a per-node evaluator could expand it.
    reader.push(
      'task/dynamic-cross-dependency',
      'warning',
      `'${key}' is a YAQL expression; Hearth cannot expand it statically, so these dependencies are not in the graph`,
      key,
      'list the dependencies as {name, role} entries where possible',
    );
    return [];
  }
  if (!Array.isArray(value)) {
    reader.push('task/invalid-field', 'error', `'${key}' must be a list of {name, role, policy}, not ${describe(value)}`, key);
    return [];
  }
  const out: CrossDependency[] = [];
  value.forEach((entry, i) => {
    const pos = positionOf(value, i) ?? reader.valueWhere(key);
    if (typeof entry === 'string') {
      out.push({ name: entry });
      return;
    }
    if (!isMapping(entry) || typeof entry.name !== 'string') {
      const why = isMapping(entry) && isMapping(entry.name) ? 'its name is a YAQL expression, which Hearth cannot expand statically' : `it is ${describe(entry)} without a string 'name'`;
      reader.findings.push(finding('task/invalid-cross-dependency', isMapping(entry) && isMapping(entry.name) ? 'warning' : 'error', `${reader.label}: '${key}' entry ${i + 1} is ignored: ${why}`, pos, 'write {name: task-id, role: [roles]}'));
      return;
    }
    const dep: CrossDependency = { name: entry.name };
    const roleKey = entry.tags !== undefined ? 'tags' : entry.roles !== undefined ? 'roles' : 'role';
    const role = entry[roleKey];
    if (role === null && roleKey === 'role' && 'role' in entry) dep.sync = true;
    else if (typeof role === 'string') dep.role = role === '*' ? '*' : [role];
    else if (Array.isArray(role) && role.every((r) => typeof r === 'string')) dep.role = role.length === 1 && role[0] === '*' ? '*' : (role as string[]);
    else if (role !== undefined) {
      reader.findings.push(finding('task/invalid-cross-dependency', 'warning', `${reader.label}: '${key}' entry ${i + 1} has a ${roleKey} that is ${describe(role)}; it is read as "any node"`, positionOf(entry, roleKey) ?? pos, 'write a role name, a list of role names, or a /regex/'));
    }
    if (entry.policy !== undefined) {
      if (entry.policy === 'all' || entry.policy === 'any') dep.policy = entry.policy;
      else reader.findings.push(finding('task/invalid-cross-dependency', 'error', `${reader.label}: policy ${JSON.stringify(entry.policy)} is neither 'all' nor 'any'`, positionOf(entry, 'policy') ?? pos));
    }
    out.push(dep);
  });
  return out;
}

function strategyOf(reader: TaskReader, parameters: Record<string, unknown> | undefined): TaskStrategy | undefined {
  let raw = parameters?.strategy;
  let holder: unknown = parameters;
  if (raw === undefined && reader.raw.strategy !== undefined) {
    raw = reader.raw.strategy;
    holder = reader.raw;
    reader.push('task/strategy-outside-parameters', 'warning', "'strategy' belongs under 'parameters'; Fuel ignored it here, Hearth applies it", 'strategy', 'move it to parameters.strategy');
  }
  if (raw === undefined || raw === null) return undefined;
  const pos = positionOf(holder, 'strategy') ?? reader.where();
  // Fuel read only parameters.strategy: one it never read cannot make a package unusable, so a
  // broken top-level strategy is only worth a warning (and the task runs without one).
  const severity = holder === parameters ? 'error' : 'warning';
  if (!isMapping(raw) || typeof raw.type !== 'string') {
    reader.findings.push(finding('task/invalid-strategy', severity, `${reader.label}: strategy must be {type: parallel|one_by_one, amount?}`, pos));
    return undefined;
  }
  if (!STRATEGY_TYPES.includes(raw.type)) {
    const near = suggestKey(raw.type, STRATEGY_TYPES);
    reader.findings.push(finding('task/unknown-strategy', severity, `${reader.label}: strategy type '${raw.type}' is not parallel or one_by_one; the task runs without one`, positionOf(raw, 'type') ?? pos, near ? `did you mean '${near}'?` : undefined));
    return undefined;
  }
  const strategy: TaskStrategy = { type: raw.type };
  const amount = raw.amount;
  if (typeof amount === 'number' && Number.isInteger(amount) && amount > 0) strategy.amount = amount;
  else if (isMapping(amount) && typeof amount.yaql_exp === 'string') strategy.amount = amount.yaql_exp;
  else if (typeof amount === 'string' && /^\d+$/.test(amount) && Number(amount) > 0) strategy.amount = Number(amount);
  // A share of the nodes that run the task (graph/strategy.ts reads it).
  else if (typeof amount === 'string' && /^\s*\d+(\.\d+)?\s*%\s*$/.test(amount) && Number.parseFloat(amount) > 0) strategy.amount = amount.trim();
  else if (amount !== undefined) {
    reader.findings.push(finding('task/invalid-strategy', severity, `${reader.label}: strategy amount ${JSON.stringify(amount)} is not a positive integer, a share of the nodes such as "10%", or {yaql_exp: ...}`, positionOf(raw, 'amount') ?? pos));
  }
  return strategy;
}

function conditionOf(reader: TaskReader): Task['condition'] {
  const value = reader.raw.condition;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (isMapping(value) && typeof value.yaql_exp === 'string') return { yaql_exp: value.yaql_exp };
  reader.push('task/invalid-condition', 'error', `condition must be a string, a boolean or {yaql_exp: ...}, not ${describe(value)}; the task is treated as always running`, 'condition');
  return undefined;
}

function timeoutOf(reader: TaskReader, parameters: Record<string, unknown> | undefined): number | undefined {
  for (const [holder, key] of [[parameters, 'timeout'], [reader.raw, 'timeout']] as const) {
    const value = holder?.[key];
    if (value === undefined) continue;
    const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
    reader.findings.push(finding('task/invalid-timeout', 'warning', `${reader.label}: timeout ${JSON.stringify(value)} is not a number of seconds; the default is used`, positionOf(holder, key) ?? reader.where()));
  }
  return undefined;
}

function unknownKeys(reader: TaskReader, extra: Record<string, unknown>): void {
  for (const key of Object.keys(reader.raw)) {
    if (KNOWN_TASK_KEYS.has(key)) continue;
    extra[key] = reader.raw[key];
    const near = suggestKey(key);
    if (near) reader.push('task/misspelt-key', 'warning', `unknown key '${key}' is ignored`, key, `did you mean '${near}'?`);
    else reader.push('task/unknown-key', 'info', `unknown key '${key}' is kept but has no effect on the graph`, key);
  }
}

const CARRIED_KEYS = ['test_pre', 'test_post', 'refresh_on', 'reexecute_on', 'fault_tolerance', 'fail_on_error', 'skipped', 'description'];

function normalizeOne(raw: Record<string, unknown>, origin: TaskOrigin, format: TaskFormat, index: number, findings: Finding[]): Task | undefined {
  const pos = positionOf(raw);
  const here: TaskOrigin = { ...origin, ...(pos ? { file: pos.file, line: pos.line, column: pos.column } : {}) };
  const legacy = format === 'legacy';
  const rawId = raw.id;
  const label = typeof rawId === 'string' ? `task '${rawId}'` : `task ${index + 1}`;
  const reader = new TaskReader(raw, here, findings, label);

  let id: string;
  if (typeof rawId === 'string' && rawId.length > 0) id = rawId;
  else if (legacy) id = `${origin.source}-${typeof raw.stage === 'string' ? raw.stage.split('/')[0] : 'hook'}-${index}`;
  else {
    reader.push('task/missing-id', 'error', rawId === undefined ? "has no 'id'; it is skipped" : `has an id that is ${describe(rawId)}; it is skipped`, rawId === undefined ? undefined : 'id', 'give every task a unique string id');
    return undefined;
  }

  const rawType = raw.type;
  if (typeof rawType !== 'string' || rawType.length === 0) {
    reader.push('task/missing-type', 'error', "has no 'type'; it is skipped", rawType === undefined ? undefined : 'type', `use one of ${[...KNOWN_TASK_TYPES].join(', ')}`);
    return undefined;
  }
  const type = rawType as TaskType;
  if (legacy && !LEGACY_TYPES.has(rawType)) {
    reader.push('task/unknown-type', 'error', `type '${rawType}' is not allowed in tasks.yaml (only shell, puppet, reboot)`, 'type', 'move the task to deployment_tasks.yaml');
  } else if (!KNOWN_TASK_TYPES.has(rawType)) {
    const near = suggestKey(rawType, KNOWN_TASK_TYPES);
    reader.push('task/unknown-type', 'error', `type '${rawType}' is not a task type Fuel or Hearth can run`, 'type', near ? `did you mean '${near}'?` : `use one of ${[...KNOWN_TASK_TYPES].join(', ')}`);
  }

  let version = '1.0.0';
  if (raw.version !== undefined) {
    const v = String(raw.version);
    if (VERSION_PATTERN.test(v)) version = v;
    else reader.push('task/invalid-version', 'error', `version ${JSON.stringify(raw.version)} is not MAJOR.MINOR.PATCH; 1.0.0 is assumed`, 'version');
  }
  if (legacy) version = '1.0.0';

  const parameters = isMapping(raw.parameters) ? raw.parameters : undefined;
  if (raw.parameters !== undefined && raw.parameters !== null && !parameters) {
    reader.push('task/invalid-field', 'error', `'parameters' must be a mapping, not ${describe(raw.parameters)}`, 'parameters');
  }

  const task: Task = {
    id,
    type,
    version,
    requires: reader.names('requires') ?? [],
    requiredFor: reader.names('required_for') ?? [],
    crossDepends: crossDependencies(reader, 'cross-depends', 'cross_depends'),
    crossDependedBy: crossDependencies(reader, 'cross-depended-by', 'cross_depended_by'),
    origin: here,
  };
  const roles = raw.roles !== undefined ? reader.selector('roles') : reader.selector('role');
  if (roles) task.roles = roles;
  const tags = reader.selector('tags');
  if (tags) task.tags = tags;
  const groups = reader.names('groups');
  if (groups) task.groups = groups;
  const members = reader.names('tasks');
  if (members) {
    if (type === 'group') task.tasks = members;
    else reader.push('task/members-outside-group', 'warning', `'tasks' only means something on a group task, not on type '${rawType}'`, 'tasks');
  }
  const strategy = strategyOf(reader, parameters);
  if (strategy) task.strategy = strategy;
  const timeout = timeoutOf(reader, parameters);
  if (timeout !== undefined) task.timeout = timeout;
  const condition = conditionOf(reader);
  if (condition !== undefined) task.condition = condition;
  if (parameters) task.parameters = parameters;

  if (legacy) {
    if (typeof raw.stage !== 'string') {
      reader.push('task/missing-stage', 'error', "a tasks.yaml hook needs 'stage: pre_deployment' or 'stage: post_deployment[/N]'; it is skipped", raw.stage === undefined ? undefined : 'stage');
      return undefined;
    }
    const stage = parseLegacyStage(raw.stage);
    if (!stage) {
      reader.push('task/invalid-stage', 'error', `stage '${raw.stage}' is not pre_deployment or post_deployment with an optional /N; it is skipped`, 'stage', 'write e.g. post_deployment/100');
      return undefined;
    }
    task.stage = stage;
    if (!task.roles) {
      reader.push('task/missing-role', 'warning', "has no 'role': it runs on no node", undefined, "add role: '*' or a list of roles");
    }
  } else if (raw.stage !== undefined) {
    const stage = typeof raw.stage === 'string' ? parseLegacyStage(raw.stage) : undefined;
    if (stage) task.stage = stage;
    else reader.push('task/invalid-stage', 'warning', `stage ${JSON.stringify(raw.stage)} is not pre_deployment or post_deployment[/N]; ignored`, 'stage');
  }

  if (raw['os-version'] !== undefined) task.osVersion = raw['os-version'];
  if (raw['fuel-version'] !== undefined) task.fuelVersion = raw['fuel-version'];
  const extra: Record<string, unknown> = {};
  for (const key of CARRIED_KEYS) if (raw[key] !== undefined) extra[key] = raw[key];
  unknownKeys(reader, extra);
  if (Object.keys(extra).length > 0) task.extra = extra;
  return task;
}

/**
 * Normalise one file's tasks. `origin.source` is `release` or the plugin name; `origin.file` names
 * the file for messages (positions of the parsed YAML refine it to the task's line and column).
 */
export function normalizeTasks(raw: unknown, origin: TaskOrigin, format: TaskFormat): NormalizedTasks {
  const findings: Finding[] = [];
  const where = positionOf(raw) ?? { file: origin.file, line: origin.line ?? 1, column: origin.column ?? 1 };
  let list: unknown = raw;
  if (raw === undefined || raw === null) return { tasks: [], findings };
  if (format === 'graph' && isMapping(raw)) {
    list = raw.tasks ?? [];
    for (const key of Object.keys(raw)) {
      if (!['name', 'metadata', 'tasks', 'node_filter', 'on_success', 'on_error', 'on_stop'].includes(key)) {
        const near = suggestKey(key, ['name', 'metadata', 'tasks', 'node_filter', 'on_success', 'on_error', 'on_stop']);
        findings.push(finding('graph/unknown-key', 'warning', `unknown graph key '${key}' is ignored`, keyPositionOf(raw, key) ?? where, near ? `did you mean '${near}'?` : 'a graph has name, metadata and tasks'));
      }
    }
  }
  if (!Array.isArray(list)) {
    findings.push(finding('task/not-a-list', 'error', `expected a list of tasks, found ${describe(list)}`, positionOf(list) ?? where, 'write the tasks as a YAML list (- id: ...)'));
    return { tasks: [], findings };
  }
  const tasks: Task[] = [];
  const seen = new Map<string, Task>();
  list.forEach((item, index) => {
    if (!isMapping(item)) {
      findings.push(finding('task/not-a-mapping', 'error', `task ${index + 1} is ${describe(item)}, not a mapping; it is skipped`, positionOf(list, index) ?? where));
      return;
    }
    const task = normalizeOne(item, origin, format, index, findings);
    if (!task) return;
    const earlier = seen.get(task.id);
    // Records with os-version/fuel-version constraints sharing an id are one multi-version group
    // (plugins-v5 variant 1): all are kept, and composition picks the best fit for the release.
    if (earlier && (task.osVersion !== undefined || task.fuelVersion !== undefined || earlier.osVersion !== undefined || earlier.fuelVersion !== undefined)) {
      tasks.push(task);
    } else if (earlier) {
      findings.push(
        finding('task/duplicate-id', 'error', `task '${task.id}' is defined twice in this file (first at line ${earlier.origin.line ?? '?'}); the later one wins`, { file: task.origin.file, line: task.origin.line, column: task.origin.column }, 'rename one of them, or delete the stale copy'),
      );
      tasks[tasks.indexOf(earlier)] = task;
    } else tasks.push(task);
    seen.set(task.id, task);
  });
  return { tasks, findings };
}
