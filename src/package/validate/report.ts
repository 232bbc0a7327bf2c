/**
 * Human-readable validation output: findings grouped by file, each with the offending line and
 * a caret under the column, then the hint; a summary line last. Source lines are read once per
 * file, and only for files that have findings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../core/findings.js';
import type { ValidationResult } from './index.js';

export interface ReportOptions {
  /** Plugin folder, to read the lines findings point at. */
  root: string;
  color?: boolean;
}

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

function sourceLines(root: string, file: string): string[] | undefined {
  try {
    return readFileSync(join(root, file), 'utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}

export function formatReport(result: ValidationResult, options: ReportOptions): string {
  const color = options.color === true;
  const byFile = new Map<string, Finding[]>();
  for (const f of result.findings) {
    const key = f.file ?? '(plugin)';
    const list = byFile.get(key) ?? [];
    list.push(f);
    byFile.set(key, list);
  }
  const out: string[] = [];
  for (const [file, findings] of byFile) {
    out.push(paint(color, '1', file));
    const lines = file === '(plugin)' ? undefined : sourceLines(options.root, file);
    for (const f of findings) {
      const severity = f.severity === 'error' ? paint(color, '31', 'error') : f.severity === 'warning' ? paint(color, '33', 'warning') : paint(color, '36', 'info');
      const where = f.line ? `${f.line}:${f.column ?? 1}` : '';
      out.push(`  ${where ? where + '  ' : ''}${severity}  ${f.message}  ${paint(color, '2', `[${f.code}]`)}`);
      const text = f.line && lines ? lines[f.line - 1] : undefined;
      if (text !== undefined && text.trim() !== '') {
        const number = String(f.line);
        const shown = text.length > 160 ? text.slice(0, 157) + '...' : text;
        out.push(`    ${paint(color, '2', number + ' |')} ${shown}`);
        const column = Math.min(Math.max((f.column ?? 1) - 1, 0), shown.length);
        out.push(`    ${' '.repeat(number.length)} ${paint(color, '2', '|')} ${shown.slice(0, column).replace(/[^\t]/g, ' ')}${paint(color, '31', '^')}`);
      }
      if (f.hint) out.push(`    ${paint(color, '32', 'hint:')} ${f.hint}`);
    }
    out.push('');
  }
  const count = (s: string) => result.findings.filter((f) => f.severity === s).length;
  const [errors, warnings, infos] = [count('error'), count('warning'), count('info')];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const who = result.plugin ? `${result.plugin.name || '(unnamed)'} ${result.plugin.version} (package ${result.plugin.package_version})` : 'the plugin';
  const verdict = result.valid ? paint(color, '32', `${who} is valid`) : paint(color, '31', `${who} is not valid`);
  out.push(`${verdict}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'note')}`);
  return out.join('\n') + '\n';
}

/** The `--json` shape: exactly these keys, in this order. */
export function toJson(result: ValidationResult): string {
  const shaped = {
    plugin: result.plugin ? { name: result.plugin.name, version: result.plugin.version, package_version: result.plugin.package_version } : null,
    valid: result.valid,
    findings: result.findings.map((f) => ({
      code: f.code,
      severity: f.severity,
      message: f.message,
      file: f.file ?? null,
      line: f.line ?? null,
      column: f.column ?? null,
      hint: f.hint ?? null,
    })),
  };
  return JSON.stringify(shaped, null, 2) + '\n';
}
