/** Reading YAML (and JSON) files from disk: the checks that need bytes, not text. */
import { readFileSync, statSync } from 'node:fs';
import { finding, type Finding } from '../../core/findings.js';
import { controlCharacterFindings } from './controls.js';
import { parseYaml, type ParsedYaml, type YamlParseOptions } from './parse.js';

export interface ReadOptions extends YamlParseOptions {
  /** Files larger than this are refused before reading (bytes). */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The finding for a file or folder the system would not let Hearth read: a missing one is
 * `file/missing`; one it may not read (permissions, an I/O error) is `file/unreadable` naming the
 * reason, where reading it used to end `plugin validate` with a stack trace and the API with a 500.
 */
export function readFailure(err: unknown, displayPath: string, where: { file: string; line?: number; column?: number } = { file: displayPath, line: 1, column: 1 }): Finding {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return finding('file/missing', 'error', `the file '${displayPath}' does not exist`, where);
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : code ? `${code}: ${(err as Error).message.replace(/^[A-Z]+: /, '')}` : String(err);
  return finding('file/unreadable', 'error', `'${displayPath}' cannot be read (${why})`, where, code === 'EACCES' || code === 'EPERM' ? 'give the user running Hearth read access to it (and search access to its folders)' : 'check the file and the disk');
}

/**
 * Read and parse a YAML or JSON file. `displayPath` is what findings name (usually relative to the
 * plugin or tree root). Never throws for bad content; a missing file is a finding too.
 */
export function readYamlFile(path: string, displayPath: string, options: ReadOptions = {}): ParsedYaml {
  const where = { file: displayPath, line: 1, column: 1 };
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) {
      return { value: undefined, ok: false, findings: [finding('file/not-a-file', 'error', `'${displayPath}' is not a regular file`, where)] };
    }
    size = stat.size;
  } catch (err) {
    return { value: undefined, ok: false, findings: [readFailure(err, displayPath, where)] };
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (size > maxBytes) {
    return {
      value: undefined,
      ok: false,
      findings: [finding('file/too-large', 'error', `'${displayPath}' is ${size} bytes, over the limit of ${maxBytes}`, where, 'split the file or trim it')],
    };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { value: undefined, ok: false, findings: [readFailure(err, displayPath, where)] };
  }
  return parseYamlBytes(bytes, displayPath, options);
}

/** Decode bytes (UTF-8, an optional BOM) and parse them. */
export function parseYamlBytes(bytes: Uint8Array, displayPath: string, options: YamlParseOptions = {}): ParsedYaml {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      value: undefined,
      ok: false,
      findings: [
        finding('file/not-utf8', 'error', `'${displayPath}' is not valid UTF-8 text (bad byte at offset ${at.offset})`, { file: displayPath, line: at.line, column: at.column }, 'save the file as UTF-8'),
      ],
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) {
    return {
      value: undefined,
      ok: false,
      findings: [finding('file/binary', 'error', `'${displayPath}' holds NUL bytes: it is not a text file`, { file: displayPath, line: 1, column: 1 })],
    };
  }
  const parsed = parseYaml(text, displayPath, options);
  // Raw control characters are refused by the reader; only a double-quoted escape makes one.
  if (parsed.ok && text.includes('\\')) parsed.findings.push(...controlCharacterFindings(parsed.value, displayPath));
  return parsed;
}

function firstInvalidUtf8(bytes: Uint8Array): { offset: number; line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) {
      line++;
      lineStart = i + 1;
      continue;
    }
    if (b < 0x80) continue;
    const len = b >= 0xf0 && b < 0xf8 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
    let ok = len > 0 && i + len <= bytes.length;
    for (let k = 1; ok && k < len; k++) ok = (bytes[i + k] & 0xc0) === 0x80;
    if (!ok) return { offset: i, line, column: i - lineStart + 1 };
    i += len - 1;
  }
  return { offset: 0, line: 1, column: 1 };
}
