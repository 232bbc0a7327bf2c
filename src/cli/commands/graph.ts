import type { Command } from 'commander';
import type { GraphCommandOptions } from './graph-command.js';


const collect = (value: string, previous: string[]) => [...previous, value];

export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('Build the deployment graph of a release (and plugins) over a cluster: per-node tasks, order, critical path, cycles')
    .option('--release <dir-or-file>', 'a release plugin folder or a Fuel release fixture (openstack.yaml)')
    .option('--release-version <version>', 'the release to pick when the source holds several')
    .option('--tasks <dir>', 'a Fuel library task folder (deployment/ and graphs/); enough on its own')
    .option('--plugin <dir>', 'a plugin folder to enable (repeatable)', collect, [])
    .option('--nodes <spec-or-file>', 'nodes as "controller:3,compute:100,ceph-osd:20" (role+role:N for several roles), or a YAML file of {id, roles}')
    .option('--type <graph-type>', 'graph type: default, provisioning, deletion, network_verification, or a custom one', 'default')
    .option('--format <format>', 'json, dot, mermaid or summary', 'summary')
    .option('--default-duration <seconds>', 'duration of a task without parameters.timeout (default: 300)')
    .option('--json', 'with --format summary: print the summary as JSON')
    .option('--settings <yaml>', 'settings values over the release defaults, {section: {attribute: value}}: what task conditions read')
    .option('--previous <yaml>', 'the last deployed state ({nodes, settings}) for lifecycle conditions; without it, a first deployment: everything changed')
    .option('--no-conditions', 'take every task condition as true instead of evaluating it')
    .action(async (options: GraphCommandOptions) => {
      const { runGraphCommand } = await import('./graph-command.js');
      await runGraphCommand(options);
    });
}
