/**
 * The CLI as a client of a Hearth server: releases, plugins, environments, nodes, deployments.
 * Offline commands of the same groups (`plugin validate`, `release show --release`) live in their
 * own files; these add to the same groups. Actions load the client code lazily.
 */
import type { Command } from 'commander';
import { group } from '../group.js';
import { outputOptions } from '../output.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** --server, --token and --json on every client command. */
function remote(cmd: Command): Command {
  return cmd
    .option('--server <url>', 'the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)')
    .option('--token <token>', 'the admin token (default: $HEARTH_TOKEN)')
    .option('--json', 'print JSON for scripts');
}

const load = () => import('../client/commands.js');
const loadNodes = () => import('../client/nodes.js');
const loadDeployments = () => import('../client/deployments.js');

/** The top-level names these commands are under (src/cli/commands/index.ts registers only the one asked for). */
export const CLIENT_NAMES = ['release', 'plugin', 'env', 'ssh-key', 'node', 'role', 'deployment'] as const;

export function registerClient(program: Command, only?: string): void {
  const wants = (name: (typeof CLIENT_NAMES)[number]) => only === undefined || only === name;
  if (wants('release')) registerReleases(program);
  if (wants('plugin')) registerPlugins(program);
  if (wants('env')) registerEnvironments(program);
  if (wants('ssh-key')) remote(program.command('ssh-key').description("Print Hearth's SSH public key, to authorize on every real node")).action(async (o) => (await loadNodes()).sshKey(o));
  if (wants('node')) registerNodes(program);
  if (wants('role')) registerRoles(program);
  if (wants('deployment')) registerDeployments(program);
}

function registerReleases(program: Command): void {
  const release = group(program, 'release', 'Releases: read, compose with plugins, list and manage');
  outputOptions(remote(release.command('list').description('List the releases on the server')), 'list').action(async (o) => (await load()).releaseList(o));
  remote(release.command('delete').argument('<id>').description('Delete a release (refused while environments use it)')).action(async (id, o) => (await load()).releaseDelete(id, o));
}

function registerPlugins(program: Command): void {
  const plugin = group(program, 'plugin', 'Write, check and package plugins');
  remote(plugin.command('install').argument('<package-or-folder>').description('Install a plugin package on the server (a .tar.gz from hearth plugin build, or a Fuel plugin .rpm or .fp as downloaded; or, with --folder, register a folder on the server\'s disk)').option('--folder', 'register a plugin folder on the server\'s disk (development)')).action(
    async (source, o) => (await load()).pluginInstall(source, o),
  );
  outputOptions(remote(plugin.command('list').description('List the plugins installed on the server')), 'list').action(async (o) => (await load()).pluginList(o));
  outputOptions(remote(plugin.command('show').argument('<id>', 'name@version').description('Show an installed plugin: releases, roles, components, tasks')), 'show').action(async (id, o) => (await load()).pluginShow(id, o));
  remote(plugin.command('uninstall').argument('<id>', 'name@version').description('Uninstall a plugin version (refused while enabled)')).action(async (id, o) => (await load()).pluginUninstall(id, o));
  remote(plugin.command('sync').argument('<id>', 'name@version').description('Re-read a registered plugin folder')).action(async (id, o) => (await load()).pluginSync(id, o));
}

