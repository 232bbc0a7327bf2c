/** `template find` and `template capabilities`: the introspection half of issue 7, over files. */
import { finding, type Finding } from '../../core/findings.js';
import { matchesCapabilities, readEnvironment, readTemplateCapabilities, summariseCapabilities, type CapabilitiesSummary, type Requirements, type SummaryEntry } from '../../core/capabilities/index.js';
import { isJinja, listTreeFiles, TemplateFiles } from './files.js';
import type { SentTemplates } from './sent.js';

export interface FindOptions {
  /** Look into sub-folders of the folders given. */
  recursive?: boolean;
  /** Files a client sent: every sent file is a candidate, and nothing is read from disk. */
  sent?: SentTemplates;
}

export interface FoundTemplates {
  /** Sorted by plain code-point order. */
  templates: string[];
  findings: Finding[];
}

function jinjaNote(skipped: string[]): Finding {
  const shown = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? `, and ${skipped.length - 3} more` : '');
  return finding(
    'template/jinja-skipped',
    'info',
    `skipped ${skipped.length} Jinja template${skipped.length === 1 ? '' : 's'} (.j2.yaml): ${shown}`,
    undefined,
    'render them first (TripleO: tools/process-templates.py) to look inside',
  );
}

/** Templates under `paths` whose capabilities carry every wanted key/value. */
export function findTemplates(paths: readonly string[], constraints: Requirements, options: FindOptions = {}): FoundTemplates {
  const findings: Finding[] = [];
  const files = options.sent?.files ?? new TemplateFiles();
  const templates: string[] = [];
  const skipped: string[] = [];
  const candidates = options.sent ? options.sent.list(options.recursive ?? true) : listTreeFiles(paths, options.recursive ?? false, findings);
  for (const file of candidates) {
    if (isJinja(file.display)) {
      skipped.push(file.display);
      continue;
    }
    const parsed = files.readIfCapable(file.location, file.display);
    if (!parsed) continue;
    if (!parsed.ok) {
      const first = parsed.findings.find((f) => f.severity === 'error');
      findings.push(finding('template/unparseable', 'warning', `skipped '${file.display}': ${first?.message ?? 'it cannot be read'}`, first ?? { file: file.display }));
      continue;
    }
    findings.push(...parsed.findings);
    const read = readTemplateCapabilities(parsed.value, file.display);
    findings.push(...read.findings);
    if (read.capabilities && matchesCapabilities(read.capabilities, constraints)) templates.push(file.display);
  }
  if (skipped.length > 0) findings.push(jinjaNote(skipped));
  templates.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { templates: [...new Set(templates)], findings };
}

export interface SummaryResult extends CapabilitiesSummary {
  /** With environments: each `requires` key they ask for, with its values in first-seen order. */
  requires?: Record<string, string[]>;
  /** With environments: each type they map to a list of candidates, with the candidates as written. */
  lists?: Record<string, string[]>;
  findings: Finding[];
}

const addOnce = (target: Record<string, string[]>, key: string, value: string): void => {
  const list = Object.prototype.hasOwnProperty.call(target, key) ? target[key] : (target[key] = []);
  if (!list.includes(value)) list.push(value);
};

/** What environments ask of templates: their `requires` keys and the types they map to lists. */
function summariseEnvironments(paths: readonly { location: string; display: string }[], files: TemplateFiles, findings: Finding[]): Pick<SummaryResult, 'requires' | 'lists'> {
  const requires: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const lists: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const { location, display } of paths) {
    const parsed = files.read(location, display);
    if (!parsed.ok) {
      findings.push(...parsed.findings.filter((f) => f.severity === 'error'));
      continue;
    }
    // Candidates are shown as written: the summary reads no template the environment names.
    const env = readEnvironment(parsed.value, display, (written) => ({ location: written, display: written }));
    findings.push(...env.findings);
    for (const [key, wanted] of env.requires) addOnce(requires, key, wanted.value);
    for (const [type, entry] of env.registry) {
      if (entry.value.kind !== 'candidates') continue;
      for (const item of entry.value.items) addOnce(lists, type, item.kind === 'template' ? item.written : item.kind === 'type' ? item.type : item.written);
    }
  }
  return { requires: { ...requires }, lists: { ...lists } };
}

/**
 * The tags and types declared by `files`, in the order given; with `sent`, by the files a client
 * sent (all of them, in path order, when `paths` is empty).
 */
export function summariseTemplateFiles(paths: readonly string[], options: { sent?: SentTemplates; environments?: readonly string[] } = {}): SummaryResult {
  const findings: Finding[] = [];
  const files = options.sent?.files ?? new TemplateFiles();
  const entries: SummaryEntry[] = [];
  const targets = options.sent ? (paths.length ? paths.map((p) => options.sent!.locate(p)) : options.sent.list()) : paths.map((p) => ({ location: p, display: p }));
  for (const { location, display: path } of targets) {
    if (isJinja(path)) {
      findings.push(jinjaNote([path]));
      continue;
    }
    const parsed = files.read(location, path);
    if (!parsed.ok) {
      findings.push(...parsed.findings.filter((f) => f.severity === 'error'));
      continue;
    }
    findings.push(...parsed.findings);
    const read = readTemplateCapabilities(parsed.value, path);
    findings.push(...read.findings);
    if (!read.capabilities) {
      findings.push(finding('template/no-capabilities', 'info', `'${path}' declares no capabilities; it adds nothing to the summary`, { file: path }));
      continue;
    }
    entries.push({ template: path, capabilities: read.capabilities, resourceTypes: read.resourceTypes });
  }
  const environments = options.environments?.length
    ? summariseEnvironments(
        options.environments.map((e) => (options.sent ? options.sent.locate(e) : { location: e, display: e })),
        files,
        findings,
      )
    : {};
  return { ...summariseCapabilities(entries), ...environments, findings };
}
