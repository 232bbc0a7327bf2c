/** Plugin folders written by strangers, fed to `hearth plugin validate --json`. */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addToFirstRelease, plugin, type CliCase } from '../case.js';
import type { CaseFolders } from '../harness.js';

const validate = (f: CaseFolders) => ['plugin', 'validate', join(f.in, 'demo'), '--json'];

function folder(name: string, exit: 0 | 1 | 2, codes: string[], files: (dir: string, f: CaseFolders) => void): CliCase {
  return {
    kind: 'cli',
    face: 'plugin folder',
    name,
    exit,
    codes,
    args: validate,
    setup: (f) => files(plugin(f), f),
  };
}

const write = (path: string, content: string | Buffer) => writeFileSync(path, content);

/** Nine levels of nine-fold aliases: a billion nodes once expanded. */
function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  let prev = 'a';
  for (const c of 'bcdefghi') {
    lines.push(`${c}: &${c} [${Array(9).fill(`*${prev}`).join(',')}]`);
    prev = c;
  }
  return `${lines.join('\n')}\n`;
}

export const pluginFolderCases: CliCase[] = [
  folder('malformed YAML (an unclosed flow list)', 1, ['yaml/syntax'], (d) => write(join(d, 'node_roles.yaml'), 'demo_role: [1, 2\n')),
  folder('malformed JSON metadata (metadata.json cut short)', 1, ['yaml/syntax', 'plugin/metadata-not-yaml'], (d) => {
    rmSync(join(d, 'metadata.yaml'));
    write(join(d, 'metadata.json'), '{"name": "demo", "version": "1.0.0", "releases": [');
  }),
  folder('a file that is not UTF-8 (Latin-1 bytes)', 1, ['file/not-utf8'], (d) => write(join(d, 'volumes.yaml'), Buffer.from('volumes_roles_mapping:\n  caf\xe9: []\n', 'latin1'))),
  folder('NUL bytes in a YAML file', 1, ['file/binary'], (d) => write(join(d, 'components.yaml'), Buffer.from('- name: a\0b\n'))),
  folder('a BOM and CRLF line ends in metadata.yaml (tolerated)', 0, [], (d) => {
    const text = execFileSync('cat', [join(d, 'metadata.yaml')], { encoding: 'utf8' });
    write(join(d, 'metadata.yaml'), `\ufeff${text.replace(/\n/g, '\r\n')}`);
  }),
  folder('tabs used for indentation', 1, ['yaml/syntax'], (d) => write(join(d, 'node_roles.yaml'), 'demo_role:\n\tname: x\n')),
  folder('an alias bomb (a billion nodes once expanded)', 1, ['yaml/too-large'], (d) => write(join(d, 'volumes.yaml'), aliasBomb())),
  folder('a recursive alias (a list containing itself)', 1, ['yaml/recursive-alias'], (d) => write(join(d, 'volumes.yaml'), 'a: &x [1, *x]\n')),
  folder('5,000 nested flow lists', 1, ['yaml/syntax'], (d) => write(join(d, 'components.yaml'), `${'['.repeat(5000)}${']'.repeat(5000)}\n`)),
  folder('2,000 nested block mappings', 1, ['yaml/syntax'], (d) => write(join(d, 'volumes.yaml'), Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n')),
  folder('a 17 MB file', 1, ['file/too-large'], (d) => write(join(d, 'volumes.yaml'), `x: ${'a'.repeat(17 * 1024 * 1024)}\n`)),
  folder('an 8 MB role name (tolerated, in bounded time)', 0, [], (d) => write(join(d, 'node_roles.yaml'), `demo_role:\n  name: ${'a'.repeat(8 * 1024 * 1024)}\n  description: d\n`)),
  folder('duplicate keys in a role (last wins, said)', 0, ['yaml/duplicate-key'], (d) => write(join(d, 'node_roles.yaml'), 'demo_role:\n  name: a\n  name: b\n  description: d\n')),
  folder('__proto__, constructor and prototype as role names', 1, ['schema/required'], (d) =>
    write(join(d, 'node_roles.yaml'), '__proto__:\n  polluted: true\nconstructor:\n  name: c\nprototype: {name: p}\n'),
  ),
  folder('a file named __proto__.yaml beside the plugin files (ignored)', 0, [], (d) => {
    write(join(d, '__proto__.yaml'), 'node_roles:\n  evil_role: {name: e, description: d}\n');
    write(join(d, 'constructor.yaml'), 'x: 1\n');
  }),
  folder('a *_path value climbing out with ..', 1, ['path/outside-plugin'], (d) => addToFirstRelease(d, ['node_roles_path: ../../outside/secret.yaml'])),
  folder('a *_path value that is absolute', 1, ['path/outside-plugin'], (d, f) => addToFirstRelease(d, [`node_roles_path: ${join(f.outside, 'secret.yaml')}`])),
  folder('a *_path glob climbing out', 1, ['path/outside-plugin'], (d) => addToFirstRelease(d, ['volumes_path: ../../outside/*.yaml'])),
  folder("a *_path glob with a range written backwards ('[z-a]*.yaml')", 1, ['path/bad-glob'], (d) => addToFirstRelease(d, ["volumes_path: '[z-a]*.yaml'"])),
  folder('a *_path naming a link that leaves the folder', 1, ['path/outside-plugin'], (d, f) => {
    symlinkSync(join(f.outside, 'secret.yaml'), join(d, 'roles-link.yaml'));
    addToFirstRelease(d, ['node_roles_path: roles-link.yaml']);
  }),
  folder('a plugin file that is a link out of the folder', 1, ['path/outside-plugin'], (d, f) => {
    rmSync(join(d, 'volumes.yaml'));
    symlinkSync(join(f.outside, 'secret.yaml'), join(d, 'volumes.yaml'));
  }),
  folder('metadata.yaml itself a link out of the folder', 1, ['path/outside-plugin'], (d, f) => {
    rmSync(join(d, 'metadata.yaml'));
    symlinkSync(join(f.outside, 'secret.yaml'), join(d, 'metadata.yaml'));
  }),
  folder('a plugin file linked to /dev/zero', 1, ['path/outside-plugin'], (d) => {
    rmSync(join(d, 'volumes.yaml'));
    symlinkSync('/dev/zero', join(d, 'volumes.yaml'));
  }),
  folder('a plugin file that is a FIFO', 1, ['file/not-a-file'], (d) => {
    rmSync(join(d, 'volumes.yaml'));
    execFileSync('mkfifo', [join(d, 'volumes.yaml')]);
  }),
  folder('a *_path text file that is a FIFO (used to hang)', 1, ['file/not-a-file'], (d) => {
    execFileSync('mkfifo', [join(d, 'notes.txt')]);
    addToFirstRelease(d, ['notes_path: notes.txt']);
  }),
  folder('a plugin file hard-linked from outside (read as the plugin\'s own)', 0, [], (d, f) => {
    write(join(f.outside, 'volumes.yaml'), 'volumes_roles_mapping:\n  demo_role:\n    - {allocate_size: min, id: os}\nvolumes: []\n');
    rmSync(join(d, 'volumes.yaml'));
    linkSync(join(f.outside, 'volumes.yaml'), join(d, 'volumes.yaml'));
  }),
  folder('base_release_path files inheriting from each other', 1, ['release/base-cycle'], (d) => {
    write(join(d, 'a.yaml'), 'base_release_path: b.yaml\n');
    write(join(d, 'b.yaml'), 'base_release_path: a.yaml\n');
    addToFirstRelease(d, ['base_release_path: a.yaml']);
  }),
  folder('base_release_path naming its own file', 1, ['release/base-cycle'], (d) => {
    mkdirSync(join(d, 'rel'));
    write(join(d, 'rel', 'self.yaml'), 'base_release_path: rel/self.yaml\n');
    addToFirstRelease(d, ['base_release_path: rel/self.yaml']);
  }),
  folder('numbers where strings belong (name: 12345, version: 1.0)', 1, ['schema/wrong-type'], (d) => {
    const text = execFileSync('cat', [join(d, 'metadata.yaml')], { encoding: 'utf8' });
    write(join(d, 'metadata.yaml'), text.replace(/^name: demo$/m, 'name: 12345').replace(/^version: '1.0.0'$/m, 'version: 1.0'));
  }),
  folder('strings where numbers and booleans belong', 1, ['schema/wrong-type'], (d) =>
    write(join(d, 'node_roles.yaml'), 'demo_role:\n  name: r\n  description: d\n  weight: heavy\n  has_primary: "no way"\n'),
  ),
  folder('metadata.yaml that is a list', 1, ['plugin/metadata-not-mapping'], (d) => write(join(d, 'metadata.yaml'), '- name: demo\n')),
  folder('metadata.yaml that is empty', 1, ['plugin/metadata-not-mapping'], (d) => write(join(d, 'metadata.yaml'), '')),
  folder('deployment tasks that require each other', 1, ['task/dependency-cycle'], (d) =>
    write(
      join(d, 'deployment_tasks.yaml'),
      '- {id: a, type: shell, version: 2.0.0, roles: [demo_role], requires: [b], parameters: {cmd: "true"}}\n- {id: b, type: shell, version: 2.0.0, roles: [demo_role], requires: [a], parameters: {cmd: "true"}}\n',
    ),
  ),
  folder('a task whose roles are a catastrophic /regex/', 1, ['task/unsafe-role-regex'], (d) =>
    write(join(d, 'deployment_tasks.yaml'), '- {id: a, type: shell, version: 2.0.0, roles: "/^(a+)+$/", parameters: {cmd: "true"}}\n'),
  ),
  folder('a restriction condition nested 10,000 brackets deep', 1, ['expression/does-not-parse'], (d) =>
    write(join(d, 'node_roles.yaml'), `demo_role:\n  name: r\n  description: d\n  restrictions:\n    - condition: "${'('.repeat(10000)}true${')'.repeat(10000)}"\n      message: m\n`),
  ),
  folder('a 200 KB restriction condition', 1, ['expression/does-not-parse'], (d) =>
    write(join(d, 'node_roles.yaml'), `demo_role:\n  name: r\n  description: d\n  restrictions:\n    - condition: "${Array(20000).fill("settings:a.b == 'x'").join(' or ')}"\n      message: m\n`),
  ),
];

pluginFolderCases.push(
  folder('a ** glob in a folder linked to itself twice (used to run for a minute)', 0, [], (d) => {
    symlinkSync('.', join(d, 'l1'));
    symlinkSync('.', join(d, 'l2'));
    addToFirstRelease(d, ["volumes_path: '**/volumes.yaml'"]);
  }),
);

// Issue 24: a link anywhere in the folder (the repository is served and the scripts are sent as
// they are on disk) that leads out of it is an error naming the file, however it is hidden.
const build = (f: CaseFolders) => ['plugin', 'build', join(f.in, 'demo'), '--no-hook', '--json'];
pluginFolderCases.push(
  folder("a repository link to / ('repositories/ubuntu/x -> /' served the whole disk)", 1, ['path/link-outside-plugin'], (d) => symlinkSync('/', join(d, 'repositories', 'ubuntu', 'x'))),
  folder('a hidden link deep in the scripts to a file outside', 1, ['path/link-outside-plugin'], (d, f) => {
    mkdirSync(join(d, 'deployment_scripts', '.cache', 'a', 'b'), { recursive: true });
    symlinkSync(join(f.outside, 'secret.yaml'), join(d, 'deployment_scripts', '.cache', 'a', 'b', 'key'));
  }),
  folder("a dangling link to where a server's key will be", 1, ['path/link-outside-plugin'], (d, f) => symlinkSync(join(f.outside, 'data', 'ssh', 'id_ed25519'), join(d, 'deployment_scripts', 'key'))),
  folder('a relative link climbing out (../../outside)', 1, ['path/link-outside-plugin'], (d) => symlinkSync('../../../outside', join(d, 'repositories', 'ubuntu', 'up'))),
  folder('links from one place in the folder to another (tolerated)', 0, [], (d) => {
    symlinkSync('../../deployment_scripts/deploy.sh', join(d, 'repositories', 'ubuntu', 'deploy.sh'));
    symlinkSync('.', join(d, 'repositories', 'self'));
  }),
  { ...folder('building a plugin holding a link to / packs nothing', 1, ['path/link-outside-plugin'], (d) => symlinkSync('/', join(d, 'repositories', 'ubuntu', 'x'))), face: 'package', args: build },
);
