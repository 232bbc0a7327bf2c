/**
 * A release plugin's graphs as a deployment will run them. Deploy runs the graph of type `default`,
 * so a release without one deploys nothing (the `deployment` type is never run). Every role must
 * run tasks of its own on its first node (its primary, when it has one: the only node of a
 * one-node role) and on the nodes after it; a role whose nodes run only the tasks every node runs
 * deploys nothing of itself. The settings file's shape is checked where the release is read
 * (core/release/fields: `release/settings-under-attributes`), for the validator, `release show`
 * and the server alike.
 */
import { finding } from '../../core/findings.js';
import { rolesWithoutTasks } from '../../core/graph/index.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { releaseFromFields } from '../../core/release/fields.js';
import type { PluginGraph } from '../../core/release/plugin.js';
import { normalizeTasks } from '../../core/tasks/index.js';
import { graphsFromEntries } from '../release/contribution.js';
import { isMapping, type ValidationContext } from './context.js';

export function checkReleaseGraphs(ctx: ValidationContext): void {
  const { plugin, findings } = ctx;
  if (!plugin.isReleasePlugin) return;
  for (const record of plugin.releases) {
    if (!record.isRelease) continue;
    const label = `releases[${record.index}]`;
    const raw = Array.isArray(record.resolved.graphs) ? record.resolved.graphs : [];
    // A graph entry may keep its name and tasks under `graph:` (the v5 release example does).
    const entries = raw.map((e) => (isMapping(e) && isMapping(e.graph) ? { ...e.graph, type: e.type } : e));
    const graphs: Record<string, PluginGraph> = {};
    graphsFromEntries(entries, plugin.name, 'metadata.yaml', graphs, []);
    if (!graphs.default && record.resolved.deployment_tasks !== undefined) {
      graphs.default = { tasks: normalizeTasks(record.resolved.deployment_tasks, { source: plugin.name, file: 'metadata.yaml' }, 'deployment').tasks };
    }
    const read = releaseFromFields(record.resolved, { source: `plugin:${plugin.name}@${plugin.version}`, file: 'metadata.yaml', graphs });
    findings.push(...read.findings.filter((f) => f.code === 'release/settings-under-attributes'));
    if (!graphs.default) {
      const deployment = raw.findIndex((e) => isMapping(e) && e.type === 'deployment');
      const at = deployment >= 0 ? keyPositionOf(raw[deployment], 'type') : (keyPositionOf(record.raw, 'graphs') ?? positionOf(record.raw));
      findings.push(
        finding(
          'release/no-default-graph',
          'warning',
          deployment >= 0
            ? `${label} has a graph of type 'deployment' but none of type 'default': Deploy runs the 'default' graph, so this release would deploy nothing, and plugins' tasks would land in a graph of their own`
            : `${label} has no graph of type 'default', the one Deploy runs: this release would deploy nothing`,
          at,
          deployment >= 0 ? "write type: default for the deployment graph" : 'add a graph: {type: default, tasks_path: <file of deployment tasks>}',
        ),
      );
      continue;
    }
    const built = read.release;
    if (!built) continue;
    const roles = built.roles_metadata;
    const gaps = rolesWithoutTasks({ tasks: graphs.default.tasks, roles, tagsMetadata: built.tags_metadata }, Object.keys(roles));
    const byRole = new Map<string, typeof gaps>();
    for (const gap of gaps) byRole.set(gap.role, [...(byRole.get(gap.role) ?? []), gap]);
    for (const [role, list] of byRole) {
      const at = keyPositionOf(record.resolved.roles, role) ?? keyPositionOf(record.raw, 'roles_path') ?? positionOf(record.raw);
      const first = list.find((g) => g.first);
      const primary = first?.labels.find((l) => l.startsWith('primary-'));
      // Without a primary the first node and the others are alike: one gap stands for all of them.
      const all = list.length === 2 || (first !== undefined && primary === undefined);
      const message = all
        ? `role '${role}': no task of the default graph runs on its nodes (only tasks for every node), so they would deploy nothing of the role`
        : first
          ? `role '${role}': no task of the default graph runs on its first node (labelled ${primary}), so an environment with one ${role} node would deploy nothing of the role`
          : `role '${role}': no task of the default graph runs on its nodes after the first (only on primary-${role}), so those would deploy nothing of the role`;
      const hint = !all && !first ? `name '${role}' beside primary-${role} in the tasks for every ${role} node: roles: [primary-${role}, ${role}]` : `name the role in its tasks: roles: [${role}] reaches every ${role} node, the first one too`;
      findings.push(finding('release/role-without-tasks', 'warning', message, at, hint));
    }
  }
}
