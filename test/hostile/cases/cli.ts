/**
 * The other offline faces through the real CLI: built packages (`plugin inspect`, `plugin build`),
 * release fixtures and release plugins (`release show`, `components`, `graph`), Heat templates and
 * environments (`template …`), and arguments that make no sense.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { rawTarGz } from '../../package/support.js';
import { plugin, writeTree, type CliCase, type Face } from '../case.js';
import { defaultRelease, type CaseFolders } from '../harness.js';

type Args = (f: CaseFolders) => string[];

function cli(face: Face, name: string, exit: 0 | 1 | 2, args: Args, options: { codes?: string[]; says?: RegExp; where?: 'line' | 'file' | 'none'; files?: Record<string, string | Buffer>; setup?: (f: CaseFolders) => void } = {}): CliCase {
  return {
    kind: 'cli',
    face,
    name,
    exit,
    args,
    ...(options.codes ? { codes: options.codes } : {}),
    ...(options.says ? { says: options.says } : {}),
    ...(options.where ? { where: options.where } : {}),
    setup: (f) => {
      if (options.files) writeTree(f.in, options.files);
      options.setup?.(f);
    },
  };
}

const TOP = 'demo-1.0.0';
const pkg = (entries: Parameters<typeof rawTarGz>[0], end = true) => rawTarGz([{ name: `${TOP}/`, type: '5', mode: 0o755 }, ...entries], end);
const inspect: Args = (f) => ['plugin', 'inspect', join(f.in, 'demo-1.0.0.tar.gz'), '--json'];
const show = (file: string, ...more: string[]): Args => (f) => ['release', 'show', '--release', join(f.in, file), '--json', ...more];

/** The smallest fixture `release show` reads, with `fields` merged into its one release. */
const fixture = (fields: string) => `- pk: 1\n  model: nailgun.release\n  fields:\n    name: Hostile\n    version: newton-10.0\n    operating_system: Ubuntu\n    state: available\n${fields}`;

