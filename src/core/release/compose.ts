/**
 * A release composed with the plugins enabled for it. Only plugins that extend this release take
 * part; the rest are reported with the reason. Plugins are taken in name order, so the result does
 * not depend on the order they were given in.
 */
import { finding, type Finding } from '../findings.js';
import { mergeRoles } from '../roles/merge.js';
import { compareReleaseVersions, parseReleaseVersion } from '../versions/index.js';
import { pluginCompatibility } from './compatibility.js';
import { mergeComponents, mergeNetworkRoles, mergeNodeAttributes, mergeSettings, mergeVolumes } from './compose-parts.js';
import { composeTasks, type TaskConflict, type TaskOverride } from './compose-tasks.js';
import { contributionForRelease, releaseTarget } from './for-release.js';
import type { Release } from './model.js';
import { pluginLabel, type PluginContribution } from './plugin.js';

export interface PluginOutcome {
  name: string;
  version: string;
  applied: boolean;
  reason: string;
}

export interface ComposedRelease extends Release {
  /** `release` or `<plugin>-<version>` for every role. */
  role_sources: Record<string, string>;
  /** Release tasks replaced by plugin tasks. */
  task_overrides: TaskOverride[];
  /** Task ids claimed by plugins whose roles can share a node; checked against real nodes at deployment. */
  task_conflicts: TaskConflict[];
  /** Applied plugins, in composition order. */
  applied_plugins: Array<{ name: string; version: string }>;
}

export interface Composition {
  composed: ComposedRelease;
  findings: Finding[];
  plugins: PluginOutcome[];
}

function compareVersions(a: string, b: string): number {
  const pa = parseReleaseVersion(a, 'fuel');
  const pb = parseReleaseVersion(b, 'fuel');
  const byNumber = pa && pb ? compareReleaseVersions(pa, pb) : undefined;
  return byNumber ?? a.localeCompare(b);
}

export function composeRelease(release: Release, plugins: readonly PluginContribution[]): Composition {
  const findings: Finding[] = [];
  const outcomes: PluginOutcome[] = [];
  const label = `${release.name} (${release.version})`;
  const ordered = [...plugins].sort((a, b) => a.name.localeCompare(b.name) || compareVersions(b.version, a.version));
  const applied: PluginContribution[] = [];
  for (const plugin of ordered) {
    const kept = applied.find((p) => p.name === plugin.name);
    if (kept) {
      outcomes.push({ name: plugin.name, version: plugin.version, applied: false, reason: `version ${kept.version} of ${plugin.name} is applied; one version of a plugin at a time` });
      continue;
    }
    const fit = pluginCompatibility(plugin, release);
    if (!fit.applies) {
      outcomes.push({ name: plugin.name, version: plugin.version, applied: false, reason: fit.reason });
      findings.push(finding('plugin/not-for-release', 'info', `plugin ${pluginLabel(plugin)} ${fit.reason}; left out`));
      continue;
    }
    // The plugin as this release sees it: its release record's own files, the best fit of each
    // multi-version group (plugins-v5 multi-release packages).
    const matched = fit.matchedVersion ?? release.version;
    const own = contributionForRelease(plugin, fit.entry, releaseTarget(release, matched));
    findings.push(...own.findings);
    applied.push(own.contribution);
    outcomes.push({ name: plugin.name, version: plugin.version, applied: true, reason: fit.reason });
  }

  const roles = mergeRoles(release.roles_metadata, release.tags_metadata, label, applied);
  const volumes = mergeVolumes(release, applied, roles.roles, roles.sources);
  const settings = mergeSettings(release, applied);
  const components = mergeComponents(release, applied);
  const networkRoles = mergeNetworkRoles(release, applied);
  const nodeAttributes = mergeNodeAttributes(release, applied);
  const tasks = composeTasks(release, applied, roles.roles);
  findings.push(...roles.findings, ...volumes.findings, ...settings.findings, ...components.findings, ...networkRoles.findings, ...nodeAttributes.findings, ...tasks.findings);

  const { findings: _nodeFindings, ...attributeSections } = nodeAttributes;
  const composed: ComposedRelease = {
    ...release,
    roles_metadata: roles.roles,
    tags_metadata: roles.tags,
    volumes_metadata: volumes.volumes,
    attributes_metadata: settings.attributes,
    components: components.components,
    network_roles_metadata: networkRoles.networkRoles,
    ...attributeSections,
    graphs: tasks.graphs,
    role_sources: roles.sources,
    task_overrides: tasks.overrides,
    task_conflicts: tasks.conflicts,
    applied_plugins: applied.map((p) => ({ name: p.name, version: p.version })),
  };
  return { composed, findings, plugins: outcomes };
}
