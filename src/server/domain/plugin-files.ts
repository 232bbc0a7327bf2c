/**
 * Where a plugin's files are on this server: a registered folder and the bundled release are read
 * where they are; a plugin installed from a package is kept in the database (every server sharing
 * it can deploy the plugin) and unpacked once into this server's data folder, verified again as at
 * install, the first time a deployment or a repository request needs it.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { readPackage } from '../../package/build/index.js';
import type * as store from '../../store/index.js';
import { listPlugins } from '../../store/index.js';
import * as packages from '../../store/plugin-packages.js';

export type PluginRoot = { root: string } | { unusable: string };

export class PluginFiles {
  /** Unpackings under way in this process, by folder name, so two requests share one. */
  private readonly pending = new Map<string, Promise<PluginRoot>>();
  /** Packages uninstalled through another server, or left by a crash, are removed before the first unpacking. */
  private swept?: Promise<void>;

  /** `dir`: this server's folder for unpacked packages (`<data folder>/plugin-files`). */
  constructor(readonly dir: string | undefined) {}

  /** The plugin's folder on this server, unpacking its package when needed; or why there is none. */
  async rootOf(q: store.Queryable, p: store.PluginRecord): Promise<PluginRoot> {
    if (p.sourcePath) return { root: p.sourcePath };
    const digest = await packages.pluginPackageDigest(q, p.id);
    if (!digest) return { unusable: `plugin ${p.id} was installed from a package before Hearth kept package files; install the package again (uninstall, then install) to deploy it for real` };
    if (!this.dir) return { unusable: `this server keeps no plugin files (it has no data folder), so plugin ${p.id}, installed from a package, cannot be deployed from it` };
    this.swept ??= this.sweep(q).catch(() => undefined);
    await this.swept;
    const name = folderName(p, digest.sha256);
    let running = this.pending.get(name);
    if (!running) {
      running = this.unpack(q, p, name, join(this.dir, name)).finally(() => this.pending.delete(name));
      this.pending.set(name, running);
    }
    return running;
  }

  private async unpack(q: store.Queryable, p: store.PluginRecord, name: string, final: string): Promise<PluginRoot> {
    const done = topFolder(final);
    if (done) return { root: done };
    mkdirSync(this.dir!, { recursive: true, mode: 0o700 });
    const file = join(this.dir!, `.${name}.tar.gz`);
    try {
      const out = createWriteStream(file, { mode: 0o600 });
      await packages.readPluginPackage(q, p.id, async (chunk) => {
        if (!out.write(chunk)) await once(out, 'drain');
      });
      out.end();
      await once(out, 'finish');
      const opened = await readPackage(file, { tempDir: this.dir! });
      if (!opened.ok || !opened.dir) {
        await opened.cleanup();
        return { unusable: `the stored package of plugin ${p.id} cannot be unpacked: ${opened.findings.map((f) => f.message).join('; ')}` };
      }
      const temp = join(opened.dir, '..');
      try {
        renameSync(temp, final);
      } catch (err) {
        // Another unpacking (a second server on this data folder) finished first: use its folder.
        await opened.cleanup();
        const other = topFolder(final);
        if (!other) throw err;
        return { root: other };
      }
      return { root: topFolder(final)! };
    } finally {
      rmSync(file, { force: true });
    }
  }

  /** Removes what this server unpacked for a plugin version (after it is uninstalled). */
  forget(p: Pick<store.PluginRecord, 'name' | 'version'>): void {
    if (!this.dir || !existsSync(this.dir)) return;
    const prefix = `${p.name}-${p.version}-`;
    for (const entry of readdirSync(this.dir)) if (entry.startsWith(prefix)) rmSync(join(this.dir, entry), { recursive: true, force: true });
  }

  /** Removes what the database no longer holds (uninstalled through another server) and leftovers. */
  private async sweep(q: store.Queryable): Promise<void> {
    if (!this.dir || !existsSync(this.dir)) return;
    const plugins = await listPlugins(q);
    const byId = new Map(plugins.map((p) => [p.id, p]));
    const kept = new Set((await packages.pluginPackageDigests(q)).flatMap((d) => (byId.has(d.pluginId) ? [folderName(byId.get(d.pluginId)!, d.sha256)] : [])));
    for (const entry of readdirSync(this.dir)) if (!kept.has(entry)) rmSync(join(this.dir, entry), { recursive: true, force: true });
  }
}

const folderName = (p: Pick<store.PluginRecord, 'name' | 'version'>, sha256: string): string => `${p.name}-${p.version}-${sha256.slice(0, 16)}`;

/** The plugin folder inside an unpacked package (its one top folder), when the package is there. */
function topFolder(unpacked: string): string | undefined {
  if (!existsSync(unpacked)) return undefined;
  const entries = readdirSync(unpacked, { withFileTypes: true }).filter((e) => e.isDirectory());
  return entries.length === 1 ? join(unpacked, entries[0].name) : undefined;
}
