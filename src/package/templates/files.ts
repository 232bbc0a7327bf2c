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

/**
 * Every `*.yaml` file under the given paths (a file given by name is taken whatever its name).
 * Hidden folders are skipped; a folder reached twice through links is read once.
 */
export function listTreeFiles(paths: readonly string[], recursive: boolean, findings: Finding[]): TreeFile[] {
  const out: TreeFile[] = [];
  const seenDirs = new Set<string>();
  const walk = (location: string, display: string) => {
    let real: string;
    try {
      real = realpathSync(location);
    } catch {
      return;
    }
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    let entries;
    try {
      entries = readdirSync(location, { withFileTypes: true });
    } catch (err) {
      findings.push(finding('file/unreadable', 'warning', `cannot list '${display}': ${(err as Error).message}`, { file: display }));
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childLocation = join(location, entry.name);
      const childDisplay = slashes(join(display, entry.name));
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const stat = statSync(childLocation);
          isDir = stat.isDirectory();
          isFile = stat.isFile();
        } catch {
          continue; // a dangling link
        }
      }
      if (isDir && recursive) walk(childLocation, childDisplay);
      else if (isFile && entry.name.endsWith('.yaml')) out.push({ location: childLocation, display: childDisplay });
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
    if (stat.isDirectory()) walk(path, path);
    else out.push({ location: path, display: slashes(join(path)) });
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
