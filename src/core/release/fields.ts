/**
 * One release record (a fixture's `fields`, or a release plugin's `is_release` record after its
 * `*_path` files are loaded) → the typed `Release`. Both formats describe the same things under
 * slightly different keys; this is the one place that knows both spellings.
 */
import { finding, type Finding } from '../findings.js';
import { keyPositionOf, positionAt } from '../positions.js';
import type { Component, Release, RoleMetadata, VolumesMetadata } from './model.js';
import { isMapping, type Mapping } from './merge.js';
import type { Task } from '../tasks/model.js';

/** Release plugin spellings (Nailgun's `_create_release_from_configuration`) → fixture field names. */
const ALIASES: Record<string, string> = {
  release_name: 'name',
  attributes: 'attributes_metadata',
  networks: 'networks_metadata',
  network_roles: 'network_roles_metadata',
  volumes: 'volumes_metadata',
  roles: 'roles_metadata',
  components: 'components_metadata',
  os: 'operating_system',
  tags: 'tags_metadata',
  vmware_attributes: 'vmware_attributes_metadata',
  node_attributes_metadata: 'node_attributes',
  nic_attributes_metadata: 'nic_attributes',
  bond_attributes_metadata: 'bond_attributes',
};

/** Keys that are about packaging or already consumed, not part of the release itself. */
const CONSUMED = new Set([
  'is_release', 'base_release', 'base_release_path', 'graphs', 'deployment_tasks', 'deployment_tasks_path',
  'repository_path', 'deployment_scripts_path', 'mode', 'fuel_version', 'pk', 'model', 'extend',
]);

const KNOWN = new Set([
  'name', 'version', 'operating_system', 'description', 'state', 'roles_metadata', 'tags_metadata',
  'volumes_metadata', 'network_roles_metadata', 'networks_metadata', 'attributes_metadata',
  'vmware_attributes_metadata', 'node_attributes', 'nic_attributes', 'bond_attributes',
  'components_metadata', 'required_component_types', 'modes', 'compatible_versions',
]);

export interface ReleaseFieldsContext {
  /** `fixture:<file>#<pk>` or `plugin:<name>@<version>`. */
  source: string;
  /** File the record was read from, for findings. */
  file: string;
  /** Graphs already normalised by the caller (tasks are not this module's business). */
  graphs?: Release['graphs'];
}

export interface ReleaseFieldsResult {
  release?: Release;
  findings: Finding[];
}

