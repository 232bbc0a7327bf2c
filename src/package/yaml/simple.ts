/**
 * A fast reader for the plain kind of YAML most plugin files are written in: block mappings and
 * sequences indented with spaces, plain, quoted and block scalars, one-line flow collections and
 * flow collections, anchors and aliases of values, comments, and a key repeated in a block mapping
 * (the later value wins, and it is told, as the full reader tells it: Fuel's own library repeats
 * keys, and sending those files to the full reader loaded it for them alone, 0.1 s of every `hearth
 * graph`). It builds the same data, with the same positions, as the full reader (parse.ts) would,
 * and gives up (returns `undefined`) at the first thing outside that subset or anything doubtful:
 * tags, `?` keys in block mappings, merge keys, anchored keys, keys repeated in a flow mapping, tabs, escapes it does
 * not know, quoted implicit keys over several lines, document markers other than a leading `---`, aliases that
 * expand to a lot of data. The full reader then reads the file
 * and says what is wrong with it, if anything.
 *
 * Why it exists: `hearth plugin validate` reads a handful of small files once per run, so the full
 * reader's layers (eemeli/yaml's lexer, parser and composer, then the conversion) ran cold each
 * time and cost more than every check together. test/differential/simple-yaml.test.ts holds the two
 * readers to identical results on the whole corpus and on generated documents.
 */
import type { SourcePosition } from '../../core/findings.js';
import { keyPositionOf, positionOf, recordContainer } from '../../core/positions.js';
import { resolvePlainScalar } from './scalars.js';
import { firstNonPrintable } from './strictness.js';
import { setOwn } from './convert.js';

/** Thrown inside the reader to give up; never escapes `readSimpleYaml`. */
class NotSimple extends Error {}
/** One error object for every give-up: building a stack trace each time would cost more than the reading. */
const GIVE_UP = new NotSimple();

const SPACE = 0x20;
const NEWLINE = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;

/** Nesting deeper than this is left to the full reader (and its limits). */
const MAX_DEPTH = 64;
/** YAML limits implicit keys to 1024 characters. */
const MAX_KEY = 1024;
/** Data larger than this once aliases are expanded is left to the full reader's alias-bomb guard. */
const MAX_EXPANDED = 100_000;
const ANCHOR_CHAR = /[0-9A-Za-z_-]/;
/** The limits this reader keeps below: a caller with tighter ones gets the full reader. */
export const SIMPLE_LIMITS = { depth: MAX_DEPTH + 2, expanded: MAX_EXPANDED } as const;

/** A key met again in one block mapping: where, and where it was before. */
export interface RepeatedKey {
  key: string;
  at: SourcePosition;
  first: SourcePosition;
}

/** The data of `text` and its repeated keys, or undefined when the text is not in the simple subset. Never throws. */
export function readSimpleYaml(text: string, file: string): { value: unknown; repeated: RepeatedKey[] } | undefined {
  if (!plainCharacters(text)) return undefined;
  try {
    const reader = new SimpleReader(text, file);
    return { value: reader.document(), repeated: reader.repeated };
  } catch (err) {
    if (err instanceof NotSimple || err instanceof RangeError) return undefined;
    throw err;
  }
}

/**
 * Characters that send a text to the full reader: controls other than the newline (tabs and
 * carriage returns included), DEL, the C1 controls and NEL, which are line breaks or refused in
 * YAML 1.1, the Unicode line and paragraph separators, and a byte order mark. Code units, as
 * charCodeAt reads them (no u flag).
 */
const NOT_PLAIN = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
/** Anything beyond ASCII: then libyaml's own list of printable characters decides. */
const WIDE = /[^\x00-\x7e]/;

/**
 * Only newlines and printable characters: tabs, carriage returns and controls go to the full reader.
 * Two regular expressions, not a loop over the characters: a `hearth plugin validate` run is over
 * before such a loop leaves V8's interpreter, while the expressions run as compiled matchers from
 * the start (issue 30: lma-collector's 8.5 KB of YAML, 1.2 ms against 0.1 ms in a fresh process).
 */
function plainCharacters(text: string): boolean {
  if (NOT_PLAIN.test(text)) return false;
  return !WIDE.test(text) || firstNonPrintable(text) < 0;
}

