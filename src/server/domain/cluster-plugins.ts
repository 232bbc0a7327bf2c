/**
 * Enabling, disabling and switching plugin versions in an environment. Every change is checked
 * against what the environment already has: chosen components (component engine), nodes' roles
 * (role rules), deployed state; a switch reports what would change (roles, components, tasks) so
 * a client can show it before applying.
 */
import { validate } from '../../core/components/index.js';
import { pluginCompatibility, pluginLabel, type Composition } from '../../core/release/index.js';
import { checkRoleAssignment } from '../../core/roles/index.js';
import * as store from '../../store/index.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import { catalogOf, composeWith, editableOf, releaseOr404 } from './environment.js';
import { contributionOf } from './plugins.js';

export interface PluginSection {
  name: string;
  title: string;
  enabled: boolean;
  chosen_version: string | null;
  versions: Array<{ version: string; id: string; fits: boolean; reason: string }>;
  /** Why it cannot be disabled now, when it cannot. */
  locked_reason: string | null;
}

export async function pluginSections(q: store.Queryable, cluster: store.ClusterRecord): Promise<PluginSection[]> {
  const release = await releaseOr404(q, cluster.releaseId);
  const byName = new Map<string, store.PluginRecord[]>();
  for (const p of await store.listPlugins(q)) if (!p.isRelease) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const nodes = await store.listNodes(q, { clusterId: cluster.id });
  const sections: PluginSection[] = [];
  for (const [name, records] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const versions = records.map((p) => {
      const fit = pluginCompatibility(contributionOf(p).contribution, release.release);
      return { version: p.version, id: p.id, fits: fit.applies, reason: fit.reason };
    });
    if (!versions.some((v) => v.fits) && !cluster.plugins[name]) continue;
    const enabledId = cluster.plugins[name];
    const enabled = enabledId ? records.find((p) => p.id === enabledId) : undefined;
    let locked: string | null = null;
    if (enabled) {
      if (cluster.deployed?.plugins[name]) locked = 'the environment was deployed with it';
      else {
        const roles = Object.keys(contributionOf(enabled).contribution.roles);
        const holders = nodes.filter((n) => [...n.roles, ...n.pendingRoles].some((r) => roles.includes(r)));
        if (holders.length) locked = `nodes hold its roles: ${holders.slice(0, 5).map((n) => n.name).join(', ')}${holders.length > 5 ? ` and ${holders.length - 5} more` : ''}`;
      }
    }
    sections.push({ name, title: records[records.length - 1].title ?? name, enabled: Boolean(enabled), chosen_version: enabled?.version ?? null, versions, locked_reason: locked });
  }
  return sections;
}

function diffSets(before: Iterable<string>, after: Iterable<string>) {
  const a = new Set(before);
  const b = new Set(after);
  return { added: [...b].filter((x) => !a.has(x)).sort(), removed: [...a].filter((x) => !b.has(x)).sort() };
}

function taskIds(c: Composition): string[] {
  return Object.entries(c.composed.graphs).flatMap(([type, g]) => g.tasks.map((t) => `${type}:${t.id}`));
}

export interface PluginChange {
  enabled: Record<string, string>;
  attributes: Record<string, unknown>;
  diff: {
    enable: string[];
    disable: string[];
    switch: Array<{ name: string; from: string; to: string }>;
    roles: { added: string[]; removed: string[] };
    components: { added: string[]; removed: string[] };
    tasks: { added: string[]; removed: string[] };
  };
}

