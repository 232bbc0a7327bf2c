/**
 * Names and selectors as Fuel matched them: a plain name matches exactly; `/re/` is a regular
 * expression matched at the start of the name only (Python's `re.match`). Patterns come from task
 * files anyone can write, so a pattern that could backtrack catastrophically is refused up front.
 */

export type NameMatcher = (name: string) => boolean;

export function isPattern(name: string): boolean {
  return name.length >= 2 && name.startsWith('/') && name.endsWith('/');
}

const MAX_PATTERN_LENGTH = 256;

/**
 * Why a pattern is unsafe, or undefined when it is fine. Star height above one (a repeated group
 * that itself repeats, like `(a+)+` or `(.*)*`) and back-references are what make backtracking
 * exponential; nothing in Fuel's task files needs either.
 */
export function unsafePatternReason(source: string): string | undefined {
  if (source.length > MAX_PATTERN_LENGTH) return `it is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (/\\[1-9]|\\k</.test(source)) return 'it uses a back-reference';
  // Walk the groups: does a quantified group contain a quantifier of its own?
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    const isQuantifier = ch === '*' || ch === '+' || (ch === '{' && /^\{\d+,\d*\}/.test(source.slice(i)));
    if (ch === '[') inClass = true;
    else if (ch === '(') stack.push(false);
    else if (ch === ')') {
      const inner = stack.pop() ?? false;
      if (inner && stack.length > 0) stack[stack.length - 1] = true;
      const next = source[i + 1];
      if (inner && (next === '*' || next === '+' || (next === '{' && /^\{\d+,\d*\}/.test(source.slice(i + 1))))) {
        return 'a repeated group contains another repetition (like (a+)+), which can take exponential time';
      }
      continue;
    } else if (isQuantifier && stack.length > 0) stack[stack.length - 1] = true;
  }
  return undefined;
}

export interface CompiledName {
  matches: NameMatcher;
  /** Set when the pattern was refused or did not compile; it then matches nothing. */
  error?: string;
}

const cache = new Map<string, CompiledName>();

/** Compile a name or `/regex/` once; repeated calls with the same text share the matcher. */
export function compileName(name: string): CompiledName {
  const hit = cache.get(name);
  if (hit) return hit;
  let compiled: CompiledName;
  if (!isPattern(name)) compiled = { matches: (candidate) => candidate === name };
  else {
    // Python spells named groups (?P<name>...); JavaScript spells them (?<name>...).
    const source = name.slice(1, -1).replace(/\(\?P</g, '(?<');
    const unsafe = unsafePatternReason(source);
    if (unsafe) compiled = { matches: () => false, error: `pattern ${name} is refused: ${unsafe}` };
    else {
      try {
        const re = new RegExp(`^(?:${source})`);
        compiled = { matches: (candidate) => re.test(candidate) };
      } catch (err) {
        compiled = { matches: () => false, error: `pattern ${name} is not a valid regular expression (${(err as Error).message})` };
      }
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(name, compiled);
  return compiled;
}