export const cliCases: CliCase[] = [
  // Built packages
  cli('package', 'a package entry climbing out with ../', 1, inspect, { codes: ['package/unsafe-path'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: `${TOP}/../../outside/evil.yaml`, data: 'x: 1\n' }]) } }),
  cli('package', 'a package entry with an absolute path', 1, inspect, { codes: ['package/unsafe-path'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: '/etc/cron.d/evil', data: 'x' }]) } }),
  cli('package', 'a package holding a symbolic link to /etc/passwd', 1, inspect, { codes: ['package/special-entry'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: `${TOP}/passwd`, type: '2', linkname: '/etc/passwd' }]) } }),
  cli('package', 'a package holding a hard link', 1, inspect, { codes: ['package/special-entry'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: `${TOP}/a`, data: 'a' }, { name: `${TOP}/b`, type: '1', linkname: `${TOP}/a` }]) } }),
  cli('package', 'a package holding a character device', 1, inspect, { codes: ['package/special-entry'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: `${TOP}/zero`, type: '3' }]) } }),
  cli('package', 'a gzip bomb (1 GB of zeros in 1 MB)', 1, inspect, {
    codes: ['package/too-large'],
    where: 'file',
    setup: (f) => {
      // Written as a stream of gzip members so the test itself never holds the gigabyte.
      writeFileSync(join(f.in, 'demo-1.0.0.tar.gz'), bombBytes());
    },
  }),
  cli('package', 'a truncated package', 1, inspect, { codes: ['package/truncated'], where: 'file', files: { 'demo-1.0.0.tar.gz': pkg([{ name: `${TOP}/metadata.yaml`, data: 'x'.repeat(4000) }], false).subarray(0, 300) } }),
  cli('package', 'a file that is not gzip at all', 1, inspect, { codes: ['package/not-gzip'], where: 'file', files: { 'demo-1.0.0.tar.gz': 'name: demo\n' } }),
  cli('package', 'an empty package file', 1, inspect, { codes: ['package/not-gzip'], where: 'file', files: { 'demo-1.0.0.tar.gz': '' } }),
  {
    ...cli('package', 'building a plugin whose files escape the folder writes no package', 1, (f) => ['plugin', 'build', join(f.in, 'demo'), '--no-hook', '--json'], { codes: ['path/outside-plugin'], where: 'file' }),
    setup: (f) => {
      const dir = plugin(f);
      const meta = join(dir, 'metadata.yaml');
      writeTree(dir, { 'metadata.yaml': readText(meta).replace('    repository_path: repositories/ubuntu\n', '    repository_path: repositories/ubuntu\n    volumes_path: ../../outside/secret.yaml\n') });
    },
  },
  // Release fixtures
  cli('release fixture', 'a fixture that is a mapping, not a list of records', 1, show('openstack.yaml'), { codes: ['fixture/not-a-list'], files: { 'openstack.yaml': 'name: x\n' } }),
  cli('release fixture', 'a fixture whose extend names nothing', 1, show('openstack.yaml'), { codes: ['fixture/unknown-extend'], files: { 'openstack.yaml': '- pk: 1\n  extend: 7\n  fields: {}\n' } }),
  cli('release fixture', 'a fixture extending itself through a recursive alias', 1, show('openstack.yaml'), { codes: ['yaml/recursive-alias'], files: { 'openstack.yaml': '- &a\n  pk: 1\n  extend: *a\n  fields: {}\n' } }),
  cli('release fixture', 'a fixture with Jinja markup left in', 1, show('openstack.yaml'), { codes: ['fixture/template-markup'], files: { 'openstack.yaml': '{% for r in releases %}\n- pk: {{ r }}\n{% endfor %}\n' } }),
  cli('release fixture', 'roles_metadata that is a list and a version that is a number', 1, show('openstack.yaml'), {
    codes: ['release/wrong-type'],
    files: { 'openstack.yaml': '- pk: 1\n  fields: {name: X, version: 10.0, operating_system: Ubuntu, roles_metadata: [1, 2]}\n' },
  }),
  cli('release fixture', 'asking for a release version the fixture lacks', 1, show('openstack.yaml', '--release-version', 'mitaka-9.0'), { codes: ['release/no-such-version'], where: 'none', files: { 'openstack.yaml': fixture('') } }),
  // Release plugins
  cli('release plugin', 'release show with a plugin whose metadata.yaml is empty', 1, (f) => ['release', 'show', '--release', defaultRelease, '--plugin', join(f.in, 'demo'), '--json'], {
    codes: ['plugin/metadata-not-mapping'],
    setup: (f) => {
      const dir = plugin(f);
      writeFileSync(join(dir, 'metadata.yaml'), '');
    },
  }),
  cli('release plugin', 'a release plugin folder whose base_release_path files inherit in a circle', 1, (f) => ['release', 'show', '--release', join(f.in, 'rel'), '--json'], {
    codes: ['release/base-cycle'],
    setup: (f) => {
      const dir = plugin(f, {}, 'rel', true);
      writeTree(dir, { 'a.yaml': 'base_release_path: b.yaml\n', 'b.yaml': 'base_release_path: a.yaml\n' });
      writeTree(dir, { 'metadata.yaml': readText(join(dir, 'metadata.yaml')).replace(/(\n {2}- [^\n]*\n)/, '$1    base_release_path: a.yaml\n') });
    },
  }),
  cli('components', 'a selection of 8,000 unknown components (100 KB)', 1, () => ['components', 'check', '--release', defaultRelease, '--select', Array.from({ length: 8_000 }, (_, i) => `network:x${i}`).join(','), '--json'], {
    codes: ['component/unknown'],
    where: 'none',
  }),
  cli('components', 'wildcards and odd names in a selection', 1, () => ['components', 'check', '--release', defaultRelease, '--select', 'hypervisor:*,*:*,__proto__,constructor,::,hypervisor:', '--json'], { codes: ['component/unknown'], where: 'none' }),
  cli('graph', 'graph over a tasks folder whose tasks form a cycle', 1, (f) => ['graph', '--tasks', join(f.in, 'library'), '--nodes', 'controller:1', '--format', 'summary', '--json'], {
    says: /cycle/,
    files: {
      'library/deployment/tasks.yaml':
        '- {id: a, type: puppet, groups: [primary-controller], requires: [b], parameters: {puppet_manifest: a.pp, puppet_modules: m, timeout: 10}}\n- {id: b, type: puppet, groups: [primary-controller], requires: [a], parameters: {puppet_manifest: b.pp, puppet_modules: m, timeout: 10}}\n',
    },
  }),
  cli('graph', 'graph with a nodes file that is an alias bomb', 1, (f) => ['graph', '--release', defaultRelease, '--nodes', join(f.in, 'nodes.yaml')], { codes: ['yaml/too-large'], files: { 'nodes.yaml': aliasBombText() } }),
  // Heat templates and environments
  cli('template', 'a template that is not YAML', 1, (f) => ['template', 'capabilities', '-f', join(f.in, 'bad.yaml'), '--json'], { codes: ['yaml/syntax'], files: { 'bad.yaml': 'heat_template_version: [\n' } }),
  cli('environment', 'environments whose type aliases form a loop', 1, (f) => ['template', 'resolve', '-e', join(f.in, 'env.yaml'), '--root', f.in, '--json'], {
    says: /loop|circle|cycle/i,
    files: { 'env.yaml': 'resource_registry:\n  OS::A: OS::B\n  OS::B: OS::C\n  OS::C: OS::A\n' },
  }),
  cli('environment', 'two templates nesting each other', 1, (f) => ['template', 'resolve', '-e', join(f.in, 'env.yaml'), '--root', f.in, '--json'], {
    codes: ['template/loop'],
    files: {
      'env.yaml': 'resource_registry:\n  OS::A: a.yaml\n',
      'a.yaml': 'heat_template_version: 2016-10-14\nresources:\n  b:\n    type: b.yaml\n',
      'b.yaml': 'heat_template_version: 2016-10-14\nresources:\n  a:\n    type: a.yaml\n',
    },
  }),
  // Arguments
  cli('CLI arguments', 'an unknown option', 2, () => ['plugin', 'validate', '.', '--frobnicate'], { says: /unknown option/ }),
  cli('CLI arguments', 'a missing argument', 2, () => ['plugin', 'validate'], { says: /missing required argument/ }),
  cli('CLI arguments', 'a folder that does not exist', 2, (f) => ['plugin', 'validate', join(f.in, 'nothing-here')], { says: /not a folder|does not exist|no such/i }),
  cli('CLI arguments', 'a 100 KB path argument', 2, (f) => ['plugin', 'validate', join(f.in, 'x'.repeat(100_000))], { says: /./ }),
  cli('CLI arguments', 'plugin create with a name climbing out (../../outside/evil)', 2, (f) => ['plugin', 'create', '../outside/evil', '--dir', f.in], { says: /name/i }),
  cli('CLI arguments', 'plugin create into a folder that does not exist', 2, (f) => ['plugin', 'create', 'demo', '--dir', join(f.in, 'no', 'such')], { says: /./ }),
  cli('CLI arguments', 'an unknown package version', 2, (f) => ['plugin', 'create', 'demo', '--package-version', '99.0.0', '--dir', f.in], { says: /99\.0\.0|package version/i }),
  cli('CLI arguments', 'an unknown command', 2, () => ['frobnicate'], { says: /unknown command/ }),
  cli('CLI arguments', 'a graph type that does not exist (../../etc)', 1, () => ['graph', '--release', defaultRelease, '--nodes', 'controller:1', '--type', '../../etc'], { says: /graph\/unknown-type/ }),
  cli('CLI arguments', 'a nodes spec with a negative and a huge count', 2, () => ['graph', '--release', defaultRelease, '--nodes', 'controller:-1,compute:99999999999'], { says: /./ }),
];

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/** 1 GiB of zero bytes as many small gzip members: valid gzip, tiny on disk, huge unpacked. */
function bombBytes(): Buffer {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array(16).fill(member));
}

function aliasBombText(): string {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  let prev = 'a';
  for (const c of 'bcdefghi') {
    lines.push(`${c}: &${c} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    prev = c;
  }
  return `${lines.join('\n')}\n`;
}
