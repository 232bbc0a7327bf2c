/**
 * Tokens of the restriction language. Follows Fuel UI's lexer (the Jison grammar, which agrees
 * with Nailgun's ply lexer on everything real data uses), with two deliberate differences:
 * - a character outside the language is an error. Fuel skipped it silently, which turned
 *   `x in ['a']` into a substring test against `'a'`; Hearth reports it instead;
 * - keywords are whole words, so a model named `trueish:` is a model, not `true` + garbage.
 */
import { finding, type Finding } from '../findings.js';

export type TokenKind = 'number' | 'string' | 'true' | 'false' | 'null' | 'in' | 'and' | 'or' | 'not' | 'reference' | '==' | '!=' | '(' | ')' | 'end';

export interface Token {
  kind: TokenKind;
  /** The token's text (for strings, without quotes). */
  text: string;
  /** 1-based column. */
  column: number;
}

const keywords = new Set(['true', 'false', 'null', 'in', 'and', 'or', 'not']);
const wordChar = /[\w.\-:]/;

export function tokenize(text: string): { tokens: Token[]; findings: Finding[] } {
  const tokens: Token[] = [];
  const findings: Finding[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const column = i + 1;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) {
        findings.push(
          finding('expression/unterminated-string', 'error', `The string starting at column ${column} is never closed.`, { column }, `Add the closing ${c}.`),
        );
        return { tokens, findings };
      }
      tokens.push({ kind: 'string', text: text.slice(i + 1, close), column });
      i = close + 1;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: c, text: c, column });
      i++;
      continue;
    }
    if ((c === '=' || c === '!') && text[i + 1] === '=') {
      tokens.push({ kind: c === '=' ? '==' : '!=', text: c + '=', column });
      i += 2;
      continue;
    }
    const number = /^-?\d+(\.\d+)?(?![\w.\-:])/.exec(text.slice(i, i + 64));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], column });
      i += number[0].length;
      continue;
    }
    if (wordChar.test(c)) {
      let j = i;
      while (j < text.length && wordChar.test(text[j])) j++;
      const word = text.slice(i, j);
      if (keywords.has(word)) tokens.push({ kind: word as TokenKind, text: word, column });
      else tokens.push({ kind: 'reference', text: word, column });
      i = j;
      continue;
    }
    const hint =
      c === '[' || c === ']'
        ? 'The restriction language has no list literals; test each value with `==` joined by `or`.'
        : c === '='
          ? 'Equality is written `==`.'
          : 'Remove it; Fuel silently ignored such characters, which changed what the condition meant.';
    findings.push(finding('expression/unexpected-character', 'error', `Unexpected character '${c}' at column ${column}.`, { column }, hint));
    return { tokens, findings };
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return { tokens, findings };
}
