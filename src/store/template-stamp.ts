/**
 * Which of Hearth's migrations the build-time database template holds (scripts/pgdata-template.mjs
 * applies them all), each as its version and a digest of its SQL. A first start restores the
 * template only when every migration in it is the very one this Hearth has: migrate() then applies
 * the ones after it, as on any database. A template made from other migrations (a checkout whose
 * migrations changed since its last build) is not used; PGlite's own initdb makes the folder then.
 */
import { createHash } from 'node:crypto';
import type { Migration } from './migrations.js';

/** [version, sha256 of the SQL] per migration, in version order. */
export type SchemaStamp = Array<[number, string]>;

export function schemaStamp(migrations: readonly Migration[]): SchemaStamp {
  return [...migrations].sort((a, b) => a.version - b.version).map((m) => [m.version, createHash('sha256').update(m.sql).digest('hex')]);
}

/**
 * Whether a template holding `template`'s migrations may start a database for code with `code`'s:
 * each of the template's is one of the code's, the same SQL. A template from before migrations
 * were applied to it says nothing (undefined): it is an empty database, which fits any code.
 */
export function templateFits(template: unknown, code: SchemaStamp): boolean {
  if (template === undefined) return true;
  if (!Array.isArray(template)) return false;
  const digests = new Map(code);
  return template.every((entry) => Array.isArray(entry) && typeof entry[0] === 'number' && digests.get(entry[0]) === entry[1]);
}
