/**
 * Disk and volume sizes for people, the same in the CLI and the web UI (issue 26). Fuel's API counts
 * in MB that are MiB (bytes / 1024²), so sizes are shown in binary units, and what people type is
 * read back into those MB.
 */

const MIB_PER_GIB = 1024;

/** `512 MiB`, `15.5 GiB`, `931.5 GiB`: MiB below 1 GiB, else GiB with one decimal (none when whole). */
export function formatMiB(mb: number): string {
  if (!Number.isFinite(mb)) return '-';
  if (Math.abs(mb) < MIB_PER_GIB) return `${Math.round(mb)} MiB`;
  const gib = Math.round((mb / MIB_PER_GIB) * 10) / 10;
  return `${Number.isInteger(gib) ? gib.toFixed(0) : gib.toFixed(1)} GiB`;
}

const UNITS: Record<string, number> = { '': 1, m: 1, mb: 1, mib: 1, g: MIB_PER_GIB, gb: MIB_PER_GIB, gib: MIB_PER_GIB, t: MIB_PER_GIB ** 2, tb: MIB_PER_GIB ** 2, tib: MIB_PER_GIB ** 2 };

/**
 * A size typed by a person, in MB (MiB): `20G`, `20GiB`, `1.5 GiB`, `512M`, `512` (MB, Fuel's unit).
 * GB and MB mean GiB and MiB, as everywhere in Fuel. Undefined when it is not a size.
 */
export function parseMiB(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!m) return undefined;
  const unit = UNITS[m[2].toLowerCase()];
  if (unit === undefined) return undefined;
  const mb = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(mb) ? mb : undefined;
}