function registerEnvironments(program: Command): void {
  const env = group(program, 'env', 'Environments on a Hearth server');
  remote(env.command('create').argument('<name>').description('Create an environment').option('--release <id>', 'the release').option('--components <list>', 'comma-separated components, e.g. hypervisor:qemu,network:neutron:core:ml2 (default: the release\'s default components)')).action(
    async (name, o) => (await load()).envCreate(name, o),
  );
  outputOptions(remote(env.command('list').description('List environments')), 'list').action(async (o) => (await load()).envList(o));
  remote(
    env
      .command('upgrade')
      .argument('<env>', 'id or name')
      .description('Move an environment to a newer version of its release: components, settings, plugins and node roles carried over; refused with what no longer fits, unless --drop-unfit')
      .option('--release <id>', 'the release to move to (hearth release list shows them)')
      .option('--drop-unfit', 'leave behind what does not fit the new release (listed), instead of refusing'),
  ).action(async (ref, o) => (await import('../client/env-upgrade.js')).envUpgrade(ref, o));
  outputOptions(remote(env.command('show').argument('<env>', 'id or name').description('Show an environment and its nodes')), 'show').action(async (ref, o) => (await load()).envShow(ref, o));
  remote(
    env
      .command('verify-networks')
      .argument('<env>', 'id or name')
      .description(
        "Verify networks on every real node of the environment (about 10 s; nothing of the nodes changes): which nodes hear each other on each network's VLAN, duplicate addresses, the gateway, and what to check. Exit status 1 when the verification fails (a link broken, a duplicate address, a silent gateway, a node not answering), 0 when it passes",
      )
      .option('--budget <seconds>', 'seconds each node listens, 4-120 (default: 8)'),
  ).action(async (ref, o) => (await import('../client/verify-networks.js')).envVerifyNetworks(ref, o));
  remote(
    env
      .command('delete')
      .argument('<env>', 'id or name')
      .description('Delete an environment; with deployed nodes say --clean (the deletion graph runs on them first) or --no-clean')
      .option('--clean', 'run the deletion graph on its deployed nodes first; it is deleted when that succeeded')
      .option('--no-clean', 'delete it now: the hosts keep what was deployed')
      .option('--wait', 'with --clean, wait for the deletion graph and say how it ended'),
  ).action(async (ref, o) => (await import('../client/node-removal.js')).envDelete(ref, o));
  outputOptions(remote(
    env
      .command('settings')
      .argument('<env>', 'id or name')
      .description('Show settings and plugins, or change them')
      .option('--set <section.field=value>', 'change a setting (repeatable)', collect, [])
      .option('--plugin <name=version|off>', 'enable, switch or disable a plugin (repeatable)', collect, [])
      .option('--dry-run', 'show what would change without applying it'),
  ), 'list').action(async (ref, o) => (await load()).envSettings(ref, o));
  remote(
    env
      .command('deploy')
      .argument('<env>', 'id or name')
      .description('Deploy, showing progress: for real on real nodes over SSH; --dry-run simulates (the default when every node is simulated)')
      .option('--graph <type>', 'graph type', 'default')
      .option('--no-wait', 'return once started')
      .option('--dry-run', 'simulate: walk the graph, run nothing on the nodes')
      .option('--no-dry-run', 'deploy for real (refused, by name, if a node is simulated)')
      .option('--max-parallel <n>', 'at most this many tasks (SSH sessions) at once (default: 50)')
      .option('--follow', 'print each task as it ends (time, outcome, task, node name), failures with their output, and "still running" for a task silent 30 s; exit status 0 only when the run succeeded')
      .option('--resume', 'run only what the last (failed, stopped or interrupted) real deployment did not finish')
      .option('--plan', 'run nothing: print, per node, each task that would run (+) and each that would not, with why (conditions and the data that changed, new nodes, --resume); --json for the plan as the API gives it')
      .option('--skip-offline', 'leave offline nodes out of a real run (the run lists them) instead of refusing'),
  ).action(async (ref, o) => (await load()).envDeploy(ref, o));
  remote(
    env
      .command('stop')
      .argument('<env>', 'id or name')
      .description('Stop the running deployment: nothing new starts, running tasks finish or are killed after the grace period')
      .option('--grace <seconds>', 'seconds running tasks may take to finish before they are killed (default: 30)')
      .option('--wait', 'wait for the run to end and print its final state (exit status 0 when it ended stopped, 1 otherwise)'),
  ).action(async (ref, o) => (await import('../client/follow.js')).envStop(ref, o));
  outputOptions(remote(
    env
      .command('networks')
      .argument('<env>', 'id or name')
      .description("The environment's networks (CIDR, VLAN, gateway, IP ranges) and what the checks find, with what to change; --set changes fields (refused, per network and field, when the result has errors)")
      .option('--set <NETWORK.FIELD=VALUE>', 'e.g. public.cidr=172.16.1.0/24, storage.vlan_start=102 (none: untagged), storage.mtu=9000, public.ip_ranges=172.16.1.2-172.16.1.100, networking_parameters.floating_ranges=172.16.1.130-172.16.1.254; repeatable, saved together', collect, []),
  ), 'list').action(async (ref, o) => (await import('../client/networks.js')).envNetworks(ref, o));
  const graph = remote(env.command('graph').argument('<env>', 'id or name').description('The deployment graph; `graph run` runs a graph type').option('--type <type>', 'graph type', 'default').option('--format <format>', 'summary, json, dot or mermaid')).action(
    async (ref, o) => (await load()).envGraph(ref, o),
  );
  // --server, --token and --json are `env graph`'s options too, and commander hands them to it: the action reads both.
  remote(
    graph
      .command('run')
      .argument('<env>', 'id or name')
      .argument('<type>', 'graph type: default, provision, deletion, network_verification, or a plugin\'s')
      .description('Run a graph type of the environment\'s release and plugins, on all its nodes or those named; waits for the end (exit status 0 only when it succeeded)')
      .option('--nodes <list>', 'only these nodes: names or ids, comma-separated')
      .option('--dry-run', 'simulate: walk the graph, run nothing on the nodes')
      .option('--no-dry-run', 'run for real (refused, by name, if a node is simulated)')
      .option('--follow', 'print each task as it ends, as env deploy --follow does')
      .option('--no-wait', 'return once started'),
  ).action(async (ref, type, _o, cmd: Command) => (await loadDeployments()).envGraphRun(ref, type, cmd.optsWithGlobals()));
}

