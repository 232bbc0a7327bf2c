/**
 * The skeleton of a release plugin (package 5.0.0, `is_release: true`): one release defined in its
 * own folder (metadata, attributes, graphs, scripts, repository), with the four graph types.
 * One release per plugin, named like the plugin, because that is what the release-as-a-plugin
 * design recommends (and warns about otherwise).
 */
import type { Skeleton, SkeletonFile } from './templates.js';
import { releaseScripts } from './release-scripts.js';

const RELEASE_VERSION = 'newton-10.0';

function metadata(name: string, folder: string): string {
  return `# A release plugin: it defines a whole release rather than extending one.
name: ${name}
title: ${name} release
version: '1.0.0'
description: Please describe the release here
licenses: ['Apache License Version 2.0']
authors: ['Specify author or company name']
homepage: 'https://example.com/${name}'
groups: []
package_version: '5.0.0'
releases:
  - release_name: ${name}
    description: 'Describe the release: operating system, OpenStack version, purpose'
    operating_system: ubuntu
    version: ${RELEASE_VERSION}
    is_release: true

    networks_path: ${folder}/metadata/networks.yaml
    volumes_path: ${folder}/metadata/volumes.yaml
    roles_path: ${folder}/metadata/roles.yaml
    network_roles_path: ${folder}/metadata/network_roles.yaml
    components_path: ${folder}/metadata/components.yaml

    attributes_path: ${folder}/attributes/attributes.yaml
    node_attributes_path: ${folder}/attributes/node.yaml
    nic_attributes_path: ${folder}/attributes/nic.yaml
    bond_attributes_path: ${folder}/attributes/bond.yaml

    deployment_scripts_path: ${folder}/deployment_scripts/
    repository_path: ${folder}/repositories/ubuntu

    # Deploy runs the graph of type default; the other types run on their own actions.
    graphs:
      - type: default
        name: deployment
        tasks_path: ${folder}/graphs/deployment.yaml
      - type: provisioning
        name: provisioning
        tasks_path: ${folder}/graphs/provisioning.yaml
      - type: deletion
        name: deletion
        tasks_path: ${folder}/graphs/deletion.yaml
      - type: network_verification
        name: network verification
        tasks_path: ${folder}/graphs/network_verification.yaml
`;
}

const ROLES = `# The node roles of the release.
controller:
  name: "Controller"
  description: "The controller runs the OpenStack control plane"
  has_primary: true
  public_ip_required: true
  weight: 10
  conflicts:
    - compute
  limits:
    min: 1
    recommended: 3
compute:
  name: "Compute"
  description: "A compute node runs virtual machines"
  weight: 20
  conflicts:
    - controller
  limits:
    recommended: 1
`;

const VOLUMES = `# Disks: which volumes each role gets, and the volumes themselves.
volumes_roles_mapping:
  controller:
    - {allocate_size: "min", id: "os"}
  compute:
    - {allocate_size: "min", id: "os"}
    - {allocate_size: "all", id: "vm"}
volumes:
  - id: "os"
    type: "vg"
    label: "Base System"
    min_size: {generator: "calc_min_os_size"}
    volumes:
      - mount: "/"
        type: "lv"
        name: "root"
        size: {generator: "calc_total_root_vg"}
        file_system: "ext4"
      - mount: "swap"
        type: "lv"
        name: "swap"
        size: {generator: "calc_swap_size"}
        file_system: "swap"
  - id: "vm"
    type: "vg"
    label: "Virtual Storage"
    min_size: {generator: "calc_min_vm_size"}
    volumes:
      - mount: "/var/lib/nova"
        type: "lv"
        name: "nova"
        size: {generator: "calc_total_vg", generator_args: ["vm"]}
        file_system: "xfs"
`;

const NETWORKS = `# Networks of the release (neutron).
neutron:
  networks:
    - name: "public"
      cidr: "172.16.0.0/24"
      gateway: "172.16.0.1"
      ip_range: ["172.16.0.2", "172.16.0.126"]
      use_gateway: true
      notation: "ip_ranges"
      render_type: null
      map_priority: 1
      configurable: true
      floating_range_var: "floating_ranges"
      vlan_start: null
      vips: ["haproxy", "vrouter"]
    - name: "management"
      cidr: "192.168.0.0/24"
      use_gateway: false
      notation: "cidr"
      render_type: "cidr"
      map_priority: 2
      configurable: true
      vlan_start: 101
      vips: ["haproxy", "vrouter"]
`;

