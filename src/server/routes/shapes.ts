/**
 * The shapes the API answers with, as JSON Schemas: the routes' `response` schemas, and through
 * them the OpenAPI document's shared components (each schema here is listed in COMPONENTS and
 * appears there once, referenced by name), and the TypeScript types the web UI and the CLI client
 * are generated from. They document, they do not filter: answers are serialized as plain JSON
 * (app.ts), and test/server/api-contract.test.ts checks real answers against them.
 *
 * Entities Hearth owns are closed (`additionalProperties: false`), so a field added to an answer
 * must be added here too; shapes read from plugin files (roles, components, tasks, settings) keep
 * the keys their authors wrote and stay open.
 */
import { ENVIRONMENT_STATES, NODE_STATES, TASK_OUTCOMES } from '../../core/lifecycle/index.js';
import { ERROR_SCHEMA } from '../errors.js';
import { NETWORK, NETWORK_CONFIGURATION, NETWORK_DATA, NETWORK_FINDING, NODE_INTERFACE, VIP } from './network-shapes.js';

const STRING = { type: 'string' } as const;
const STRINGS = { type: 'array', items: STRING } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;
const ID = { type: 'integer', minimum: 1 } as const;
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

export const FINDING = {
  type: 'object',
  description: 'Something the engine found: a stable code, a severity, a message in words, where (file, line, column) and what to do (hint)',
  required: ['code', 'severity', 'message'],
  properties: {
    code: STRING,
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    message: STRING,
    file: STRING,
    line: { type: 'integer' },
    column: { type: 'integer' },
    hint: STRING,
  },
  additionalProperties: true,
} as const;
const FINDINGS = { type: 'array', items: FINDING } as const;

export const RELEASE = {
  type: 'object',
  required: ['id', 'name', 'version', 'operating_system', 'description', 'state', 'plugin_id', 'roles', 'graph_types'],
  additionalProperties: false,
  properties: {
    id: STRING,
    name: STRING,
    version: STRING,
    operating_system: STRING,
    description: NULLABLE_STRING,
    state: STRING,
    plugin_id: { ...NULLABLE_STRING, description: 'the release plugin that brought it (null: imported)' },
    roles: STRINGS,
    graph_types: STRINGS,
  },
} as const;

export const RELEASE_DETAIL = {
  type: 'object',
  required: [...RELEASE.required, 'required_component_types'],
  additionalProperties: false,
  properties: { ...RELEASE.properties, required_component_types: STRINGS, source: STRING },
} as const;

export const PLUGIN = {
  type: 'object',
  required: ['id', 'name', 'version', 'title', 'description', 'package_version', 'is_release', 'source', 'path', 'installed_at', 'synced_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: '`<name>@<version>`' },
    name: STRING,
    version: STRING,
    title: STRING,
    description: NULLABLE_STRING,
    package_version: STRING,
    is_release: { type: 'boolean', description: 'it defines releases (a release plugin)' },
    source: { type: 'string', enum: ['package', 'folder', 'bundled'] },
    path: { ...NULLABLE_STRING, description: 'the folder it is read from (registered folders and the bundled release)' },
    installed_at: TIME,
    synced_at: TIME,
  },
} as const;

/** A plugin's validation against one release it declares (issue 18). */
export const RELEASE_VALIDATION = {
  type: 'object',
  required: ['release_id', 'release', 'findings'],
  additionalProperties: false,
  properties: { release_id: STRING, release: { type: 'string', description: '`<name> <version>`' }, findings: FINDINGS },
} as const;
const RELEASE_VALIDATIONS = { type: 'array', items: RELEASE_VALIDATION } as const;

