/**
 * Installing, re-syncing and uninstalling plugins. The plugin is read and validated by the
 * package layer (the same code as `hearth plugin validate` and `inspect`), then stored in one
 * transaction with the releases a release plugin defines: a failure anywhere leaves nothing.
 * Plugin content is data only here; nothing from a plugin is executed on the server (a real
 * deployment runs its tasks on the nodes). A package's own file is kept in the database, so that
 * every server sharing it can deploy the plugin (plugin-files.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sortFindings, type Finding } from '../../core/findings.js';
import { pluginIdentityProblem } from '../../core/names/index.js';
import type { Release } from '../../core/release/model.js';
import type { PluginContribution } from '../../core/release/plugin.js';
import { readPackage } from '../../package/build/index.js';
import type { LoadedPlugin } from '../../package/plugin/index.js';
import type { ReleaseValidation } from '../../package/validate/against-releases.js';
import { contributionFromPlugin } from '../../package/release/contribution.js';
import * as store from '../../store/index.js';
import { stagePluginPackage } from '../../store/plugin-packages.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import { readPluginFolderData, type PluginFolderData } from './plugin-folder.js';
import { readPluginFolderDataOffThread } from './plugin-reader.js';
import { checkSyncedRelease } from './release-upgrade.js';
import type { PluginFiles } from './plugin-files.js';

export interface ReadPlugin {
  loaded: LoadedPlugin;
  releases: Release[];
  findings: Finding[];
  /** What each installed release the plugin declares adds to its validation (kept for the Plugins page). */
  releaseChecks: ReleaseValidation[];
}

/** A stored release's id: readable in URLs, stable for one release name and version. */
export const releaseSlug = (release: Pick<Release, 'name' | 'version'>): string =>
  `${release.name}@${release.version}`.toLowerCase().replace(/[^a-z0-9.@_-]+/g, '-').replace(/^-+|-+$/g, '');

/** Read and validate a plugin folder; refuse it (400) with the validator's findings when it has errors. */
export function readPluginFolder(dir: string): ReadPlugin {
  return judgePluginFolder(readPluginFolderData(dir));
}

/**
 * The same, the reading done in a worker (plugin-reader.ts): for requests, which must not block the
 * server. With `db`, the plugin is also validated against the installed releases it declares.
 */
export async function readPluginFolderOffThread(dir: string, db?: store.Queryable): Promise<ReadPlugin> {
  const installed = db ? (await store.listReleases(db)).map((r) => ({ id: r.id, release: r.release })) : [];
  return judgePluginFolder(await readPluginFolderDataOffThread(dir, installed));
}

function judgePluginFolder(data: PluginFolderData): ReadPlugin {
  const { validation, loaded } = data;
  const errors = errorsOf(validation.findings);
  if (errors.length) throw refused('plugin/invalid', `the plugin is not valid: ${errors.length} error${errors.length === 1 ? '' : 's'}`, sortFindings(validation.findings));
  if (!loaded.plugin) throw refused('plugin/invalid', 'the plugin cannot be read', loaded.findings);
  let releases: Release[] = [];
  const findings = [...validation.findings];
  if (data.release) {
    const readErrors = errorsOf(data.release.findings);
    if (readErrors.length) throw refused('plugin/invalid-release', 'the release plugin defines a release Hearth cannot use', data.release.findings);
    releases = data.release.releases.map((r) => ({ ...r, id: releaseSlug(r) }));
    findings.push(...data.release.findings);
  }
  return { loaded: loaded.plugin, releases, findings, releaseChecks: data.releaseChecks ?? [] };
}

function pluginFields(p: LoadedPlugin) {
  const meta = p.metadata;
  const out: { title?: string; description?: string; isRelease: boolean; packageVersion: string } = { isRelease: p.isReleasePlugin, packageVersion: p.packageVersion };
  if (typeof meta.title === 'string') out.title = meta.title;
  if (typeof meta.description === 'string') out.description = meta.description;
  return out;
}

/** Store a read plugin and its releases in one transaction. */
export async function storePlugin(db: store.Database, read: ReadPlugin, source: { kind: store.PluginSourceKind; path?: string; packageFile?: Buffer }): Promise<store.PluginRecord> {
  const { loaded, releases } = read;
  // The validator refuses such a name or version already; this is the one door every stored plugin passes.
  const problem = pluginIdentityProblem(loaded.name, loaded.version);
  if (problem) throw new HttpError(400, 'plugin/bad-identity', problem, { hint: 'fix name or version in metadata.yaml: they name the package file and the plugin in URLs' });
  const id = store.pluginId(loaded.name, loaded.version);
  // A package is unpacked into a temporary folder removed after install: keep no path to it (its
  // file is kept instead, below).
  const kept: LoadedPlugin = source.kind === 'package' ? { ...loaded, root: `package:${id}` } : loaded;
  // A package's bytes are staged before the transaction, which stays short (plugin-packages.ts).
  if (source.packageFile && (await store.getPlugin(db, id))) throw alreadyInstalled(loaded);
  const staged = source.packageFile ? await stagePluginPackage(db, source.packageFile) : undefined;
  try {
    await db.transaction(async (tx) => {
      if (await store.getPlugin(tx, id)) throw alreadyInstalled(loaded);
      await store.insertPlugin(tx, { id, name: loaded.name, version: loaded.version, ...pluginFields(loaded), sourceKind: source.kind, ...(source.path ? { sourcePath: source.path } : {}), loaded: kept });
      if (staged) await staged.store(tx, id);
      await store.bumpCatalogVersion(tx);
      for (const release of releases) {
        const existing = await store.getRelease(tx, release.id);
        if (existing) throw new HttpError(409, 'release/already-exists', `release '${release.id}' already exists${existing.pluginId ? ` (from plugin ${existing.pluginId})` : ''}`);
        await store.insertRelease(tx, release, id);
      }
    });
  } finally {
    await staged?.discard().catch(() => undefined);
  }
  return (await store.getPlugin(db, id)) as store.PluginRecord;
}

