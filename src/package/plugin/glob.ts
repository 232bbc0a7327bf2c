/**
 * Glob matching for `*_path` values (`graphs/*.yaml`, `releases/**\/tasks.yaml`), confined to the
 * plugin folder: the walk starts inside it and never follows a link out of it. Node 20 has no
 * fs.glob, and the patterns plugins use are simple: `*`, `?`, `[...]` within a name, `**` for any
 * depth of folders.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

export const isGlob = (pattern: string): boolean => /[*?[]/.test(pattern);

function segmentRegExp(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let body = segment.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  // Dot-files match only when the pattern names the dot, as in a shell.
  return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}${out}$`);
}

/**
 * Why a pattern cannot be used (a range written backwards, `[z-a]`), or undefined when it can.
 * Checked before walking, so a bad pattern is a finding and never an exception.
 */
export function globProblem(pattern: string): string | undefined {
  for (const segment of pattern.split('/')) {
    if (segment === '**' || !isGlob(segment)) continue;
    try {
      segmentRegExp(segment);
    } catch {
      const range = /\[!?([^\]]*)\]/.exec(segment)?.[1];
      return range ? `the character class [${range}] in '${segment}' is not valid (a range must go from low to high, like [a-z])` : `'${segment}' is not a valid pattern`;
    }
  }
  return undefined;
}

/** Every file under `root` whose relative path matches `pattern`, sorted, as relative paths with `/`. */
export function globFiles(root: string, pattern: string, limit = 10_000): string[] {
  const realRoot = safeRealpath(root) ?? root;
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const found = new Set<string>();
  // A folder reached again through links (`a -> .`, `b -> .`) at the same point of the pattern is
  // walked once: otherwise `**` walks 2^64 paths.
  const visited = new Set<string>();
  const visit = (dir: string, rel: string[], index: number, depth: number): void => {
    if (found.size >= limit || depth > 64) return;
    if (index === segments.length) return;
    const state = `${index}\0${safeRealpath(dir) ?? dir}`;
    if (visited.has(state)) return;
    visited.add(state);
    const segment = segments[index];
    const last = index === segments.length - 1;
    if (segment === '**') {
      // `**` matches zero folders here, or descends one more and stays on `**`.
      visit(dir, rel, index + 1, depth + 1);
      for (const entry of listDir(dir)) {
        if (entry.name.startsWith('.') || !entry.isDir) continue;
        const child = join(dir, entry.name);
        if (!inside(realRoot, child)) continue;
        visit(child, [...rel, entry.name], index, depth + 1);
      }
      return;
    }
    const re = isGlob(segment) ? segmentRegExp(segment) : undefined;
    for (const entry of listDir(dir)) {
      if (re ? !re.test(entry.name) : entry.name !== segment) continue;
      const child = join(dir, entry.name);
      if (!inside(realRoot, child)) continue;
      if (last) {
        if (entry.isFile) found.add([...rel, entry.name].join('/'));
      } else if (entry.isDir) visit(child, [...rel, entry.name], index + 1, depth + 1);
    }
  };
  visit(root, [], 0, 0);
  return [...found].sort();
}

interface DirEntry {
  name: string;
  isDir: boolean;
  isFile: boolean;
}

function listDir(dir: string): DirEntry[] {
  try {
    return readdirSync(dir).map((name) => {
      try {
        const st = statSync(join(dir, name));
        return { name, isDir: st.isDirectory(), isFile: st.isFile() };
      } catch {
        return { name, isDir: false, isFile: false };
      }
    });
  } catch {
    return [];
  }
}

export function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Is `path` (after resolving links, when it exists) inside `realRoot`? */
export function inside(realRoot: string, path: string): boolean {
  const real = safeRealpath(path) ?? path;
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}