export async function changePlugins(q: store.Queryable, cluster: store.ClusterRecord, wanted: Record<string, string | null>): Promise<PluginChange> {
  const release = await releaseOr404(q, cluster.releaseId);
  const enabled = { ...cluster.plugins };
  const diff: PluginChange['diff'] = { enable: [], disable: [], switch: [], roles: { added: [], removed: [] }, components: { added: [], removed: [] }, tasks: { added: [], removed: [] } };
  for (const [name, version] of Object.entries(wanted)) {
    const current = enabled[name];
    if (version === null) {
      if (!current) continue;
      if (cluster.deployed?.plugins[name]) {
        throw new HttpError(409, 'plugin/deployed', `plugin ${name} cannot be disabled: the environment was deployed with it`, { plugin: name, hint: 'a deployed plugin stays; switch to another version instead' });
      }
      delete enabled[name];
      diff.disable.push(current);
      continue;
    }
    const id = store.pluginId(name, version);
    const record = await store.getPlugin(q, id);
    if (!record || record.isRelease) throw new HttpError(400, 'plugin/not-installed', `plugin ${name} version ${version} is not installed`);
    const fit = pluginCompatibility(contributionOf(record).contribution, release.release);
    if (!fit.applies) throw new HttpError(400, 'plugin/not-for-release', `plugin ${pluginLabel(record)} ${fit.reason}`);
    if (current === id) continue;
    if (current) diff.switch.push({ name, from: current, to: id });
    else diff.enable.push(id);
    enabled[name] = id;
  }
  const before = await composeWith(q, release, cluster.plugins);
  const after = await composeWith(q, release, enabled);
  const compositionErrors = errorsOf(after.findings);
  if (compositionErrors.length) throw refused('plugin/conflict', 'these plugin versions cannot be enabled together with the release', after.findings);

  // Nodes keep their roles: every role they hold or will hold must still exist and fit.
  const nodes = await store.listNodes(q, { clusterId: cluster.id });
  const lost = new Set(Object.keys(before.composed.roles_metadata).filter((r) => !Object.hasOwn(after.composed.roles_metadata, r)));
  const holders = nodes.filter((n) => [...n.roles, ...n.pendingRoles].some((r) => lost.has(r)));
  if (holders.length) {
    // Said per plugin, in the words the settings page shows next to it.
    const changedNames = [...diff.disable, ...diff.switch.map((x) => x.from)].map((id) => id.split('@')[0]);
    const held = [...lost].filter((r) => holders.some((n) => [...n.roles, ...n.pendingRoles].includes(r)));
    const names = `${holders.slice(0, 5).map((n) => n.name).join(', ')}${holders.length > 5 ? ` and ${holders.length - 5} more` : ''}`;
    throw new HttpError(409, 'plugin/roles-in-use', `plugin ${changedNames.join(', ')} cannot be ${diff.disable.length ? 'disabled' : 'switched'}: nodes hold its roles: ${names} (${held.join(', ')})`, {
      plugin: changedNames.length === 1 ? changedNames[0] : undefined,
      plugins: changedNames,
      nodes: holders.map((n) => ({ id: n.id, name: n.name, roles: [...n.roles, ...n.pendingRoles].filter((r) => lost.has(r)) })),
      hint: 'unassign those roles from the nodes first',
    });
  }
  const roleErrors = errorsOf(checkRoleAssignment(after.composed, nodes.map((n) => ({ id: n.id, name: n.name, roles: [...new Set([...n.roles, ...n.pendingRoles])] })), cluster.attributes)).filter(
    (f) => f.code !== 'role/too-few' && f.code !== 'role/below-recommended',
  );
  if (roleErrors.length) throw refused('plugin/breaks-roles', 'with this change the nodes\' roles would break the role rules', roleErrors);
  // The chosen components must still be valid (a disabled plugin's component can no longer be chosen).
  const componentCheck = validate(catalogOf(after), cluster.components);
  if (!componentCheck.valid) throw refused('plugin/breaks-components', 'the environment\'s chosen components need the plugin versions as they are', componentCheck.findings);

  // Settings: plugin sections follow the enabled versions; values of fields that still exist are kept.
  const attributes = structuredClone(cluster.attributes);
  const fresh = editableOf(after);
  for (const id of [...diff.disable]) delete attributes[id.split('@')[0]];
  for (const id of [...diff.enable, ...diff.switch.map((s) => s.to)]) {
    const name = id.split('@')[0];
    const section = fresh[name] as Record<string, unknown> | undefined;
    if (!section) continue;
    const old = (attributes[name] ?? {}) as Record<string, any>;
    for (const [field, slot] of Object.entries(section)) {
      if (field !== 'metadata' && old[field] && typeof slot === 'object' && slot !== null && 'value' in slot && typeof old[field].value === typeof (slot as any).value) (slot as any).value = old[field].value;
    }
    attributes[name] = section;
  }
  diff.roles = diffSets(Object.keys(before.composed.roles_metadata), Object.keys(after.composed.roles_metadata));
  diff.components = diffSets(before.composed.components.map((c) => c.name), after.composed.components.map((c) => c.name));
  diff.tasks = diffSets(taskIds(before), taskIds(after));
  return { enabled, attributes, diff };
}