const isBreakOrEnd = (c: number) => c === NEWLINE || Number.isNaN(c);
const isBlankOrEnd = (c: number) => c === SPACE || c === NEWLINE || Number.isNaN(c);
/** Characters that may not start a plain scalar here (`-`, `?`, `:` only when a blank follows). */
const INDICATORS = new Set('[]{},#&*!|>\'"%@`'.split('').map((c) => c.charCodeAt(0)));
const FLOW_INDICATORS = new Set('[]{},'.split('').map((c) => c.charCodeAt(0)));
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n', t: '\t', r: '\r', '0': '\0', ' ': ' ' };

class SimpleReader {
  /** Offsets where each line starts, for positions. */
  private readonly lineStarts: number[] = [0];
  /** Current offset; always at the start of a line between block entries. */
  private at = 0;
  /** Anchored values by name (a later anchor of the same name replaces an earlier one). */
  private readonly anchors = new Map<string, unknown>();
  private aliased = false;
  /** Keys repeated in block mappings, in the order the full reader reports them. */
  readonly repeated: RepeatedKey[] = [];

  constructor(
    private readonly s: string,
    private readonly file: string,
  ) {
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  private pos(offset: number): SourcePosition {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: offset - starts[lo] + 1 };
  }

  document(): unknown {
    this.skipEmptyLines(true);
    const s = this.s;
    // A leading `---` alone on its line starts the one document; any other marker is not simple.
    if (s.startsWith('---', this.at) && isBlankOrEnd(s.charCodeAt(this.at + 3))) {
      const rest = this.afterSpaces(this.at + 3);
      if (!isBreakOrEnd(s.charCodeAt(rest))) throw GIVE_UP;
      this.at = this.nextLine(rest);
      this.skipEmptyLines();
    }
    if (this.at >= s.length) return null;
    if (this.indentAt(this.at) !== 0) throw GIVE_UP;
    let value: unknown;
    const c = s.charCodeAt(this.at);
    if (c === 0x5b || c === 0x7b) {
      const flow = this.flow(this.at, 0, -1);
      this.endOfLine(flow.end);
      value = flow.value;
    } else value = this.blockCollection(this.at, 0);
    this.skipEmptyLines();
    if (this.at < s.length) throw GIVE_UP;
    if (this.aliased && expandedSize(value, new Map()) > MAX_EXPANDED) throw GIVE_UP;
    return value;
  }

  /** `&name` or `*name` at `at`: the name and where it ends. */
  private anchorName(at: number): { name: string; end: number } {
    const s = this.s;
    let end = at + 1;
    while (end < s.length && ANCHOR_CHAR.test(s[end])) end++;
    // An empty name, or characters libyaml refuses in one: the full reader says so.
    if (end === at + 1 || !isBlankOrEnd(s.charCodeAt(end))) throw GIVE_UP;
    return { name: s.slice(at + 1, end), end };
  }

  // --- lines -------------------------------------------------------------------------------------

  private nextLine(from: number): number {
    const i = this.s.indexOf('\n', from);
    return i < 0 ? this.s.length : i + 1;
  }