const NETWORK_ROLES = `# Network roles: which network each service uses.
- id: "management"
  default_mapping: "management"
  properties:
    subnet: true
    gateway: false
    vip:
      - name: "management"
        namespace: "haproxy"
- id: "public/vip"
  default_mapping: "public"
  properties:
    subnet: true
    gateway: true
    vip:
      - name: "public"
        namespace: "haproxy"
`;

const COMPONENTS = `# Components offered by the environment creation wizard for this release. The default ones are
# chosen for an environment created without a list (hearth env create NAME --release ID).
- name: hypervisor:qemu
  label: "QEMU-KVM"
  description: "Virtual machines run under QEMU with KVM"
  default: true
- name: network:neutron:core:ml2
  label: "Neutron with ML2"
  description: "OpenStack networking with the ML2 plugin"
  default: true
  compatible:
    - name: "hypervisor:*"
- name: storage:block:lvm
  label: "LVM"
  description: "Block storage on LVM"
  compatible:
    - name: "hypervisor:qemu"
`;

// A release's settings: sections under `editable:` (a plugin's environment_config.yaml uses
// `attributes:` instead; here that root would hide every setting). The `common` section's values
// reach task conditions at the top of the deployment data: `$.debug`.
const ATTRIBUTES = `# Environment settings of the release, shown on the Settings tab: one mapping per section.
editable:
  common:
    metadata:
      label: "Common"
      weight: 10
      group: general
    debug:
      value: false
      label: "Debug logging"
      description: "Log at debug level on every node, and collect diagnostics after deployment"
      weight: 10
      type: checkbox
`;

const NODE = `# Node attributes, by section.
cpu_pinning:
  metadata:
    label: "CPU pinning"
  nova:
    label: "Nova CPUs"
    description: "CPUs pinned for virtual machines"
    type: "number"
    value: 0
`;

const NIC = `# NIC attributes.
mtu:
  metadata:
    label: "MTU"
  value:
    label: "MTU"
    description: "Maximum transmission unit"
    type: "number"
    value: 1500
`;

const BOND = `# Bond attributes.
lacp_rate:
  metadata:
    label: "LACP rate"
  value:
    label: "LACP rate"
    description: "How often LACP packets are sent"
    type: "select"
    value: "slow"
`;

function graph(comment: string, tasks: string): string {
  return `# ${comment}\n${tasks}`;
}

const PROVISIONING = graph(
  'Provisioning graph: install the operating system on new nodes.',
  `# The node's disk layout (node_volumes in /etc/astute.yaml) on its free disks: GPT partitions,
# filesystems, mounts and fstab, LVM where the kernel has device-mapper. Disks in use are never
# touched, and a second run changes nothing. "python3 disks.py --plan" on a node shows the commands.
- id: disks
  type: shell
  version: 2.0.0
  roles: ['*']
  parameters:
    cmd: python3 disks.py
    timeout: 1800
- id: provision
  type: shell
  version: 2.0.0
  roles: ['*']
  requires: [disks]
  parameters:
    cmd: bash provision.sh
    timeout: 3600
`,
);