export const PLUGIN_DETAIL = {
  type: 'object',
  required: [...PLUGIN.required, 'releases', 'defines_releases', 'roles', 'components', 'tasks', 'findings', 'release_fits', 'used_by', 'install_findings', 'release_findings'],
  additionalProperties: false,
  properties: {
    ...PLUGIN.properties,
    releases: { type: 'array', description: 'the releases metadata.yaml lists', items: OPEN_OBJECT },
    defines_releases: STRINGS,
    roles: {
      type: 'array',
      items: { type: 'object', required: ['name', 'label', 'description', 'conflicts', 'limits'], additionalProperties: false, properties: { name: STRING, label: STRING, description: NULLABLE_STRING, conflicts: {}, limits: {} } },
    },
    components: { type: 'array', items: { type: 'object', required: ['name', 'label', 'description'], additionalProperties: false, properties: { name: STRING, label: NULLABLE_STRING, description: NULLABLE_STRING } } },
    tasks: {
      type: 'object',
      description: 'graph type → its tasks',
      additionalProperties: { type: 'array', items: { type: 'object', required: ['id', 'type', 'roles'], additionalProperties: false, properties: { id: STRING, type: STRING, roles: {} } } },
    },
    findings: FINDINGS,
    release_fits: {
      type: 'array',
      items: { type: 'object', required: ['release_id', 'release', 'fits', 'reasons'], additionalProperties: false, properties: { release_id: STRING, release: STRING, fits: { type: 'boolean' }, reasons: STRINGS } },
    },
    used_by: { type: 'array', description: 'environments that enable it', items: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: ID, name: STRING } } },
    install_findings: FINDINGS,
    release_findings: RELEASE_VALIDATIONS,
  },
} as const;

/** What installing, registering or syncing a plugin answers. */
export const PLUGIN_INSTALLED = {
  type: 'object',
  required: ['plugin', 'findings', 'release_findings'],
  additionalProperties: false,
  properties: { plugin: PLUGIN, findings: FINDINGS, release_findings: RELEASE_VALIDATIONS },
} as const;

export const CLUSTER = {
  type: 'object',
  description: 'An environment (Fuel\'s cluster)',
  required: ['id', 'name', 'release_id', 'components', 'status', 'plugins', 'deployed_at', 'created_at'],
  additionalProperties: false,
  properties: {
    id: ID,
    name: STRING,
    release_id: STRING,
    components: STRINGS,
    status: { type: 'string', enum: [...ENVIRONMENT_STATES], description: `the lifecycle's environment state (docs/lifecycle.md): ${ENVIRONMENT_STATES.join(', ')}` },
    plugins: { type: 'object', description: 'plugin name → the enabled version\'s id', additionalProperties: STRING },
    deployed_at: NULLABLE_TIME,
    deployed_release_id: { type: ['string', 'null'], description: 'the release its nodes were last deployed with; differs from release_id after a release upgrade until it is deployed again (null: never deployed)' },
    created_at: TIME,
    nodes: { type: 'integer', minimum: 0, description: 'how many nodes it has (one environment only)' },
    findings: { ...FINDINGS, description: 'at creation: what the component engine found (warnings)' },
  },
} as const;

const NULLABLE_NUMBER = { type: ['number', 'null'] } as const;
/** What Hearth gathered on a real node over SSH (deploy/facts.ts); what it could not read is null. */
export const NODE_FACTS = {
  type: 'object',
  required: ['hostname', 'os', 'cpus', 'memory_bytes', 'disks', 'interfaces'],
  additionalProperties: false,
  properties: {
    hostname: STRING,
    os: { type: 'object', required: ['id', 'version_id', 'pretty_name'], additionalProperties: false, properties: { id: NULLABLE_STRING, version_id: NULLABLE_STRING, pretty_name: NULLABLE_STRING } },
    cpus: { type: ['integer', 'null'] },
    memory_bytes: NULLABLE_NUMBER,
    disks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'size_bytes', 'type', 'model', 'rotational'],
        additionalProperties: false,
        properties: {
          name: STRING,
          size_bytes: { type: 'number' },
          type: STRING,
          model: NULLABLE_STRING,
          rotational: { type: ['boolean', 'null'] },
          // Issue 26; absent from facts gathered before it.
          id: { type: 'string', description: "Stable disk id, as Fuel's: a disk/by-path/… or disk/by-id/… link, else the device name" },
          size: { type: 'integer', description: 'Whole disk in MB (MiB)' },
          in_use: { type: 'boolean', description: 'Holds a mounted filesystem, /, swap, a partition table, or a filesystem, LVM or RAID signature: Hearth never touches it' },
          in_use_reasons: { ...STRINGS, description: 'Why the disk is in use, in words' },
          holds_root: { type: 'boolean', description: 'Holds / (itself or a volume on it)' },
        },
      },
    },
    interfaces: {
      type: 'array',
      items: { type: 'object', required: ['name', 'mac', 'state', 'addresses', 'speed_mbps'], additionalProperties: false, properties: { name: STRING, mac: NULLABLE_STRING, state: STRING, addresses: STRINGS, speed_mbps: NULLABLE_NUMBER } },
    },
  },
} as const;

