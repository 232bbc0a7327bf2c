/**
 * When metadata.yaml cannot be read (a template still holding `@PLUGIN_NAME@` placeholders, a
 * Makefile saved under that name, a list), the package version is unknown, yet every other file can
 * still be checked. The version is then assumed: the newest one that introduced a file the plugin
 * has (components.yaml came with 4.0.0, node_config.yaml with 5.0.0, ...), so every file present is
 * one that version reads, and the validator says the assumption in a note.
 */
import { readFileSync } from 'node:fs';
import type { PackageVersion } from './model.js';

/** The package version that introduced each plugin file (the reference builder's file matrix). */
const INTRODUCED: ReadonlyArray<[PackageVersion, readonly string[]]> = [
  ['5.0.0', ['node_config', 'nic_config', 'bond_config']],
  ['4.0.0', ['components']],
  ['3.0.0', ['deployment_tasks', 'node_roles', 'volumes', 'network_roles']],
  ['1.0.0', ['tasks', 'environment_config']],
];

export interface AssumedVersion {
  version: PackageVersion;
  /** The files present that decided it (file names without extension), none when nothing did. */
  because: string[];
}

export function assumePackageVersion(files: Record<string, unknown>): AssumedVersion {
  for (const [version, names] of INTRODUCED) {
    const present = names.filter((n) => Object.hasOwn(files, n));
    if (present.length > 0) return { version, because: present };
  }
  return { version: '1.0.0', because: [] };
}

export interface Placeholder {
  text: string;
  line: number;
  column: number;
}

export interface TemplateSigns {
  /** Build-time placeholders (`@PLUGIN_NAME@`, as autoconf and fuel-plugin templates write them). */
  placeholders: Placeholder[];
  /** Make syntax: `VAR ?= value`, `include file`, or a rule whose recipe is indented with a tab. */
  makefile: boolean;
}

/** Why a file that does not parse as YAML may be a template rather than a damaged file. */
export function templateSigns(path: string): TemplateSigns {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { placeholders: [], makefile: false };
  }
  const makefile = /^[A-Za-z_][A-Za-z0-9_]*\s*[?:+]=/m.test(text) || /^-?include\s+\S/m.test(text) || /^[^\s#:][^:\n]*:[^=\n]*\n\t/m.test(text);
  const found: Placeholder[] = [];
  const re = /@[A-Za-z_][A-Za-z0-9_]*@/g;
  for (let m = re.exec(text); m && found.length < 50; m = re.exec(text)) {
    const before = text.slice(0, m.index);
    found.push({ text: m[0], line: before.split('\n').length, column: m.index - before.lastIndexOf('\n') });
  }
  return { placeholders: found, makefile };
}
