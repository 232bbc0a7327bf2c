/**
 * From eemeli/yaml's document to plain data, as PyYAML's safe loader builds it: scalars resolved by
 * PyYAML's rules, merge keys, the same object for every alias of an anchor, and a position recorded
 * for every key and value. Refusals PyYAML makes are findings.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, Scalar, visit } from 'yaml';
import type { Alias, Document, LineCounter, Node as YamlNode } from 'yaml';
import { finding, type Finding, type SourcePosition } from '../../core/findings.js';
import { recordContainer } from '../../core/positions.js';
import { constructTagged, resolvePlainScalar } from './scalars.js';
import type { YamlParseOptions } from './parse.js';

/** The types PyYAML's SafeLoader constructs; any other tag makes it refuse the document. */
const SAFE_TAGS = new Set(
  ['null', 'bool', 'int', 'float', 'binary', 'timestamp', 'omap', 'pairs', 'set', 'str', 'seq', 'map', 'merge'].map((t) => `tag:yaml.org,2002:${t}`),
);

const ANCHOR_NAME_RE = /^[0-9A-Za-z_-]+$/;

/** Set a key without ever touching the prototype chain (`__proto__` is data here). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment is much faster; only names Object.prototype knows (`__proto__`, `toString`, …)
  // need defineProperty, to stay data and to survive a frozen prototype.
  if (key in Object.prototype) {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export class TooBig extends Error {}
export class TooDeep extends Error {}
export class Recursive extends Error {
  constructor(readonly at: SourcePosition) {
    super('recursive alias');
  }
}

export class Converter {
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
      if (tag && !SAFE_TAGS.has(tag)) this.unknownTag(tag, node.range?.[0]);
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
      if (tag && !SAFE_TAGS.has(tag)) this.unknownTag(tag, node.range?.[0]);
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
    const explicit = this.explicitlyTagged(node, tag);
    if (explicit.handled) return explicit.value;
    const value = node.value;
    if (value instanceof Date) return (node as Scalar & { source?: string }).source ?? value.toISOString();
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (typeof value === 'bigint') return Number(value);
    if (SAFE_TAGS.has(tag)) return value;
    this.unknownTag(tag, node.range?.[0]);
    return value === null || value === undefined ? null : String(value);
  }

  /** PyYAML's safe loader builds only the standard types; `!!python/object` and `!foo` make it refuse the file. */
  private unknownTag(tag: string, offset: number | undefined): void {
    this.findings.push(
      finding(
        'yaml/unknown-tag',
        'error',
        `the tag '${tag}' is not a standard YAML type, and Fuel's safe loader refused such values`,
        this.pos(offset),
        'remove the tag, or quote the value if it is meant as text',
      ),
    );
  }

  /** `!!int`, `!!float`, `!!bool`, `!!null`: built from the text as PyYAML does (see scalars.ts). */
  private explicitlyTagged(node: Scalar, tag: string): { handled: boolean; value?: unknown } {
    const kind = tag.startsWith('tag:yaml.org,2002:') ? tag.slice('tag:yaml.org,2002:'.length) : '';
    if (kind !== 'int' && kind !== 'float' && kind !== 'bool' && kind !== 'null') return { handled: false };
    const text = (node as Scalar & { source?: string }).source ?? (node.value === null || node.value === undefined ? '' : String(node.value));
    const value = constructTagged(kind, text);
    if (value === undefined) {
      this.findings.push(
        finding('yaml/bad-tagged-value', 'error', `'${text}' cannot be read as !!${kind}, so PyYAML refuses the file`, this.pos(node.range?.[0]), `fix the value or drop the !!${kind} tag`),
      );
      return { handled: true, value: text };
    }
    return { handled: true, value };
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
      if (previous) this.findings.push(repeatedKeyFinding(key, previous, keyPos, this.options.duplicateKeySeverity));
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

/** A key met twice in one mapping; both readers (this one and simple.ts) say it in these words. */
export function repeatedKeyFinding(key: string, first: SourcePosition, at: SourcePosition, severity: 'error' | 'warning'): Finding {
  return finding('yaml/duplicate-key', severity, `the key '${key}' appears twice in one mapping (first at line ${first.line}); the later value wins, as it did in Fuel`, at, `keep one '${key}' and merge what the two say`);
}
