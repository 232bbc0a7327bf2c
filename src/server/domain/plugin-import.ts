/**
 * Plugins that come in through `hearth db import` are judged as an install judges them (issue 24,
 * item 12): the export is a file anyone may have edited, and a stored plugin's folder and paths
 * decide what the server reads and serves without a token (a `source_path` of `/` served the whole
 * disk through the repository route). A registered folder (or the bundled release) must be a
 * plain absolute path to a folder that reads and validates as the same plugin, as registering it
 * did; a plugin installed from a package has no folder; every `*_path` of its release records stays
 * inside the plugin, as the loader requires (path/outside-plugin).
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, normalize, relative, resolve } from 'node:path';
import { pluginIdentityProblem } from '../../core/names/index.js';
import * as store from '../../store/index.js';
import { HttpError } from '../errors.js';
import { readPluginFolder } from './plugins.js';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v);

/** Why a `*_path` value would lead outside the plugin folder (or cannot name a file); undefined when it stays inside. */
function pathProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'holds a NUL character';
  if (isAbsolute(value)) return 'is absolute';
  if (relative('/plugin', resolve('/plugin', value)).startsWith('..')) return 'leads out of the plugin folder';
  return undefined;
}

/** Why `path` cannot be a registered plugin folder; undefined when it can be read as one. */
function folderProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'it has no folder (source_path)';
  if (path.includes('\0')) return 'its folder (source_path) holds a NUL character';
  if (!isAbsolute(path) || normalize(path).replace(/\/+$/, '') !== path.replace(/\/+$/, '') || /(^|\/)\.\.?(\/|$)/.test(path)) return `its folder (source_path) ${JSON.stringify(path)} is not a plain absolute path`;
  if (normalize(path) === '/') return 'its folder (source_path) is the root of the file system';
  if (!existsSync(path) || !statSync(path).isDirectory()) return `its folder ${path} does not exist on this machine`;
  return undefined;
}

function refuse(row: number, id: string, reason: string, hint: string): store.StoreError {
  return new store.StoreError('store/import-bad-plugin', `row ${row + 1} of 'plugins' (${id}) cannot be imported: ${reason}`, hint);
}

/** What an install would have read from `folder`: the same plugin, valid; or why not. */
function readAsInstall(folder: string, name: string, version: string): string | undefined {
  try {
    const read = readPluginFolder(folder);
    if (read.loaded.name !== name || read.loaded.version !== version) return `its folder ${folder} holds ${read.loaded.name} ${read.loaded.version}, not ${name} ${version}`;
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    const findings = ((err.details as { findings?: Array<{ severity: string; message: string; file?: string }> } | undefined)?.findings ?? []).filter((f) => f.severity === 'error');
    return `its folder ${folder} is not a valid plugin: ${findings.slice(0, 3).map((f) => `${f.file ? `${f.file}: ` : ''}${f.message}`).join('; ') || err.message}`;
  }
}

/**
 * Checks the dump's plugin rows as an install would, before anything is written; throws
 * `store/import-bad-plugin` naming the row and the reason. A bundled release whose folder is gone
 * (the exporting Hearth was installed elsewhere) is pointed at this Hearth's bundled release when
 * that is the same name and version; the returned notes say so.
 */
export function checkImportedPlugins(dump: store.Dump, bundledFolder: string | undefined): string[] {
  const notes: string[] = [];
  for (const [i, row] of (dump.tables.plugins ?? []).entries()) {
    const { name, version, id, source_kind: kind } = row;
    const shown = typeof id === 'string' ? id : `${String(name)}@${String(version)}`;
    const problem = pluginIdentityProblem(name, version);
    if (problem) throw refuse(i, shown, problem, 'fix name and version in that row, or remove the plugin from the export');
    if (id !== store.pluginId(name as string, version as string)) throw refuse(i, shown, `its id is not ${store.pluginId(name as string, version as string)}, as its name and version say`, 'fix the id in that row');
    const loaded = row.loaded;
    if (!isObject(loaded) || !Array.isArray(loaded.releases) || loaded.name !== name || loaded.version !== version) {
      throw refuse(i, shown, 'its loaded plugin (loaded) is missing, has no release records, or names another plugin', 'export again from the source database');
    }
    for (const [r, record] of loaded.releases.entries()) {
      const raw = isObject(record) ? record.raw : undefined;
      if (!isObject(raw)) throw refuse(i, shown, `its release record ${r + 1} is not a mapping`, 'export again from the source database');
      for (const [key, value] of Object.entries(raw)) {
        if (!key.endsWith('_path') || typeof value !== 'string') continue;
        const bad = pathProblem(value);
        if (bad) throw refuse(i, shown, `releases[${r}].${key} ${JSON.stringify(value)} ${bad}; Hearth reads nothing outside a plugin's folder`, 'use a path relative to the folder that holds metadata.yaml, without `..` or a leading `/`, as `hearth plugin validate` requires');
      }
    }
    if (kind === 'package') {
      if (row.source_path !== null && row.source_path !== undefined) {
        throw refuse(i, shown, `it was installed from a package, which has no folder on disk, yet names one (${JSON.stringify(row.source_path)})`, 'set its source_path to null: the package itself is in the export');
      }
      continue;
    }
    if (kind !== 'folder' && kind !== 'bundled') throw refuse(i, shown, `its kind (source_kind) ${JSON.stringify(kind)} is not package, folder or bundled`, 'export again from the source database');
    let folder = folderProblem(row.source_path);
    if (folder && kind === 'bundled' && bundledFolder && typeof row.source_path === 'string' && !existsSync(row.source_path) && !readAsInstall(bundledFolder, name as string, version as string)) {
      notes.push(`the bundled release ${shown} was at ${row.source_path}, which is gone: it is now this Hearth's, at ${bundledFolder}`);
      row.source_path = bundledFolder;
      folder = undefined;
    }
    if (folder) throw refuse(i, shown, folder, kind === 'folder' ? `copy the plugin's folder to that path on this machine first (or uninstall the plugin before exporting), then import into a new, empty database` : 'import with the Hearth whose bundled release this is');
    const read = readAsInstall(row.source_path as string, name as string, version as string);
    if (read) throw refuse(i, shown, read, 'fix the folder (hearth plugin validate says what is wrong), then import into a new, empty database');
  }
  return notes;
}