function registerNodes(program: Command): void {
  const node = group(program, 'node', 'Nodes on a Hearth server');
  remote(
    node
      .command('add')
      .argument('[address]', 'a real node: Hearth connects over SSH, records its host key and gathers its facts')
      .description('Register a real node by address, or simulated nodes (--count, --name)')
      .option('--count <n>', 'simulated nodes')
      .option('--name <name>', 'a node name (repeatable for simulated nodes)', collect, [])
      .option('--ssh-user <user>', 'SSH user of a real node (default: root)')
      .option('--ssh-port <port>', 'SSH port of a real node (default: 22)')
      .option('--env <env>', 'put the node(s) in this environment (id or name), without roles'),
  ).action(async (address, o) => (address === undefined ? (await loadNodes()).nodeAddSimulated(o) : (await loadNodes()).nodeAddReal(address, o)));
  outputOptions(remote(node.command('show').argument('<id>').description('Show a node: how it is reached, its facts (disks, interfaces), its last SSH error')), 'show').action(async (id, o) => (await loadNodes()).nodeShow(id, o));
  remote(node.command('refresh').argument('<id>').description('Connect to a real node and gather its facts again').option('--accept-host-key <fingerprint>', 'accept the changed host key with this fingerprint (after a reinstall)')).action(
    async (id, o) => (await loadNodes()).nodeRefresh(id, o),
  );
  outputOptions(remote(
    node
      .command('disks')
      .argument('<node>', 'node id or name')
      .description("Show a node's disks and the volumes on each (the saved layout, else the default one from its roles); --set saves sizes, --defaults goes back to the default layout")
      .option('--set <VOLUME=SIZE[@DISK]>', 'give a volume this size (20G, 512M, MB alone) on a disk (name or id; needed when the volume is on no disk or several); repeatable, saved together', collect, [])
      .option('--defaults', 'forget the saved layout: back to the default one, which follows the roles'),
  ), 'list').action(async (ref, o) => (await import('../client/disks.js')).nodeDisks(ref, o));
  outputOptions(remote(
    node
      .command('interfaces')
      .argument('<node>', 'node id or name')
      .description("A node's interfaces and the networks on each; --assign moves a network to an interface (the admin network stays on the one Hearth reaches the node on)")
      .option('--assign <NETWORK=INTERFACE>', 'e.g. management=eth1; repeatable, saved together', collect, []),
  ), 'list').action(async (ref, o) => (await import('../client/networks.js')).nodeInterfaces(ref, o));
  outputOptions(remote(node.command('list').description('List nodes').option('--env <env>', 'only this environment\'s').option('--unassigned', 'only nodes in no environment')), 'list').action(async (o) => (await load()).nodeList(o));
  remote(node.command('assign').argument('<env>', 'id or name').description('Assign nodes with roles (pending until deployed)').option('--node <node=roles>', 'a node id or name and its roles, e.g. 3=controller or ctl-1=controller,cinder (repeatable)', collect, [])).action(
    async (ref, o) => (await load()).nodeAssign(ref, o),
  );
  remote(
    node
      .command('unassign')
      .alias('remove')
      .argument('<env>', 'id or name')
      .argument('<ids...>', 'node ids or names')
      .description('Take nodes out of an environment: deployed ones are cleaned by the deletion graph first, and leave when it succeeded')
      .option('--no-clean', 'forget deployed nodes without running anything: the hosts keep what was deployed')
      .option('--wait', 'wait for the deletion graph and say how it ended on each node'),
  ).action(async (ref, ids, o) => (await import('../client/node-removal.js')).nodeUnassign(ref, ids, o));
}

