/**
 * `template resolve`: read environment files in order, merge them, resolve candidate lists against
 * the candidates' capabilities, then check what Heat would trip over later: loops of aliases, and
 * loops of templates (a template that, through `type:` and the registry, ends up nesting itself).
 */
import { dirname, isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import {
  findAliasLoops,
  isTemplatePath,
  lookupType,
  mergeEnvironments,
  readEnvironment,
  readTemplateCapabilities,
  resolveEnvironment,
  resourceTypesOf,
  isHotTemplate,
  type CandidateCapabilities,
  type EnvironmentFile,
  type Resolution,
  type ResolutionError,
  type TemplateRef,
} from '../../core/capabilities/index.js';
import { isJinja, slashes, TemplateFiles } from './files.js';

/** Where TripleO installs its templates; environments name them by this absolute path. */
export const THT_PREFIX = '/usr/share/openstack-tripleo-heat-templates/';

export interface ResolveOptions {
  /** The template tree: absolute TripleO paths are read under it, and paths are shown relative to it. */
  root?: string;
  /** Where relative paths are shown from when there is no root (default: the working folder). */
  cwd?: string;
  /** Walk the chosen templates to report template loops (default true). */
  checkNesting?: boolean;
  /**
   * Files a client sent (templates/sent.ts), read instead of the disk, with how to show each
   * location; paths then live under the virtual root `/`.
   */
  sent?: { files: TemplateFiles; show: (location: string) => string; root: string };
}

export interface EnvironmentResolution {
  resolved: Record<string, string>;
  /** Per-resource overrides, when any: resource → type → value. */
  resources: Record<string, Record<string, string>>;
  errors: ResolutionError[];
  findings: Finding[];
}

const isRemote = (path: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !path.startsWith('file://');

export function resolveEnvironments(environmentPaths: readonly string[], options: ResolveOptions = {}): EnvironmentResolution {
  const cwd = options.sent ? '/' : (options.cwd ?? process.cwd());
  const root = options.sent ? options.sent.root : options.root !== undefined ? resolvePath(cwd, options.root) : undefined;
  const shownFrom = root ?? cwd;
  const files = options.sent?.files ?? new TemplateFiles();
  const show = options.sent?.show ?? ((location: string) => slashes(relative(shownFrom, location)));
  const findings: Finding[] = [];

  const refFor = (written: string, baseDir: string): TemplateRef => {
    if (isRemote(written)) return { location: written, display: written };
    let path = written.startsWith('file://') ? written.slice('file://'.length) : written;
    if (root && path.startsWith(THT_PREFIX)) path = join(root, path.slice(THT_PREFIX.length));
    const location = isAbsolute(path) ? path : resolvePath(baseDir, path);
    return { location, display: show(location) || '.' };
  };

  const environments: EnvironmentFile[] = [];
  for (const path of environmentPaths) {
    const parsed = files.read(resolvePath(cwd, path), options.sent ? options.sent.show(resolvePath(cwd, path)) : path);
    findings.push(...parsed.findings);
    if (!parsed.ok) {
      if (isJinja(path)) findings.push(finding('template/jinja-environment', 'info', `'${path}' is a Jinja template: render it first (TripleO: tools/process-templates.py)`, { file: path }));
      continue;
    }
    const baseDir = dirname(resolvePath(cwd, path));
    const env = readEnvironment(parsed.value, path, (written) => refFor(written, baseDir));
    findings.push(...env.findings);
    environments.push(env);
  }
  const merged = mergeEnvironments(environments);

  const reportedCandidates = new Set<string>();
  const capabilitiesOf = (location: string): CandidateCapabilities => {
    if (isRemote(location)) return { readable: false, reason: 'remote templates are not fetched' };
    const parsed = files.read(location, show(location));
    if (!parsed.ok) {
      const first = parsed.findings.find((f) => f.severity === 'error');
      if (first?.code === 'file/missing') return { readable: false, reason: 'no such file' };
      if (isJinja(location)) return { readable: false, reason: 'a Jinja template (.j2.yaml): render it first' };
      return { readable: false, reason: first?.message ?? 'it does not parse' };
    }
    if (!isHotTemplate(parsed.value)) return { readable: false, reason: 'it is not a HOT template (no heat_template_version)' };
    const read = readTemplateCapabilities(parsed.value, show(location));
    if (!reportedCandidates.has(location)) {
      // A template listed under several keys is reported once.
      reportedCandidates.add(location);
      findings.push(...parsed.findings, ...read.findings);
    }
    return { readable: true, capabilities: read.capabilities };
  };

  const resolution = resolveEnvironment(merged, capabilitiesOf);
  findings.push(...resolution.findings, ...findAliasLoops(resolution));
  if (options.checkNesting ?? true) findings.push(...findTemplateLoops(resolution, files, show));
  return { resolved: resolution.resolved, resources: resolution.resources, errors: resolution.errors, findings };
}

/**
 * Walk every chosen template and what it nests (`type: x.yaml`, or a type the registry maps to a
 * template). Inside a nested template, the mapping that created it is removed, as Heat does, so a
 * template that wraps the type it implements is not a loop. A template reached again while it is
 * still being walked is: Heat would nest until its depth limit, heatclient until Python's stack ends.
 */
function findTemplateLoops(resolution: Resolution, files: TemplateFiles, show: (location: string) => string): Finding[] {
  const findings: Finding[] = [];
  const done = new Set<string>();
  const reported = new Set<string>();
  const missing = new Set<string>();
  const stack: { location: string; via: string }[] = [];

  const visit = (ref: TemplateRef, via: string, excluded: ReadonlySet<string>, from?: { file: string; line?: number; column?: number }): void => {
    if (isRemote(ref.location) || done.has(ref.location)) return;
    const onStack = stack.findIndex((s) => s.location === ref.location);
    if (onStack >= 0) {
      const cycle = [...stack.slice(onStack), { location: ref.location, via }];
      const id = cycle.slice(0, -1).map((s) => s.location).sort().join('\n');
      if (!reported.has(id)) {
        reported.add(id);
        const steps = cycle.map((s, i) => (i === 0 ? show(s.location) : `(${s.via}) ${show(s.location)}`)).join(' → ');
        findings.push(
          finding('template/loop', 'error', `templates nest each other in a loop: ${steps}`, from, 'break the loop: one of these templates must not use the next one'),
        );
      }
      return;
    }
    const parsed = files.read(ref.location, show(ref.location));
    if (!parsed.ok) {
      if (!missing.has(ref.location)) {
        missing.add(ref.location);
        const first = parsed.findings.find((f) => f.severity === 'error');
        const why = first?.code === 'file/missing' ? 'does not exist' : `cannot be read (${first?.message ?? 'unknown error'})`;
        findings.push(finding('template/missing-nested', 'warning', `'${show(ref.location)}', used as ${via}, ${why}`, from ?? { file: show(ref.location) }, 'Heat will fail to create this resource'));
      }
      return;
    }
    stack.push({ location: ref.location, via });
    const baseDir = dirname(ref.location);
    for (const use of resourceTypesOf(parsed.value)) {
      const where = { file: show(ref.location) };
      if (isTemplatePath(use.type)) {
        const location = resolvePath(baseDir, use.type.startsWith('file://') ? use.type.slice(7) : use.type);
        visit({ location, display: show(location) }, use.type, excluded, where);
        continue;
      }
      const found = lookupType(resolution, use.type, { resource: use.name, excluded });
      if (found.kind === 'template') visit(found.ref, use.type, new Set([...excluded, ...found.chain]), where);
    }
    stack.pop();
    done.add(ref.location);
  };

  for (const entry of resolution.entries.values()) {
    if (entry.target?.kind === 'template') visit(entry.target.ref, entry.key, new Set([entry.key]), entry.entry.position);
  }
  return findings;
}
