/**
 * Skeleton files per package version, layered as Fuel's builder did (base, then each version's
 * changes on top), so a 5.0.0 skeleton is the 4.0.0 one plus node/NIC/bond attributes and the
 * current task format. Every skeleton must validate with no errors and no warnings: the tests hold
 * the templates to that.
 */
import type { PackageVersion } from '../plugin/model.js';

export interface SkeletonFile {
  /** Text content; undefined for an empty folder. */
  text?: string;
  executable?: boolean;
}
export type Skeleton = Map<string, SkeletonFile>;

const HOOK = `#!/bin/bash
# Runs in the plugin folder before every \`hearth plugin build\`, before validation.
# Use it to fetch or build what the package needs, for example .deb files into
# repositories/ubuntu or .rpm files into repositories/centos. A non-zero exit
# status stops the build.
set -eu
exit 0
`;

const LICENSE = (name: string): string => `Copyright the ${name} authors.

Licensed under the Apache License, Version 2.0 (the "License"); you may not
use this plugin except in compliance with the License. You may obtain a copy
of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
License for the specific language governing permissions and limitations
under the License.
`;

const README = (name: string, version: string): string => `# ${name}

Describe what the plugin does, what it needs and how to use it.

This is a Fuel plugin, package version ${version}, made with \`hearth plugin create\`.

    hearth plugin validate .     # check every file
    hearth plugin build .        # run pre_build_hook, validate, write ${name}-<version>.tar.gz
    hearth plugin inspect ${name}-1.0.0.tar.gz

See docs/plugin-guide.md in Hearth for every file and field.
`;

const DEPLOY_SH = (name: string): string => `#!/bin/bash
# An example deployment script; the tasks run it on the nodes.
set -eu
echo "${name} deployed" > /tmp/${name}
`;

function envConfig(name: string, withGroup: boolean): string {
  return `# Settings shown on the environment's Settings tab; their values reach the nodes
# in /etc/astute.yaml under the plugin's name.
attributes:
${withGroup ? '  metadata:\n    group: other\n' : ''}  ${name}_text:
    value: 'Set default value'
    label: 'Text field'
    description: 'Description for text field'
    weight: 25
    type: text
`;
}

function base(name: string, version: PackageVersion): Skeleton {
  return new Map<string, SkeletonFile>([
    ['LICENSE', { text: LICENSE(name) }],
    ['README.md', { text: README(name, version) }],
    ['pre_build_hook', { text: HOOK, executable: true }],
    ['deployment_scripts/deploy.sh', { text: DEPLOY_SH(name), executable: true }],
    ['environment_config.yaml', { text: envConfig(name, false) }],
    ['repositories/ubuntu', {}],
    ['repositories/centos', {}],
  ]);
}

interface MetadataShape {
  packageVersion: PackageVersion;
  fuelVersions: string[];
  releases: Array<{ os: string; version: string; mode: string[] }>;
  extended: boolean;
  hotpluggable: boolean;
}

function metadata(name: string, m: MetadataShape): string {
  const lines = [
    `# The plugin's name: lower-case letters, digits, "_" and "-".`,
    `name: ${name}`,
    `title: Title for ${name} plugin`,
    `# The plugin's own version; the package is ${name}-<version>.tar.gz.`,
    `version: '1.0.0'`,
    `description: Please describe your plugin here`,
    `# Fuel releases the plugin works with.`,
    `fuel_version: [${m.fuelVersions.map((v) => `'${v}'`).join(', ')}]`,
  ];
  if (m.extended) {
    lines.push(`licenses: ['Apache License Version 2.0']`, `authors: ['Specify author or company name']`, `homepage: 'https://example.com/${name}'`, `# Kinds of plugin, e.g. [network], [storage::cinder]; may be empty.`, `groups: []`);
  }
  if (m.hotpluggable) lines.push(`# true if the plugin can be enabled in an environment that is already deployed.`, `is_hotpluggable: false`);
  lines.push(`# The releases the plugin extends.`, `releases:`);
  for (const r of m.releases) {
    lines.push(
      `  - os: ${r.os}`,
      `    version: ${r.version}`,
      `    mode: [${r.mode.map((x) => `'${x}'`).join(', ')}]`,
      `    deployment_scripts_path: deployment_scripts/`,
      `    repository_path: repositories/${r.os}`,
    );
  }
  lines.push(`# The format of this folder.`, `package_version: '${m.packageVersion}'`);
  return `${lines.join('\n')}\n`;
}

