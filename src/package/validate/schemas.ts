/**
 * The published JSON Schemas (schemas/*.json) applied to parsed plugin files. One Ajv instance,
 * each schema compiled the first time a plugin needs it and reused after, so checking one plugin
 * compiles only the schemas of its package version. Ajv's errors become findings that point at
 * the exact key or value (positions come from the YAML parser, see core/positions).
 */
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionAt, positionOf } from '../../core/positions.js';
import { PLUGIN_VERSION_PATTERN } from '../../core/names/index.js';
import { closest } from './spelling.js';
import { AJV_OPTIONS, SCHEMA_BASE, exportName, schemasDigest, schemasStamp } from './schema-names.js';
import * as precompiled from './compiled-schemas.js';
import { packageRoot } from '../root.js';

/** schemas/ sits at the package root, beside src/ and dist/. */
export const schemasDir = join(packageRoot(), 'schemas');

/**
 * Defined only in the bundle (scripts/bundle.mjs): the stamp of the schema files as they were
 * when the bundle was built, if they matched the compiled validators then.
 */
declare const HEARTH_BUNDLED_SCHEMAS_STAMP: string | undefined;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
let precompiledUsable: boolean | undefined;

function instance(): Ajv {
  if (ajv) return ajv;
  // Loaded only when the pre-compiled validators are stale: Ajv itself takes time to load.
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  ajv = new AjvClass({ ...AJV_OPTIONS });
  for (const name of readdirSync(schemasDir)) {
    if (!name.endsWith('.json')) continue;
    ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, name), 'utf8')) as object);
  }
  return ajv;
}

/**
 * The validator for `schemas/<name>` (e.g. `metadata-4.0.0.json`): the pre-compiled one when it
 * was generated from the schemas as they are now, otherwise compiled here once and kept.
 */
export function schemaValidator(name: string): ValidateFunction {
  let fn = compiled.get(name);
  if (fn) return fn;
  precompiledUsable ??= precompiledMatch();
  const ready = precompiledUsable ? (precompiled as unknown as Record<string, ValidateFunction | undefined>)[exportName(name)] : undefined;
  fn = ready ?? instance().getSchema(SCHEMA_BASE + name);
  if (!fn) throw new Error(`no schema ${name} in ${schemasDir}`);
  compiled.set(name, fn);
  return fn;
}

/**
 * Where a run that found schemas/ matching the compiled validators by their digest notes the
 * files' stamp. An installed copy (npm, a container image) has new inodes and times, so the stamp
 * the bundle recorded at build never matches there, and every run would read and hash the schema
 * files again (7-10 ms of a 60 ms validate); with the note only the first run does.
 */
const verifiedNote = (): string => join(packageRoot(), 'dist', 'schemas-verified');

/** True when schemas/ holds what the compiled validators were generated from. */
function precompiledMatch(): boolean {
  const bundled = typeof HEARTH_BUNDLED_SCHEMAS_STAMP === 'string' ? HEARTH_BUNDLED_SCHEMAS_STAMP : undefined;
  const stamp = schemasStamp(schemasDir);
  if (bundled !== undefined && bundled === stamp) return true;
  // The digest of the compiled validators is part of the note: a rebuild from other schemas voids it.
  const note = `${precompiled.SCHEMAS_DIGEST}\n${stamp}\n`;
  if (readNote() === note) return true;
  const match = precompiled.SCHEMAS_DIGEST === schemasDigest(schemasDir);
  if (match) writeNote(note);
  return match;
}

function readNote(): string | undefined {
  try {
    return readFileSync(verifiedNote(), 'utf8');
  } catch {
    return undefined;
  }
}

/** Written whole (a file renamed into place) or not at all: a read-only install simply keeps hashing. */
function writeNote(note: string): void {
  const partial = `${verifiedNote()}.${process.pid}`;
  try {
    writeFileSync(partial, note);
    renameSync(partial, verifiedNote());
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written, or it cannot be removed either: the next run hashes again.
    }
  }
}

