/**
 * The plugin's validation against each installed release it declares, run at install and sync
 * (issue 18, class 5: circles through the release's graph, references to its tasks, roles and
 * components), kept so the Plugins page can show it after the package's files are gone. Kept with
 * the release revision it was computed at (store/meta.ts): when a release has been installed,
 * synced or removed since, the next read of the checks computes them again from the plugin's files
 * (its folder, or its kept package unpacked), so the page never shows a verdict on a release as it
 * no longer is.
 */
import type { Release } from '../../core/release/model.js';
import type { ReleaseValidation } from '../../package/validate/against-releases.js';
import * as store from '../../store/index.js';
import type { PluginFiles } from './plugin-files.js';
import { readPluginFolderDataOffThread } from './plugin-reader.js';

const key = (id: string) => `plugin-release-findings:${id}`;

/** As stored; a bare list is how checks were kept before they carried their revision. */
type Kept = { revision: number; checks: ReleaseValidation[] } | ReleaseValidation[];

export async function keepReleaseChecks(q: store.Queryable, id: string, checks: readonly ReleaseValidation[]): Promise<void> {
  await store.setMeta(q, key(id), { revision: await store.releaseRevision(q), checks });
}

/**
 * The kept checks, computed again first when the releases changed since (with `files`, which
 * finds a packaged plugin's files; without it only registered folders are read again). When the
 * plugin's files cannot be read now, the kept checks are answered, less those of releases that
 * are gone.
 */
export async function releaseChecks(q: store.Queryable, id: string, files?: PluginFiles): Promise<ReleaseValidation[]> {
  const kept = await store.getMeta<Kept>(q, key(id));
  if (kept === undefined) return [];
  const revision = await store.releaseRevision(q);
  const checks = Array.isArray(kept) ? kept : kept.checks;
  if (!Array.isArray(kept) && kept.revision === revision) return checks;
  const installed = (await store.listReleases(q)).map((r) => ({ id: r.id, release: r.release }));
  const fresh = await checkAgain(q, id, installed, files);
  if (fresh === undefined) {
    const present = new Set(installed.map((r) => r.id));
    return checks.filter((c) => present.has(c.release_id));
  }
  await store.setMeta(q, key(id), { revision, checks: fresh });
  return fresh;
}

async function checkAgain(q: store.Queryable, id: string, installed: Array<{ id: string; release: Release }>, files: PluginFiles | undefined): Promise<ReleaseValidation[] | undefined> {
  const record = await store.getPlugin(q, id);
  if (!record || record.isRelease) return undefined;
  const where = record.sourcePath ? { root: record.sourcePath } : files ? await files.rootOf(q, record) : undefined;
  if (!where || !('root' in where)) return undefined;
  try {
    const data = await readPluginFolderDataOffThread(where.root, installed);
    // A registered folder edited since into one with errors gives no checks: keep the last ones.
    return data.releaseChecks;
  } catch {
    return undefined;
  }
}
