/** Exit statuses shared by every command: scripts rely on them. */
export const EXIT_OK = 0;
/** The input was understood and is wrong (validation errors, an invalid selection, a cycle). */
export const EXIT_FINDINGS = 1;
/** Bad usage: unknown flag, missing argument, no such folder. */
export const EXIT_USAGE = 2;

/** Report a usage problem the way commander does, and set the exit status. */
export function usageError(message: string): void {
  process.stderr.write(`hearth: ${message}\n`);
  process.exitCode = EXIT_USAGE;
}