const alreadyInstalled = (loaded: LoadedPlugin) => new HttpError(409, 'plugin/already-installed', `plugin ${loaded.name} version ${loaded.version} is already installed`, { hint: 'uninstall it first, or (for a registered folder) sync it' });

/** Install an uploaded package: verified by the package reader (checksums, no path escapes) before anything is read. */
export async function installPackage(db: store.Database, bytes: Buffer): Promise<{ plugin: store.PluginRecord; findings: Finding[]; releaseChecks: ReleaseValidation[] }> {
  const temp = await mkdtemp(join(tmpdir(), 'hearth-upload-'));
  try {
    const file = join(temp, 'upload.tar.gz');
    await writeFile(file, bytes);
    const opened = await readPackage(file, { tempDir: temp });
    try {
      if (!opened.ok || !opened.dir) throw refused('package/refused', 'the package was refused', opened.findings);
      const read = await readPluginFolderOffThread(opened.dir, db);
      const plugin = await storePlugin(db, read, { kind: 'package', packageFile: bytes });
      return { plugin, findings: [...opened.findings, ...read.findings], releaseChecks: read.releaseChecks };
    } finally {
      await opened.cleanup();
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Re-read a registered folder: same name and version, new content. Its releases are replaced. */
export async function syncPlugin(db: store.Database, id: string): Promise<{ plugin: store.PluginRecord; findings: Finding[]; releaseChecks: ReleaseValidation[] }> {
  const record = await store.getPlugin(db, id);
  if (!record) throw new HttpError(404, 'plugin/not-found', `there is no plugin '${id}'`);
  if (record.sourceKind !== 'folder' || !record.sourcePath) throw new HttpError(409, 'plugin/not-a-folder', `plugin ${id} was installed from a package; only registered folders can be synced`, { hint: 'install the new package version beside it instead' });
  const read = await readPluginFolderOffThread(record.sourcePath, db);
  if (read.loaded.name !== record.name || read.loaded.version !== record.version) {
    throw new HttpError(409, 'plugin/identity-changed', `the folder now holds ${read.loaded.name} ${read.loaded.version}, not ${record.name} ${record.version}`, { hint: 'register the folder again as a new plugin version' });
  }
  await db.transaction(async (tx) => {
    await store.updatePluginLoaded(tx, id, read.loaded, pluginFields(read.loaded));
    await store.bumpCatalogVersion(tx);
    const before = new Set((await store.releasesOfPlugin(tx, id)).map((r) => r.id));
    for (const release of read.releases) {
      if (before.delete(release.id)) {
        await store.replaceRelease(tx, release);
        // Environments on it re-check against what the folder now says (issue 28 item 15).
        await checkSyncedRelease(tx, (await store.getRelease(tx, release.id))!);
      } else await store.insertRelease(tx, release, id);
    }
    for (const gone of before) {
      const users = await store.clustersUsingRelease(tx, gone);
      if (users.length) throw new HttpError(409, 'release/in-use', `the folder no longer defines release '${gone}', which environments use: ${users.map((u) => u.name).join(', ')}`);
      await store.deleteRelease(tx, gone);
    }
  });
  contributionCache.delete(id);
  return { plugin: (await store.getPlugin(db, id)) as store.PluginRecord, findings: read.findings, releaseChecks: read.releaseChecks };
}

/** Uninstall, refused while an environment enables it or uses one of its releases; its kept package goes too. */
export async function uninstallPlugin(db: store.Database, id: string, files?: PluginFiles): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const record = await store.getPlugin(tx, id);
    if (!record) throw new HttpError(404, 'plugin/not-found', `there is no plugin '${id}'`);
    const enabling = await store.clustersEnablingPlugin(tx, id);
    if (enabling.length) {
      throw new HttpError(409, 'plugin/in-use', `plugin ${id} is enabled in ${enabling.map((c) => `'${c.name}'`).join(', ')}`, { clusters: enabling, hint: 'disable it in those environments first' });
    }
    for (const release of await store.releasesOfPlugin(tx, id)) {
      const users = await store.clustersUsingRelease(tx, release.id);
      if (users.length) throw new HttpError(409, 'plugin/release-in-use', `plugin ${id} defines release '${release.id}', which ${users.map((c) => `'${c.name}'`).join(', ')} use${users.length === 1 ? 's' : ''}`, { clusters: users, hint: 'delete those environments first' });
    }
    await store.deletePlugin(tx, id); // its releases go with it (ON DELETE CASCADE)
    await store.bumpCatalogVersion(tx);
    if (record.sourceKind === 'bundled') await store.setMeta(tx, store.META_BUNDLED_RELEASE_REMOVED, true);
    return record;
  });
  contributionCache.delete(id);
  files?.forget(removed);
}

const contributionCache = new Map<string, { syncedAt: string; contribution: PluginContribution; findings: Finding[] }>();

/** What a stored plugin brings to a release; cached per plugin version until it is synced. */
export function contributionOf(record: store.PluginRecord): { contribution: PluginContribution; findings: Finding[] } {
  const cached = contributionCache.get(record.id);
  if (cached && cached.syncedAt === record.syncedAt) return cached;
  const result = contributionFromPlugin(record.loaded);
  const entry = { syncedAt: record.syncedAt, contribution: result.contribution, findings: result.findings };
  contributionCache.set(record.id, entry);
  return entry;
}
