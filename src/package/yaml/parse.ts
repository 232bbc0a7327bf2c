/**
 * YAML as Fuel read it. Fuel (Nailgun, the plugin builder) read every file with PyYAML's safe
 * loader, which follows YAML 1.1: `yes`/`no`/`on`/`off` are booleans, `0755` is octal, `1:30` is
 * sexagesimal, `1e3` (no dot) is a string. We parse with eemeli/yaml for its positions and error
 * recovery, then resolve plain scalars with PyYAML's own implicit-resolver rules, so a value means
 * here what it meant to Fuel. Positions of every value are kept (see core/positions).
 */
import type { Document, LineCounter } from 'yaml';
import { LineCounter as Lines, parseAllDocuments } from './engine.js';
import { finding, type Finding } from '../../core/findings.js';
import { relaxIndentation } from './leniency.js';
import { firstNonPrintable, firstRefusedTab } from './strictness.js';
import { resolvePlainScalar } from './scalars.js';
import { Converter, Recursive, TooBig, TooDeep, repeatedKeyFinding } from './convert.js';
import { readSimpleYaml, SIMPLE_LIMITS } from './simple.js';

export { resolvePlainScalar };

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
  /** Try the light reader for plain files first (simple.ts); false forces the full reader. */
  simple?: boolean;
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
  simple: true,
};

const MAY_HOLD_ALIAS = /(?:^|[\s[{,])\*[^\s,[\]{}]/m;

interface Attempt {
  text: string;
  docs: Document.Parsed[];
  lines: LineCounter;
  /** Thrown by the parser itself (it should not, but user input must never crash us). */
  crash?: Error;
}

function attempt(text: string): Attempt {
  const lines = new Lines();
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

/** What libyaml refuses although eemeli/yaml parsed it: a control character, a tab where libyaml does not skip one. */
function libyamlRefusal(original: string, parsedText: string, file: string, converter: Converter): Finding | undefined {
  const control = firstNonPrintable(original);
  if (control >= 0) {
    const before = original.slice(0, control);
    const line = before.split('\n').length;
    const column = control - before.lastIndexOf('\n');
    const code = original.codePointAt(control) ?? 0;
    return finding(
      'yaml/control-character',
      'error',
      `the character U+${code.toString(16).toUpperCase().padStart(4, '0')} is not allowed in YAML: libyaml (Heat, PyYAML) refuses the file`,
      { file, line, column },
      'remove it, or write it as an escape (\\x07) inside a double-quoted string',
    );
  }
  const tab = firstRefusedTab(parsedText);
  if (tab >= 0) {
    return finding(
      'yaml/tab',
      'error',
      'a tab where libyaml (Heat, PyYAML) does not allow one: in the indentation of a line, or right after a - or ? indicator',
      converter.pos(tab),
      'replace the tab with spaces (a blank line with a tab counts too)',
    );
  }
  return undefined;
}

/** Parse one YAML stream (one document, as PyYAML's `safe_load` requires). Never throws. */
export function parseYaml(text: string, file: string, options: YamlParseOptions = {}): ParsedYaml {
  const opts = { ...DEFAULTS, ...options };
  // Most files are plain YAML that a much lighter reader gets right (simple.ts); it gives up on
  // anything else, and on everything when the caller asks for tighter limits than it keeps.
  if (opts.simple && opts.maxDepth >= SIMPLE_LIMITS.depth && opts.maxExpandedNodes >= SIMPLE_LIMITS.expanded) {
    const simple = readSimpleYaml(text, file);
    if (simple) return { value: simple.value, ok: true, findings: simple.repeated.map((r) => repeatedKeyFinding(r.key, r.first, r.at, opts.duplicateKeySeverity)) };
  }
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
  const refused = libyamlRefusal(text, parsed.text, file, converter);
  if (refused) {
    findings.push(refused);
    return { value: undefined, ok: false, findings };
  }
  if (docs.length === 0) return { value: null, ok: true, findings };
  try {
    // Size first: refuses alias bombs and self-referencing anchors before building anything. Without
    // an alias (`*name` after a blank, a flow indicator or at a line start) the data is no larger than the text.
    if (MAY_HOLD_ALIAS.test(parsed.text)) converter.sizeOf(docs[0].contents, docs[0]);
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
