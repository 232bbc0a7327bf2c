/**
 * The `*_path` convention of package 5.0.0: a key ending in `_path` names a file (its parsed
 * content goes under the key without the suffix), a folder (kept as written), or a glob (every
 * match merged). `base_release_path` names a template the surrounding record inherits from, key
 * by key. Every path is relative to the plugin folder and must stay inside it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionOf, recordContainer } from '../../core/positions.js';
import { readFailure, readYamlFile } from '../yaml/index.js';
import { globFiles, globProblem, inside, isGlob, safeRealpath } from './glob.js';
import { deepOverride, isMapping, mappingLike, mergeGlobRoots, putWithPosition } from './merge.js';

/** Folders a release must ship; they are never loaded as data. */
export const FOLDER_KEYS = new Set(['deployment_scripts_path', 'repository_path', 'conf_path']);
const DATA_EXTENSIONS = new Set(['yaml', 'yml', 'json']);
const TEXT_EXTENSIONS = new Set(['txt', 'md', 'sh']);
/** Plain text gets the same guards as YAML: a FIFO or a device would block the read forever. */
const MAX_TEXT_BYTES = 16 * 1024 * 1024;

export class PathContext {
  readonly realRoot: string;
  readonly findings: Finding[] = [];
  /** Files already parsed, by real path: a file named by several records is read once. */
  private readonly cache = new Map<string, unknown>();

  constructor(readonly root: string) {
    this.realRoot = safeRealpath(root) ?? root;
  }

  display(abs: string): string {
    return relative(this.root, abs).split('\\').join('/');
  }

  /** Resolve a relative path inside the plugin; undefined (with a finding) when it escapes. */
  within(value: string, where: unknown, key: string): string | undefined {
    const abs = resolve(this.root, value);
    if (isAbsolute(value) || !inside(this.realRoot, abs) || relative(this.root, abs).startsWith('..')) {
      this.outside(where, key, value);
      return undefined;
    }
    return abs;
  }

  outside(where: unknown, key: string, value: string): void {
    {
      this.findings.push(
        finding(
          'path/outside-plugin',
          'error',
          `'${key}: ${value}' points outside the plugin folder; Hearth reads nothing outside it`,
          keyPositionOf(where, key),
          'use a path relative to the folder that holds metadata.yaml, without `..` or a leading `/`',
        ),
      );
    }
  }

  private readText(abs: string, shown: string): string | undefined {
    const where = { file: shown, line: 1, column: 1 };
    let stat;
    try {
      stat = statSync(abs);
    } catch (err) {
      this.findings.push(readFailure(err, shown, where));
      return undefined;
    }
    if (!stat.isFile()) {
      this.findings.push(finding('file/not-a-file', 'error', `'${shown}' is not a regular file`, where, 'name a plain file; pipes, devices and folders cannot be read as text'));
      return undefined;
    }
    if (stat.size > MAX_TEXT_BYTES) {
      this.findings.push(finding('file/too-large', 'error', `'${shown}' is ${stat.size} bytes, over the limit of ${MAX_TEXT_BYTES}`, where, 'split the file or trim it'));
      return undefined;
    }
    try {
      return readFileSync(abs, 'utf8');
    } catch (err) {
      this.findings.push(readFailure(err, shown, where));
      return undefined;
    }
  }

  readData(abs: string): { value: unknown; ok: boolean } {
    const real = safeRealpath(abs) ?? abs;
    if (this.cache.has(real)) return { value: this.cache.get(real), ok: true };
    const ext = abs.slice(abs.lastIndexOf('.') + 1).toLowerCase();
    const shown = this.display(abs);
    if (TEXT_EXTENSIONS.has(ext)) {
      const text = this.readText(abs, shown);
      if (text === undefined) return { value: undefined, ok: false };
      this.cache.set(real, text);
      return { value: text, ok: true };
    }
    const parsed = readYamlFile(abs, shown);
    this.findings.push(...parsed.findings);
    if (parsed.ok) this.cache.set(real, parsed.value);
    return { value: parsed.value, ok: parsed.ok };
  }
}

