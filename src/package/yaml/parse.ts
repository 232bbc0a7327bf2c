/**
 * YAML as Fuel read it. Fuel (Nailgun, the plugin builder) read every file with PyYAML's safe
 * loader, which follows YAML 1.1: `yes`/`no`/`on`/`off` are booleans, `0755` is octal, `1:30` is
 * sexagesimal, `1e3` (no dot) is a string. We parse with eemeli/yaml for its positions and error
 * recovery, then resolve plain scalars with PyYAML's own implicit-resolver rules, so a value means
 * here what it meant to Fuel. Positions of every value are kept (see core/positions).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, Scalar, visit } from 'yaml';
import type { Alias, Node as YamlNode, Document } from 'yaml';
import { finding, type Finding, type SourcePosition } from '../../core/findings.js';
import { recordContainer } from '../../core/positions.js';
import { relaxIndentation } from './leniency.js';

export interface YamlParseOptions {
  /** Upper bound on the size of the data once aliases are expanded (alias-bomb guard). */
  maxExpandedNodes?: number;
  /** Deeper nesting than this is refused rather than risking the stack. */
  maxDepth?: number;
  /** Severity for duplicate mapping keys: PyYAML keeps the last silently; we always say so. */
  duplicateKeySeverity?: 'error' | 'warning';
  /**
   * Accept what libyaml/PyYAML accept although the YAML spec does not: continuation lines of a
   * quoted string or a flow collection indented no deeper than their key (see leniency.ts). On by
   * default, because Heat and Fuel both read such files; the place is reported as an info finding.
   */
  libyamlIndentation?: boolean;
}

export interface ParsedYaml {
  /** The data, or `undefined` when the text could not be parsed at all. */
  value: unknown;
  /** True when the text parsed as YAML (findings may still include warnings). */
  ok: boolean;
  findings: Finding[];
}

const DEFAULTS: Required<YamlParseOptions> = {
  maxExpandedNodes: 2_000_000,
  maxDepth: 400,
  duplicateKeySeverity: 'warning',
  libyamlIndentation: true,
};

// PyYAML's implicit resolvers (yaml/resolver.py), verbatim in meaning.
const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const TRUE_WORDS = new Set(['yes', 'true', 'on']);
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const ANCHOR_NAME_RE = /^[0-9A-Za-z_-]+$/;
const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const TIMESTAMP_RE =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

function sexagesimal(text: string): number {
  let value = 0;
  for (const part of text.split(':')) value = value * 60 + Number(part);
  return value;
}

function constructInt(source: string): number {
  let text = source.replace(/_/g, '');
  let sign = 1;
  if (text[0] === '-') sign = -1;
  if (text[0] === '-' || text[0] === '+') text = text.slice(1);
  if (text === '0') return 0;
  if (text.startsWith('0b')) return sign * parseInt(text.slice(2), 2);
  if (text.startsWith('0x')) return sign * parseInt(text.slice(2), 16);
  if (text[0] === '0') return sign * parseInt(text, 8);
  if (text.includes(':')) return sign * sexagesimal(text);
  return sign * Number(text);
}

function constructFloat(source: string): number {
  let text = source.replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (text[0] === '-') sign = -1;
  if (text[0] === '-' || text[0] === '+') text = text.slice(1);
  if (text === '.inf') return sign * Infinity;
  if (text === '.nan') return NaN;
  if (text.includes(':')) return sign * sexagesimal(text);
  return sign * Number(text);
}

/** Resolve a plain (unquoted, untagged) scalar the way PyYAML's SafeLoader does. */
export function resolvePlainScalar(source: string): unknown {
  if (NULL_RE.test(source)) return null;
  if (BOOL_RE.test(source)) return TRUE_WORDS.has(source.toLowerCase());
  if (INT_RE.test(source)) return constructInt(source);
  if (FLOAT_RE.test(source)) return constructFloat(source);
  // Timestamps stay as their text: the data goes to JSON, where a date is a string anyway.
  if (TIMESTAMP_RE.test(source)) return source;
  return source;
}

