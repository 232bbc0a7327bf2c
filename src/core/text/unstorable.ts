/**
 * Characters no well-formed request or node answer holds and the database cannot keep: NUL
 * (PostgreSQL's text refuses it, and a C string ends at it) and a lone UTF-16 surrogate (half of a
 * character; jsonb refuses it, and UTF-8 cannot encode it). Met at an edge, they are bad input
 * refused with a name for where they were (server/characters.ts), or, in what a node reports about
 * itself, replaced (deploy/facts.ts); never passed on to fail deep inside as a "bug".
 */

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE.source, 'g');

/** What is wrong with `text`, in words (`a NUL byte`, `a lone UTF-16 surrogate`), or undefined when nothing is. */
export function unstorableCharacter(text: string): string | undefined {
  const m = UNSTORABLE.exec(text);
  if (!m) return undefined;
  return m[0] === '\u0000' ? 'a NUL byte' : 'a lone UTF-16 surrogate';
}

/** `text` with each NUL and lone surrogate replaced by U+FFFD, the replacement character. */
export const storableText = (text: string): string => (UNSTORABLE.test(text) ? text.replace(EVERY_UNSTORABLE, '\ufffd') : text);

/** A JSON Pointer token: `~` and `/` escaped (RFC 6901), and a bad character shown as U+FFFD. */
const pointerToken = (key: string): string => storableText(key).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Whether a JSON value holds an unstorable character anywhere (strings and object keys): the
 * answer for nearly every request is no, found without making a pointer per key and element as
 * `findUnstorable` does to say where. Iterative, as that is.
 */
export function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (value === null || typeof value !== 'object') return false;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (UNSTORABLE.test(key)) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The first place in a JSON value (strings and object keys, depth first) holding an unstorable
 * character: its JSON Pointer and what is there. Iterative, so a deeply nested body cannot
 * overflow the stack.
 */
export function findUnstorable(value: unknown): { pointer: string; what: string } | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, pointer] = stack.pop()!;
    if (typeof v === 'string') {
      const what = unstorableCharacter(v);
      if (what) return { pointer, what };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${pointer}/${i}`]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        const what = unstorableCharacter(key);
        if (what) return { pointer: `${pointer}/${pointerToken(key)}`, what: `${what} in its name` };
        stack.push([item, `${pointer}/${pointerToken(key)}`]);
      }
    }
  }
  return undefined;
}

/** A JSON value with every string (and object key) made storable; other values as they are. */
export function storableValue<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v) => storableValue(v)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableValue(v)])) as T;
  return value;
}
