import type { Command } from 'commander';
import { group } from '../group.js';
import { outputOptions, type OutputOptions } from '../output.js';

interface ShowOptions {
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  plugin: string[];
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerRelease(program: Command): void {
  const release = group(program, 'release', 'Releases: read, compose with plugins, list and manage');
  const show = release
    .command('show')
    .description('Show a release composed with plugins: roles, components, settings, graphs and conflicts')
    .option('--release <dir-or-file>', 'a release plugin folder or a Fuel release fixture (openstack.yaml)')
    .option('--release-version <version>', 'the release to pick when the source holds several')
    .option('--tasks <dir>', 'a Fuel library task folder (the graphs of a fixture)')
    .option('--plugin <dir>', 'a plugin folder to enable (repeatable)', collect, [])
    .option('--json', 'print JSON')
    .argument('[id]', 'without --release: a release on the Hearth server (see `hearth release list`)')
    .option('--server <url>', 'with an id: the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)')
    .option('--token <token>', 'with an id: the admin token (default: $HEARTH_TOKEN)');
  outputOptions(show, 'show').action(async (id: string | undefined, options: ShowOptions & OutputOptions & { server?: string; token?: string }) => {
      if (id !== undefined && options.release === undefined) {
        const { releaseShow } = await import('../client/commands.js');
        return releaseShow(id, options);
      }
      const { showRelease } = await import('./release-show.js');
      await showRelease(options);
    });
}
