/** Plain-text tables for people; `--json` prints the server's JSON instead. */
export function table(headers: string[], rows: Array<Array<unknown>>): string {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : Array.isArray(c) ? c.join(',') || '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n') + '\n';
}

export function print(json: boolean | undefined, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : human());
}
