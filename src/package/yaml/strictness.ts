/**
 * Where libyaml (Heat's and PyYAML's reader) is stricter than eemeli/yaml: characters it refuses,
 * and tabs in places its scanner does not skip them. Both checks run only on text that parsed, and
 * report the first offending place; the tab rules err on the side of accepting (see `plainThreshold`).
 */
import { CST, Lexer } from 'yaml';

// PyYAML's Reader.NON_PRINTABLE: everything else is "unacceptable character … control characters are not allowed".
const NON_PRINTABLE = /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Offset of the first character libyaml refuses, or -1. */
export function firstNonPrintable(text: string): number {
  const match = NON_PRINTABLE.exec(text);
  return match ? match.index : -1;
}

const ZERO_WIDTH = new Set([CST.DOCUMENT, CST.FLOW_END, CST.SCALAR]);

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The smallest column a tab may sit at in the blank lines after a plain scalar. libyaml's plain
 * scanner refuses a tab left of the enclosing collection's indentation + 1; we only know the line's
 * own indentation, which is never more than the collection's, so the check flags a subset of what
 * libyaml refuses and never more. A scalar that starts its line gets 0 (no check): its collection's
 * indentation is not visible from here.
 */
function plainThreshold(text: string, at: number): number {
  const start = lineStart(text, at);
  const before = text.slice(start, at);
  if (/^ *$/.test(before)) return 0;
  return before.length - before.trimStart().length + 1;
}

/** First tab in the leading blanks of the line starting at `start` that is left of `threshold`; -1 if none. */
function tabInLeadingBlanks(text: string, start: number, threshold: number): number {
  for (let i = start; i < text.length && (text[i] === ' ' || text[i] === '\t'); i++) {
    if (text[i] === '\t' && i - start < threshold) return i;
  }
  return -1;
}

/**
 * Offset of the first tab libyaml refuses in block context, or -1: in the leading blanks of a line
 * (unless a plain scalar before it allows it, as above), or right after a `-` or `?` indicator.
 */
export function firstRefusedTab(text: string): number {
  if (!text.includes('\t')) return -1;
  // At the start of the stream libyaml skips no tab either (a flow collection there is no exception).
  const first = tabInLeadingBlanks(text, text.charCodeAt(0) === 0xfeff ? 1 : 0, Infinity);
  if (first >= 0) return first;
  let offset = 0;
  let flow = 0;
  let previous: { plain: boolean; threshold: number } = { plain: false, threshold: 0 };
  let afterBlockHeader = false;
  for (const token of new Lexer().lex(text)) {
    const at = offset;
    if (!ZERO_WIDTH.has(token)) offset += token.length;
    const type = CST.tokenType(token);
    if (type === 'space' || type === 'scalar' || type === 'doc-mode') continue;
    if (type === 'flow-seq-start' || type === 'flow-map-start') flow++;
    else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    else if (type === 'flow-error-end') flow = 0;
    if (flow > 0) {
      previous = { plain: false, threshold: 0 };
      continue;
    }
    if (type === 'newline') {
      const threshold = previous.plain ? previous.threshold : Infinity;
      const tab = tabInLeadingBlanks(text, at + token.length, threshold);
      if (tab >= 0) return tab;
      continue;
    }
    if (type === 'seq-item-ind' || type === 'explicit-key-ind') {
      for (let i = at + 1; i < text.length && (text[i] === ' ' || text[i] === '\t'); i++) if (text[i] === '\t') return i;
    }
    if (type === null && !afterBlockHeader) {
      // A plain scalar, possibly over several lines: its own continuation lines obey the same rule.
      const threshold = plainThreshold(text, at);
      for (let nl = token.indexOf('\n'); nl >= 0; nl = token.indexOf('\n', nl + 1)) {
        const tab = tabInLeadingBlanks(text, at + nl + 1, threshold);
        if (tab >= 0) return tab;
      }
      previous = { plain: true, threshold };
    } else {
      previous = { plain: false, threshold: 0 };
    }
    afterBlockHeader = type === 'block-scalar-header';
  }
  return -1;
}