  private afterSpaces(from: number): number {
    const s = this.s;
    let i = from;
    while (s.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** Number of leading spaces of the line starting at `lineStart`. */
  private indentAt(lineStart: number): number {
    return this.afterSpaces(lineStart) - lineStart;
  }

  /** Skip lines that hold only spaces or a comment; document markers are not simple (but the first `---`). */
  private skipEmptyLines(atStart = false): void {
    const s = this.s;
    while (this.at < s.length) {
      const first = this.afterSpaces(this.at);
      const c = s.charCodeAt(first);
      if (isBreakOrEnd(c) || c === HASH) {
        this.at = this.nextLine(first);
        continue;
      }
      if (first === this.at && !(atStart && s.startsWith('---', first)) && (s.startsWith('---', first) || s.startsWith('...', first)) && isBlankOrEnd(s.charCodeAt(first + 3))) throw GIVE_UP;
      return;
    }
  }

  /** After a node on one line: only spaces and a comment may follow; moves to the next line. */
  private endOfLine(from: number): void {
    const s = this.s;
    const i = this.afterSpaces(from);
    const c = s.charCodeAt(i);
    if (c === HASH && i > from) this.at = this.nextLine(i);
    else if (isBreakOrEnd(c)) this.at = this.nextLine(i);
    else throw GIVE_UP;
  }

  // --- block collections -------------------------------------------------------------------------

  /** A block sequence or mapping whose first entry starts at `start` (column `indent`). */
  private blockCollection(start: number, depth: number): unknown {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const s = this.s;
    const indent = start - this.s.lastIndexOf('\n', start - 1) - 1;
    if (s.charCodeAt(start) === DASH && isBlankOrEnd(s.charCodeAt(start + 1))) return this.blockSequence(start, indent, depth);
    return this.blockMapping(start, indent, depth);
  }

  private blockSequence(start: number, indent: number, depth: number): unknown[] {
    const out: unknown[] = [];
    const entry = recordContainer(out, this.pos(start));
    let dash = start;
    for (;;) {
      const item = this.entryValue(this.afterSpaces(dash + 1), indent, depth, true);
      entry.values.set(out.length, item.position);
      out.push(item.value);
      const next = this.nextEntry(indent);
      if (next < 0 || !this.isDash(next)) break;
      dash = next;
    }
    return out;
  }

  /**
   * Where the next entry of a block collection at column `indent` starts, once `this.at` is at the
   * start of the line after the last one; -1 when the collection has ended. A deeper line is not simple.
   */
  private nextEntry(indent: number): number {
    this.skipEmptyLines();
    if (this.at >= this.s.length) return -1;
    const lineIndent = this.indentAt(this.at);
    if (lineIndent < indent) return -1;
    if (lineIndent > indent) throw GIVE_UP;
    return this.at + lineIndent;
  }

  private isDash(at: number): boolean {
    return this.s.charCodeAt(at) === DASH && isBlankOrEnd(this.s.charCodeAt(at + 1));
  }

  private blockMapping(start: number, indent: number, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const entry = recordContainer(out, this.pos(start));
    let keyStart = start;
    for (;;) {
      const { key, colon } = this.blockKey(keyStart);
      const keyPos = this.pos(keyStart);
      const first = entry.keys.get(key);
      if (first) this.repeated.push({ key, at: keyPos, first });
      const value = this.entryValue(this.afterSpaces(colon + 1), indent, depth, false);
      setOwn(out, key, value.value);
      entry.keys.set(key, keyPos);
      entry.values.set(key, value.position);
      const next = this.nextEntry(indent);
      // A sequence at the mapping's own indentation belongs to a parent sequence, if any.
      if (next < 0 || this.isDash(next)) break;
      keyStart = next;
    }
    return out;
  }

  /** A mapping key starting at `start`, up to its `:`. */
  private blockKey(start: number): { key: string; colon: number } {
    const s = this.s;
    const c = s.charCodeAt(start);
    let key: string;
    let end: number;
    if (c === 0x22 || c === 0x27) {
      const quoted = this.quoted(start);
      key = quoted.value;
      end = this.afterSpaces(quoted.end);
    } else {
      if (!this.mayStartPlain(start)) throw GIVE_UP;
      end = start;
      for (;;) {
        const k = s.charCodeAt(end);
        if (isBreakOrEnd(k)) throw GIVE_UP; // a line without `key:`
        if (k === COLON && isBlankOrEnd(s.charCodeAt(end + 1))) break;
        if (k === HASH && s.charCodeAt(end - 1) === SPACE) throw GIVE_UP;
        end++;
      }
      let last = end;
      while (s.charCodeAt(last - 1) === SPACE) last--;
      const text = s.slice(start, last);
      if (text === '<<' || text === '=') throw GIVE_UP;
      key = String(resolvePlainScalar(text));
    }
    if (s.charCodeAt(end) !== COLON || !isBlankOrEnd(s.charCodeAt(end + 1))) throw GIVE_UP;
    if (end - start > MAX_KEY) throw GIVE_UP;
    return { key, colon: end };
  }

  /**
   * The value of a sequence entry or mapping pair whose text starts at `content` (after the
   * indicator and its spaces), in a collection at column `indent`, and where the value is: where
   * it starts, or for an empty value the end of the indicator's line (as eemeli/yaml places it).
   * Leaves `this.at` at the start of the line after the value.
   */
  private entryValue(content: number, indent: number, depth: number, inSequence: boolean): { value: unknown; position: SourcePosition } {
    const s = this.s;
    const c = s.charCodeAt(content);
    if (c === 0x2a) {
      // An alias: the very value its anchor was given (the same object, as PyYAML builds it).
      const { name, end } = this.anchorName(content);
      if (!this.anchors.has(name)) throw GIVE_UP;
      this.endOfLine(end);
      this.aliased = true;
      return { value: this.anchors.get(name), position: this.pos(content) };
    }
    if (c === 0x26) {
      const { name, end } = this.anchorName(content);
      const after = this.afterSpaces(end);
      // `- &a key: value` anchors the key; an anchor with no value at all is rare: both left to the full reader.
      if (inSequence && this.startsCompactCollection(after)) throw GIVE_UP;
      const anchored = this.unanchoredValue(after, indent, depth, inSequence);
      if (anchored.empty) throw GIVE_UP;
      this.anchors.set(name, anchored.value);
      return anchored;
    }
    if (!inSequence && s.startsWith('!!pairs', content) && isBlankOrEnd(s.charCodeAt(content + 7))) return this.pairs(content, indent, depth);
    return this.unanchoredValue(content, indent, depth, inSequence);
  }

  /**
   * `key: !!pairs` over a block sequence of one-pair mappings (Nailgun's openstack.yaml binds
   * wizard choices so): PyYAML builds a list of (key, value) tuples, the full reader `[key, value]`
   * lists, placed at each key. Anything else after the tag (anchors, aliases, a key that is not
   * read as a string whether quoted or not) is left to the full reader.
   */
  private pairs(tag: number, indent: number, depth: number): { value: unknown; position: SourcePosition } {
    const anchors = this.anchors.size;
    const aliased = this.aliased;
    const after = this.afterSpaces(tag + 7);
    const read = this.unanchoredValue(after, indent, depth, false);
    if (!Array.isArray(read.value) || read.value.length === 0 || this.anchors.size !== anchors || this.aliased !== aliased) throw GIVE_UP;
    const out: unknown[] = [];
    const entry = recordContainer(out, positionOf(read.value) ?? read.position);
    for (const item of read.value) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) throw GIVE_UP;
      const keys = Object.keys(item);
      if (keys.length !== 1 || resolvePlainScalar(keys[0]) !== keys[0]) throw GIVE_UP;
      entry.values.set(out.length, keyPositionOf(item, keys[0])!);
      out.push([keys[0], (item as Record<string, unknown>)[keys[0]]]);
    }
    return { value: out, position: read.position };
  }

