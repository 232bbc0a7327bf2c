/**
 * Small plugin folders written on the fly (package 4.0.0, for ubuntu/mitaka-9.0, which the bundled
 * release accepts): a component, a role and tasks, with the knobs the scenarios need.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from '../../support/temp.js';

export interface PluginSpec {
  name: string;
  version?: string;
  /** The component it offers (`additional_service:<name>` by default). */
  component?: string;
  incompatible?: string[];
  role?: string;
  roleConflicts?: string[] | '*';
  roleMax?: number;
  /** Extra task ids to define (an id the release has overrides it; two plugins defining one id conflict). */
  tasks?: string[];
  /** Task ids to define for the plugin's own role only (each plugin's definition runs on its own nodes). */
  roleTasks?: string[];
  /** A settings field under the plugin's section. */
  setting?: { name: string; value: unknown };
}

const yaml = (v: unknown): string => JSON.stringify(v, null, 2); // JSON is YAML

export function writePlugin(spec: PluginSpec, parent = tempFolder('hearth-plugin-')): string {
  const version = spec.version ?? '1.0.0';
  const dir = join(parent, `${spec.name}-${version}`);
  mkdirSync(join(dir, 'deployment_scripts'), { recursive: true });
  mkdirSync(join(dir, 'repositories', 'ubuntu'), { recursive: true });
  writeFileSync(join(dir, 'deployment_scripts', 'deploy.pp'), '# nothing\n');
  const role = spec.role ?? `${spec.name}-node`;
  writeFileSync(
    join(dir, 'metadata.yaml'),
    yaml({
      name: spec.name,
      title: `The ${spec.name} plugin`,
      version,
      description: `Test plugin ${spec.name}`,
      fuel_version: ['9.0'],
      licenses: ['Apache License Version 2.0'],
      authors: ['Hearth tests'],
      homepage: 'https://example.org',
      groups: [],
      is_hotpluggable: false,
      releases: [{ os: 'ubuntu', version: 'mitaka-9.0', mode: ['ha'], deployment_scripts_path: 'deployment_scripts/', repository_path: 'repositories/ubuntu' }],
      package_version: '4.0.0',
    }),
  );
  const component: Record<string, unknown> = { name: spec.component ?? `additional_service:${spec.name}`, label: `${spec.name} service`, description: `Adds ${spec.name}` };
  if (spec.incompatible) component.incompatible = spec.incompatible.map((name) => ({ name, message: `${spec.name} does not work with ${name}` }));
  writeFileSync(join(dir, 'components.yaml'), yaml([component]));
  const roleMeta: Record<string, unknown> = { name: `${spec.name} node`, description: `Runs ${spec.name}`, has_primary: false, public_ip_required: false, weight: 100 };
  if (spec.roleConflicts) roleMeta.conflicts = spec.roleConflicts;
  if (spec.roleMax !== undefined) roleMeta.limits = { max: spec.roleMax };
  writeFileSync(join(dir, 'node_roles.yaml'), yaml({ [role]: roleMeta }));
  writeFileSync(join(dir, 'volumes.yaml'), yaml({ volumes: [], volumes_roles_mapping: { [role]: [{ id: 'os', allocate_size: 'min' }] } }));
  const tasks = [
    { id: `${spec.name}-deploy`, type: 'puppet', version: '2.0.0', roles: [role], requires: ['deploy_start'], required_for: ['deploy_end'], parameters: { puppet_manifest: 'deploy.pp', puppet_modules: '.', timeout: 600 } },
    ...(spec.tasks ?? []).map((id) => ({ id, type: 'shell', version: '2.0.0', roles: [role, 'controller'], requires: ['deploy_start'], required_for: ['deploy_end'], parameters: { cmd: 'true', timeout: 60 } })),
    ...(spec.roleTasks ?? []).map((id) => ({ id, type: 'shell', version: '2.0.0', roles: [role], requires: ['deploy_start'], required_for: ['deploy_end'], parameters: { cmd: `echo ${spec.name}`, timeout: 60 } })),
  ];
  writeFileSync(join(dir, 'deployment_tasks.yaml'), yaml(tasks));
  writeFileSync(join(dir, 'tasks.yaml'), '[]\n');
  const attributes: Record<string, unknown> = { metadata: { label: `${spec.name} settings`, weight: 90 } };
  if (spec.setting) attributes[spec.setting.name] = { value: spec.setting.value, label: spec.setting.name, type: typeof spec.setting.value === 'boolean' ? 'checkbox' : 'text', weight: 10 };
  writeFileSync(join(dir, 'environment_config.yaml'), yaml({ attributes }));
  return dir;
}
