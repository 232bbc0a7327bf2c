/**
 * metadata.yaml: its schema per package version, the Fuel versions it claims, and its release
 * records, both kinds: extensions of an existing release (`os`, `version`, `mode`, the two
 * folders) and release definitions (`is_release: true`, release-as-a-plugin).
 */
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { PACKAGE_VERSIONS, type LoadedPlugin } from '../plugin/model.js';
import { checkSchema } from './schemas.js';
import { checkKnownKeys } from './keys.js';
import { isMapping, type ValidationContext } from './context.js';
import { parseReleaseVersion } from '../../core/versions/release-version.js';

/** The oldest Fuel each package version works with (the reference builder's "basic version"). */
// 5.0.0 runs on Fuel 8.0 with the experimental task-based orchestrator (plugins-v5: "compatible
// with Fuel v8.0 in experimental mode"); tasks.ts warns about that, and Fuel 7.0 stays an error.
const BASIC_FUEL: Record<string, string> = { '1.0.0': '6.0', '2.0.0': '6.1', '3.0.0': '7.0', '4.0.0': '8.0', '5.0.0': '8.0' };
const STRICT_VERSION = /^(\d+)\.(\d+)(?:\.(\d+))?(?:[ab](\d+))?$/;

const METADATA_KEYS = [
  'name', 'title', 'version', 'package_version', 'description', 'fuel_version', 'releases', 'licenses', 'authors',
  'homepage', 'groups', 'is_hotpluggable', 'build_version',
];
const PLUGIN_FILE_NAMES = ['environment_config', 'tasks', 'deployment_tasks', 'node_roles', 'volumes', 'network_roles', 'components', 'node_config', 'nic_config', 'bond_config'];
/** Extension records: the classic keys, plus (5.0.0) per-release files and folders. */
const EXTENSION_KEYS = ['os', 'version', 'mode', 'deployment_scripts_path', 'repository_path', 'conf_path', 'graphs', ...PLUGIN_FILE_NAMES.map((n) => `${n}_path`)];
const RELEASE_KEYS = [
  'release_name', 'name', 'description', 'operating_system', 'os', 'version', 'is_release', 'base_release_path',
  'networks_path', 'volumes_path', 'roles_path', 'network_roles_path', 'components_path', 'attributes_path',
  'vmware_attributes_path', 'node_attributes_path', 'nic_attributes_path', 'bond_attributes_path',
  'deployment_scripts_path', 'repository_path', 'deployment_tasks_path', 'graphs', 'modes', 'state', 'extensions',
  'modes_metadata', 'required_component_types', 'roles_metadata', 'components_metadata', 'tags_metadata',
];