  private unanchoredValue(content: number, indent: number, depth: number, inSequence: boolean): { value: unknown; position: SourcePosition; empty?: boolean } {
    const s = this.s;
    const here = this.pos(content);
    const c = s.charCodeAt(content);
    if (isBreakOrEnd(c) || c === HASH) {
      // Nothing on this line: the value is on the lines below, or empty.
      if (c === HASH && s.charCodeAt(content - 1) !== SPACE) throw GIVE_UP;
      this.at = this.nextLine(content);
      this.skipEmptyLines();
      if (this.at >= s.length) return { value: null, position: here, empty: true };
      const lineIndent = this.indentAt(this.at);
      const first = this.at + lineIndent;
      const isDash = s.charCodeAt(first) === DASH && isBlankOrEnd(s.charCodeAt(first + 1));
      // A mapping's value may be a sequence at the mapping's own indentation.
      if (lineIndent > indent || (lineIndent === indent && isDash && !inSequence)) {
        return { value: this.nodeOnItsOwnLine(first, indent, depth), position: this.pos(first) };
      }
      return { value: null, position: here, empty: true };
    }
    if (inSequence && this.startsCompactCollection(content)) return { value: this.blockCollection(content, depth + 1), position: here };
    return { value: this.inlineNode(content, indent, depth), position: here };
  }

  /** A node that starts a line of its own, below its key or dash. */
  private nodeOnItsOwnLine(first: number, parentIndent: number, depth: number): unknown {
    if (this.startsCompactCollection(first)) return this.blockCollection(first, depth + 1);
    return this.inlineNode(first, parentIndent, depth);
  }