function registerRoles(program: Command): void {
  const role = group(program, 'role', "Roles of a release or an environment (Nailgun's role API): list, show, add, change, delete");
  const where = (cmd: Command) => cmd.option('--release <id>', 'a role of this release: every environment on it can use it (hearth release list shows them)').option('--env <env>', 'a role of this environment alone (id or name)');
  const loadRoles = () => import('../client/roles.js');
  outputOptions(remote(where(role.command('list').description("The roles a release or an environment offers: the release's, its plugins' and those added"))), 'list').action(async (o) => (await loadRoles()).roleList(o));
  outputOptions(remote(where(role.command('show').argument('<name>', 'the role').description("One role, whatever its source, as YAML: the file role add and role change take (hearth role show compute --release … > compute.yaml)"))), 'show').action(async (name, o) => (await loadRoles()).roleShow(name, o));
  remote(
    where(
      role
        .command('add')
        .argument('<file>', "a YAML or JSON file: name, meta (name, description, tags, and Fuel's other role keys) and volumes_roles_mapping")
        .description('Add a role (admin for a release, operator for an environment); nodes can then take it, its disks follow its volumes_roles_mapping'),
    ),
  ).action(async (file, o) => (await loadRoles()).roleAdd(file, o));
  remote(where(role.command('change').argument('<file>', 'the role file, as for add: the role named in it changes').description('Change a role added with role add: its meta and volumes_roles_mapping'))).action(async (file, o) => (await loadRoles()).roleChange(file, o));
  remote(where(role.command('delete').argument('<name>', 'the role').description('Delete a role added with role add (refused while nodes hold it)'))).action(async (name, o) => (await loadRoles()).roleDelete(name, o));
}

function registerDeployments(program: Command): void {
  const deployment = group(program, 'deployment', 'Deployments (runs of a graph): list, show, output, follow');
  outputOptions(remote(deployment.command('list').description('List deployments, newest first: environment, graph, real or dry run, status, progress').option('--env <env>', "only this environment's (id or name)")), 'list').action(
    async (o) => (await loadDeployments()).deploymentList(o),
  );
  outputOptions(remote(deployment.command('show').argument('<id>', 'deployment id').description('Show a deployment: status, progress, and each task with its outcome, exit status, times and message')), 'show').action(
    async (id, o) => (await loadDeployments()).deploymentShow(id, o),
  );
  remote(
    deployment
      .command('logs')
      .argument('<id>', 'deployment id')
      .description("Print the deployment's task output (the last 1 MiB of each task), in the order the tasks ran")
      .option('--node <node>', 'only this node (name or id)')
      .option('--task <task>', 'only this task'),
  ).action(async (id, o) => (await loadDeployments()).deploymentLogs(id, o));
  remote(
    deployment
      .command('follow')
      .argument('<id>', 'deployment id')
      .description('Attach to a deployment from any machine: each task as it ends, "still running" for a task silent 30 s, until it ends; exit status 0 only when it succeeded'),
  ).action(async (id, o) => (await loadDeployments()).deploymentFollow(id, o));
}