function strictVersion(text: string): number[] | undefined {
  const m = STRICT_VERSION.exec(text);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** False when the package version is not one Hearth knows: the rest of validation cannot proceed. */
export function checkPackageVersion(ctx: ValidationContext): boolean {
  const { plugin, findings } = ctx;
  const raw = plugin.metadata.package_version;
  if ((PACKAGE_VERSIONS as readonly string[]).includes(String(raw)) && typeof raw === 'string') return true;
  const at = keyPositionOf(plugin.metadata, 'package_version') ?? { file: 'metadata.yaml', line: 1, column: 1 };
  if (raw === undefined || raw === null) {
    findings.push(finding('metadata/missing-package-version', 'error', 'metadata.yaml has no package_version, so its format is unknown', at, `add package_version: '${PACKAGE_VERSIONS[PACKAGE_VERSIONS.length - 1]}' (or the version the plugin was written for)`));
  } else if ((PACKAGE_VERSIONS as readonly string[]).includes(String(raw))) {
    findings.push(finding('schema/wrong-type', 'error', `package_version should be text, but it is ${JSON.stringify(raw)}`, positionOf(plugin.metadata, 'package_version') ?? at, `quote it: package_version: '${String(raw)}'`));
  } else {
    findings.push(
      finding('metadata/unknown-package-version', 'error', `package_version '${String(raw)}' is not a Fuel plugin format; known: ${PACKAGE_VERSIONS.join(', ')}`, positionOf(plugin.metadata, 'package_version') ?? at, 'use one of the listed versions'),
    );
  }
  return false;
}

export function checkMetadata(ctx: ValidationContext): void {
  const { plugin, findings, major } = ctx;
  const metadata = plugin.metadata;
  findings.push(...metadataSchemaFindings(plugin, checkSchema(`metadata-${plugin.packageVersion}.json`, metadata, { file: 'metadata.yaml' })));
  checkKnownKeys(ctx, metadata, METADATA_KEYS, 'metadata.yaml');
  checkFuelVersions(ctx);
  if (!Array.isArray(metadata.releases)) return;
  const records = plugin.releases;
  const releases = records.filter((r) => r.isRelease);
  const extensions = records.filter((r) => !r.isRelease);
  for (const record of records) {
    if (!record.isRelease) {
      checkReleaseKeysInExtension(ctx, record.raw, record.index);
      checkKnownKeys(ctx, record.raw, EXTENSION_KEYS, `releases[${record.index}]`, (k) => k in EXTENSION_EQUIVALENT);
    }
    for (const key of ['deployment_scripts_path', 'repository_path']) {
      if (record.raw[key] === undefined) {
        findings.push(
          finding(
            'release/missing-folder-key',
            'error',
            `releases[${record.index}] has no ${key}; Fuel needs both deployment_scripts_path and repository_path for every release`,
            positionOf(record.raw) ?? positionOf(metadata, 'releases'),
            `add ${key}: ${key === 'repository_path' ? 'repositories/ubuntu' : 'deployment_scripts/'}`,
          ),
        );
      }
    }
  }
  if (releases.length === 0) return;
  if (major < 5) {
    for (const record of releases) {
      findings.push(
        finding('release/needs-package-5', 'error', `releases[${record.index}] has is_release: true, but only package version 5.0.0 can define releases`, keyPositionOf(record.raw, 'is_release'), "set package_version: '5.0.0', or drop is_release to extend an existing release"),
      );
    }
    return;
  }
  if (extensions.length > 0) {
    findings.push(
      finding(
        'plugin/mixes-releases-and-extensions',
        'error',
        `the plugin both defines releases (${releases.map((r) => `releases[${r.index}]`).join(', ')}) and extends existing ones (${extensions.map((r) => `releases[${r.index}]`).join(', ')}); a plugin may do one or the other`,
        positionOf(extensions[0].raw) ?? positionOf(metadata, 'releases'),
        'move the release definitions and the extensions into two plugins',
      ),
    );
  }
  checkReleasePlugin(ctx);
}

function checkFuelVersions(ctx: ValidationContext): void {
  const { plugin, findings } = ctx;
  const basic = BASIC_FUEL[plugin.packageVersion];
  const basicNumbers = strictVersion(basic)!;
  const tooOld = (numbers: number[]) => {
    const firstDifferent = numbers.findIndex((n, k) => n !== (basicNumbers[k] ?? 0));
    return firstDifferent >= 0 && numbers[firstDifferent] < (basicNumbers[firstDifferent] ?? 0);
  };
  // A releases record names its Fuel release in its version (`2015.1.0-7.0`): one for a Fuel the
  // package format cannot work with is the same mistake as that Fuel in fuel_version (issue 28).
  for (const record of plugin.releases) {
    if (record.isRelease || typeof record.raw.version !== 'string') continue;
    const fuel = parseReleaseVersion(record.raw.version)?.fuel;
    if (!fuel || !tooOld(fuel)) continue;
    findings.push(
      finding(
        'metadata/fuel-version-too-old',
        'error',
        `releases[${record.index}] is for Fuel ${fuel.join('.')} (version ${record.raw.version}), and package format ${plugin.packageVersion} does not work with Fuel ${fuel.join('.')}: it needs Fuel ${basic} or newer`,
        positionOf(record.raw, 'version'),
        `remove this record, or use an older package_version`,
      ),
    );
  }
  const list = plugin.metadata.fuel_version;
  if (!Array.isArray(list)) return;
  list.forEach((entry, i) => {
    if (typeof entry !== 'string') return; // the schema says so
    const at = positionOf(list, i);
    const numbers = strictVersion(entry);
    if (!numbers) {
      findings.push(finding('metadata/bad-fuel-version', 'error', `fuel_version '${entry}' is not a version number such as 9.0 or 9.0.1`, at, 'write the Fuel release as two or three numbers, e.g. 9.0'));
      return;
    }
    const firstDifferent = numbers.findIndex((n, k) => n !== basicNumbers[k]);
    if (firstDifferent >= 0 && numbers[firstDifferent] < basicNumbers[firstDifferent]) {
      findings.push(
        finding(
          'metadata/fuel-version-too-old',
          'error',
          `package format ${plugin.packageVersion} does not work with Fuel ${entry}: it needs Fuel ${basic} or newer`,
          at,
          `remove ${entry} from fuel_version, or use an older package_version`,
        ),
      );
    }
  });
}

function checkReleasePlugin(ctx: ValidationContext): void {
  const { plugin, findings } = ctx;
  const metadata = plugin.metadata;
  const releases = plugin.releases.filter((r) => r.isRelease);
  if (releases.length > 1) {
    findings.push(
      finding('release/more-than-one', 'warning', `the plugin defines ${releases.length} releases; one release per plugin keeps updates and upgrades simple`, positionOf(metadata, 'releases'), 'split the releases into one plugin each'),
    );
  }
  if (metadata.is_hotpluggable !== undefined) {
    findings.push(finding('release/hotpluggable-ignored', 'warning', 'is_hotpluggable has no meaning for a plugin that defines releases; Fuel ignores it', keyPositionOf(metadata, 'is_hotpluggable'), 'remove is_hotpluggable'));
  }
  if (metadata.fuel_version !== undefined) {
    findings.push(finding('release/fuel-version-deprecated', 'warning', 'fuel_version is deprecated: no Fuel logic reads it', keyPositionOf(metadata, 'fuel_version'), 'remove fuel_version'));
  }
  if ('tasks' in plugin.files) {
    findings.push(finding('release/tasks-yaml', 'warning', 'tasks.yaml is no longer supported; a release takes its tasks from its graphs', { file: plugin.filePaths.tasks ?? 'tasks.yaml', line: 1, column: 1 }, 'move the tasks into a graph and delete tasks.yaml'));
  }
  for (const record of releases) {
    const label = `releases[${record.index}]`;
    const at = positionOf(record.raw) ?? positionOf(metadata, 'releases');
    checkKnownKeys(ctx, record.raw, RELEASE_KEYS, label);
    findings.push(...checkSchema('release-record.json', record.resolved, { file: 'metadata.yaml', basePath: ['releases', record.index] }));
    const name = record.raw.release_name;
    if (typeof name !== 'string' || name === '') {
      const alias = typeof record.raw.name === 'string' ? record.raw.name : undefined;
      findings.push(
        finding(
          'release/missing-release-name',
          'error',
          `${label} has is_release: true but no release_name${alias ? ` (it has name: '${alias}', which is not read as the release name)` : ''}`,
          at,
          alias ? `rename 'name' to 'release_name'` : 'add release_name: <the name users pick in the wizard>',
        ),
      );
    } else if (sameName(name) !== sameName(plugin.name)) {
      // A plugin's name is lower case, a release's need not be: 'example-release' and the design's 'ExampleRelease' are one name.
      findings.push(finding('release/name-differs', 'warning', `the plugin is named '${plugin.name}' but its release '${name}'`, keyPositionOf(record.raw, 'release_name'), 'give the plugin and the release the same name'));
    }
    if (record.raw.operating_system === undefined && record.raw.os === undefined) {
      findings.push(finding('release/missing-operating-system', 'error', `${label} has no operating_system (or its alias os)`, at, 'add operating_system: ubuntu (or centos)'));
    }
    if (record.raw.description === undefined) {
      findings.push(finding('release/missing-description', 'error', `${label} has no description`, at, 'add description: <what this release deploys>'));
    }
    for (const key of ['modes', 'mode']) {
      // Inherited through base_release_path counts as written here: the release still carries it.
      const inherited = record.raw[key] === undefined && record.resolved[key] !== undefined;
      if (record.raw[key] !== undefined || inherited) {
        const from = inherited ? keyPositionOf(record.resolved, key) : undefined;
        const base = typeof record.raw.base_release_path === 'string' ? record.raw.base_release_path : 'the base release';
        findings.push(
          finding(
            'release/modes-deprecated',
            'warning',
            `'${key}'${inherited ? ` (inherited by ${label} from ${from?.file ?? base})` : ''} is deprecated and will be removed; Fuel releases since 6.1 ignore it`,
            from ?? keyPositionOf(record.raw, key),
            inherited ? `remove '${key}' from ${from?.file ?? base}` : `remove '${key}'`,
          ),
        );
      }
    }
    if (!isMapping(record.resolved.roles) && !isMapping(record.resolved.roles_metadata)) {
      findings.push(finding('release/no-roles', 'warning', `${label} defines no node roles (roles_path)`, at, 'add roles_path: <file of node roles>'));
    }
  }
}

/**
 * The schema's findings on metadata.yaml itself, said the way an author of the design's example
 * (release-as-a-plugin: `name: 'ExampleRelease'` and "..." for the other fields) can act on: the
 * missing top-level keys in one finding with what to write, and the exact lower-case name.
 */
function metadataSchemaFindings(plugin: LoadedPlugin, found: Finding[]): Finding[] {
  const rootMissing = found.filter((f) => f.code === 'schema/required' && f.message.startsWith('the file is missing'));
  const out = found.filter((f) => !rootMissing.includes(f));
  if (rootMissing.length > 1) {
    const keys = rootMissing.map((f) => /'([^']+)'/.exec(f.message)?.[1]).filter((k): k is string => k !== undefined);
    out.push(
      finding(
        'schema/required',
        'error',
        `metadata.yaml is missing the required keys ${keys.map((k) => `'${k}'`).join(', ')}${plugin.isReleasePlugin ? ' (a release plugin needs them too: Fuel installs it as a plugin)' : ''}`,
        rootMissing[0],
        `add ${keys.map((k) => `${k}: ${METADATA_EXAMPLES[k] ?? '...'}`).join('; ')}`,
      ),
    );
  } else out.push(...rootMissing);
  const name = plugin.metadata.name;
  return out.map((f) => {
    if (f.code !== 'schema/bad-format' || !f.message.startsWith('name is ') || typeof name !== 'string') return f;
    const fixed = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
    if (fixed === '') return f;
    const release = plugin.releases.find((r) => r.isRelease && typeof r.raw.release_name === 'string');
    return { ...f, hint: `write name: '${fixed}' (a plugin's name has only a-z, 0-9, '_' and '-')${release ? `; release_name may keep '${String(release.raw.release_name)}', which users see` : ''}` };
  });
}