  /** Whether the text at `at` opens a block sequence (`- `) or a block mapping (`key: `). */
  private startsCompactCollection(at: number): boolean {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (c === DASH && isBlankOrEnd(s.charCodeAt(at + 1))) return true;
    if (c === 0x22 || c === 0x27) {
      let end: number;
      try {
        end = this.quoted(at).end;
      } catch {
        return false;
      }
      end = this.afterSpaces(end);
      return s.charCodeAt(end) === COLON && isBlankOrEnd(s.charCodeAt(end + 1));
    }
    if (c === 0x5b || c === 0x7b) return false;
    for (let i = at; ; i++) {
      const k = s.charCodeAt(i);
      if (isBreakOrEnd(k)) return false;
      if (k === HASH && s.charCodeAt(i - 1) === SPACE) return false;
      if (k === COLON && isBlankOrEnd(s.charCodeAt(i + 1))) return true;
    }
  }

  // --- scalars and flow collections ----------------------------------------------------------------

  /** A scalar or flow collection starting at `at`, inside a block collection at column `indent`. */
  private inlineNode(at: number, indent: number, depth: number): unknown {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (c === 0x5b || c === 0x7b) {
      const flow = this.flow(at, depth + 1, indent);
      this.endOfLine(flow.end);
      return flow.value;
    }
    if (c === 0x22 || c === 0x27) {
      const quoted = this.quoted(at, indent);
      this.endOfLine(quoted.end);
      return quoted.value;
    }
    if (c === 0x7c || c === 0x3e) return this.blockScalar(at, indent);
    if (!this.mayStartPlain(at)) throw GIVE_UP;
    return this.plain(at, indent);
  }

  private mayStartPlain(at: number): boolean {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (INDICATORS.has(c)) return false;
    // `-`, `?` and `:` start a scalar only before a character that could continue one in any context.
    if (c === DASH || c === 0x3f || c === COLON) return !isBlankOrEnd(s.charCodeAt(at + 1)) && !FLOW_INDICATORS.has(s.charCodeAt(at + 1));
    return !isBreakOrEnd(c);
  }

  /** A block-context plain scalar, folded over more-indented continuation lines as PyYAML does. */
  private plain(at: number, indent: number): unknown {
    const s = this.s;
    let text = '';
    let lineStart = at;
    let breaks = 0;
    for (;;) {
      // One line of the scalar, up to ` #`, `: ` or the end of the line.
      let end = lineStart;
      let ended = false;
      for (;;) {
        const k = s.charCodeAt(end);
        if (isBreakOrEnd(k)) break;
        if (k === COLON && isBlankOrEnd(s.charCodeAt(end + 1))) throw GIVE_UP;
        if (k === HASH && s.charCodeAt(end - 1) === SPACE) {
          ended = true;
          break;
        }
        end++;
      }
      let last = end;
      while (s.charCodeAt(last - 1) === SPACE) last--;
      const line = s.slice(lineStart, last);
      if (text === '') text = line;
      else text += breaks === 1 ? ` ${line}` : '\n'.repeat(breaks - 1) + line;
      this.at = this.nextLine(end);
      if (ended) break;
      // Continuation: the next non-empty line, indented past the collection; empty lines count.
      breaks = 1;
      let next = this.at;
      let found = -1;
      while (next < s.length) {
        const first = this.afterSpaces(next);
        const k = s.charCodeAt(first);
        if (isBreakOrEnd(k)) {
          breaks++;
          next = this.nextLine(first);
          continue;
        }
        if (k !== HASH && first - next > indent) found = first;
        break;
      }
      if (found < 0) break;
      if (s.charCodeAt(found) === HASH) break;
      // `---` or `...` at column 0 cannot be reached here: continuation lines are indented.
      lineStart = found;
    }
    if (text === '=') throw GIVE_UP;
    return resolvePlainScalar(text);
  }

