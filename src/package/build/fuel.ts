/**
 * Packages made by Fuel Plugin Builder, read as Hearth reads its own: a 1.0.0 plugin's `.fp` (a
 * tar.gz whose one folder is `<name>-<version>/`) and a 2.0.0+ plugin's RPM (its files under
 * /var/www/nailgun/plugins/<name>-<X.Y>/). Neither carries hearth-package.json, so the manifest is
 * made from what was read: metadata.yaml names the plugin and each file's sha256 is the one just
 * computed. Fuel's own checksums.sha1, when the package has one, must match the files.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { isPluginName, isPluginVersion } from '../../core/names/index.js';
import { parseYaml } from '../yaml/index.js';
import { MANIFEST_FORMAT, manifestReleases, type PackageManifest } from './manifest.js';
import type { StreamedEntry } from './tar-stream.js';

export type FuelFormat = 'fp' | 'rpm';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The metadata.yaml at the top of the entries, parsed; undefined when absent, too large or not a mapping. */
export function topMetadata(entries: readonly StreamedEntry[], top: string): Record<string, unknown> | undefined {
  const entry = entries.find((e) => e.type === 'file' && e.path === `${top}/metadata.yaml`);
  if (!entry?.data) return undefined;
  const parsed = parseYaml(entry.data.toString('utf8'), 'metadata.yaml').value;
  return isRecord(parsed) ? parsed : undefined;
}

/** A Fuel 6.x `.fp`: a tar.gz with no Hearth manifest whose metadata.yaml says package_version 1.0.0 (the only version fpb packed so). */
export function isFuelFp(entries: readonly StreamedEntry[], top: string): boolean {
  return String(topMetadata(entries, top)?.package_version ?? '') === '1.0.0';
}

/**
 * Check a Fuel package's entries (already read; paths start with its one top folder) and make its
 * manifest. `rpm` names the RPM (`name-version-release`) for the findings.
 */
export function verifyFuelEntries(entries: readonly StreamedEntry[], shown: string, format: FuelFormat, rpm?: string): { manifest?: PackageManifest; top?: string; findings: Finding[] } {
  const findings: Finding[] = [];
  const fail = (code: string, message: string, entry?: string, hint?: string): { findings: Finding[] } => {
    findings.push(finding(code, 'error', `${shown}: ${message}`, { file: entry ? `${shown}:${entry}` : shown }, hint));
    return { findings };
  };
  const what = format === 'rpm' ? `the RPM${rpm ? ` ${rpm}` : ''}` : 'the .fp package';
  const tops = new Set(entries.map((e) => e.path.split('/')[0]));
  if (tops.size === 0) return fail('package/layout', `${what} holds no plugin under /var/www/nailgun/plugins/`, undefined, 'This is not a Fuel plugin RPM; Fuel plugin RPMs are made by Fuel Plugin Builder (fpb --build).');
  if (tops.size > 1) return fail('package/layout', `${what} has ${tops.size} top entries; a Fuel package holds one folder <name>-<version>/`);
  const [top] = tops;
  const meta = topMetadata(entries, top);
  if (!meta) return fail('package/missing-file', `${what} has no readable metadata.yaml in ${top}/`, `${top}/metadata.yaml`);
  const { name } = meta;
  const version = meta.version === undefined || meta.version === null ? undefined : String(meta.version);
  const packageVersion = meta.package_version === undefined || meta.package_version === null ? '' : String(meta.package_version);
  if (!isPluginName(name)) return fail('package/manifest-mismatch', `metadata.yaml's name ${JSON.stringify(name)} is not a valid plugin name`, 'metadata.yaml');
  if (!version || !isPluginVersion(version)) return fail('package/manifest-mismatch', `metadata.yaml's version ${JSON.stringify(meta.version)} is not a plain version string`, 'metadata.yaml');
  // fpb named the .fp's folder <name>-<version> and the RPM's <name>-<major.minor>.
  const short = version.split('.').slice(0, 2).join('.');
  const expected = format === 'fp' ? [`${name}-${version}`] : [`${name}-${short}`, `${name}-${version}`];
  if (!expected.includes(top)) return fail('package/layout', `the plugin's folder is '${top}' but metadata.yaml names ${name} ${version} (expected ${expected.join(' or ')})`);
  const files: Record<string, string> = {};
  for (const e of entries) if (e.type === 'file') files[e.path.slice(top.length + 1)] = e.sha256;
  const manifest: PackageManifest = {
    format: MANIFEST_FORMAT,
    name,
    version,
    package_version: packageVersion,
    releases: manifestReleases(meta),
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    builder: { name: 'fuel-plugin-builder', version: '' },
    fuel: { format, ...(rpm ? { rpm } : {}) },
  };
  return { manifest, top, findings };
}

const sha1Of = (path: string): Promise<string> =>
  new Promise((done, fail) => {
    const hash = createHash('sha1');
    createReadStream(path)
      .on('data', (d) => hash.update(d))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });

/**
 * Fuel's checksums.sha1 (`<sha1> <path>` a line, every packaged file but itself) against the
 * unpacked folder `dir`: a changed or missing file is an error, a file it does not list a warning.
 */
export async function checkFuelChecksums(dir: string, manifest: PackageManifest, shown: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const where = (path: string) => ({ file: `${shown}:${path}` });
  if (!('checksums.sha1' in manifest.files)) {
    return [finding('package/fuel-no-checksums', 'info', `${shown}: a Fuel package without checksums.sha1: its files are taken as they are`, { file: shown })];
  }
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(join(dir, 'checksums.sha1'), 'utf8');
  const listed = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const m = /^([0-9a-f]{40})\s+\*?(.+)$/.exec(line.trim());
    if (!m) {
      findings.push(finding('package/fuel-checksums', 'error', `${shown}: checksums.sha1 line ${i + 1} is not "<sha1> <path>"`, { file: `${shown}:checksums.sha1`, line: i + 1 }));
      continue;
    }
    listed.set(m[2].replace(/^\.\//, ''), m[1]);
  }
  for (const [path, digest] of listed) {
    if (!(path in manifest.files)) {
      findings.push(finding('package/missing-file', 'error', `${shown}: ${path} is listed in checksums.sha1 but missing from the package`, where(path), 'Get the package again from its source.'));
    } else if ((await sha1Of(join(dir, ...path.split('/')))) !== digest) {
      findings.push(finding('package/checksum-mismatch', 'error', `${shown}: ${path} does not match its sha1 in checksums.sha1: the file was changed after the build`, where(path), 'Get the package again from its source.'));
    }
  }
  const unlisted = Object.keys(manifest.files).filter((p) => p !== 'checksums.sha1' && !listed.has(p));
  if (unlisted.length) findings.push(finding('package/fuel-unlisted', 'warning', `${shown}: ${unlisted.length} file(s) not in checksums.sha1: ${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? ', …' : ''}`, { file: `${shown}:checksums.sha1` }));
  return findings;
}
