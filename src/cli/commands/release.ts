import type { Command } from 'commander';
import { group } from '../group.js';

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
  release
    .command('show')
    .description('Show a release composed with plugins: roles, components, settings, graphs and conflicts')
    .option('--release <dir-or-file>', 'a release plugin folder or a Fuel release fixture (openstack.yaml)')
    .option('--release-version <version>', 'the release to pick when the source holds several')
    .option('--tasks <dir>', 'a Fuel library task folder (the graphs of a fixture)')
    .option('--plugin <dir>', 'a plugin folder to enable (repeatable)', collect, [])
    .option('--json', 'print JSON')
    .action(async (options: ShowOptions) => {
      const { showRelease } = await import('../../package/release/show.js');
      await showRelease(options);
    });
}