export const NODE = {
  type: 'object',
  required: ['id', 'name', 'hardware', 'cluster_id', 'roles', 'pending_roles', 'status'],
  additionalProperties: false,
  properties: {
    id: ID,
    name: STRING,
    hardware: { type: 'object', additionalProperties: true, properties: { cpus: { type: 'integer' }, memory_gb: { type: 'number' }, disks_gb: { type: 'array', items: { type: 'number' } } } },
    cluster_id: { type: ['integer', 'null'] },
    roles: { ...STRINGS, description: 'deployed roles' },
    pending_roles: { ...STRINGS, description: 'roles assigned, not yet deployed' },
    status: { type: 'string', enum: [...NODE_STATES], description: `the lifecycle's node state (docs/lifecycle.md): ${NODE_STATES.join(', ')}; \`ready\` is deployed and healthy, as in Fuel` },
    simulated: { type: 'boolean', description: 'a simulated node (no host behind it); real nodes carry how they are reached' },
    address: STRING,
    ssh_user: STRING,
    ssh_port: { type: 'integer' },
    host_key_fingerprint: NULLABLE_STRING,
    host_key_accepted_by: { ...NULLABLE_STRING, description: 'who last accepted a changed host key (a user, a user\'s token, or admin-token); null when none was' },
    host_key_accepted_at: { ...NULLABLE_TIME, description: 'when that was' },
    facts: { description: 'what Hearth gathered on the host (one node only; null before it could)', oneOf: [NODE_FACTS, { type: 'null' }] },
    facts_at: NULLABLE_TIME,
    reach_error: {
      description: 'why the node could not be reached last time (null when it could)',
      type: ['object', 'null'],
      required: ['code', 'message', 'at'],
      additionalProperties: false,
      properties: { code: STRING, message: STRING, at: TIME, host_key: { type: 'string', description: 'a changed host key: the one the node shows now' } },
    },
    network_data: NETWORK_DATA,
  },
} as const;
export const NODES = { type: 'array', items: NODE } as const;

/** Why a task record ended, in the lifecycle's words. */
const OUTCOME = { type: 'string', enum: [...TASK_OUTCOMES], description: 'pending, running, succeeded, failed (exit status kept), timed_out, skipped (condition false, marker), not_run (a dependency did not succeed), stopped (the run stopped before it started), killed (a stop\'s grace period or a shutdown ended while it ran)' } as const;

export const DEPLOYMENT = {
  type: 'object',
  required: ['id', 'mode', 'dry_run', 'cluster_id', 'graph_type', 'status', 'total', 'done', 'progress', 'message', 'started_at', 'finished_at'],
  additionalProperties: false,
  properties: {
    id: ID,
    mode: { type: 'string', enum: ['dry-run', 'real'] },
    dry_run: { type: 'boolean' },
    cluster_id: ID,
    graph_type: STRING,
    status: { type: 'string', enum: ['running', 'succeeded', 'failed', 'stopped', 'interrupted'], description: 'running; succeeded; failed; stopped (by the operator); interrupted (its server died: `--resume` continues it)' },
    total: { type: 'integer', minimum: 0 },
    done: { type: 'integer', minimum: 0 },
    progress: { type: 'integer', minimum: 0, maximum: 100, description: 'the share of its tasks that succeeded' },
    counts: {
      type: 'object',
      description: 'its tasks by outcome (docs/lifecycle.md); `done` equals `succeeded`, and the counts sum to `total`',
      required: [...TASK_OUTCOMES],
      additionalProperties: false,
      properties: Object.fromEntries(TASK_OUTCOMES.map((o) => [o, { type: 'integer', minimum: 0 }])),
    },
    message: NULLABLE_STRING,
    started_at: TIME,
    finished_at: NULLABLE_TIME,
    requested_by: { type: ['string', 'null'], description: "who asked for the run (a deployment, a resume, a node removal): a user's name, with the personal token used as 'name (token t)', or admin-token; null for runs from before accounts" },
    stopped_by: { type: 'string', description: 'a stopped run: who asked (the admin token, or a user) and from which address' },
    stopped_at: NULLABLE_TIME,
    skipped_nodes: {
      type: 'array',
      description: 'nodes the run left out (offline, deployed with skip_offline)',
      items: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: ID, name: STRING, reach_error: NULLABLE_STRING } },
    },
    tasks: {
      type: 'array',
      description: 'with tasks=true: every (node, task) in order',
      items: { type: 'object', required: ['node', 'task_id', 'taskId', 'position', 'status', 'outcome'], additionalProperties: false, properties: { node: STRING, task_id: STRING, taskId: { type: 'string', description: 'the same as task_id (the older name)' }, position: { type: 'integer' }, status: STRING, outcome: OUTCOME } },
    },
  },
} as const;

