/**
 * Output formats of every list and show command, as fuelclient and openstackclient (cliff) print
 * them: `-f table|json|yaml|csv|value` and `-c COLUMN` (repeatable). `--json` is `-f json`.
 *
 * - table: today's tables and descriptions for people; with -c, a list's chosen columns, a show's
 *   chosen fields as a field/value table.
 * - json, yaml: without -c exactly what `--json` printed before (the API's objects); with -c,
 *   objects of the chosen columns only.
 * - csv: a header row, then one row per record; every value not a number in double quotes (cliff's
 *   default, QUOTE_NONNUMERIC).
 * - value: no headers; a list's values space-separated, one record a line; a show's values one a line.
 *
 * What the server answers is text from plugins and operators: every control character is escaped
 * here, before the terminal filter (cli/terminal.ts), which lets Hearth's own colours through and
 * could not tell a plugin title's `\x1b[31m` from one of them.
 */
import type { Command } from 'commander';
import { escapeControls } from '../core/text/controls.js';

export const FORMATS = ['table', 'json', 'yaml', 'csv', 'value'] as const;
export type Format = (typeof FORMATS)[number];

/** The options `outputOptions` declares (and `--json`, which every such command keeps). */
export interface OutputOptions {
  format?: string;
  column?: string[];
  json?: boolean;
}

/** Bad usage of -f or -c: the command prints it and ends with exit status 2. */
export class OutputError extends Error {}

/** A list's column: its header in tables and the value it shows of each record. */
export interface Column<T> {
  header: string;
  value: (record: T) => unknown;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Declares -f and -c on a list or show command; `-f json` is also read as `--json`, so refusals print the server's JSON as they did. */
export function outputOptions(cmd: Command, kind: 'list' | 'show'): Command {
  return cmd
    .option('-f, --format <format>', `output format: ${FORMATS.join(', ')} (default: table; --json is -f json)`)
    .option('-c, --column <column>', kind === 'list' ? 'print only this column (repeatable, in the order given)' : 'print only this field (repeatable, in the order given)', collect, [])
    .hook('preAction', (_program, action) => {
      if (action.opts().format === 'json') action.setOptionValue('json', true);
    });
}

/** The format asked for; an unknown one, or `--json` beside another, is refused naming the valid ones. */
export function chosenFormat(o: OutputOptions): Format {
  if (o.format === undefined) return o.json ? 'json' : 'table';
  const format = o.format.toLowerCase();
  if (!(FORMATS as readonly string[]).includes(format)) throw new OutputError(`-f '${o.format}' is not an output format; use one of ${FORMATS.join(', ')}`);
  if (o.json && format !== 'json') throw new OutputError(`--json means -f json; give one of --json and -f ${format}`);
  return format as Format;
}

/** A header as a key: `pending roles` → `pending_roles`. */
const keyOf = (header: string) => header.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** The columns chosen with -c, by key or header, any case; an unknown one is refused naming them all. */
function chooseColumns(asked: readonly string[] | undefined, known: readonly string[], what: string): string[] {
  if (!asked?.length) return [...known];
  const byKey = new Map(known.map((k) => [keyOf(k), k]));
  return asked.map((c) => {
    const found = byKey.get(keyOf(c));
    if (found === undefined) throw new OutputError(`-c '${c}' is not a ${what}; the ${what}s are ${known.map(keyOf).join(', ')}`);
    return found;
  });
}

/** A value in one cell of csv or value: lists of plain values joined by commas, anything deeper as JSON. */
function cellText(v: unknown, empty: string): string {
  if (v === null || v === undefined) return empty;
  if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== 'object') ? v.map((x) => cellText(x, '')).join(',') || empty : JSON.stringify(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const csvCell = (v: unknown) => (typeof v === 'number' ? String(v) : `"${cellText(v, '').replace(/"/g, '""')}"`);

export async function yamlText(value: unknown): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(value, { lineWidth: 0 });
}

/** Plain-text table: a header, a rule, the rows; an absent value is `-`. */
export function table(headers: string[], rows: Array<Array<unknown>>): string {
  const text = rows.map((r) => r.map((c) => escapeControls(cellText(c, '-'))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n') + '\n';
}

/**
 * A list command's output. Check it before asking the server (`listOutput(o, columns)` throws on
 * bad -f or -c), then `render(records, raw)`: `raw` is what `--json` printed before.
 */
export function listOutput<T>(o: OutputOptions, columns: ReadonlyArray<Column<T>>): { format: Format; render(records: readonly T[], raw?: unknown): Promise<string> } {
  const format = chosenFormat(o);
  const chosen = chooseColumns(o.column, columns.map((c) => c.header), 'column').map((h) => columns.find((c) => c.header === h)!);
  const picked = !!o.column?.length;
  return {
    format,
    async render(records, raw = records) {
      const rows = records.map((r) => chosen.map((c) => c.value(r)));
      const objects = () => rows.map((row) => Object.fromEntries(chosen.map((c, i) => [keyOf(c.header), row[i] ?? null])));
      switch (format) {
        case 'table':
          return table(chosen.map((c) => c.header), rows);
        case 'json':
          return escapeControls(`${JSON.stringify(picked ? objects() : raw, null, 2)}\n`);
        case 'yaml':
          return escapeControls(await yamlText(picked ? objects() : raw));
        case 'csv':
          return escapeControls([chosen.map((c) => csvCell(keyOf(c.header))), ...rows.map((row) => row.map(csvCell))].map((cells) => `${cells.join(',')}\n`).join(''));
        case 'value':
          return escapeControls(rows.map((row) => `${row.map((v) => cellText(v, '')).join(' ')}\n`).join(''));
      }
    },
  };
}

/**
 * A show command's output: `human` for the table format without -c (the description people read
 * today); otherwise the record's fields, all or those chosen with -c.
 */
export async function showOutput(o: OutputOptions, record: Record<string, unknown>, human: () => string): Promise<string> {
  const format = chosenFormat(o);
  const picked = !!o.column?.length;
  if (format === 'table' && !picked) return escapeControls(human());
  const fields = chooseColumns(o.column, Object.keys(record), 'field');
  const chosen = picked ? Object.fromEntries(fields.map((f) => [f, record[f] ?? null])) : record;
  switch (format) {
    case 'table':
      return table(['field', 'value'], fields.map((f) => [f, cellText(record[f], '-')]));
    case 'json':
      return escapeControls(`${JSON.stringify(chosen, null, 2)}\n`);
    case 'yaml':
      return escapeControls(await yamlText(chosen));
    case 'csv':
      return escapeControls(`${fields.map(csvCell).join(',')}\n${fields.map((f) => csvCell(record[f])).join(',')}\n`);
    case 'value':
      return escapeControls(fields.map((f) => `${cellText(record[f], '')}\n`).join(''));
  }
}

/**
 * A list command whose table format is a page for people (a table with findings and notes under
 * it, as `env networks` or `node disks` print): that page for the table format without -c, else
 * the records as `listOutput` renders them. Check `chosenFormat(o)` before asking the server.
 */
export async function listOrPage<T>(o: OutputOptions, columns: ReadonlyArray<Column<T>>, records: readonly T[], raw: unknown, page: () => string): Promise<string> {
  if (chosenFormat(o) === 'table' && !o.column?.length) return escapeControls(page());
  return listOutput(o, columns).render(records, raw);
}