const sameName = (name: string): string => name.toLowerCase().replace(/[-_\s]+/g, '');

const METADATA_EXAMPLES: Record<string, string> = {
  title: "'<shown to users>'",
  description: "'<what it deploys>'",
  fuel_version: "['9.0']",
  licenses: "['Apache License Version 2.0']",
  authors: "['<you>']",
  homepage: "'https://<project page>'",
  groups: '[]',
  is_hotpluggable: 'false',
};

/**
 * Keys of a release definition (release-as-a-plugin) that an extension record cannot use, and
 * the extension's key for the same file where there is one (plugins-v5 variant 2).
 */
const EXTENSION_EQUIVALENT: Record<string, string | undefined> = {
  attributes_path: 'environment_config_path',
  roles_path: 'node_roles_path',
  node_attributes_path: 'node_config_path',
  nic_attributes_path: 'nic_config_path',
  bond_attributes_path: 'bond_config_path',
  networks_path: undefined,
  vmware_attributes_path: undefined,
  base_release_path: undefined,
};

/**
 * `attributes_path`, `networks_path`... in a record without is_release: the design says an
 * extension's keys other than its folders and graphs are ignored; Hearth reads the plugin-file
 * keys (`environment_config_path`...) and names the one meant, rather than a wrong near miss.
 */
function checkReleaseKeysInExtension(ctx: ValidationContext, raw: Record<string, unknown>, index: number): void {
  for (const key of Object.keys(raw)) {
    if (!(key in EXTENSION_EQUIVALENT)) continue;
    const instead = EXTENSION_EQUIVALENT[key];
    ctx.findings.push(
      finding(
        'release/release-key-in-extension',
        'warning',
        `releases[${index}] extends a release (no is_release: true), and '${key}' is a key of a release definition, so neither Fuel nor Hearth reads it here`,
        keyPositionOf(raw, key),
        instead
          ? `rename it to '${instead}' (the extension's key for the same file, package 5.0.0)`
          : `an extension cannot change this; define a release of your own (is_release: true, release_name, ...) or drop '${key}'`,
      ),
    );
  }
}