type Segment = string | number;

function pathOf(pointer: string, root: unknown): Segment[] {
  if (pointer === '') return [];
  const out: Segment[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step: Segment = Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : key;
    out.push(step);
    node = node !== null && typeof node === 'object' ? (node as Record<Segment, unknown>)[step] : undefined;
  }
  return out;
}

/** `releases[0].os`, `[3].parameters.timeout` — how a path reads in a message. */
export function showPath(path: readonly Segment[]): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out === '' ? step : `.${step}`;
  return out;
}

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<Segment, unknown>)[step];
  }
  return node;
}

const show = (value: unknown): string => {
  if (typeof value === 'string') return `'${value}'`;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? text.slice(0, 57) + '...' : text;
};

/**
 * anyOf/oneOf failures list every branch's errors, just before the anyOf error itself (Ajv
 * reports errors inside a `$ref` by the referenced schema's path, so branches cannot be told
 * apart by schema path). Like the reference builder, keep what went furthest: if some branch
 * failed deeper inside the value, report only those deeper errors; if every branch failed on the
 * value itself (wrong type), report one "none of the accepted shapes" error listing the types.
 */
function pruneAlternatives(errors: ErrorObject[]): { kept: ErrorObject[]; shapes: Map<ErrorObject, string[]> } {
  const dropped = new Set<ErrorObject>();
  const shapes = new Map<ErrorObject, string[]>();
  errors.forEach((alt, k) => {
    if (alt.keyword !== 'anyOf' && alt.keyword !== 'oneOf') return;
    const base = alt.instancePath;
    const block: ErrorObject[] = [];
    for (let j = k - 1; j >= 0; j--) {
      const e = errors[j];
      if (e.instancePath !== base && !e.instancePath.startsWith(base + '/')) break;
      if (!dropped.has(e)) block.push(e);
    }
    if (block.length === 0) return;
    block.reverse();
    const deeper = block.filter((e) => e.instancePath !== base);
    if (deeper.length > 0) {
      for (const e of block) if (e.instancePath === base) dropped.add(e);
      dropped.add(alt);
      return;
    }
    const types = new Set<string>();
    for (const e of block) {
      dropped.add(e);
      if (e.keyword === 'type') for (const t of [(e.params as { type: unknown }).type].flat()) types.add(String(t));
      if (e.keyword === 'enum') for (const v of (e.params as { allowedValues: unknown[] }).allowedValues) types.add(JSON.stringify(v));
      if (e.keyword === 'required') types.add(`a mapping with '${(e.params as { missingProperty: string }).missingProperty}'`);
    }
    shapes.set(alt, [...types]);
  });
  return { kept: errors.filter((e) => !dropped.has(e) && e.keyword !== 'if'), shapes };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  null: 'empty',
};

function describeType(t: unknown): string {
  const list = Array.isArray(t) ? t : [t];
  return list.map((x) => TYPE_WORDS[String(x)] ?? String(x)).join(' or ');
}

function kindOf(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a number' : 'a decimal number';
  if (typeof value === 'boolean') return 'true/false';
  return 'text';
}

export interface SchemaCheck {
  /** Which file the data came from, for findings that have no recorded position. */
  file: string;
  /** Named for messages: `deployment_tasks.yaml`. */
  label?: string;
  /** Prefix the data's own path with this (when the data sits inside a larger document). */
  basePath?: Segment[];
}

/** Validate `data` against `schemas/<schema>` and turn every error into a finding. */
/**
 * A mapping or list larger than this is not checked against its schema: no plugin file needs it,
 * and the schema checker's errors grow with the square of the entries (a 15 MB
 * environment_config.yaml of 1.27 million keys stalled a server for 66 s and 550 MB).
 */
export const MAX_SCHEMA_ENTRIES = 10_000;
/** Findings of one file beyond this many are summed up in one. */
export const MAX_SCHEMA_FINDINGS = 500;

