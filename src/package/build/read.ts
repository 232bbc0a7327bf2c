/**
 * The one way Hearth opens a package, for `hearth plugin inspect` and for the server's install:
 * the archive is read as a stream (tar-stream.ts), each file written into a fresh temporary folder
 * as it arrives; then the tar shape, manifest, every checksum, no missing or extra file are
 * checked, and a package that fails any of them is removed again. Nothing is kept in memory but
 * the manifest and metadata.yaml.
 *
 * What Fuel Plugin Builder made is read too (fuel.ts), told apart by its first bytes: an RPM
 * (cpio-stream.ts) or a 1.0.0 plugin's `.fp`, a tar.gz without Hearth's manifest.
 */
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { finding, hasErrors, type Finding } from '../../core/findings.js';
import { parseYaml } from '../yaml/index.js';
import { MANIFEST_FILE } from './files.js';
import { manifestProblem, sha256, type PackageManifest } from './manifest.js';
import { DEFAULT_TAR_LIMITS, safeRelativePath, TarError, type ReadEntry, type TarLimits } from './tar.js';
import { streamTarGz, type StreamedEntry } from './tar-stream.js';
import { streamRpm } from './cpio-stream.js';
import { checkFuelChecksums, isFuelFp, verifyFuelEntries } from './fuel.js';
import { RPM_MAGIC } from './rpm.js';

export interface ReadPackageOptions {
  /** Where the temporary folder is made (default: the system's temporary folder). */
  tempDir?: string;
  limits?: Partial<TarLimits>;
  /** Check only; write nothing (the result has no `dir`). */
  verifyOnly?: boolean;
}

export interface ReadPackageResult {
  /** True when the package was accepted (no error findings). */
  ok: boolean;
  manifest?: PackageManifest;
  /** Absolute path of the unpacked plugin folder, inside a fresh temporary folder; only when ok. */
  dir?: string;
  findings: Finding[];
  /** Remove the temporary folder (safe to call more than once, and when nothing was written). */
  cleanup(): Promise<void>;
}

const noCleanup = async (): Promise<void> => {};

/** Open, verify and (unless `verifyOnly`) unpack the package at `file`. Never throws for a bad package. */
export async function readPackage(file: string, options: ReadPackageOptions = {}): Promise<ReadPackageResult> {
  const limits: TarLimits = { ...DEFAULT_TAR_LIMITS, ...options.limits };
  const shown = basename(file);
  const refuse = (f: Finding[]): ReadPackageResult => ({ ok: false, findings: f, cleanup: noCleanup });
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return refuse([finding('package/not-a-file', 'error', `'${file}' is not a file`, { file: shown })]);
    if (info.size > limits.maxTotalBytes) {
      return refuse([finding('package/too-large', 'error', `the package is ${info.size} bytes, over the limit of ${limits.maxTotalBytes}`, { file: shown })]);
    }
    size = info.size;
  } catch {
    return refuse([finding('package/missing', 'error', `the package '${file}' does not exist`, { file: shown }, 'Check the path; packages are built with `hearth plugin build`.')]);
  }

  // Files are written as they are inflated, into a fresh folder removed if anything is refused
  // (with verifyOnly, only hashed): the package is never whole in memory.
  const temp = options.verifyOnly ? undefined : await mkdtemp(join(resolve(options.tempDir ?? tmpdir()), 'hearth-package-'));
  const cleanup = async (): Promise<void> => {
    if (temp) await rm(temp, { recursive: true, force: true });
  };
  let entries: StreamedEntry[];
  const early: Finding[] = [];
  let rpm: string | undefined;
  try {
    if (await startsWith(file, RPM_MAGIC)) {
      const read = await streamRpm(file, size, limits, temp);
      entries = read.entries;
      rpm = [read.rpm.name, read.rpm.version, read.rpm.release].filter(Boolean).join('-') || 'RPM';
      const { count, some } = read.ignored;
      if (count) {
        const shownSome = some.map((p) => `/${p}`).join(', ');
        early.push(finding('package/rpm-ignored', 'info', `${shown}: ${count} entr${count === 1 ? 'y' : 'ies'} outside /var/www/nailgun/plugins/ ${count === 1 ? 'was' : 'were'} not unpacked (${shownSome}${count > some.length ? ', …' : ''})`, { file: shown }));
      }
    } else entries = await streamTarGz(file, size, limits, temp);
  } catch (err) {
    await cleanup();
    if (!(err instanceof TarError)) {
      return refuse([finding('package/unpack-failed', 'error', `${shown}: could not unpack: ${(err as Error).message}`, { file: shown })]);
    }
    const where = { file: err.entry ? `${shown}:${err.entry}` : shown };
    return refuse([finding(err.code, 'error', `${shown}: ${err.message}`, where, err.hint ?? 'The package was refused and nothing was unpacked.')]);
  }

  const top = entries[0]?.path.split('/')[0] ?? '';
  const fuel = rpm ? 'rpm' : !entries.some((e) => e.path === `${top}/${MANIFEST_FILE}`) && isFuelFp(entries, top) ? 'fp' : undefined;
  const verified = fuel ? verifyFuelEntries(entries, shown, fuel, rpm) : { ...verifyEntries(entries, shown), top: undefined };
  const { manifest } = verified;
  const findings = [...early, ...verified.findings];
  const dir = temp && manifest ? join(temp, verified.top ?? topFolderOf(manifest)) : undefined;
  if (fuel && manifest && dir && !hasErrors(findings)) findings.push(...(await checkFuelChecksums(dir, manifest, shown)));
  if (!manifest || hasErrors(findings) || !dir) {
    await cleanup();
    return { ok: !hasErrors(findings) && manifest !== undefined, manifest, findings, cleanup: noCleanup };
  }
  return { ok: true, manifest, dir, findings, cleanup };
}