/** One task on one node in a deployment (GET /deployments/{id}/tasks, and the live stream's `task` events). */
export const TASK_RUN = {
  type: 'object',
  required: ['node', 'task_id', 'type', 'position', 'status', 'exit_status', 'attempts', 'message', 'started_at', 'finished_at'],
  additionalProperties: false,
  properties: {
    node: { type: 'string', description: 'node id, or `sync`/`master` for the graph\'s own steps' },
    task_id: STRING,
    type: NULLABLE_STRING,
    position: { type: 'integer' },
    status: { type: 'string', enum: ['pending', 'running', 'ready', 'error', 'skipped', 'stopped'], description: 'Nailgun\'s status, kept for older clients; `outcome` says why it ended' },
    outcome: OUTCOME,
    exit_status: { type: ['integer', 'null'] },
    attempts: { type: 'integer', minimum: 0 },
    message: NULLABLE_STRING,
    started_at: NULLABLE_TIME,
    finished_at: NULLABLE_TIME,
    output: { ...NULLABLE_STRING, description: 'with output=true: the last 1 MiB of its output' },
  },
} as const;

export const ROLE = {
  type: 'object',
  required: ['name', 'label', 'source'],
  additionalProperties: false,
  properties: {
    name: STRING,
    label: STRING,
    source: { type: 'string', description: '`release` or the plugin that brings the role' },
    description: STRING,
    conflicts: { description: 'role names, or "*" for all' },
    limits: { description: 'min, max, recommended and their overrides, as node_roles.yaml writes them' },
    restrictions: { description: 'Fuel\'s restrictions: a met `disable` one makes the role unavailable' },
  },
} as const;

/** A component of the release or of a plugin, as components.yaml writes it. */
export const COMPONENT = {
  type: 'object',
  required: ['name', 'plugin'],
  additionalProperties: true,
  properties: {
    name: STRING,
    label: STRING,
    description: STRING,
    default: { type: 'boolean' },
    plugin: { type: ['object', 'null'], required: ['name', 'version'], properties: { name: STRING, version: STRING }, description: 'the plugin it comes from (null: the release)' },
    usable: { type: 'boolean', description: 'false: its plugin cannot be used with this release (see reasons)' },
    reasons: STRINGS,
  },
} as const;

export const COMPONENT_STATE = {
  type: 'object',
  required: ['name', 'type', 'group', 'checked', 'enabled', 'green', 'untested', 'deadEnd', 'reasons', 'fix'],
  additionalProperties: true,
  properties: {
    name: STRING,
    type: STRING,
    group: STRING,
    label: STRING,
    description: STRING,
    checked: { type: 'boolean' },
    enabled: { type: 'boolean' },
    green: { type: 'boolean', description: 'tested with every other chosen component' },
    untested: STRINGS,
    deadEnd: { type: 'boolean', description: 'choosing it leads to no valid completion' },
    reasons: STRINGS,
    fix: { ...STRINGS, description: 'the smallest change that enables it' },
    replaces: { ...STRINGS, description: 'a radio member: what choosing it unselects' },
    unchecked: { type: 'boolean', const: true, description: 'not proved either way: the state was asked for another pane (`pane`); shown disabled until its own pane is asked for' },
    plugin: { type: ['object', 'null'], required: ['name', 'version'], properties: { name: STRING, version: STRING } },
  },
} as const;

/** The wizard's answer for a selection of components. */
export const WIZARD_STATE = {
  type: 'object',
  required: ['valid', 'completable', 'findings', 'components'],
  additionalProperties: true,
  properties: { valid: { type: 'boolean' }, completable: { type: 'boolean' }, blocked: STRING, findings: FINDINGS, components: { type: 'array', items: COMPONENT_STATE } },
} as const;

