/** A finding as one line of a command's error output: `file:line:col: error: message [code]`, its hint under it. */
import type { Finding } from '../core/findings.js';

export function formatFinding(f: Finding): string {
  const where = f.file ? `${f.file}${f.line ? `:${f.line}${f.column ? `:${f.column}` : ''}` : ''}: ` : '';
  return `${where}${f.severity}: ${f.message} [${f.code}]${f.hint ? `\n  hint: ${f.hint}` : ''}\n`;
}
