/**
 * Where Hearth's own files are (package.json, schemas/, release/, web/dist). The code runs from
 * src/ (under tsx), from tsc's dist/ tree and from the bundle in dist/bundle/, each at a different
 * depth, so the root is found by walking up to Hearth's package.json rather than by counting `..`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

function isHearthRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    // Known by the command it ships, not by its npm name, which may change (or be scoped) on publishing.
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: Record<string, unknown> };
    return pkg.bin?.hearth === 'bin/hearth';
  } catch {
    return false;
  }
}

/** The folder holding Hearth's package.json; throws if this code is not inside a Hearth package. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (isHearthRoot(dir)) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find Hearth's package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

let version: string | undefined;

/** Hearth's own version, from its package.json (found from src/ under tsx, from dist/ and from the bundle). */
export function hearthVersion(): string {
  if (version) return version;
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
    version = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    version = '0.0.0';
  }
  return version;
}
