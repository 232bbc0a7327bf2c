/**
 * One of the processes racing for PGlite data folders (test/faults/pglite-lock.test.ts): for each
 * folder in turn, wait for its agreed instant (spinning, so both contenders start within a
 * millisecond), try to lock it, and keep what it got. Prints one JSON line: per folder, "locked" or
 * the error code. Usage: node --import tsx lock-contender.ts <module> <start-ms> <slot-ms> <dir>...
 */
const [modulePath, start, slot, ...dirs] = process.argv.slice(2);
const { lockDataFolder } = (await import(modulePath!)) as { lockDataFolder: (dir: string) => string };
const outcomes: string[] = [];
for (const [i, dir] of dirs.entries()) {
  const at = Number(start) + i * Number(slot);
  while (Date.now() < at) {
    // spin: a timer would wake each contender up to a few milliseconds late
  }
  try {
    lockDataFolder(dir);
    outcomes.push('locked');
  } catch (err) {
    outcomes.push((err as { code?: string }).code ?? String(err));
  }
}
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
