/**
 * POSIX shell quoting. Everything Hearth puts on a remote command line (paths, task fields, node
 * names) goes through `quote`: one single-quoted word, in which the shell expands nothing. Values
 * are never interpolated into a command; a value that is data (deployment data, file contents)
 * travels on stdin instead.
 */

/** One shell word that means exactly `value`, whatever it contains. */
export function quote(value: string): string {
  if (value.includes('\0')) throw new Error('a shell word cannot contain a NUL byte');
  if (value !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command line from words, each quoted. */
export const commandLine = (words: readonly string[]): string => words.map(quote).join(' ');
