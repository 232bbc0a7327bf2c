/**
 * Hardening II (issue 20): what an attacker and a crash still broke after the first catalog. Each
 * case here failed before its fix; docs/reliability.md lists them with what Hearth does now.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateYaql, parseYaql } from '../../../src/core/yaql/index.js';
import { append, plugin, type CliCase, type HostileCase, type LibraryCase } from '../case.js';
import { defaultRelease, type CaseFolders } from '../harness.js';

/** A task of the skeleton plugin `demo` (role demo_role) run only when `yaqlExp` holds. */
function taskWithCondition(f: CaseFolders, yaqlExp: string): void {
  const dir = plugin(f);
  append(
    join(dir, 'deployment_tasks.yaml'),
    `- id: demo-conditional\n  type: shell\n  version: 2.1.0\n  roles: [demo_role]\n  requires: [post_deployment_start]\n  required_for: [post_deployment_end]\n  condition:\n    yaql_exp: ${JSON.stringify(yaqlExp)}\n  parameters:\n    cmd: 'true'\n    timeout: 180\n`,
  );
}

const CATASTROPHIC = `'${'a'.repeat(40)}!'.matches('^(a+)+$')`;

const yaqlWork = (text: string, variables: Record<string, unknown> = {}) => {
  const parsed = parseYaql(text);
  if (!parsed.ast) return parsed.findings;
  const result = evaluateYaql(parsed.ast, { data: {}, variables });
  return result.ok ? [] : [result.error];
};
const list = Array.from({ length: 400 }, (_, i) => ({ uid: String(i), name: `node-${i}` }));

const library = (face: LibraryCase['face'], name: string, codes: string[], run: LibraryCase['run']): LibraryCase => ({ kind: 'library', face, name, codes, run, unplaced: true });

export const hardeningCases: HostileCase[] = [
  // Item 1: regexes in YAQL run on a linear-time engine; every evaluation has a work budget.
  {
    kind: 'cli',
    face: 'graph',
    name: "a task condition matching '^(a+)+$' against 40 a's (used to block for hours)",
    setup: (f) => taskWithCondition(f, CATASTROPHIC),
    args: (f) => ['graph', '--release', defaultRelease, '--plugin', join(f.in, 'demo'), '--nodes', 'controller:1,demo_role:1', '--format', 'summary', '--json'],
    exit: 0,
  } satisfies CliCase,
  {
    kind: 'cli',
    face: 'plugin folder',
    name: 'a task condition whose regex uses a back-reference (RE2 cannot run it)',
    setup: (f) => taskWithCondition(f, "$.uid.matches('(a)\\1')"),
    args: (f) => ['plugin', 'validate', join(f.in, 'demo'), '--json'],
    exit: 1,
    codes: ['yaql/bad-regex'],
  } satisfies CliCase,
  library('expression', "a YAQL string repeated to 500 MB ('a' * 500000000)", ['yaql/too-much-work'], () => yaqlWork("'a' * 500000000")),
  library('expression', 'YAQL lambdas nested three deep over 400 elements (64 million calls)', ['yaql/too-much-work'], () => yaqlWork('$a.select($a.select($a.select($.uid))).len()', { a: list })),
  library('expression', 'a YAQL list of lists flattened to 64 million items', ['yaql/too-much-work'], () => yaqlWork('$a.select($a.select($a)).flatten().flatten().len()', { a: list })),
  // Item 9: one strict pattern for plugin names and versions, everywhere.
  {
    kind: 'cli',
    face: 'plugin folder',
    name: "a plugin version '0/../../clusters/2' (the web UI's Uninstall became DELETE /clusters/2)",
    setup: (f) => {
      const meta = join(plugin(f), 'metadata.yaml');
      writeFileSync(meta, readFileSync(meta, 'utf8').replace(/^version: .*$/m, "version: '0/../../clusters/2'"));
    },
    args: (f) => ['plugin', 'validate', join(f.in, 'demo'), '--json'],
    exit: 1,
    codes: ['schema/bad-format'],
  } satisfies CliCase,
  // Item 14: template walks stay in the tree given and are bounded.
  {
    kind: 'cli',
    face: 'template',
    name: 'template find -r over a tree with links to /proc and to a folder outside (used to walk the machine for minutes)',
    setup: (f) => {
      mkdirSync(join(f.in, 'tree', 'nested'), { recursive: true });
      writeFileSync(join(f.in, 'tree', 'server.yaml'), 'heat_template_version: 2016-10-14\nresources: {}\n');
      symlinkSync('/proc', join(f.in, 'tree', 'proc'));
      symlinkSync(f.outside, join(f.in, 'tree', 'nested', 'outside'));
      symlinkSync(join(f.outside, 'secret.yaml'), join(f.in, 'tree', 'secret.yaml'));
    },
    args: (f) => ['template', 'find', '-r', join(f.in, 'tree'), '--json'],
    exit: 0,
    codes: ['template/link-outside'],
    where: 'file',
  } satisfies CliCase,
  {
    kind: 'cli',
    face: 'template',
    name: 'template find -r / (stops after 20,000 entries)',
    args: () => ['template', 'find', '-r', '/', '--json'],
    exit: 1,
    codes: ['template/tree-too-large'],
    where: 'file',
  } satisfies CliCase,
  // Item 7: schema checks and spelling suggestions bounded on huge mappings.
  {
    kind: 'cli',
    face: 'plugin folder',
    name: 'environment_config.yaml with 100,000 attributes (used to take 148 s and make 100,002 findings)',
    setup: (f) => {
      const dir = plugin(f);
      writeFileSync(join(dir, 'environment_config.yaml'), `attributes:\n${Array.from({ length: 100_000 }, (_, i) => ` ${i.toString(16)}: 1\n`).join('')}`);
    },
    args: (f) => ['plugin', 'validate', join(f.in, 'demo'), '--json'],
    exit: 1,
    codes: ['schema/too-many-entries'],
  } satisfies CliCase,
];
