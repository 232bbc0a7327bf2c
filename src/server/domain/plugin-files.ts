/**
 * Where a plugin's files are on this server: a registered folder and the bundled release are read
 * where they are; a plugin installed from a package is kept in the database (every server sharing
 * it can deploy the plugin) and unpacked once into this server's data folder, verified again as at
 * install, the first time a deployment or a repository request needs it.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataFolder } from '../../deploy/index.js';
import { once } from 'node:events';
import { readPackage } from '../../package/build/index.js';
import type * as store from '../../store/index.js';
import { listPlugins } from '../../store/index.js';
import * as packages from '../../store/plugin-packages.js';

export type PluginRoot = { root: string } | { unusable: string };

export class PluginFiles {
  /**
   * Unpackings under way in this process, by folder name, so two requests share one; only when they
   * read through the same connection or transaction: one waiting inside a transaction for an
   * unpacking that reads outside it could wait for ever on the embedded database (one connection).
   */
  private readonly pending = new Map<string, { q: store.Queryable; running: Promise<PluginRoot> }>();
  /** Packages uninstalled through another server, or left by a crash, are removed before the first unpacking. */
  private swept = false;

  /** `dir`: this server's folder for unpacked packages (`<data folder>/plugin-files`). */
  constructor(readonly dir: string | undefined) {}

  /** The data folder (its SSH key, its database), of which a deployment sends nothing but these unpacked files. */
  dataFolder(): DataFolder | undefined {
    return this.dir ? { dir: dirname(this.dir), pluginFiles: this.dir } : undefined;
  }

  /** The plugin's folder on this server, unpacking its package when needed; or why there is none. */
  async rootOf(q: store.Queryable, p: store.PluginRecord): Promise<PluginRoot> {
    if (p.sourcePath) return { root: p.sourcePath };
    const digest = await packages.pluginPackageDigest(q, p.id);
    if (!digest) return { unusable: `plugin ${p.id} was installed from a package before Hearth kept package files; install the package again (uninstall, then install) to deploy it for real` };
    if (!this.dir) return { unusable: `this server keeps no plugin files (it has no data folder), so plugin ${p.id}, installed from a package, cannot be deployed from it` };
    if (!this.swept) {
      // Each first caller sweeps through its own connection (see pending); sweeps never touch
      // work under way, so two at once are harmless.
      await this.sweep(q).catch(() => undefined);
      this.swept = true;
    }
    const name = folderName(p, digest.sha256);
    const shared = this.pending.get(name);
    if (shared?.q === q) return shared.running;
    // Two unpackings of one package end in one folder: the second finds the first's (see unpack).
    const entry = { q, running: this.unpack(q, p, name, join(this.dir, name)).finally(() => this.pending.get(name) === entry && this.pending.delete(name)) };
    this.pending.set(name, entry);
    return entry.running;
  }

  private async unpack(q: store.Queryable, p: store.PluginRecord, name: string, final: string): Promise<PluginRoot> {
    const done = topFolder(final);
    if (done) return { root: done };
    mkdirSync(this.dir!, { recursive: true, mode: 0o700 });
    const file = join(this.dir!, `.${name}-${randomBytes(6).toString('hex')}.tar.gz`);
    try {
      const out = createWriteStream(file, { mode: 0o600 });
      try {
        await packages.readPluginPackage(q, p.id, async (chunk) => {
          if (!out.write(chunk)) await once(out, 'drain');
        });
        out.end();
        await once(out, 'finish');
      } finally {
        out.destroy();
      }
      const opened = await readPackage(file, { tempDir: this.dir! });
      if (!opened.ok || !opened.dir) {
        await opened.cleanup();
        return { unusable: `the stored package of plugin ${p.id} cannot be unpacked: ${opened.findings.map((f) => f.message).join('; ')}` };
      }
      const temp = join(opened.dir, '..');
      try {
        renameSync(temp, final);
      } catch (err) {
        // Another unpacking of this package (through another connection) finished first: use its folder.
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

  /**
   * Removes what the database no longer holds (uninstalled through another server) and leftovers:
   * before the first unpacking, and from time to time while the server runs (plugin routes), so a
   * copy of a plugin uninstalled elsewhere does not stay until a restart (issue 24, item 18).
   */
  async sweep(q: store.Queryable): Promise<void> {
    if (!this.dir || !existsSync(this.dir)) return;
    // What is here before the database is read: a folder unpacked meanwhile is of a plugin the
    // reading below sees, or is left for the next sweep.
    const entries = readdirSync(this.dir);
    if (!entries.length) return;
    const plugins = await listPlugins(q);
    const byId = new Map(plugins.map((p) => [p.id, p]));
    const kept = new Set((await packages.pluginPackageDigests(q)).flatMap((d) => (byId.has(d.pluginId) ? [folderName(byId.get(d.pluginId)!, d.sha256)] : [])));
    const now = Date.now();
    for (const entry of entries) {
      if (kept.has(entry) || this.pending.has(entry)) continue;
      const path = join(this.dir, entry);
      // A download or an unpacking folder (`.<name>-….tar.gz`, readPackage's `hearth-package-…`) may
      // belong to an unpacking under way; only an old one is a crash's leftover.
      const changed = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      if (changed === undefined) continue;
      if ((entry.startsWith('.') || entry.startsWith('hearth-package-')) && now - changed < LEFTOVER_AGE_MS) continue;
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/** A download or unpacking folder older than this was left by a server that stopped mid-way. */
const LEFTOVER_AGE_MS = 3_600_000;

const folderName = (p: Pick<store.PluginRecord, 'name' | 'version'>, sha256: string): string => `${p.name}-${p.version}-${sha256.slice(0, 16)}`;

/** The plugin folder inside an unpacked package (its one top folder), when the package is there. */
function topFolder(unpacked: string): string | undefined {
  if (!existsSync(unpacked)) return undefined;
  const entries = readdirSync(unpacked, { withFileTypes: true }).filter((e) => e.isDirectory());
  return entries.length === 1 ? join(unpacked, entries[0].name) : undefined;
}