export function releaseFromFields(record: Mapping, ctx: ReleaseFieldsContext): ReleaseFieldsResult {
  const findings: Finding[] = [];
  const at = (...path: (string | number)[]) => positionAt(record, path) ?? { file: ctx.file, line: 1, column: 1 };
  const fields: Mapping = {};
  const keyPath: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    const target = ALIASES[key] ?? key;
    if (target in fields && keyPath[target] !== key) {
      findings.push(finding('release/duplicate-field', 'warning', `the release sets '${target}' twice (as '${keyPath[target]}' and '${key}'); '${key}' is used`, at(key), `keep only one of '${keyPath[target]}' and '${key}'`));
    }
    fields[target] = value;
    keyPath[target] = key;
  }
  const where = (field: string) => at(keyPath[field] ?? field);

  const text = (field: string, required: boolean): string | undefined => {
    const v = fields[field];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number') return String(v);
    if (required) {
      findings.push(finding('release/missing-field', 'error', v === undefined ? `the release has no '${keyPath[field] ?? field}'` : `the release's '${keyPath[field] ?? field}' must be a non-empty string`, where(field), `add '${field}: …' to the release record`));
    }
    return undefined;
  };
  const mapping = (field: string): Mapping => {
    const v = fields[field];
    if (v === undefined || v === null) return {};
    if (isMapping(v)) return v;
    findings.push(finding('release/wrong-type', 'error', `the release's '${keyPath[field] ?? field}' must be a mapping, not ${describe(v)}`, where(field)));
    return {};
  };
  const list = (field: string): unknown[] => {
    const v = fields[field];
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    findings.push(finding('release/wrong-type', 'error', `the release's '${keyPath[field] ?? field}' must be a list, not ${describe(v)}`, where(field)));
    return [];
  };

  const name = text('name', true);
  const version = text('version', true);
  const operatingSystem = text('operating_system', true);

  const roles: Record<string, RoleMetadata> = {};
  for (const [roleName, meta] of Object.entries(mapping('roles_metadata'))) {
    if (!isMapping(meta)) {
      findings.push(finding('role/wrong-type', 'error', `role '${roleName}' must be a mapping of its metadata, not ${describe(meta)}`, at(keyPath.roles_metadata, roleName)));
      continue;
    }
    roles[roleName] = { ...meta, name: typeof meta.name === 'string' ? meta.name : roleName } as RoleMetadata;
  }

  // A release's settings are `{editable: {section: {...}}, generated: {...}}`. An `attributes:` root is
  // the shape of a plugin's environment_config.yaml; under it no section would reach the Settings tab.
  const settings = mapping('attributes_metadata');
  if (isMapping(settings.attributes) && settings.editable === undefined) {
    findings.push(
      finding(
        'release/settings-under-attributes',
        'warning',
        `the release's settings file has an 'attributes:' root (the shape of a plugin's environment_config.yaml); a release's settings sit under 'editable:', so none of these settings would appear`,
        keyPositionOf(settings, 'attributes') ?? where('attributes_metadata'),
        "write 'editable:' at the root with one mapping per section (editable: {<section>: {metadata: {label: ...}, <setting>: {...}}}); generated values go under 'generated:'",
      ),
    );
  }

  const volumesRaw = mapping('volumes_metadata');
  const volumes: VolumesMetadata = {
    volumes: (Array.isArray(volumesRaw.volumes) ? volumesRaw.volumes : []).filter(
      (v): v is VolumesMetadata['volumes'][number] => isMapping(v) && typeof v.id === 'string',
    ),
    volumes_roles_mapping: isMapping(volumesRaw.volumes_roles_mapping)
      ? (volumesRaw.volumes_roles_mapping as VolumesMetadata['volumes_roles_mapping'])
      : {},
  };
  for (const [k, v] of Object.entries(volumesRaw)) {
    if (k !== 'volumes' && k !== 'volumes_roles_mapping') (volumes as unknown as Mapping)[k] = v;
  }

  const components: Component[] = [];
  list('components_metadata').forEach((c, i) => {
    if (isMapping(c) && typeof c.name === 'string') components.push(c as Component);
    else findings.push(finding('component/wrong-type', 'error', `component #${i + 1} needs a 'name'`, at(keyPath.components_metadata, i)));
  });

  const required = list('required_component_types').filter((t): t is string => typeof t === 'string');
  const networkRoles = list('network_roles_metadata').filter(isMapping);
  const compatible = list('compatible_versions').filter((t): t is string => typeof t === 'string');

  const extra: Mapping = {};
  for (const [k, v] of Object.entries(fields)) if (!KNOWN.has(k) && !CONSUMED.has(k)) extra[k] = v;

  if (name === undefined || version === undefined || operatingSystem === undefined) return { findings };
  const release: Release = {
    id: `${name}@${version}`,
    name,
    version,
    operating_system: operatingSystem,
    roles_metadata: roles,
    tags_metadata: mapping('tags_metadata') as Release['tags_metadata'],
    volumes_metadata: volumes,
    network_roles_metadata: networkRoles,
    networks_metadata: mapping('networks_metadata'),
    attributes_metadata: mapping('attributes_metadata'),
    components,
    required_component_types: required,
    graphs: ctx.graphs ?? {},
    source: ctx.source,
  };
  const description = text('description', false);
  if (description !== undefined) release.description = description;
  const state = text('state', false);
  if (state !== undefined) release.state = state;
  for (const key of ['vmware_attributes_metadata', 'node_attributes', 'nic_attributes', 'bond_attributes'] as const) {
    if (fields[key] !== undefined) release[key] = mapping(key);
  }
  if (fields.modes !== undefined) release.modes = list('modes').filter((m): m is string => typeof m === 'string');
  if (compatible.length) release.compatible_versions = compatible;
  if (Object.keys(extra).length) release.extra = extra;
  return { release, findings };
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/** Tasks are attached by whoever normalised them; a helper so both readers build graphs alike. */
export function graphOf(tasks: Task[], metadata?: Mapping, name?: string): Release['graphs'][string] {
  const graph: Release['graphs'][string] = { tasks };
  if (metadata && Object.keys(metadata).length) graph.metadata = metadata;
  if (name) graph.name = name;
  return graph;
}
