/**
 * libyaml's indentation leniency. Heat reads templates with libyaml (PyYAML's CSafeLoader) and Fuel
 * read plugins with PyYAML; neither checks the indentation of lines *inside* a quoted scalar or a
 * flow collection (`[...]`, `{...}`). Real files rely on it, e.g. a multi-line single-quoted string
 * whose closing line sits at the key's own indentation. The YAML spec (and eemeli/yaml) require such
 * lines to be indented deeper than the surrounding block, so they reject these files.
 *
 * Inside a quoted scalar or a flow collection, leading spaces on a continuation line carry no meaning
 * (line folding drops them), so indenting those lines changes no value. This module finds exactly the
 * spans where the strict lexer gave up early and indents their continuation lines; the caller parses
 * the result and maps columns back with the returned shifts. Line numbers never change.
 */
import { CST, Lexer } from 'yaml';

export interface RelaxedText {
  text: string;
  /** Spaces inserted at the start of each changed line (1-based line → count). */
  shifts: Map<number, number>;
  /** 1-based lines where a span was re-indented: one per span, for the finding. */
  spans: { line: number; column: number; kind: 'quoted' | 'flow' }[];
}

// Zero-width control tokens of eemeli/yaml's lexer: they mark modes, they are not source text.
const ZERO_WIDTH = new Set([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);
const MAX_FIXES = 500;

/** The offset just past the quoted scalar opening at `start`, ignoring indentation; -1 if unclosed. */
function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote === "'" && c === "'") {
      if (text[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
    if (quote === '"') {
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '"') return i + 1;
    }
  }
  return -1;
}

/** The offset just past the flow collection opening at `start`, ignoring indentation; -1 if unclosed. */
function flowEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    } else if ((c === "'" || c === '"') && /[\s[{,:]/.test(text[i - 1] ?? ' ')) {
      const end = quotedEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === '#' && /\s/.test(text[i - 1] ?? ' ')) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    }
  }
  return -1;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * Indent every non-blank line that starts inside (start, end) to at least one column past `start`.
 * Refuses (null) when a line in the span is a document marker: libyaml rejects those too.
 */
function indentSpan(text: string, start: number, end: number, shifts: Map<number, number>): string | null {
  const minIndent = start - lineStartOf(text, start) + 1;
  let out = '';
  let cursor = 0;
  let changed = false;
  let line = text.slice(0, start).split('\n').length;
  for (let nl = text.indexOf('\n', start); nl >= 0 && nl < end - 1; nl = text.indexOf('\n', nl + 1)) {
    line++;
    const lineStart = nl + 1;
    if (/^(?:---|\.\.\.)(?:[ \t\r\n]|$)/.test(text.slice(lineStart, lineStart + 4))) return null;
    let indent = 0;
    while (text[lineStart + indent] === ' ') indent++;
    const next = text[lineStart + indent];
    if (next === '\n' || next === '\r' || next === undefined || indent >= minIndent) continue;
    const add = minIndent - indent;
    out += text.slice(cursor, lineStart) + ' '.repeat(add);
    cursor = lineStart;
    shifts.set(line, (shifts.get(line) ?? 0) + add);
    changed = true;
  }
  if (!changed) return null;
  return out + text.slice(cursor);
}

/** Line and column of `offset` in the original text (earlier fixes may have indented its line). */
function placeOf(text: string, offset: number, shifts: Map<number, number>): { line: number; column: number } {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  const column = offset - lineStartOf(text, offset) + 1 - (shifts.get(line) ?? 0);
  return { line, column: Math.max(1, column) };
}

/** One pass of the lexer: the first span the strict lexer cut short, re-indented; null if none. */
function fixFirstSpan(text: string, relaxed: RelaxedText): string | null {
  let offset = 0;
  let flowDepth = 0;
  let flowStart = -1;
  for (const token of new Lexer().lex(text)) {
    const at = offset;
    if (!ZERO_WIDTH.has(token)) offset += token.length;
    const type = CST.tokenType(token);
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (flowDepth === 0) flowStart = at;
      flowDepth++;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') {
      flowDepth = Math.max(0, flowDepth - 1);
    } else if (type === 'flow-error-end' && flowStart >= 0) {
      const end = flowEnd(text, flowStart);
      const fixed = end < 0 ? null : indentSpan(text, flowStart, end, relaxed.shifts);
      if (fixed) relaxed.spans.push({ ...placeOf(text, flowStart, relaxed.shifts), kind: 'flow' });
      return fixed;
    } else if (type === 'single-quoted-scalar' || type === 'double-quoted-scalar') {
      const end = quotedEnd(text, at);
      if (end > at + token.length) {
        const fixed = indentSpan(text, at, end, relaxed.shifts);
        if (fixed) relaxed.spans.push({ ...placeOf(text, at, relaxed.shifts), kind: 'quoted' });
        return fixed;
      }
    }
  }
  return null;
}

/**
 * Re-indent the quoted scalars and flow collections that libyaml would read but a strict parser
 * cuts short. Returns null when there is nothing of that kind (the text is wrong some other way).
 */
export function relaxIndentation(text: string): RelaxedText | null {
  const relaxed: RelaxedText = { text, shifts: new Map(), spans: [] };
  for (let i = 0; i < MAX_FIXES; i++) {
    const fixed = fixFirstSpan(relaxed.text, relaxed);
    if (fixed === null) break;
    relaxed.text = fixed;
  }
  return relaxed.spans.length > 0 ? relaxed : null;
}
