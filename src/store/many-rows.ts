/**
 * Many rows read as one value. The embedded database hands each row of an answer to JavaScript as
 * its own message, decoded field by field: about 5 µs a row and 2.7 µs a column of the server's
 * CPU, so a run's 200,000 task rows took 5 s to list, most of it decoding (issue 30). Folded by the
 * database into one JSON array of arrays (json_agg), the same rows cost a quarter of that, and
 * JSON.parse reads them natively. A query that may answer thousands of rows reads them here; one
 * that answers a few keeps its rows.
 */
import type { Queryable } from './database.js';

/**
 * Each row's `columns` (SQL expressions over `from`), in `order`, as arrays in that column order.
 * `from` is the rest of the statement after SELECT's list (FROM … WHERE …), without ORDER BY.
 */
export async function manyRows(q: Queryable, columns: readonly string[], from: string, order: string, params: readonly unknown[]): Promise<unknown[][]> {
  const [row] = await q.query<{ rows: string | null }>(`SELECT json_agg(json_build_array(${columns.join(', ')}) ORDER BY ${order})::text AS rows ${from}`, [...params]);
  return row?.rows ? (JSON.parse(row.rows) as unknown[][]) : [];
}

/**
 * A time column as whole epoch milliseconds (NULL stays NULL), for `isoTime`: JSON's own form of a
 * timestamptz follows the session's time zone and keeps microseconds. Floored, as the rows' own
 * reading into a Date drops the microseconds.
 */
export const epochMs = (column: string): string => `floor(extract(epoch FROM ${column}) * 1000)::int8`;

/** The ISO form (…Z, milliseconds) the API gives times in, from `epochMs`'s number. */
export const isoTime = (ms: unknown): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