export function pathKeyTarget(key: string): string {
  return key.slice(0, -'_path'.length);
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Load what one `*_path` value names. Returns `{ loaded: false }` when the key must stay as
 * written (a folder, or a path that could not be loaded: the finding says why).
 */
function loadPathValue(ctx: PathContext, container: Record<string, unknown>, key: string, value: string): { loaded: boolean; data?: unknown } {
  const where = keyPositionOf(container, key);
  if (isGlob(value)) {
    if (value.split('/').includes('..') || isAbsolute(value)) {
      ctx.outside(container, key, value);
      return { loaded: false };
    }
    const problem = globProblem(value);
    if (problem) {
      ctx.findings.push(finding('path/bad-glob', 'error', `'${key}: ${value}' is not a usable pattern: ${problem}`, where, 'fix the pattern; * ? [a-z] and ** are understood'));
      return { loaded: false };
    }
    const matches = globFiles(ctx.root, value).filter((rel) => {
      const ext = rel.slice(rel.lastIndexOf('.') + 1).toLowerCase();
      return DATA_EXTENSIONS.has(ext) || TEXT_EXTENSIONS.has(ext);
    });
    if (matches.length === 0) {
      ctx.findings.push(
        finding('path/no-match', 'error', `'${key}: ${value}' matches no YAML or JSON file in the plugin`, where, 'check the pattern, or add the files it should match'),
      );
      return { loaded: false };
    }
    const roots = matches.map((rel) => ({ file: rel, value: ctx.readData(join(ctx.root, rel)).value }));
    const merged = mergeGlobRoots(roots);
    if (!merged.ok) {
      const parts = [
        merged.lists.length ? `lists in ${merged.lists.join(', ')}` : '',
        merged.mappings.length ? `mappings in ${merged.mappings.join(', ')}` : '',
        merged.scalars.length ? `single values in ${merged.scalars.join(', ')}` : '',
      ].filter(Boolean);
      ctx.findings.push(
        finding(
          'path/glob-mixed-roots',
          'error',
          `the files matched by '${key}: ${value}' cannot be merged: ${parts.join('; ')}`,
          where,
          'make every matched file a list (they are concatenated) or every one a mapping (they are merged)',
        ),
      );
      return { loaded: false };
    }
    return { loaded: true, data: merged.value };
  }
  const abs = ctx.within(value, container, key);
  if (!abs) return { loaded: false };
  if (isDirectory(abs)) return { loaded: false };
  if (FOLDER_KEYS.has(key)) {
    if (!existsSync(abs)) {
      ctx.findings.push(
        finding(
          'release/missing-folder',
          'error',
          `the folder '${value}' named by ${key} does not exist`,
          where,
          key === 'repository_path' ? 'create the repository folder (it may stay empty until packages are built)' : 'create the folder, or fix the path',
        ),
      );
    }
    return { loaded: false };
  }
  if (!existsSync(abs)) {
    ctx.findings.push(
      finding('path/missing', 'error', `the file '${value}' named by ${key} does not exist`, where, 'fix the path, or add the file'),
    );
    return { loaded: false };
  }
  const ext = abs.slice(abs.lastIndexOf('.') + 1).toLowerCase();
  if (!DATA_EXTENSIONS.has(ext) && !TEXT_EXTENSIONS.has(ext)) {
    ctx.findings.push(
      finding(
        'path/unsupported-format',
        'error',
        `'${value}' (from ${key}) is neither YAML nor JSON`,
        where,
        'name a .yaml, .yml or .json file (or .txt, .md, .sh for plain text)',
      ),
    );
    return { loaded: false };
  }
  const read = ctx.readData(abs);
  if (!read.ok) return { loaded: false };
  return { loaded: true, data: read.value };
}

/**
 * A copy of `node` with every `*_path` key below it resolved. `chain` holds the real paths of
 * the base-release files being loaded, to report inheritance cycles instead of looping.
 */
export function resolvePathKeys(ctx: PathContext, node: unknown, chain: string[] = []): unknown {
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    const self = positionOf(node);
    const entry = self ? recordContainer(out, self) : undefined;
    node.forEach((item, i) => {
      out.push(resolvePathKeys(ctx, item, chain));
      const at = positionOf(node, i);
      if (entry && at) entry.values.set(i, at);
    });
    return out;
  }
  if (!isMapping(node)) return node;
  const out = mappingLike(node);
  let base: unknown;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (key === 'base_release_path' && typeof value === 'string') {
      base = loadBaseRelease(ctx, node, value, chain);
      continue;
    }
    if (key.endsWith('_path') && key !== '_path' && typeof value === 'string') {
      const result = loadPathValue(ctx, node, key, value);
      if (result.loaded) {
        const target = pathKeyTarget(key);
        if (Object.prototype.hasOwnProperty.call(node, target)) {
          ctx.findings.push(
            finding(
              'path/key-clash',
              'warning',
              `both '${key}' and '${target}' are set; the data loaded from '${value}' replaces '${target}'`,
              keyPositionOf(node, target),
              `keep only one of '${key}' and '${target}'`,
            ),
          );
        }
        // Loaded files are data, not more metadata: only a graph file may name its tasks file.
        const data = key === 'graph_path' ? resolvePathKeys(ctx, result.data, chain) : result.data;
        putWithPosition(out, target, data, node, key);
        continue;
      }
      putWithPosition(out, key, value, node, key);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(out, key)) continue; // already set by a loaded `_path`
    putWithPosition(out, key, resolvePathKeys(ctx, value, chain), node, key);
  }
  return base === undefined ? out : deepOverride(base, out);
}

function loadBaseRelease(ctx: PathContext, container: Record<string, unknown>, value: string, chain: string[]): unknown {
  const where = keyPositionOf(container, 'base_release_path');
  if (isGlob(value)) {
    ctx.findings.push(finding('release/base-not-a-file', 'error', `base_release_path '${value}' must name one file, not a pattern`, where, 'name the one template file'));
    return undefined;
  }
  const abs = ctx.within(value, container, 'base_release_path');
  if (!abs) return undefined;
  if (!existsSync(abs) || isDirectory(abs)) {
    ctx.findings.push(finding('path/missing', 'error', `the file '${value}' named by base_release_path does not exist`, where, 'fix the path, or add the template'));
    return undefined;
  }
  const real = safeRealpath(abs) ?? abs;
  if (chain.includes(real)) {
    const names = [...chain.slice(chain.indexOf(real)), real].map((p) => relative(ctx.realRoot, p).split('\\').join('/'));
    ctx.findings.push(
      finding(
        'release/base-cycle',
        'error',
        `base_release_path inheritance goes round in a circle: ${names.join(' → ')}`,
        where,
        'break the circle: a template must not inherit, directly or not, from itself',
      ),
    );
    return undefined;
  }
  const read = ctx.readData(abs);
  if (!read.ok) return undefined;
  if (read.value !== null && !isMapping(read.value)) {
    ctx.findings.push(
      finding('release/base-not-a-mapping', 'error', `the base release '${value}' must be a mapping of release keys`, positionOf(read.value) ?? { file: ctx.display(abs), line: 1, column: 1 }, 'write the template as `key: value` pairs'),
    );
    return undefined;
  }
  return resolvePathKeys(ctx, read.value ?? {}, [...chain, real]);
}