/** An environment's settings section for one plugin. */
export const PLUGIN_SECTION = {
  type: 'object',
  required: ['name', 'title', 'enabled', 'chosen_version', 'versions', 'locked_reason'],
  additionalProperties: false,
  properties: {
    name: STRING,
    title: STRING,
    enabled: { type: 'boolean' },
    chosen_version: NULLABLE_STRING,
    versions: { type: 'array', items: { type: 'object', required: ['version', 'id', 'fits', 'reason'], additionalProperties: false, properties: { version: STRING, id: STRING, fits: { type: 'boolean' }, reason: STRING } } },
    locked_reason: { ...NULLABLE_STRING, description: 'why it cannot be disabled now' },
  },
} as const;
/** Settings as environment_config.yaml writes them: sections of fields, each section with its metadata. */
export const SETTINGS = {
  type: 'object',
  description: 'section name → its fields (each a setting with its value) and metadata',
  additionalProperties: {
    type: 'object',
    additionalProperties: true,
    properties: {
      metadata: {
        type: 'object',
        additionalProperties: true,
        properties: { label: STRING, enabled: { type: 'boolean' }, toggleable: { type: 'boolean' }, weight: { type: 'number' }, group: STRING, class: STRING, restrictions: {} },
      },
    },
  },
} as const;

/** A task on a node: `{node, task}`. */
const TASK_PAIR = { type: 'object', required: ['node', 'task'], additionalProperties: false, properties: { node: STRING, task: STRING } } as const;
const TASK_PAIRS = { type: 'array', items: TASK_PAIR } as const;
/** What a task waits for: a task on a node, or a barrier of the graph. */
const DEPENDENCY = { anyOf: [TASK_PAIR, { type: 'object', required: ['barrier'], additionalProperties: false, properties: { barrier: { type: 'integer' } } }] } as const;

/** The per-node deployment graph (format=json). */
export const DEPLOYMENT_GRAPH = {
  type: 'object',
  required: ['nodes', 'barriers', 'summary', 'critical_path', 'makespan_s', 'cycle', 'findings'],
  additionalProperties: false,
  properties: {
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'roles', 'labels', 'tasks'],
        additionalProperties: false,
        properties: {
          id: STRING,
          roles: STRINGS,
          labels: STRINGS,
          tasks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'type', 'source', 'requires'],
              additionalProperties: false,
              properties: { id: STRING, type: STRING, source: { type: 'string', description: 'the release or plugin whose definition the node runs' }, skipped: { type: 'boolean' }, start_s: { type: 'number' }, finish_s: { type: 'number' }, requires: { type: 'array', items: DEPENDENCY } },
            },
          },
        },
      },
    },
    barriers: { type: 'array', items: { type: 'object', required: ['id', 'meaning', 'requires'], additionalProperties: false, properties: { id: { type: 'integer' }, meaning: STRING, requires: { type: 'array', items: DEPENDENCY } } } },
    summary: {
      type: 'object',
      required: ['nodes', 'tasks', 'edges', 'critical_path', 'makespan_s', 'findings'],
      additionalProperties: false,
      properties: { nodes: { type: 'integer' }, tasks: { type: 'integer' }, edges: { type: 'integer' }, critical_path: TASK_PAIRS, makespan_s: { type: 'number' }, findings: FINDINGS },
    },
    critical_path: TASK_PAIRS,
    makespan_s: { type: 'number', description: 'the estimated duration' },
    cycle: { type: ['array', 'null'], items: TASK_PAIR, description: 'the tasks of a dependency cycle, when there is one' },
    findings: FINDINGS,
    next_marker: { ...NULLABLE_STRING, description: 'with limit: the marker of the next page of nodes' },
  },
} as const;

