/**
 * YAQL tokens, as the reference lexer (yaql 1.x/2.x, ply) makes them: `name(` is one function
 * token, `$name` a variable, bare words are keyword strings unless they are `true`, `false`,
 * `null` or a word operator (`and`, `or`, `not`, `in`, `mod`). Strings take `'…'`, `"…"` and
 * `` `…` `` with backslash escapes.
 */
import { finding, type Finding } from '../findings.js';

export type YaqlTokenKind = 'number' | 'string' | 'word' | 'func' | 'dollar' | 'op' | 'end';

export interface YaqlToken {
  kind: YaqlTokenKind;
  text: string;
  /** Decoded string or number value. */
  value?: string | number;
  column: number;
}

// Longest first: the reference lexer sorts operator patterns by length.
const operators = ['=>', '->', '?.', '=~', '!~', '>=', '<=', '!=', '.', '[', ']', '{', '}', '(', ')', ',', '+', '-', '*', '/', '>', '<', '='];
const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '`': '`', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };

export function tokenizeYaql(text: string): { tokens: YaqlToken[]; findings: Finding[] } {
  const tokens: YaqlToken[] = [];
  let i = 0;
  const error = (code: string, message: string, column: number, hint: string) => ({ tokens, findings: [finding(code, 'error', message, { column }, hint)] });
  while (i < text.length) {
    const c = text[i];
    const column = i + 1;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) {
          const e = text[j + 1];
          if (c === '`') out += e === '`' ? '`' : '\\' + e;
          else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
            out += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
            j += 4;
          } else out += escapes[e] ?? '\\' + e;
          j += 2;
        } else out += text[j++];
      }
      if (j >= text.length) return error('yaql/unterminated-string', `The string starting at column ${column} is never closed.`, column, `Add the closing ${c}.`);
      tokens.push({ kind: 'string', text: text.slice(i, j + 1), value: out, column });
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$\w*/.exec(text.slice(i, i + 256))!;
      tokens.push({ kind: 'dollar', text: m[0], column });
      i += m[0].length;
      continue;
    }
    const rest = text.slice(i, i + 256);
    const number = /^\d+(\.\d+)?(?![\w])/.exec(rest);
    if (number && (i === 0 || !/\w/.test(text[i - 1]))) {
      tokens.push({ kind: 'number', text: number[0], value: Number(number[0]), column });
      i += number[0].length;
      continue;
    }
    const word = /^[^\W\d]\w*/u.exec(rest);
    if (word) {
      if (text[i + word[0].length] === '(') {
        tokens.push({ kind: 'func', text: word[0], column });
        i += word[0].length + 1;
      } else {
        tokens.push({ kind: 'word', text: word[0], column });
        i += word[0].length;
      }
      continue;
    }
    const op = operators.find((o) => text.startsWith(o, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, column });
      i += op.length;
      continue;
    }
    return error('yaql/unexpected-character', `Unexpected character '${c}' at column ${column}.`, column, 'YAQL has no such operator; check the expression against the YAQL subset Fuel used.');
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return { tokens, findings: [] };
}