const DEPLOYMENT = (name: string): string =>
  graph(
    `Deployment graph (type default, what Deploy runs): configure the nodes.
# Each shell task runs a script of deployment_scripts/ in /etc/hearth/plugins/<name>-<version>/ on
# the node; the node's deployment data is in /etc/hearth/deployment.yaml.
# roles: [controller] reaches every controller, the first (primary) one included.`,
    `# Conditions make a redeploy run only what the change needs (Fuel's lifecycle functions compare
# the deployment data with what was deployed last; on a first deployment everything has changed):
# adding a compute runs the new compute's tasks and the controllers' node list, nothing else.
# \`hearth env deploy <env> --plan\` shows what will run and why before anything runs.
- id: controller-services
  type: shell
  version: 2.0.0
  roles: [controller]
  # Per-node setup: on a node that is new here. Add the settings the script reads, e.g.
  # changedAny($.uid, $.debug), to run it again when they change.
  condition:
    yaql_exp: "changed($.uid)"
  parameters:
    cmd: bash controller.sh
    timeout: 600
    strategy:
      type: one_by_one
# Each controller keeps the list of the environment's nodes (from the deployment data:
# hearth.nodes), written again whenever a node joins or leaves.
- id: controller-nodes
  type: upload_file
  version: 2.0.0
  roles: [controller]
  requires: [controller-services]
  condition:
    yaql_exp: "changed($.network_metadata.nodes)"
  parameters:
    path: /etc/hearth-release/${name}/nodes.json
    data:
      yaql_exp: "$.hearth.nodes.select({name => $.name, address => $.address, roles => $.roles})"
    timeout: 60
# Once every controller is configured, each compute is told their addresses (from the
# deployment data: hearth.nodes) in a file compute-services reads: on a new compute, and on
# every compute when the controllers change.
- id: compute-controllers
  type: upload_file
  version: 2.0.0
  roles: [compute]
  cross-depends:
    - name: controller-services
      role: [controller]
  condition:
    yaql_exp: "changedAny($.uid, $.network_metadata.nodes.values().where('controller' in $.node_roles or 'primary-controller' in $.node_roles).select($.uid))"
  parameters:
    path: /etc/hearth-release/${name}/controllers.json
    data:
      yaql_exp: "$.hearth.nodes.where('controller' in $.roles).select($.address)"
    timeout: 60
- id: compute-services
  type: shell
  version: 2.0.0
  roles: [compute]
  requires: [compute-controllers]
  condition:
    yaql_exp: "changedAny($.uid, $.network_metadata.nodes.values().where('controller' in $.node_roles or 'primary-controller' in $.node_roles).select($.uid))"
  parameters:
    cmd: bash compute.sh
    timeout: 600
    strategy:
      type: parallel
- id: diagnostics
  type: shell
  version: 2.0.0
  roles: ['*']
  requires: [controller-services, compute-services]
  condition:
    yaql_exp: "$.debug"
  parameters:
    cmd: bash diagnostics.sh
    timeout: 300
`,
  );

const DELETION = graph(
  'Deletion graph: clean up nodes removed from the environment.',
  `- id: erase
  type: shell
  version: 2.0.0
  roles: ['*']
  parameters:
    cmd: bash erase.sh
    timeout: 600
`,
);

const VERIFICATION = graph(
  'Network verification graph: check connectivity between nodes before deployment.',
  `- id: verify-networks
  type: shell
  version: 2.0.0
  roles: ['*']
  parameters:
    cmd: bash verify_networks.sh
    timeout: 300
`,
);

// The package format asks for these two files at the top of every 5.0.0 plugin; a release plugin
// keeps its settings and tasks in its release folder, so they stay empty (as in Hearth's own release).
const ENVIRONMENT_CONFIG = (folder: string): string => `# The release's settings live in ${folder}/attributes/attributes.yaml.
attributes: {}
`;

const PLUGIN_TASKS = (folder: string): string => `# The release's tasks live in its graphs, ${folder}/graphs/.
[]
`;

/** Files of a release plugin (the shared files: LICENSE, README, hook, come from the caller). */
export function releaseSkeleton(name: string): Skeleton {
  const folder = `${name}-release`;
  const file = (text: string, executable = false): SkeletonFile => ({ text, executable });
  return new Map<string, SkeletonFile>([
    ['metadata.yaml', file(metadata(name, folder))],
    ['environment_config.yaml', file(ENVIRONMENT_CONFIG(folder))],
    ['deployment_tasks.yaml', file(PLUGIN_TASKS(folder))],
    [`${folder}/metadata/roles.yaml`, file(ROLES)],
    [`${folder}/metadata/volumes.yaml`, file(VOLUMES)],
    [`${folder}/metadata/networks.yaml`, file(NETWORKS)],
    [`${folder}/metadata/network_roles.yaml`, file(NETWORK_ROLES)],
    [`${folder}/metadata/components.yaml`, file(COMPONENTS)],
    [`${folder}/attributes/attributes.yaml`, file(ATTRIBUTES)],
    [`${folder}/attributes/node.yaml`, file(NODE)],
    [`${folder}/attributes/nic.yaml`, file(NIC)],
    [`${folder}/attributes/bond.yaml`, file(BOND)],
    [`${folder}/graphs/provisioning.yaml`, file(PROVISIONING)],
    [`${folder}/graphs/deployment.yaml`, file(DEPLOYMENT(name))],
    [`${folder}/graphs/deletion.yaml`, file(DELETION)],
    [`${folder}/graphs/network_verification.yaml`, file(VERIFICATION)],
    ...[...releaseScripts(name)].map(([file, content]): [string, SkeletonFile] => [`${folder}/deployment_scripts/${file}`, content]),
    [`${folder}/repositories/ubuntu`, {}],
  ]);
}