/** Set a key without ever touching the prototype chain (`__proto__` is data here). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment is much faster; only names Object.prototype knows (`__proto__`, `toString`, …)
  // need defineProperty, to stay data and to survive a frozen prototype.
  if (key in Object.prototype) {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

class TooBig extends Error {}
class TooDeep extends Error {}
class Recursive extends Error {
  constructor(readonly at: SourcePosition) {
    super('recursive alias');
  }
}

class Converter {
  readonly findings: Finding[] = [];
  private readonly anchored = new Map<YamlNode, unknown>();
  private readonly expandedSize = new Map<YamlNode, number>();

  constructor(
    private readonly file: string,
    private readonly lines: LineCounter,
    private readonly options: Required<YamlParseOptions>,
    /** Spaces the leniency pass inserted per line: columns are reported as in the original text. */
    private readonly shifts?: Map<number, number>,
  ) {}

  pos(offset: number | undefined): SourcePosition {
    const { line, col } = this.lines.linePos(offset ?? 0);
    const shift = this.shifts?.get(line) ?? 0;
    return { file: this.file, line, column: Math.max(1, col - shift) };
  }

  private readonly sizing = new Set<YamlNode>();
  private aliasTargets?: Map<Alias, YamlNode | undefined>;

  /**
   * The node an alias names: the last node anchored with that name before it, as eemeli/yaml's own
   * `Alias.resolve` finds it. That method walks the whole document for every alias, which made large
   * templates with many aliases slow; one walk indexes them all.
   */
  target(alias: Alias, doc: Document.Parsed): YamlNode | undefined {
    if (!this.aliasTargets) {
      const targets = new Map<Alias, YamlNode | undefined>();
      const last = new Map<string, YamlNode>();
      visit(doc, {
        Node: (_key, node) => {
          if (isAlias(node)) targets.set(node, last.get(node.source));
          else if (node.anchor) last.set(node.anchor, node);
        },
      });
      this.aliasTargets = targets;
    }
    return this.aliasTargets.get(alias);
  }

  /** Size of a node once every alias in it is expanded, computed without expanding anything. */
  sizeOf(node: unknown, doc: Document.Parsed, depth = 0): number {
    if (depth > this.options.maxDepth) throw new TooDeep();
    if (!node || typeof node !== 'object') return 1;
    if (isAlias(node)) {
      const target = this.target(node, doc);
      return target ? this.sizeOf(target, doc, depth + 1) : 1;
    }
    const yamlNode = node as YamlNode;
    const known = this.expandedSize.get(yamlNode);
    if (known !== undefined) return known;
    if (this.sizing.has(yamlNode)) throw new Recursive(this.pos(yamlNode.range?.[0]));
    this.sizing.add(yamlNode);
    let size = 1;
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) size += this.sizeOf(item.key, doc, depth + 1) + this.sizeOf(item.value, doc, depth + 1);
        else size += this.sizeOf(item, doc, depth + 1);
        if (size > this.options.maxExpandedNodes) throw new TooBig();
      }
    }
    this.sizing.delete(yamlNode);
    this.expandedSize.set(yamlNode, size);
    return size;
  }

  convert(node: unknown, doc: Document.Parsed, depth: number): unknown {
    if (depth > this.options.maxDepth) throw new TooDeep();
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      this.checkAnchorName(node.source, node.range?.[0]);
      const target = this.target(node, doc);
      if (!target) return null;
      // PyYAML hands back the very same object for every alias of an anchor; so do we.
      if (this.anchored.has(target)) return this.anchored.get(target);
      return this.convert(target, doc, depth + 1);
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) this.checkAnchorName(anchor, (node as YamlNode).range?.[0]);
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) {
      const tag = node.tag;
      if (tag === 'tag:yaml.org,2002:set') {
        const out: Record<string, unknown> = {};
        this.remember(node, out);
        const entry = recordContainer(out, this.pos(node.range?.[0]));
        for (const pair of node.items) {
          const key = this.keyText(pair.key, doc, depth);
          setOwn(out, key, null);
          entry.keys.set(key, this.pos((pair.key as YamlNode | null)?.range?.[0]));
        }
        return out;
      }
      return this.mapping(node, doc, depth);
    }
    if (isSeq(node)) {
      const tag = node.tag;
      const out: unknown[] = [];
      this.remember(node, out);
      const entry = recordContainer(out, this.pos(node.range?.[0]));
      node.items.forEach((item, index) => {
        if (isPair(item)) {
          // !!pairs and !!omap: PyYAML builds a list of (key, value) tuples.
          const key = this.convert(item.key, doc, depth + 1);
          const value = this.convert(item.value, doc, depth + 1);
          out.push(tag === 'tag:yaml.org,2002:omap' || tag === 'tag:yaml.org,2002:pairs' ? [key, value] : { [String(key)]: value });
          entry.values.set(index, this.pos((item.key as YamlNode | null)?.range?.[0]));
        } else {
          out.push(this.convert(item, doc, depth + 1));
          entry.values.set(index, this.pos((item as YamlNode | null)?.range?.[0]));
        }
      });
      return out;
    }
    return null;
  }

  private remember(node: YamlNode, value: unknown): void {
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) {
      this.anchored.set(node, value);
    }
  }

  /** libyaml allows only letters, digits, `-` and `_` in anchor names; eemeli/yaml allows more. */
  private readonly checkedAnchors = new Set<string>();

  checkAnchorName(name: string, offset: number | undefined): void {
    if (ANCHOR_NAME_RE.test(name) || this.checkedAnchors.has(name)) return;
    this.checkedAnchors.add(name);
    this.findings.push(
      finding(
        'yaml/bad-anchor-name',
        'error',
        `the anchor or alias name '${name}' has characters that libyaml and PyYAML refuse (only letters, digits, '-' and '_' are allowed)`,
        this.pos(offset),
        'rename the anchor and its aliases with letters, digits, - and _ only',
      ),
    );
  }

  private scalar(node: Scalar): unknown {
    const tag = node.tag;
    if (!tag && node.type === Scalar.PLAIN) {
      const source = (node as Scalar & { source?: string }).source ?? String(node.value ?? '');
      if (source === '=') {
        // PyYAML resolves a lone `=` to the YAML 1.1 "value" type, which its safe loader cannot build.
        this.findings.push(
          finding('yaml/value-key', 'error', "a plain '=' is read by PyYAML as the special YAML 1.1 'value' type, which its safe loader refuses", this.pos(node.range?.[0]), "quote it: '='"),
        );
      }
      return resolvePlainScalar(source);
    }
    if (!tag) return node.value === null || node.value === undefined ? '' : String(node.value);
    if (tag === 'tag:yaml.org,2002:str') return node.value === null ? '' : String(node.value);
    const value = node.value;
    if (value instanceof Date) return (node as Scalar & { source?: string }).source ?? value.toISOString();
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (typeof value === 'bigint') return Number(value);
    if (tag.startsWith('tag:yaml.org,2002:')) return value;
    const where = this.pos(node.range?.[0]);
    this.findings.push(
      finding(
        'yaml/unknown-tag',
        'error',
        `the tag '${tag}' is not a standard YAML type, and Fuel's safe loader refused such values`,
        where,
        'remove the tag, or quote the value if it is meant as text',
      ),
    );
    return value === null || value === undefined ? null : String(value);
  }

  private keyText(key: unknown, doc: Document.Parsed, depth: number): string {
    const value = this.convert(key, doc, depth + 1);
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }

  private mapping(node: Extract<YamlNode, { items: unknown[] }>, doc: Document.Parsed, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.remember(node as YamlNode, out);
    const entry = recordContainer(out, this.pos((node as YamlNode).range?.[0]));
    const seen = new Map<string, SourcePosition>();
    // Merged mappings, one group per `<<` key, and the explicit pairs: PyYAML puts merged pairs
    // first (so they come first in key order) and lets explicit ones override them.
    const mergeGroups: Record<string, unknown>[][] = [];
    const explicit: { key: string; value: unknown; keyPos: SourcePosition; valuePos: SourcePosition }[] = [];
    for (const pair of node.items as { key: unknown; value: unknown }[]) {
      const keyNode = pair.key as YamlNode | null;
      if (
        isScalar(keyNode) &&
        !keyNode.tag?.startsWith('tag:yaml.org,2002:str') &&
        (keyNode.type === Scalar.PLAIN || keyNode.type === undefined) &&
        ((keyNode as Scalar & { source?: string }).source === '<<' || (typeof keyNode.value === 'symbol'))
      ) {
        const source = this.convert(pair.value, doc, depth + 1);
        const sources = Array.isArray(source) ? source : [source];
        const group: Record<string, unknown>[] = [];
        mergeGroups.push(group);
        for (const one of sources) {
          if (one && typeof one === 'object' && !Array.isArray(one)) group.push(one as Record<string, unknown>);
          else {
            this.findings.push(
              finding('yaml/bad-merge', 'error', 'a merge key (<<) must name a mapping or a list of mappings', this.pos(keyNode.range?.[0])),
            );
          }
        }
        continue;
      }
      if (isMap(keyNode) || isSeq(keyNode) || (isAlias(keyNode) && !isScalar(this.target(keyNode, doc)))) {
        this.findings.push(
          finding(
            'yaml/unhashable-key',
            'error',
            'a mapping key is itself a list or a mapping, which PyYAML refuses ("found unhashable key")',
            this.pos(keyNode?.range?.[0]),
            'use a plain string as the key',
          ),
        );
      }
      const key = this.keyText(keyNode, doc, depth);
      const keyPos = this.pos(keyNode?.range?.[0]);
      const previous = seen.get(key);
      if (previous) {
        this.findings.push(
          finding(
            'yaml/duplicate-key',
            this.options.duplicateKeySeverity,
            `the key '${key}' appears twice in one mapping (first at line ${previous.line}); the later value wins, as it did in Fuel`,
            keyPos,
            `keep one '${key}' and merge what the two say`,
          ),
        );
      }
      seen.set(key, keyPos);
      const valueNode = pair.value as YamlNode | null;
      const valuePos = valueNode?.range ? this.pos(valueNode.range[0]) : keyPos;
      explicit.push({ key, value: this.convert(pair.value, doc, depth + 1), keyPos, valuePos });
    }
    // Within one `<<: [*a, *b]` the earlier map wins; a later `<<` key wins over an earlier one.
    for (const group of mergeGroups) {
      for (const source of [...group].reverse()) {
        for (const [key, value] of Object.entries(source)) {
          setOwn(out, key, value);
          entry.values.set(key, entry.self);
        }
      }
    }
    for (const { key, value, keyPos, valuePos } of explicit) {
      setOwn(out, key, value);
      entry.keys.set(key, keyPos);
      entry.values.set(key, valuePos);
    }
    return out;
  }
}

