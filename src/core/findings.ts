/**
 * Findings are Hearth's one way of saying something is wrong (or worth knowing) about user input.
 * Every finding has a stable code (scripts match on it), a severity, a message in plain words,
 * and, where the input came from a file, the place in it. Core functions return findings as values;
 * adapters decide exit codes and HTTP statuses from them.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface SourcePosition {
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

export interface Finding {
  /** Stable, kebab-case, grouped by area: `yaml/duplicate-key`, `task/unknown-dependency`. */
  code: string;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** What to do about it, in plain words. */
  hint?: string;
}

export function finding(
  code: string,
  severity: Severity,
  message: string,
  where?: Partial<SourcePosition>,
  hint?: string,
): Finding {
  const f: Finding = { code, severity, message };
  if (where?.file !== undefined) f.file = where.file;
  if (where?.line !== undefined) f.line = where.line;
  if (where?.column !== undefined) f.column = where.column;
  if (hint !== undefined) f.hint = hint;
  return f;
}

export const hasErrors = (findings: readonly Finding[]): boolean => findings.some((f) => f.severity === 'error');

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** A stable order for output: by file, line, column, then severity and code. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      severityRank[a.severity] - severityRank[b.severity] ||
      a.code.localeCompare(b.code),
  );
}