const legacyTasks = (name: string): string => `# Tasks in the legacy format: run on nodes with the given roles before or after deployment.
- role: ['controller']
  stage: post_deployment
  type: shell
  parameters:
    cmd: bash deploy.sh
    timeout: 42
- role: '*'
  stage: pre_deployment
  type: shell
  parameters:
    cmd: echo all > /tmp/${name}.all
    timeout: 42
`;

const nodeRoles = (name: string): string => `# Node roles the plugin adds; users assign them to nodes.
${name}_role:
  name: "${name} role"
  description: "Write a description for the role"
  has_primary: false
  public_ip_required: false
  weight: 1000
  # Roles that cannot share a node with this one.
  conflicts:
    - compute
  limits:
    min: 1
    recommended: 1
`;

const volumes = (name: string): string => `# Disk layout for the plugin's node role: each role maps to volumes, and
# allocate_size says how much of the disks a volume takes (min, all, full-disk).
volumes_roles_mapping:
  ${name}_role:
    - {allocate_size: "min", id: "os"}
    - {allocate_size: "all", id: "${name}_data"}
volumes:
  - id: "${name}_data"
    type: "vg"
    label: "${name} data"
    min_size: {generator: "calc_gb_to_mb", generator_args: [10]}
    volumes:
      - mount: "/var/lib/${name}"
        type: "lv"
        name: "data"
        file_system: "ext4"
        size: {generator: "calc_total_vg", generator_args: ["${name}_data"]}
`;

const networkRoles = (name: string): string => `# Network roles: what networks the plugin's services use, and VIPs to allocate.
- id: "${name}_network_role"
  default_mapping: "public"
  properties:
    subnet: true
    gateway: false
    vip:
      - name: "${name}_vip"
        namespace: "haproxy"
`;

const v3Tasks = (name: string): string => `# Deployment tasks (package 3.0.0): a group for the node role, and a puppet task in it.
- id: ${name}_role
  type: group
  role: [${name}_role]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    strategy:
      type: parallel
- id: ${name}-deployment-puppet
  type: puppet
  groups: [${name}_role]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    puppet_manifest: "deploy.pp"
    puppet_modules: "."
    timeout: 3600
`;

// No version 2.0.0 task here: plugins-v5 advises package 5.0.0 for those (a warning), and a
// fresh skeleton validates cleanly.
const v4Tasks = (name: string): string => `# Deployment tasks (package 4.0.0). A task with version: 2.0.0 may have cross-node
# dependencies (cross-depends) and its own strategy; package 5.0.0 is made for such tasks.
- id: ${name}_role
  type: group
  role: [${name}_role]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    strategy:
      type: parallel
- id: ${name}-deployment-puppet
  type: puppet
  role: [${name}_role]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    puppet_manifest: "deploy.pp"
    puppet_modules: "."
    timeout: 3600
`;

const v5Tasks = (name: string): string => `# Deployment tasks (package 5.0.0): every task has version 2.0.0 and names its
# node roles with \`roles\`; no group tasks are needed.
- id: ${name}-deployment-puppet
  type: puppet
  version: 2.0.0
  roles: [${name}_role]
  requires: [deploy_start]
  required_for: [deploy_end]
  parameters:
    puppet_manifest: "deploy.pp"
    puppet_modules: "."
    timeout: 3600
    strategy:
      type: parallel
- id: ${name}-post-deployment
  type: shell
  version: 2.0.0
  roles: [${name}_role]
  requires: [post_deployment_start]
  required_for: [post_deployment_end]
  parameters:
    cmd: bash deploy.sh
    timeout: 180
`;