async function startsWith(file: string, magic: Buffer): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead === magic.length && head.equals(magic);
  } finally {
    await handle.close();
  }
}

const topFolderOf = (m: PackageManifest): string => `${m.name}-${m.version}`;

/** Check layout, manifest and checksums of entries already read (no I/O). */
export function verifyEntries(entries: readonly (ReadEntry | StreamedEntry)[], shown: string): { manifest?: PackageManifest; findings: Finding[] } {
  const findings: Finding[] = [];
  const fail = (code: string, message: string, entry?: string, hint?: string): void => {
    findings.push(finding(code, 'error', `${shown}: ${message}`, { file: entry ? `${shown}:${entry}` : shown }, hint));
  };
  const tops = new Set(entries.map((e) => e.path.split('/')[0]));
  const looseFile = entries.find((e) => e.type === 'file' && !e.path.includes('/'));
  if (tops.size !== 1 || looseFile) {
    fail('package/layout', `a package holds one top folder <name>-<version>/, this one has ${looseFile ? `the loose file ${looseFile.path}` : `${tops.size} top entries`}`, undefined, 'Build packages with `hearth plugin build`.');
    return { findings };
  }
  const [top] = tops;
  const manifestEntry = entries.find((e) => e.path === `${top}/${MANIFEST_FILE}`);
  if (!manifestEntry) {
    fail('package/no-manifest', `there is no ${top}/${MANIFEST_FILE}`, undefined, 'Only packages made by `hearth plugin build` carry the manifest the checks need (a Fuel .fp of package_version 1.0.0, or a Fuel plugin RPM, is read without one).');
    return { findings };
  }
  let parsed: unknown;
  try {
    if (!manifestEntry.data) throw new Error('it is over 1 MiB');
    parsed = JSON.parse(manifestEntry.data.toString('utf8'));
  } catch (err) {
    fail('package/bad-manifest', `${MANIFEST_FILE} is not JSON (${(err as Error).message})`, manifestEntry.path);
    return { findings };
  }
  const problem = manifestProblem(parsed);
  if (problem) {
    fail('package/bad-manifest', `${MANIFEST_FILE} is not a valid manifest: ${problem}`, manifestEntry.path);
    return { findings };
  }
  const manifest = parsed as PackageManifest;
  if (top !== topFolderOf(manifest)) {
    fail('package/layout', `the top folder is '${top}' but the manifest names ${topFolderOf(manifest)}`);
  }

  const listed = new Map(Object.entries(manifest.files));
  for (const path of listed.keys()) {
    try {
      if (safeRelativePath(path) !== path) throw new TarError('package/unsafe-path', `the manifest lists the unusual path ${JSON.stringify(path)}`);
    } catch (err) {
      fail('package/bad-manifest', (err as Error).message, manifestEntry.path);
    }
  }
  const present = new Map<string, ReadEntry | StreamedEntry>();
  for (const entry of entries) {
    if (entry.type !== 'file' || entry === manifestEntry) continue;
    present.set(entry.path.slice(top.length + 1), entry);
  }
  for (const [path, entry] of present) {
    const expected = listed.get(path);
    if (expected === undefined) fail('package/extra-file', `${path} is in the package but not in its manifest`, path, 'A file was added after the build; rebuild the package.');
    else if (('sha256' in entry ? entry.sha256 : sha256(entry.data)) !== expected) fail('package/checksum-mismatch', `${path} does not match its sha256 in the manifest: the file was changed after the build`, path, 'Rebuild the package, or get it again from its source.');
  }
  for (const path of listed.keys()) {
    if (!present.has(path)) fail('package/missing-file', `${path} is listed in the manifest but missing from the package`, path, 'Rebuild the package, or get it again from its source.');
  }

  const metadata = present.get('metadata.yaml');
  if (!metadata) {
    fail('package/missing-file', 'there is no metadata.yaml at the top of the plugin', undefined);
  } else if (!metadata.data) {
    fail('package/manifest-mismatch', 'metadata.yaml is over 1 MiB, which no plugin needs', 'metadata.yaml');
  } else {
    const parsedMeta = parseYaml(metadata.data.toString('utf8'), 'metadata.yaml');
    const meta = parsedMeta.value as Record<string, unknown> | undefined;
    const name = meta && typeof meta === 'object' ? meta.name : undefined;
    const version = meta && typeof meta === 'object' && meta.version !== undefined && meta.version !== null ? String(meta.version) : undefined;
    if (name !== manifest.name || version !== manifest.version) {
      fail('package/manifest-mismatch', `the manifest says ${manifest.name} ${manifest.version} but metadata.yaml says ${String(name)} ${String(version)}`, 'metadata.yaml');
    }
  }
  return { manifest, findings };
}