interface Attempt {
  text: string;
  docs: Document.Parsed[];
  lines: LineCounter;
  /** Thrown by the parser itself (it should not, but user input must never crash us). */
  crash?: Error;
}

function attempt(text: string): Attempt {
  const lines = new LineCounter();
  try {
    const docs = parseAllDocuments(text, {
      version: '1.1',
      uniqueKeys: false,
      lineCounter: lines,
      prettyErrors: false,
      strict: false,
      merge: true,
    }) as Document.Parsed[];
    return { text, docs: Array.isArray(docs) ? docs : [], lines };
  } catch (err) {
    return { text, docs: [], lines, crash: err as Error };
  }
}

const hasSyntaxErrors = (a: Attempt): boolean => a.crash !== undefined || a.docs.some((doc) => doc.errors.length > 0);

/** Parse one YAML stream (one document, as PyYAML's `safe_load` requires). Never throws. */
export function parseYaml(text: string, file: string, options: YamlParseOptions = {}): ParsedYaml {
  const opts = { ...DEFAULTS, ...options };
  const findings: Finding[] = [];
  let parsed = attempt(text);
  let shifts: Map<number, number> | undefined;
  if (hasSyntaxErrors(parsed) && opts.libyamlIndentation) {
    const relaxed = relaxIndentation(text);
    const second = relaxed ? attempt(relaxed.text) : undefined;
    if (relaxed && second && !hasSyntaxErrors(second)) {
      parsed = second;
      shifts = relaxed.shifts;
      for (const span of relaxed.spans) {
        const what = span.kind === 'quoted' ? 'quoted string' : 'flow collection';
        findings.push(
          finding(
            'yaml/lenient-indentation',
            'info',
            `this multi-line ${what} has lines indented no deeper than its key: libyaml (Heat, PyYAML) reads it, strict YAML parsers refuse it`,
            { file, line: span.line, column: span.column },
            `indent the ${what}'s continuation lines past its key`,
          ),
        );
      }
    }
  }
  if (parsed.crash) {
    findings.push(finding('yaml/syntax', 'error', `cannot parse YAML: ${parsed.crash.message}`, { file, line: 1, column: 1 }));
    return { value: undefined, ok: false, findings };
  }
  const docs = parsed.docs;
  const converter = new Converter(file, parsed.lines, opts, shifts);
  const errors = docs.flatMap((doc) => doc.errors);
  if (errors.length > 0) {
    for (const error of errors.slice(0, 5)) {
      const at = converter.pos(error.pos[0]);
      let message = error.message.split('\n')[0].replace(/ at line \d+, column \d+.*$/, '');
      if (message.includes('call stack')) message = `the data is nested too deeply to read`;
      findings.push(
        finding('yaml/syntax', 'error', `this is not valid YAML: ${message}`, at, 'fix the YAML syntax at this place (indentation, quotes, a missing colon)'),
      );
    }
    return { value: undefined, ok: false, findings };
  }
  if (docs.length > 1) {
    const second = docs[1];
    findings.push(
      finding(
        'yaml/multiple-documents',
        'error',
        `the file holds ${docs.length} YAML documents, but one is expected`,
        converter.pos(second.range?.[0]),
        'remove the extra `---` separators or split the file',
      ),
    );
    return { value: undefined, ok: false, findings };
  }
  if (docs.length === 0) return { value: null, ok: true, findings };
  try {
    // Size first: refuses alias bombs and self-referencing anchors before building anything. Without
    // a '*' in the text there is no alias, and the data is no larger than the text.
    if (parsed.text.includes('*')) converter.sizeOf(docs[0].contents, docs[0]);
    const value = converter.convert(docs[0].contents, docs[0], 0);
    findings.push(...converter.findings);
    const ok = !converter.findings.some((f) => f.severity === 'error' && f.code !== 'yaml/duplicate-key');
    return { value, ok, findings };
  } catch (err) {
    if (err instanceof TooBig) {
      findings.push(
        finding(
          'yaml/too-large',
          'error',
          `the data grows past ${opts.maxExpandedNodes} values once its aliases are expanded (an alias bomb?)`,
          { file, line: 1, column: 1 },
          'use fewer nested aliases',
        ),
      );
    } else if (err instanceof Recursive) {
      findings.push(
        finding('yaml/recursive-alias', 'error', 'an alias refers to the collection that contains it, so the data never ends', err.at, 'replace the alias with a copy of the values it should hold'),
      );
    } else if (err instanceof TooDeep || err instanceof RangeError) {
      findings.push(
        finding('yaml/too-deep', 'error', `the data is nested more than ${opts.maxDepth} levels deep`, { file, line: 1, column: 1 }, 'flatten the structure'),
      );
    } else {
      findings.push(finding('yaml/syntax', 'error', `cannot read YAML: ${(err as Error).message}`, { file, line: 1, column: 1 }));
    }
    return { value: undefined, ok: false, findings };
  }
}
