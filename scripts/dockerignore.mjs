/**
 * .dockerignore and Docker's path patterns, as BuildKit reads them (for scripts/check-docker-context.mjs
 * and its rehearsal): lines in order, the last matching one wins, `!` brings paths back, and a line
 * matching a folder matches everything under it.
 */
import { posix } from 'node:path';

/** .dockerignore as Docker reads it: in order, the last matching line wins, a line matching a folder matches all under it. */
export function ignoreRules(text) {
  const rules = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    let t = raw.trim();
    if (!t || t.startsWith('#')) return;
    const exception = t.startsWith('!');
    if (exception) t = t.slice(1).trim();
    const pattern = posix.normalize(t.replace(/^\/+/, '')).replace(/\/+$/, '');
    rules.push({ line: i + 1, text: raw.trim(), exception, pattern, re: globRegExp(pattern), prefix: pattern.split(/[*?[\\]/)[0] });
  });
  const matches = (rule, path) => {
    if (rule.re.test(path)) return true;
    for (let at = path.indexOf('/'); at > 0; at = path.indexOf('/', at + 1)) if (rule.re.test(path.slice(0, at))) return true;
    return false;
  };
  return {
    ruleFor(path) {
      let found;
      for (const rule of rules) if (matches(rule, path)) found = rule;
      return found && !found.exception ? found : undefined;
    },
    excludes(path) {
      return this.ruleFor(path) !== undefined;
    },
    /** Whether an exception line may bring back something below an excluded folder. */
    mayReinclude(dir) {
      return rules.some((r) => r.exception && (r.prefix === '' || r.prefix.startsWith(`${dir}/`) || `${dir}/`.startsWith(r.prefix)));
    },
  };
}

/** A Docker path pattern as a regular expression over `/`-separated paths. */
export function globRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end);
        re += `[${body.startsWith('!') || body.startsWith('^') ? `^${body.slice(1)}` : body}]`.replace(/\\(?!\])/g, '\\\\');
        i = end;
      }
    } else if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`.replace(/^\\([A-Za-z0-9])$/, '$1');
    else re += c.replace(/[.+^${}()|\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

