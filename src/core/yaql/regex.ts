/**
 * Regular expressions of `matches()`, `=~` and `!~` (Python's `re.search` in YAQL). Their patterns
 * come from task files anyone can write, and a backtracking engine (V8's, Python's) takes time
 * exponential in the input for patterns like `^(a+)+$`: one condition once blocked a server for
 * 28 s on 29 characters. They run on RE2 (the `re2js` port), whose time is linear in the input
 * whatever the pattern, at the price of RE2's syntax: no back-references and no lookaround, which
 * no Fuel task uses (such a pattern is reported at validation, not first met in a deployment).
 */
import { RE2JS } from 're2js';
import { fail } from './values.js';
import { spend, stringUnits, type WorkBudget } from './work.js';

/** Longer patterns are refused: RE2's program grows with the pattern, and no real condition needs more. */
export const MAX_YAQL_PATTERN_LENGTH = 4096;

interface Compiled {
  re: RE2JS;
  /** Answers per input: a graph evaluates the same condition on thousands of nodes with a handful of distinct inputs. */
  answers: Map<string, boolean>;
}

const cache = new Map<string, Compiled | string>();

/** The compiled pattern, or why it cannot be one (a sentence). */
function compiled(pattern: string): Compiled | string {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    if (pattern.length > MAX_YAQL_PATTERN_LENGTH) hit = `it is longer than ${MAX_YAQL_PATTERN_LENGTH} characters`;
    else {
      try {
        hit = { re: RE2JS.compile(pattern), answers: new Map() };
      } catch (err) {
        hit = (err as Error).message.replace(/^error parsing regexp: /, '');
      }
    }
    if (cache.size > 1_000) cache.clear();
    cache.set(pattern, hit);
  }
  return hit;
}

/** Why `pattern` is refused (RE2 cannot compile it, or it is too long), or undefined when it is usable. */
export function yaqlPatternProblem(pattern: string): string | undefined {
  const c = compiled(pattern);
  return typeof c === 'string' ? c : undefined;
}

/** `re.search(pattern, input)`: whether the pattern matches anywhere in the input. Throws a string (the problem) when the pattern is refused. */
export function searchYaqlPattern(pattern: string, input: string): boolean {
  const c = compiled(pattern);
  if (typeof c === 'string') throw c;
  let answer = c.answers.get(input);
  if (answer === undefined) {
    answer = c.re.test(input);
    if (input.length <= 1024) {
      if (c.answers.size > 1_000) c.answers.clear();
      c.answers.set(input, answer);
    }
  }
  return answer;
}

/** `re.search` for an evaluation, its cost taken from the budget; a refused pattern fails the evaluation. */
export function search(pattern: string, input: string, budget: WorkBudget, column: number): boolean {
  spend(budget, stringUnits(input.length) + stringUnits(pattern.length), column);
  try {
    return searchYaqlPattern(pattern, input);
  } catch (problem) {
    return fail('yaql/bad-regex', `'${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}' is not a usable regular expression: ${String(problem)}.`, column);
  }
}
