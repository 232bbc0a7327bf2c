/**
 * Multi-release plugin folders written from the plugins-v5 design's own examples (in our words):
 * variant 1, records with `os-version` / `fuel-version` constraints sharing an id; variants 2 and
 * 3, a release record naming its own files (`*_path`) or its own folder (`conf_path`). Each is a
 * real folder on disk, valid as package 5.0.0, for Mitaka (Fuel 9.0) and Newton (Fuel 10.0).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Folder {
  path: string;
  remove(): void;
}

function folder(prefix: string, files: Record<string, string>): Folder {
  const path = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(path, name)), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  mkdirSync(join(path, 'deployment_scripts'), { recursive: true });
  mkdirSync(join(path, 'repositories', 'ubuntu'), { recursive: true });
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const metadata = (name: string, releases: string) => `name: ${name}
title: ${name}
version: 1.0.0
package_version: 5.0.0
fuel_version: ['9.0', '10.0']
description: One package for Mitaka and Newton
licenses: ['Apache-2.0']
authors: ['Hearth tests']
homepage: https://example.org/${name}
groups: []
is_hotpluggable: false
releases:
${releases}`;

const release = (version: string, extra = '') => `  - os: ubuntu
    version: ${version}
    mode: ['ha']
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
${extra}`;

const task = (id: string, manifest: string, constraints = '', role = 'mr_role') => `- id: ${id}
  type: puppet
  version: 2.0.0
  roles: [${role}]
  requires: [deploy_start]
  required_for: [deploy_end]
${constraints}  parameters:
    puppet_manifest: ${manifest}
    puppet_modules: "."
    timeout: 300
`;

/**
 * Variant 1. `my-task` is the design's two-record group (a legacy record for Fuel 7-8 on Juno and
 * Kilo, one for Liberty and Fuel 9 on) plus a third for Fuel 10; `legacy-only` fits no release the
 * plugin lists on Mitaka or Newton. Roles, network roles, components and volume allocations carry
 * constraints too.
 */
export function variantOnePlugin(replace: Record<string, string> = {}): Folder {
  return folder('hearth-mr1-', {
    'metadata.yaml': metadata('multi_version', release('mitaka-9.0') + release('newton-10.0')),
    'environment_config.yaml': '{}\n',
    'deployment_tasks.yaml': [
      task('my-task', 'deploy_legacy.pp', '  os-version: "==2014.2,==2015.1"\n  fuel-version: ">=7,<=8"\n'),
      task('my-task', 'deploy_10.pp', '  os-version: ">=liberty-8.0"\n  fuel-version: ">=9"\n'),
      task('my-task', 'deploy_newton.pp', '  fuel-version: ">=10"\n'),
      task('plain-task', 'plain.pp'),
      task('newton-only', 'newton_only.pp', '  fuel-version: ">=10"\n'),
    ].join('\n'),
    'node_roles.yaml': `mr_role:
  name: Multi-version role
  description: On every release
newton_role:
  name: Newton role
  description: Only where Fuel is 10 or later
  fuel-version: ">=10"
`,
    'volumes.yaml': `volumes: []
volumes_roles_mapping:
  mr_role:
    - {id: os, allocate_size: min, fuel-version: "<10"}
    - {id: os, allocate_size: all, fuel-version: ">=10"}
  newton_role:
    - {id: os, allocate_size: min}
`,
    'network_roles.yaml': `- id: mr/legacy
  default_mapping: management
  properties: {subnet: true, gateway: false, vip: []}
  fuel-version: "<9"
- id: mr/api
  default_mapping: management
  properties: {subnet: true, gateway: false, vip: []}
`,
    'components.yaml': `- name: additional_service:mr-mitaka
  label: Mitaka flavour
  fuel-version: ">=9,<10"
- name: additional_service:mr-newton
  label: Newton flavour
  os-version: ">=newton"
`,
    ...replace,
  });
}

/**
 * Variants 2 and 3. Mitaka names its own task, role, disk and network-role files
 * (`deployment_tasks_path`, `node_roles_path`, `volumes_path`, `network_roles_path`); Newton names a folder (`conf_path: newton/`) holding its own tasks and
 * components, and takes everything else from the plugin root.
 */
export function perReleaseFilesPlugin(name = 'per_release', replace: Record<string, string> = {}): Folder {
  return folder('hearth-mr23-', {
    'metadata.yaml': metadata(
      name,
      release('mitaka-9.0', '    deployment_tasks_path: deployment_tasks_mitaka.yaml\n    node_roles_path: node_roles_mitaka.yaml\n    volumes_path: volumes_mitaka.yaml\n    network_roles_path: network_roles_mitaka.yaml\n') +
        release('newton-10.0', '    conf_path: newton/\n'),
    ),
    'environment_config.yaml': 'attributes:\n  level: {type: text, value: root, label: Level, weight: 10}\n',
    'node_roles.yaml': 'pr_role:\n  name: Role from the plugin root\n  description: Root\n',
    'node_roles_mitaka.yaml': 'pr_role:\n  name: Role for Mitaka\n  description: Mitaka\n',
    'volumes.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: min}\n',
    'volumes_mitaka.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: all}\n',
    'network_roles_mitaka.yaml': '- id: pr/mitaka\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: []}\n',
    'deployment_tasks.yaml': task('root-task', 'root.pp', '', 'pr_role'),
    'deployment_tasks_mitaka.yaml': task('mitaka-task', 'mitaka.pp', '', 'pr_role'),
    'components.yaml': '- name: additional_service:pr-root\n  label: From the root\n',
    'newton/deployment_tasks.yaml': task('newton-task', 'newton.pp', '', 'pr_role'),
    'newton/components.yaml': '- name: additional_service:pr-newton\n  label: From newton/\n',
    'newton/environment_config.yaml': 'attributes:\n  level: {type: text, value: newton, label: Level, weight: 10}\n',
    ...replace,
  });
}
