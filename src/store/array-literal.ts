/**
 * PostgreSQL array literals ('{1,NULL,3}', '{"a","b \"c\""}'), written here for the large arrays
 * of a run's rows and reports, which either engine reads as a text parameter cast to an array.
 * Handing the drivers arrays made PGlite's serializer run two regex replaces per element, and the
 * server's thread copy every element to PGlite's (structured clone): about a microsecond a task of
 * bench deploy (issue 30). Same text the drivers send: every string quoted, `\` and `"` escaped.
 */

/** Integers (or NULL) as an int/int8 array literal. */
export function intArray(values: ReadonlyArray<number | null>): string {
  // Without NULLs, join() writes the same text, several times faster than appending.
  if (!values.includes(null)) return `{${values.join(',')}}`;
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ',';
    out += v === null ? 'NULL' : String(v);
  }
  return out + '}';
}

/** Booleans as a boolean array literal. */
export function boolArray(values: ReadonlyArray<boolean>): string {
  return `{${values.map((v) => (v ? 't' : 'f')).join(',')}}`;
}

const special = /[\\"]/;
const specials = /[\\"]/g;

/** Strings (or NULL) as a text array literal. */
export function textArray(values: ReadonlyArray<string | null>): string {
  // The usual case (no NULL, nothing to escape) joined at once: about three times faster.
  let plain = true;
  for (let i = 0; plain && i < values.length; i++) plain = values[i] !== null && !special.test(values[i]!);
  if (plain) return values.length ? `{"${values.join('","')}"}` : '{}';
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ',';
    out += v === null ? 'NULL' : special.test(v) ? `"${v.replace(specials, '\\$&')}"` : `"${v}"`;
  }
  return out + '}';
}