const PLAN_COUNTS = {
  type: 'object',
  required: ['run', 'skipped', 'markers'],
  additionalProperties: false,
  properties: { run: { type: 'integer', description: 'tasks that will run' }, skipped: { type: 'integer', description: 'tasks that will not (condition false, or succeeded in the run resumed)' }, markers: { type: 'integer', description: 'stages, groups and tasks of type skipped: they run nothing' } },
} as const;
const PLANNED_TASKS = {
  type: 'array',
  description: 'in the order the runner may start them',
  items: {
    type: 'object',
    required: ['id', 'runs', 'reason', 'cause', 'type'],
    additionalProperties: false,
    properties: {
      id: STRING,
      runs: { type: 'boolean' },
      reason: { type: 'string', description: "why, in words: 'changed($.uid): the node is new', 'changed($.network_metadata.nodes): 1 node added (…)', 'no condition: runs on every deployment', …" },
      cause: { type: 'string', enum: ['no_condition', 'condition_true', 'condition_false', 'marker', 'resumed'], description: 'why, as a word: no condition; its condition holds or not; a marker that runs nothing; succeeded in the run being resumed' },
      type: STRING,
    },
  },
} as const;

/** What a deployment will run before it runs (GET /clusters/{id}/deploy/plan). */
export const DEPLOY_PLAN = {
  type: 'object',
  required: ['graph_type', 'first_deployment', 'deployed_by', 'resumes', 'counts', 'nodes', 'master', 'cycle', 'findings'],
  additionalProperties: false,
  properties: {
    graph_type: STRING,
    first_deployment: { type: 'boolean', description: 'nothing was deployed yet: every lifecycle condition (changed, new, ...) holds' },
    deployed_by: { type: ['integer', 'null'], description: 'the deployment whose state lifecycle conditions compare with (the last successful one)' },
    resumes: { type: ['integer', 'null'], description: 'with resume=true: the deployment this run would continue' },
    counts: { type: 'object', required: ['run', 'nodes_run', 'skipped', 'markers', 'nodes'], additionalProperties: false, properties: { ...PLAN_COUNTS.properties, nodes_run: { type: 'integer', description: 'nodes with a task that runs' }, nodes: { type: 'integer' } } },
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'roles', 'new', 'counts', 'tasks'],
        additionalProperties: false,
        properties: { id: ID, name: STRING, roles: STRINGS, new: { type: 'boolean', description: 'not in the last deployment' }, counts: PLAN_COUNTS, tasks: PLANNED_TASKS },
      },
    },
    master: { type: ['object', 'null'], required: ['counts', 'tasks'], additionalProperties: false, properties: { counts: PLAN_COUNTS, tasks: PLANNED_TASKS }, description: "tasks of the graph's master node (Fuel's master), when it has any" },
    cycle: { type: ['array', 'null'], items: TASK_PAIR, description: 'a dependency cycle: nothing can run' },
    findings: FINDINGS,
  },
} as const;

/** One graph type an environment can run (GET /clusters/{id}/graphs). */
export const GRAPH_TYPE_ENTRY = {
  type: 'object',
  required: ['type', 'tasks'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', description: 'the graph type, as POST /clusters/{id}/graphs/{type}/run takes it' },
    name: { type: 'string', description: 'its name, when the release or a plugin gives one' },
    tasks: { type: 'integer', minimum: 0, description: 'tasks the graph declares (before it is expanded per node)' },
  },
} as const;

/** Every shared shape, by its name in the OpenAPI document's components. */
export const COMPONENTS: Record<string, object> = {
  Error: ERROR_SCHEMA,
  Finding: FINDING,
  Release: RELEASE,
  ReleaseDetail: RELEASE_DETAIL,
  Plugin: PLUGIN,
  PluginDetail: PLUGIN_DETAIL,
  PluginInstalled: PLUGIN_INSTALLED,
  ReleaseValidation: RELEASE_VALIDATION,
  Cluster: CLUSTER,
  Node: NODE,
  NodeFacts: NODE_FACTS,
  Deployment: DEPLOYMENT,
  TaskRun: TASK_RUN,
  Role: ROLE,
  Component: COMPONENT,
  ComponentState: COMPONENT_STATE,
  WizardState: WIZARD_STATE,
  PluginSection: PLUGIN_SECTION,
  Settings: SETTINGS,
  DeploymentGraph: DEPLOYMENT_GRAPH,
  DeployPlan: DEPLOY_PLAN,
  GraphType: GRAPH_TYPE_ENTRY,
  Network: NETWORK,
  NetworkConfiguration: NETWORK_CONFIGURATION,
  NetworkFinding: NETWORK_FINDING,
  Vip: VIP,
  NodeInterface: NODE_INTERFACE,
};
