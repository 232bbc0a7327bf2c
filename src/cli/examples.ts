/**
 * An example for every command, shown under "Examples:" at the end of its --help (issue 31 item
 * 7). One table, so that every group reads the same; src/cli/help.test.ts holds every command to
 * having one, and each example to naming its own command.
 */
import type { Command } from 'commander';

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  'plugin validate': ['hearth plugin validate ./my-plugin', 'hearth plugin validate ./my-plugin --json'],
  'plugin create': ['hearth plugin create my-plugin', 'hearth plugin create my-release --release-plugin --dir ~/plugins'],
  'plugin build': ['hearth plugin build ./my-plugin', 'hearth plugin build ./my-plugin --out dist --json'],
  'plugin inspect': ['hearth plugin inspect my-plugin-1.0.0.tar.gz'],
  'plugin install': ['hearth plugin install my-plugin-1.0.0.tar.gz', 'hearth plugin install --folder /srv/plugins/my-plugin'],
  'plugin list': ['hearth plugin list', 'hearth plugin list -f value -c id'],
  'plugin show': ['hearth plugin show my-plugin@1.0.0', 'hearth plugin show my-plugin@1.0.0 -f yaml -c roles'],
  'plugin uninstall': ['hearth plugin uninstall my-plugin@1.0.0'],
  'plugin sync': ['hearth plugin sync my-plugin@1.0.0'],
  'components check': ['hearth components check --release ./release --select hypervisor:qemu,network:neutron:core:ml2'],
  'components state': ['hearth components state --release ./release --plugin ./my-plugin --select hypervisor:qemu'],
  'components analyse': ['hearth components analyse --release ./release --plugin ./my-plugin'],
  'release show': ['hearth release show --release ./release --plugin ./my-plugin', 'hearth release show hearth-openstack@2026.1-1.0 -f json -c roles'],
  'release list': ['hearth release list', 'hearth release list -f csv'],
  'release delete': ['hearth release delete my-release@1.0'],
  graph: ['hearth graph --release ./release --nodes controller:3,compute:10', 'hearth graph --release ./release --nodes controller:1 --format dot | dot -Tsvg > graph.svg'],
  'template find': ['hearth template find -r ./templates -c resource_type=OS::TripleO::Controller'],
  'template capabilities': ['hearth template capabilities -f controller.yaml -f compute.yaml'],
  'template resolve': ['hearth template resolve -e environments/base.yaml -e environments/ceph.yaml --root ./templates'],
  serve: ['hearth serve', 'hearth serve --host 0.0.0.0 --port 8420 --data-dir /var/lib/hearth'],
  'env create': ['hearth env create lab --release hearth-openstack@2026.1-1.0', 'hearth env create lab --release hearth-openstack@2026.1-1.0 --components hypervisor:qemu,network:neutron:core:ml2'],
  'env list': ['hearth env list', 'hearth env list -f value -c id -c name'],
  'env show': ['hearth env show lab', 'hearth env show lab -f json -c status'],
  'env upgrade': ['hearth env upgrade lab --release 3', 'hearth env upgrade lab --release 3 --drop-unfit'],
  'env verify-networks': ['hearth env verify-networks lab', 'hearth env verify-networks lab --budget 20'],
  'env delete': ['hearth env delete lab --clean --wait', 'hearth env delete lab --no-clean'],
  'env settings': ['hearth env settings lab', 'hearth env settings lab --set common.debug=true --plugin my-plugin=1.0.0 --dry-run'],
  'env deploy': ['hearth env deploy lab --dry-run', 'hearth env deploy lab --no-dry-run --follow', 'hearth env deploy lab --plan'],
  'env stop': ['hearth env stop lab --grace 60 --wait'],
  'env networks': ['hearth env networks lab', 'hearth env networks lab --set public.cidr=172.16.1.0/24 --set storage.vlan_start=102'],
  'env graph': ['hearth env graph lab', 'hearth env graph lab --type provision --format mermaid'],
  'env graph run': ['hearth env graph run lab network_verification --nodes node-1,node-2 --follow'],
  'env inventory': ['hearth env inventory lab > inventory.ini && ansible -i inventory.ini all -m ping', 'hearth env inventory lab --format yaml'],
  'ssh-key': ['hearth ssh-key >> ~/.ssh/authorized_keys'],
  'node add': ['hearth node add 10.0.0.21 --ssh-user root --env lab', 'hearth node add --count 20'],
  'node show': ['hearth node show 3', 'hearth node show 3 -f value -c status'],
  'node refresh': ['hearth node refresh 3', 'hearth node refresh 3 --accept-host-key SHA256:…'],
  'node disks': ['hearth node disks node-1', 'hearth node disks node-1 --set vm=200G@sdb'],
  'node interfaces': ['hearth node interfaces node-1', 'hearth node interfaces node-1 --assign management=eth1'],
  'node list': ['hearth node list --env lab', 'hearth node list --unassigned -f value -c id'],
  'node assign': ['hearth node assign lab --node 1=controller,database,messaging --node 2=compute'],
  'node unassign': ['hearth node unassign lab node-2 --wait', 'hearth node unassign lab 2 3 --no-clean'],
  'role list': ['hearth role list --release hearth-openstack@2026.1-1.0', 'hearth role list --env lab -f value -c role'],
  'role show': ['hearth role show compute --release hearth-openstack@2026.1-1.0 > compute.yaml', 'hearth role show edge --env lab --json'],
  'role add': ['hearth role add storage-gw.yaml --release hearth-openstack@2026.1-1.0', 'hearth role add edge.json --env lab'],
  'role change': ['hearth role change storage-gw.yaml --release hearth-openstack@2026.1-1.0'],
  'role delete': ['hearth role delete storage-gw --release hearth-openstack@2026.1-1.0', 'hearth role delete edge --env lab'],
  'deployment list': ['hearth deployment list --env lab', 'hearth deployment list -f csv'],
  'deployment show': ['hearth deployment show 7', 'hearth deployment show 7 -f value -c status'],
  'deployment logs': ['hearth deployment logs 7 --node node-1', 'hearth deployment logs 7 --task netconfig | less'],
  'deployment follow': ['hearth deployment follow 7'],
  'db export': ['hearth db export -o hearth-export.json'],
  'db import': ['DATABASE_URL=postgres://hearth@db/hearth hearth db import hearth-export.json'],
  'token show': ['hearth token show', 'hearth token show --data-dir /var/lib/hearth'],
  'token reset': ['hearth token reset'],
  'token create': ['HEARTH_TOKEN=$(hearth token create laptop --sign-in alice --expires 30d)', 'hearth token create monitoring --role viewer', 'hearth token create ci --user alice --role operator'],
  'token list': ['hearth token list', 'hearth token list --user alice --json'],
  'token revoke': ['hearth token revoke laptop', 'hearth token revoke ci --user alice'],
  'user list': ['hearth user list', 'hearth user list --json'],
  'user create': ['hearth user create alice --role admin', "printf '%s\\n' \"$PASSWORD\" | hearth user create ci-bot --role operator --password-stdin"],
  'user set-role': ['hearth user set-role bob viewer'],
  'user disable': ['hearth user disable bob'],
  'user enable': ['hearth user enable bob'],
  'user delete': ['hearth user delete bob'],
  'user passwd': ['hearth user passwd alice', 'hearth user passwd alice --password-stdin < new-password.txt', 'hearth user passwd   # your own, with the current one'],
  audit: ['hearth audit', 'hearth audit --actor alice --since 7d', 'hearth audit --object environment/3 --json', 'hearth audit --follow'],
};

/** The command's words after `hearth`: `env graph run`. */
export function commandPath(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

/** Adds each registered command's examples to the end of its help. */
export function addExamples(program: Command): void {
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      const examples = EXAMPLES[commandPath(sub)];
      if (examples) sub.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
      walk(sub);
    }
  };
  walk(program);
}
