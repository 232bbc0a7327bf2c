/**
 * Template trees sent by a client instead of read from disk: Heat's own API takes a template's
 * files as `{"files": {"<path>": "<contents>"}}`, so non-Python clients need nothing on the
 * server's disk, and the server reads nothing of its own disk on their behalf.
 *
 * Paths are kept as the client wrote them for showing; inside, each lives at an absolute POSIX
 * location under a virtual root `/` (TripleO's install prefix maps to that root, as `--root` does on
 * disk), so the resolver's path arithmetic works unchanged and can never leave the sent set.
 */
import { posix } from 'node:path';
import { finding } from '../../core/findings.js';
import { parseYamlBytes } from '../yaml/index.js';
import { TemplateFiles, type TreeFile } from './files.js';
import { THT_PREFIX } from './resolve.js';

/** Past these a request is refused unread: a TripleO tree is ~1,500 files, 12 MB. */
export const SENT_LIMITS = { files: 10_000, pathLength: 1024 } as const;

export class SentFilesError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** Where a written path lives in the virtual tree whose template root is `root`. */
export function sentLocation(written: string, root = '/'): string {
  const path = written.startsWith('file://') ? written.slice('file://'.length) : written;
  if (path.startsWith(THT_PREFIX)) return posix.join(root, path.slice(THT_PREFIX.length));
  return posix.resolve('/', path);
}

export class SentTemplates {
  readonly files: TemplateFiles;
  private readonly texts = new Map<string, { display: string; text: string }>();
  /** The template tree's root: TripleO's install prefix maps here, and results are shown from it. */
  readonly root: string;

  /** `root`: the sent folder that is the template tree (`--root` of the CLI); the whole set by default. */
  constructor(sent: Record<string, unknown>, root?: string) {
    if (root !== undefined && (root.includes('\0') || root.split('/').includes('..'))) throw new SentFilesError('template/bad-path', `the root '${root.slice(0, 80)}' cannot name a folder`, 'name a folder of the sent files');
    this.root = posix.resolve('/', root ?? '.');
    const keys = Object.keys(sent);
    if (keys.length > SENT_LIMITS.files) throw new SentFilesError('template/too-many-files', `${keys.length} files were sent; at most ${SENT_LIMITS.files} are read`, 'send the part of the tree the question needs');
    for (const key of keys) {
      const text = sent[key];
      if (typeof text !== 'string') throw new SentFilesError('template/bad-file', `the file '${key}' is not sent as text`, 'send each file as {"<path>": "<YAML text>"}');
      if (key.length === 0 || key.length > SENT_LIMITS.pathLength || key.includes('\0')) {
        throw new SentFilesError('template/bad-path', `the path '${key.slice(0, 80)}' cannot name a file`, `paths are 1 to ${SENT_LIMITS.pathLength} characters without NUL`);
      }
      if (key.split('/').includes('..')) throw new SentFilesError('template/bad-path', `the path '${key}' climbs with '..'`, 'name each file by its path inside the template tree');
      const location = sentLocation(key, this.root);
      const before = this.texts.get(location);
      if (before) throw new SentFilesError('template/duplicate-path', `'${key}' and '${before.display}' name the same file`, 'send each file once');
      this.texts.set(location, { display: key, text });
    }
    this.files = new TemplateFiles((location, display) => {
      const file = this.texts.get(location);
      if (!file) return { value: undefined, ok: false, findings: [finding('file/missing', 'error', `the file '${display}' was not sent`, { file: display, line: 1, column: 1 }, 'add it to "files"')] };
      return parseYamlBytes(Buffer.from(file.text, 'utf8'), file.display);
    });
  }

  /**
   * How a location is shown: relative to the root when one was named and it is inside; otherwise as
   * the client wrote it, or as the absolute path it stands for.
   */
  show = (location: string): string => {
    if (this.root !== '/' && location.startsWith(`${this.root}/`)) return location.slice(this.root.length + 1);
    return this.texts.get(location)?.display ?? location;
  };

  /** The sent `*.yaml` files under the root (only its own, not sub-folders', unless `recursive`), by path. */
  list(recursive = true): TreeFile[] {
    const prefix = this.root === '/' ? '/' : `${this.root}/`;
    return [...this.texts.keys()]
      .filter((location) => location.startsWith(prefix) && location.endsWith('.yaml') && (recursive || !location.slice(prefix.length).includes('/')))
      .map((location) => ({ location, display: this.show(location) }))
      .sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  }

  /** A path the client names in the request (an environment, a file to summarise): a key as sent. */
  locate(written: string): TreeFile {
    const location = sentLocation(written, this.root);
    return { location, display: this.show(location) };
  }
}