  /**
   * A single- or double-quoted scalar. Keys stay on one line (`multiLine` absent); values may go on
   * over lines indented past the collection at column `multiLine`, folded as YAML folds them: the
   * spaces around a line break go, one break becomes a space, each further one a line feed.
   */
  private quoted(at: number, multiLine?: number): { value: string; end: number } {
    const s = this.s;
    const quote = s.charCodeAt(at);
    let value = '';
    let from = at + 1;
    for (let i = at + 1; ; i++) {
      const k = s.charCodeAt(i);
      if (Number.isNaN(k)) throw GIVE_UP;
      if (k === NEWLINE) {
        if (multiLine === undefined) throw GIVE_UP;
        // An escaped line break (`\` at the end of the line) joins without a space: left to the full reader.
        if (quote === 0x22 && s.charCodeAt(i - 1) === 0x5c && i - 1 >= from) throw GIVE_UP;
        let last = i;
        while (last > from && s.charCodeAt(last - 1) === SPACE) last--;
        value += s.slice(from, last);
        let breaks = 0;
        let next = i;
        for (;;) {
          breaks++;
          const lineStart = next + 1;
          next = this.afterSpaces(lineStart);
          const c = s.charCodeAt(next);
          if (c === NEWLINE) continue;
          if (Number.isNaN(c)) throw GIVE_UP;
          // Continuation lines no deeper than the collection: libyaml's leniency, reported by the full reader.
          if (next - lineStart <= multiLine) throw GIVE_UP;
          if (next === lineStart && (s.startsWith('---', next) || s.startsWith('...', next))) throw GIVE_UP;
          break;
        }
        value += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
        from = next;
        i = next - 1;
        continue;
      }
      if (quote === 0x27) {
        if (k !== 0x27) continue;
        value += s.slice(from, i);
        if (s.charCodeAt(i + 1) === 0x27) {
          value += "'";
          i++;
          from = i + 1;
          continue;
        }
        return { value, end: i + 1 };
      }
      if (k === 0x22) return { value: value + s.slice(from, i), end: i + 1 };
      if (k === 0x5c) {
        value += s.slice(from, i);
        const escaped = this.escape(i);
        value += escaped.text;
        i = escaped.end - 1;
        from = escaped.end;
      }
    }
  }

