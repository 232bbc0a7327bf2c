/** Finding and reading the YAML files of a template tree, once each. */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { parseYamlBytes, readYamlFile, type ParsedYaml } from '../yaml/index.js';

export interface TreeFile {
  /** Where to read it. */
  location: string;
  /** How to show it: joined to the path the user gave, so relative stays relative. */
  display: string;
}

/** Forward slashes in shown paths, whatever the platform. */
export const slashes = (path: string): string => (sep === '/' ? path : path.split(sep).join('/'));

export const isJinja = (path: string): boolean => path.endsWith('.j2.yaml');

/** A walk stops after this many folder entries (files and folders seen; tripleo-heat-templates has about 2,000): `/` once took two minutes. */
export const MAX_TREE_ENTRIES = 20_000;
/** ... and does not go deeper than this many folders. */
export const MAX_TREE_DEPTH = 40;

const within = (root: string, real: string): boolean => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * Every `*.yaml` file under the given paths (a file given by name is taken whatever its name).
 * Hidden folders are skipped; a folder reached twice through links is read once; a link whose
 * target is outside the folder given is not followed (a link to /proc walked the machine and
 * listed files outside the tree); the walk is bounded in entries and depth.
 */
export function listTreeFiles(paths: readonly string[], recursive: boolean, findings: Finding[]): TreeFile[] {
  const out: TreeFile[] = [];
  const seenDirs = new Set<string>();
  // A file named on its own and inside a folder also named (or reached through two links) is
  // read once: its findings were told once per way it was reached (issue 28).
  const seenFiles = new Set<string>();
  const add = (location: string, display: string) => {
    let real = location;
    try {
      real = realpathSync(location);
    } catch {
      // Unreadable: kept, so reading it says why.
    }
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    out.push({ location, display });
  };
  let entriesSeen = 0;
  let stopped = false;
  const walk = (location: string, display: string, root: { real: string; shown: string }, depth: number) => {
    if (stopped) return;
    let real: string;
    try {
      real = realpathSync(location);
    } catch {
      return;
    }
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    if (depth > MAX_TREE_DEPTH) {
      findings.push(finding('template/tree-too-deep', 'warning', `'${display}' is more than ${MAX_TREE_DEPTH} folders deep; it was not read`, { file: display }, 'name a folder nearer the templates'));
      return;
    }
    let entries;
    try {
      entries = readdirSync(location, { withFileTypes: true });
    } catch (err) {
      findings.push(finding('file/unreadable', 'warning', `cannot list '${display}': ${(err as Error).message}`, { file: display }));
      return;
    }
    for (const entry of entries) {
      if (stopped) return;
      if (++entriesSeen > MAX_TREE_ENTRIES) {
        stopped = true;
        findings.push(finding('template/tree-too-large', 'error', `more than ${MAX_TREE_ENTRIES.toLocaleString('en')} files and folders under the paths given; the walk stopped there and the answer is incomplete`, { file: display }, 'name the folder that holds the templates, not one above it'));
        return;
      }
      if (entry.name.startsWith('.')) continue;
      const childLocation = join(location, entry.name);
      const childDisplay = slashes(join(display, entry.name));
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(childLocation);
          const stat = statSync(target);
          isDir = stat.isDirectory();
          isFile = stat.isFile();
        } catch {
          continue; // a dangling link
        }
        if ((isDir && !recursive) || (!isDir && !entry.name.endsWith('.yaml'))) continue;
        if (!within(root.real, target)) {
          findings.push(finding('template/link-outside', 'warning', `'${childDisplay}' is a link to '${target}', outside the folder '${root.shown}'; it was not followed`, { file: childDisplay }, 'copy the files into the tree, or name the other folder too'));
          continue;
        }
      }
      if (isDir && recursive) walk(childLocation, childDisplay, root, depth + 1);
      else if (isFile && entry.name.endsWith('.yaml')) add(childLocation, childDisplay);
    }
  };
  for (const path of paths) {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      findings.push(finding('file/missing', 'error', `'${path}' does not exist`, { file: path }, 'check the path'));
      continue;
    }
    if (stat.isDirectory()) walk(path, path, { real: realpathSync(path), shown: path }, 0);
    else add(path, slashes(join(path)));
  }
  return out;
}

/** Reads one file: from disk, or from the files a client sent (templates/sent.ts). */
export type TemplateReader = (location: string, display: string) => ParsedYaml;

/** Parsed files by location, so a template named by several environments is read once. */
export class TemplateFiles {
  private readonly cache = new Map<string, ParsedYaml>();

  /** `reader`: where files come from; by default the disk. */
  constructor(private readonly reader?: TemplateReader) {}

  read(location: string, display: string): ParsedYaml {
    let parsed = this.cache.get(location);
    if (!parsed) {
      parsed = this.reader ? this.reader(location, display) : readYamlFile(location, display);
      this.cache.set(location, parsed);
    }
    return parsed;
  }

  /**
   * Read a file only if it could hold a `capabilities` key: a file whose text never spells the word
   * (and has no escape sequence that could) cannot have one, so it need not be parsed at all.
   */
  readIfCapable(location: string, display: string): ParsedYaml | undefined {
    if (this.reader) return this.read(location, display);
    let bytes: Buffer;
    try {
      bytes = readFileSync(location);
    } catch {
      return this.read(location, display);
    }
    if (bytes.indexOf('capabilities') < 0 && !/\\[xuU]/.test(bytes.toString('latin1'))) return undefined;
    const parsed = parseYamlBytes(bytes, display);
    this.cache.set(location, parsed);
    return parsed;
  }
}