/** The first mapping or list with more than `cap` entries, as a path, or undefined. */
function oversized(data: unknown, cap: number): { path: Segment[]; size: number } | undefined {
  const stack: Array<{ node: unknown; path: Segment[] }> = [{ node: data, path: [] }];
  const seen = new Set<object>();
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const entries: Array<[Segment, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    if (entries.length > cap) return { path, size: entries.length };
    for (const [k, v] of entries) if (v !== null && typeof v === 'object') stack.push({ node: v, path: [...path, k] });
  }
  return undefined;
}

export function checkSchema(schema: string, data: unknown, check: SchemaCheck): Finding[] {
  const huge = oversized(data, MAX_SCHEMA_ENTRIES);
  if (huge) {
    const where = showPath([...(check.basePath ?? []), ...huge.path]) || 'the file';
    return [
      finding(
        'schema/too-many-entries',
        'error',
        `${where} has ${huge.size.toLocaleString('en')} entries, over the limit of ${MAX_SCHEMA_ENTRIES.toLocaleString('en')}; the file was not checked further`,
        positionAt(data, huge.path) ?? positionOf(data) ?? { file: check.file, line: 1, column: 1 },
        'split the data, or trim it: no Fuel plugin file needs that many',
      ),
    ];
  }
  const validate = schemaValidator(schema);
  if (validate(data)) return [];
  const { kept: errors, shapes } = pruneAlternatives(validate.errors ?? []);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const path = pathOf(e.instancePath, data);
    const shownPath = showPath([...(check.basePath ?? []), ...path]);
    const at = (p: Segment[]) => positionAt(data, p) ?? positionOf(data) ?? { file: check.file, line: 1, column: 1 };
    const value = valueAt(data, path);
    const where = shownPath === '' ? 'the file' : shownPath;
    let f: Finding | undefined;
    const parent = e.parentSchema as { properties?: Record<string, unknown>; enum?: unknown[] } | undefined;
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        const near = closest(missing, Object.keys(value !== null && typeof value === 'object' ? (value as object) : {}));
        f = finding(
          'schema/required',
          'error',
          `${where} is missing the required key '${missing}'`,
          at(path),
          near ? `'${near}' is written here: did you mean '${missing}'?` : `add '${missing}'`,
        );
        break;
      }
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        const known = Object.keys(parent?.properties ?? {});
        const near = closest(extra, known);
        const pattern = Object.keys((parent as { patternProperties?: object } | undefined)?.patternProperties ?? {});
        f = finding(
          'schema/unknown-key',
          'error',
          pattern.length && known.length === 0
            ? `'${extra}' in ${where} is not an allowed name (it must match ${pattern.join(' or ')})`
            : `${where} has the key '${extra}', which this file does not allow`,
          keyPositionOf(value, extra) ?? at(path),
          near ? `did you mean '${near}'?` : known.length ? `allowed keys: ${known.join(', ')}` : 'rename it using letters, digits, `_` and `-` only',
        );
        break;
      }
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
        const near = typeof value === 'string' ? closest(value, allowed.map(String)) : undefined;
        f = finding(
          'schema/not-allowed',
          'error',
          `${where} is ${show(value)}, which is not one of ${allowed.map(show).join(', ')}`,
          at(path),
          near ? `did you mean '${near}'?` : `use one of ${allowed.map(show).join(', ')}`,
        );
        break;
      }
      case 'const':
        f = finding('schema/not-allowed', 'error', `${where} must be ${show((e.params as { allowedValue: unknown }).allowedValue)}`, at(path), `write ${show((e.params as { allowedValue: unknown }).allowedValue)}`);
        break;
      case 'type': {
        const wanted = describeType((e.params as { type: unknown }).type);
        f = finding(
          'schema/wrong-type',
          'error',
          `${where} should be ${wanted}, but it is ${kindOf(value)}${value !== null && typeof value !== 'object' ? ` (${show(value)})` : ''}`,
          at(path),
          typeof value === 'number' && wanted === 'text' ? 'quote the value so YAML reads it as text' : `write ${wanted} here`,
        );
        break;
      }
      case 'pattern':
        f = finding(
          'schema/bad-format',
          'error',
          `${where} is ${show(value)}, which does not match ${(e.params as { pattern: string }).pattern}`,
          at(path),
          patternHint((e.params as { pattern: string }).pattern),
        );
        break;
      case 'minItems':
        f = finding('schema/too-short', 'error', `${where} is an empty list, but it needs at least ${(e.params as { limit: number }).limit} item`, at(path), 'add an item, or remove the key');
        break;
      case 'minLength':
        f = finding('schema/too-short', 'error', `${where} is empty text`, at(path), 'write a value, or remove the key');
        break;
      case 'maxLength':
        f = finding('schema/too-long', 'error', `${where} is longer than ${(e.params as { limit: number }).limit} characters`, at(path), 'shorten it');
        break;
      case 'uniqueItems':
        f = finding('schema/duplicate-item', 'error', `${where} lists the same value twice`, at(path), 'remove the repeated value');
        break;
      case 'minimum':
        f = finding('schema/too-small', 'error', `${where} is ${show(value)}, below the minimum of ${(e.params as { limit: number }).limit}`, at(path), `use ${(e.params as { limit: number }).limit} or more`);
        break;
      case 'maxProperties':
      case 'minProperties':
        f = finding('schema/wrong-shape', 'error', `${where} must be a single \`condition: message\` pair, or a string, or a mapping with 'condition'`, at(path), 'write a restriction as "condition" text, {condition: ..., message: ...}, or {"condition": "message"}');
        break;
      case 'anyOf':
      case 'oneOf': {
        const accepted = (shapes.get(e) ?? []).map((t) => TYPE_WORDS[t] ?? t);
        f = finding(
          'schema/wrong-shape',
          'error',
          `${where} is ${kindOf(value)}${value !== null && typeof value !== 'object' ? ` (${show(value)})` : ''}, which is none of the accepted shapes${accepted.length ? `: ${accepted.join(', ')}` : ''}`,
          at(path),
          accepted.length ? `write ${accepted.join(' or ')}` : undefined,
        );
        break;
      }
      default:
        f = finding('schema/invalid', 'error', `${where} ${e.message ?? 'is not valid'}`, at(path), 'see the schema for this file in schemas/');
    }
    const key = `${f.code}|${f.message}|${f.line}|${f.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (findings.length === MAX_SCHEMA_FINDINGS) {
      findings.push(finding('schema/more-findings', 'error', `${check.file} has more schema errors than the ${MAX_SCHEMA_FINDINGS} shown`, { file: check.file, line: 1, column: 1 }, 'fix these first, then validate again'));
      break;
    }
    findings.push(f);
  }
  return findings;
}

function patternHint(pattern: string): string {
  if (pattern.includes('post_deployment')) return 'write pre_deployment or post_deployment, optionally followed by /<order>, e.g. post_deployment/100';
  if (pattern.includes('hypervisor|network|storage')) return 'component names are <type>:<name>[:<sub-name>...] in lower case, where <type> is hypervisor, network, storage or additional_service';
  if (pattern === '^[0-7]{4}$') return "write the permissions as four octal digits in quotes, e.g. '0644'";
  if (pattern.startsWith('^\\d+.\\d+.\\d+$')) return "write the task version as three numbers, e.g. '2.0.0'";
  if (pattern === '^[a-z0-9_-]+$') return 'use lower-case letters, digits, `_` and `-` only';
  if (pattern === PLUGIN_VERSION_PATTERN) return 'write a plain version such as 1.0.0: letters, digits, `.`, `_`, `+`, `~` and `-`, starting with a letter or digit (it names the package file and the plugin in URLs)';
  return 'use letters, digits, `_` and `-` only';
}