const components = (name: string): string => `# Components offered in the environment creation wizard.
- name: additional_service:${name}
  label: "${name}"
  description: "Describe what enabling ${name} adds to the environment"
  compatible: []
  requires: []
  incompatible: []
`;

const interfaceAttributes = (what: string): string => `# Extra ${what} attributes the plugin adds to each ${what} of a node.
attribute_a:
  label: "${what} attribute A"
  description: "Some description"
  type: "text"
  value: ""
attribute_b:
  label: "${what} attribute B"
  description: "Some description"
  type: "checkbox"
  value: false
`;

const nodeConfig = (name: string): string => `# Extra node attributes, grouped in sections.
${name}_section:
  metadata:
    label: "${name} settings"
  attribute_a:
    label: "Node attribute A"
    description: "Some description"
    type: "text"
    value: ""
  attribute_b:
    label: "Node attribute B"
    description: "Some description"
    type: "checkbox"
    value: false
`;

/** The skeleton of an ordinary plugin for `version`. */
export function pluginSkeleton(name: string, version: PackageVersion): Skeleton {
  const files = base(name, version);
  const set = (path: string, text: string): void => void files.set(path, { text });
  switch (version) {
    case '1.0.0':
      set('metadata.yaml', metadata(name, { packageVersion: version, fuelVersions: ['6.0'], releases: [{ os: 'ubuntu', version: '2014.2-6.0', mode: ['ha', 'multinode'] }, { os: 'centos', version: '2014.2-6.0', mode: ['ha', 'multinode'] }], extended: false, hotpluggable: false }));
      set('tasks.yaml', legacyTasks(name));
      return files;
    case '2.0.0':
      set('metadata.yaml', metadata(name, { packageVersion: version, fuelVersions: ['6.1'], releases: [{ os: 'ubuntu', version: '2014.2-6.1', mode: ['ha', 'multinode'] }, { os: 'centos', version: '2014.2-6.1', mode: ['ha', 'multinode'] }], extended: true, hotpluggable: false }));
      set('tasks.yaml', legacyTasks(name));
      return files;
    case '3.0.0':
      set('metadata.yaml', metadata(name, { packageVersion: version, fuelVersions: ['7.0', '8.0'], releases: [{ os: 'ubuntu', version: '2015.1.0-7.0', mode: ['ha'] }, { os: 'ubuntu', version: 'liberty-8.0', mode: ['ha'] }], extended: true, hotpluggable: false }));
      set('deployment_tasks.yaml', v3Tasks(name));
      break;
    case '4.0.0':
      set('metadata.yaml', metadata(name, { packageVersion: version, fuelVersions: ['8.0'], releases: [{ os: 'ubuntu', version: 'liberty-8.0', mode: ['ha'] }], extended: true, hotpluggable: true }));
      set('deployment_tasks.yaml', v4Tasks(name));
      break;
    case '5.0.0':
      set('metadata.yaml', metadata(name, { packageVersion: version, fuelVersions: ['9.0', '10.0'], releases: [{ os: 'ubuntu', version: 'mitaka-9.0', mode: ['ha'] }, { os: 'ubuntu', version: 'newton-10.0', mode: ['ha'] }], extended: true, hotpluggable: true }));
      set('deployment_tasks.yaml', v5Tasks(name));
      set('node_config.yaml', nodeConfig(name));
      set('nic_config.yaml', interfaceAttributes('NIC'));
      set('bond_config.yaml', interfaceAttributes('bond'));
      break;
  }
  set('node_roles.yaml', nodeRoles(name));
  set('volumes.yaml', volumes(name));
  set('network_roles.yaml', networkRoles(name));
  set('deployment_scripts/deploy.pp', `# The puppet manifest the deployment task applies.\nnotice('${name}: deployed')\n`);
  if (version !== '3.0.0') {
    set('environment_config.yaml', envConfig(name, true));
    set('components.yaml', components(name));
  }
  return files;
}