  /** The escapes PyYAML and eemeli/yaml read alike; anything rarer goes to the full reader. */
  private escape(at: number): { text: string; end: number } {
    const s = this.s;
    const k = s[at + 1];
    if (k !== undefined && Object.hasOwn(ESCAPES, k)) return { text: ESCAPES[k], end: at + 2 };
    const width = k === 'x' ? 2 : k === 'u' ? 4 : 0;
    if (width === 0) throw GIVE_UP;
    const hex = s.slice(at + 2, at + 2 + width);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== width) throw GIVE_UP;
    const code = parseInt(hex, 16);
    if (code >= 0xd800 && code < 0xe000) throw GIVE_UP;
    return { text: String.fromCharCode(code), end: at + 2 + width };
  }

  /** `|` or `>` with an optional chomping indicator; the content is the more-indented lines below. */
  private blockScalar(at: number, indent: number): string {
    const s = this.s;
    const folded = s.charCodeAt(at) === 0x3e;
    let i = at + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    if (s[i] === '-' || s[i] === '+') {
      chomp = s[i] === '-' ? 'strip' : 'keep';
      i++;
    }
    if (!isBlankOrEnd(s.charCodeAt(i))) throw GIVE_UP; // indentation indicators and the like
    this.endOfLine(i);
    // The content's indentation is that of its first non-empty line.
    const lines: string[] = [];
    let contentIndent = -1;
    let emptyBefore = 0;
    let longestEmpty = 0;
    let lastHadBreak = true;
    while (this.at < s.length) {
      const first = this.afterSpaces(this.at);
      const spaces = first - this.at;
      const k = s.charCodeAt(first);
      if (isBreakOrEnd(k)) {
        if (contentIndent >= 0 && spaces > contentIndent) throw GIVE_UP; // spaces that are content
        longestEmpty = Math.max(longestEmpty, spaces);
        emptyBefore++;
        this.at = this.nextLine(first);
        continue;
      }
      if (contentIndent < 0) {
        if (spaces <= indent) break;
        if (longestEmpty > spaces) throw GIVE_UP;
        contentIndent = spaces;
      } else if (spaces < contentIndent) break;
      for (let e = 0; e < emptyBefore; e++) lines.push('');
      emptyBefore = 0;
      const end = this.nextLine(first);
      const lineEnd = s.charCodeAt(end - 1) === NEWLINE ? end - 1 : end;
      lines.push(s.slice(this.at + contentIndent, lineEnd));
      lastHadBreak = lineEnd < end;
      this.at = end;
    }
    const trailingBreaks = emptyBefore;
    if (lines.length === 0) {
      if (chomp === 'keep') throw GIVE_UP; // only kept line breaks: rare, and readers differ
      return '';
    }
    // The last line of the file without a line break: readers differ on what clipping keeps.
    if (!lastHadBreak) throw GIVE_UP;
    let body: string;
    if (!folded) body = lines.join('\n');
    else {
      // Leading empty lines stay line breaks; folding starts at the first line with text.
      let first = 0;
      while (lines[first] === '') first++;
      body = '\n'.repeat(first) + lines[first];
      let empties = 0;
      let previous = lines[first];
      for (let n = first + 1; n < lines.length; n++) {
        const line = lines[n];
        if (line === '') {
          empties++;
          continue;
        }
        const moreIndented = (l: string) => l.charCodeAt(0) === SPACE;
        if (!moreIndented(previous) && !moreIndented(line)) body += empties === 0 ? ' ' : '\n'.repeat(empties);
        else body += '\n'.repeat(empties + 1);
        body += line;
        previous = line;
        empties = 0;
      }
    }
    if (chomp === 'strip') return body;
    if (chomp === 'clip') return `${body}\n`;
    return `${body}\n${'\n'.repeat(trailingBreaks)}`;
  }

  /**
   * A flow sequence or mapping starting at `at` (`[` or `{`), inside a block collection at column
   * `indent`. It may span lines when every continuation line is indented past that column (libyaml
   * reads less-indented ones too, which the full reader reports; so it gets those).
   */
  private flow(at: number, depth: number, indent: number): { value: unknown; end: number } {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const s = this.s;
    const isMap = s.charCodeAt(at) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const seq: unknown[] = [];
    const map: Record<string, unknown> = {};
    const out = isMap ? map : seq;
    const entry = recordContainer(out, this.pos(at));
    let i = this.flowSpace(at + 1, indent);
    for (;;) {
      const k = s.charCodeAt(i);
      if (k === close) return { value: out, end: i + 1 };
      if (Number.isNaN(k) || k === 0x2c) throw GIVE_UP;
      // `? key : value`: an explicit key, as PyYAML writes a key longer than 128 characters (Fuel's
      // restrictions with long conditions: `{? 'cond ...' : message}`); it may go on over lines.
      const explicit = isMap && k === 0x3f && isBlankOrEnd(s.charCodeAt(i + 1));
      if (explicit) i = this.flowSpace(i + 1, indent);
      const itemStart = i;
      const item = this.flowScalarOrCollection(i, depth, indent);
      i = this.flowSpace(item.end, indent);
      if (isMap) {
        if (s.charCodeAt(i) !== COLON || (typeof item.value === 'object' && item.value !== null)) throw GIVE_UP;
        // PyYAML refuses an implicit key over several lines ("could not find expected ':'").
        if (!explicit) for (let k = itemStart; k < item.end; k++) if (s.charCodeAt(k) === NEWLINE) throw GIVE_UP;
        const key = String(item.value);
        if (entry.keys.has(key)) throw GIVE_UP;
        // `a:b` and empty values are rare in flow mappings, and readers differ on them.
        if (!item.quoted && !isBlankOrEnd(s.charCodeAt(i + 1))) throw GIVE_UP;
        const valueAt = this.flowSpace(i + 1, indent);
        const v = s.charCodeAt(valueAt);
        if (v === 0x2c || v === close || Number.isNaN(v)) throw GIVE_UP;
        const value = this.flowScalarOrCollection(valueAt, depth, indent);
        setOwn(map, key, value.value);
        entry.keys.set(key, this.pos(itemStart));
        entry.values.set(key, this.pos(valueAt));
        i = this.flowSpace(value.end, indent);
      } else {
        if (s.charCodeAt(i) === COLON) throw GIVE_UP; // a single-pair mapping inside a sequence
        entry.values.set(seq.length, this.pos(itemStart));
        seq.push(item.value);
      }
      const sep = s.charCodeAt(i);
      if (sep === 0x2c) i = this.flowSpace(i + 1, indent);
      else if (sep !== close) throw GIVE_UP;
    }
  }

  /** Skip spaces, line breaks and comments inside a flow collection. */
  private flowSpace(from: number, indent: number): number {
    const s = this.s;
    let i = from;
    for (;;) {
      const k = s.charCodeAt(i);
      if (k === SPACE) i++;
      else if (k === HASH && (i === from ? isBlankOrEnd(s.charCodeAt(i - 1)) : true)) {
        const nl = s.indexOf('\n', i);
        i = nl < 0 ? s.length : nl;
      } else if (k === NEWLINE) {
        const lineStart = i + 1;
        i = this.afterSpaces(lineStart);
        const c = s.charCodeAt(i);
        // A closing bracket may stand at the collection's own indentation (Nailgun's openstack.yaml
        // closes its PCI id lists so; the full reader accepts it without a word); anything else there is not simple.
        if (!isBreakOrEnd(c) && c !== HASH && (i - lineStart < indent || (i - lineStart === indent && c !== 0x5d && c !== 0x7d))) throw GIVE_UP;
        if (i === lineStart && (s.startsWith('---', i) || s.startsWith('...', i))) throw GIVE_UP;
      } else return i;
    }
  }

  private flowScalarOrCollection(at: number, depth: number, indent: number): { value: unknown; end: number; quoted?: boolean } {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (c === 0x5b || c === 0x7b) return this.flow(at, depth + 1, indent);
    if (c === 0x22 || c === 0x27) return { ...this.quoted(at, indent), quoted: true };
    if (!this.mayStartPlain(at)) throw GIVE_UP;
    // A plain scalar may go on over lines (PyYAML writes long flow values so), folded like a block one.
    let text = '';
    let lineStart = at;
    let breaks = 0;
    for (;;) {
      let end = lineStart;
      for (;;) {
        const k = s.charCodeAt(end);
        if (isBreakOrEnd(k) || FLOW_INDICATORS.has(k)) break;
        if (k === COLON) break;
        // PyYAML ends a flow scalar at `?`; a comment right after one is rare.
        if (k === 0x3f || (k === HASH && s.charCodeAt(end - 1) === SPACE)) throw GIVE_UP;
        end++;
      }
      let last = end;
      while (s.charCodeAt(last - 1) === SPACE) last--;
      const piece = s.slice(lineStart, last);
      text = breaks === 0 ? piece : text + (breaks === 1 ? ' ' : '\n'.repeat(breaks - 1)) + piece;
      const next = s.charCodeAt(end);
      if (next === COLON && !isBlankOrEnd(s.charCodeAt(end + 1)) && !FLOW_INDICATORS.has(s.charCodeAt(end + 1))) throw GIVE_UP;
      const continued = next === NEWLINE ? this.plainContinuation(end, indent) : undefined;
      if (!continued) {
        if (text === '=' || text === '<<') throw GIVE_UP;
        return { value: resolvePlainScalar(text), end: last };
      }
      lineStart = continued.at;
      breaks = continued.breaks;
    }
  }

  /**
   * After a flow plain scalar's line ends at `newline`: where it goes on, and over how many line
   * breaks, or undefined when the next text ends it (`,`, `]`, `}`, `:`, a comment).
   */
  private plainContinuation(newline: number, indent: number): { at: number; breaks: number } | undefined {
    const s = this.s;
    let next = newline;
    let breaks = 0;
    let lineStart = newline + 1;
    for (;;) {
      breaks++;
      lineStart = next + 1;
      next = this.afterSpaces(lineStart);
      if (s.charCodeAt(next) !== NEWLINE) break;
    }
    const c = s.charCodeAt(next);
    if (Number.isNaN(c) || FLOW_INDICATORS.has(c) || c === COLON || c === HASH) return undefined;
    if (next - lineStart <= indent) throw GIVE_UP; // libyaml's leniency: the full reader reports it
    if (next === lineStart && (s.startsWith('---', next) || s.startsWith('...', next))) throw GIVE_UP;
    return { at: next, breaks };
  }
}

/** Number of values in `value` with every alias expanded, counting a shared value once per use. */
function expandedSize(value: unknown, known: Map<object, number>): number {
  if (value === null || typeof value !== 'object') return 1;
  const seen = known.get(value);
  if (seen !== undefined) return seen;
  let size = 1;
  for (const item of Object.values(value)) {
    size += expandedSize(item, known);
    if (size > MAX_EXPANDED) break;
  }
  known.set(value, size);
  return size;
}
