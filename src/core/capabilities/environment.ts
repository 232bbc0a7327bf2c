/**
 * One environment file, read the way Heat reads it (heat/common/environment_format.py and
 * heat/engine/environment.py), plus the proposal's `requires:` section and candidate lists.
 * Pure: the caller parses the YAML and says how a written path becomes a file (`locate`).
 */
import { finding, type Finding, type SourcePosition } from '../findings.js';
import { keyPositionOf, positionOf } from '../positions.js';
import { capabilityText, type Requirements } from './match.js';

/** Heat's SECTIONS, and `requires` from the capabilities proposal. */
export const ENVIRONMENT_SECTIONS = [
  'parameters',
  'resource_registry',
  'parameter_defaults',
  'encrypted_param_names',
  'event_sinks',
  'parameter_merge_strategies',
  'requires',
] as const;

export const HOOK_TYPES = ['pre-create', 'pre-update', 'pre-delete', 'post-create', 'post-update', 'post-delete'] as const;
export const RESTRICTED_ACTIONS = ['update', 'replace'] as const;

/** A file a registry value names: where to read it, and how to show it. */
export interface TemplateRef {
  location: string;
  display: string;
}

export type RegistryTarget =
  | { kind: 'template'; written: string; ref: TemplateRef }
  /** An alias to another type (`OS::Heat::None`, `OS::Neutron::Port`, `OS::Neutron::*`). */
  | { kind: 'type'; type: string }
  /** Neither a template nor a type, e.g. a parameter put in the wrong section: Heat keeps it as an alias. */
  | { kind: 'other'; written: string };

export type RegistryValue =
  | { kind: 'single'; target: RegistryTarget }
  | { kind: 'candidates'; items: RegistryTarget[] }
  /** `OS::X: null` removes the entry (with a trailing `*` key, every entry with that prefix). */
  | { kind: 'delete' };

export interface RegistryEntry {
  key: string;
  value: RegistryValue;
  /** The environment file that set it, and where. */
  file: string;
  position?: SourcePosition;
}

export interface ResourceOverride {
  /** Per-resource type mappings (exact resource name only, as in Heat). */
  types: Map<string, RegistryEntry>;
  hooks?: string[];
  restrictedActions?: string[];
  /** Nested stacks: overrides for resources inside this one. */
  nested: Map<string, ResourceOverride>;
}

export interface RequiredValue {
  value: string;
  file: string;
  position?: SourcePosition;
}

export interface EnvironmentFile {
  file: string;
  requires: Map<string, RequiredValue>;
  registry: Map<string, RegistryEntry>;
  resources: Map<string, ResourceOverride>;
  findings: Finding[];
}

/** A registry value names a template when it ends as Heat's provider templates must and is not a type. */
export function isTemplatePath(written: string): boolean {
  return /\.(?:yaml|template)$/.test(written) && !written.includes('::');
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function requirementsOf(requires: Map<string, RequiredValue>): Requirements {
  const out: Record<string, string> = {};
  for (const [key, { value }] of requires) out[key] = value;
  return out;
}

class EnvironmentReader {
  readonly findings: Finding[] = [];
  constructor(
    private readonly file: string,
    private readonly locate: (written: string) => TemplateRef,
  ) {}

  private at(container: unknown, key?: string | number): SourcePosition {
    return (typeof key === 'string' ? keyPositionOf(container, key) : positionOf(container, key)) ?? { file: this.file, line: 1, column: 1 };
  }

  private error(code: string, message: string, where: SourcePosition, hint?: string, severity: 'error' | 'warning' | 'info' = 'error'): void {
    this.findings.push(finding(code, severity, message, where, hint));
  }

  target(written: string, container: unknown, key: string | number): RegistryTarget {
    if (isTemplatePath(written)) return { kind: 'template', written, ref: this.locate(written) };
    if (written.includes('::')) return { kind: 'type', type: written };
    this.error(
      'environment/not-a-template',
      `'${written}' is neither a template (a .yaml or .template file) nor a resource type (Namespace::Name); Heat keeps it as an alias to a type that does not exist`,
      this.at(container, key),
      'if this is a parameter, move it to parameter_defaults; if it is a template, give it a .yaml name',
      'warning',
    );
    return { kind: 'other', written };
  }

  entry(key: string, raw: unknown, container: Record<string, unknown>): RegistryEntry | undefined {
    const position = this.at(container, key);
    const base = { key, file: this.file, position };
    if (raw === null) return { ...base, value: { kind: 'delete' } };
    if (typeof raw === 'string') return { ...base, value: { kind: 'single', target: this.target(raw, container, key) } };
    if (Array.isArray(raw)) {
      const items: RegistryTarget[] = [];
      raw.forEach((item, index) => {
        if (typeof item === 'string') items.push(this.target(item, raw, index));
        else this.error('environment/bad-candidate', `candidate ${index + 1} of '${key}' is not a template path or a type name`, this.at(raw, index), 'list template paths or type names only');
      });
      return { ...base, value: { kind: 'candidates', items } };
    }
    this.error(
      'environment/bad-registry-value',
      `the registry entry '${key}' must be a template path, a type name, a list of candidates or null`,
      position,
      "Heat reads any other value as a Python class and fails with \"'…' object has no attribute 'support_status'\"",
    );
    return undefined;
  }

  actions<T extends string>(raw: unknown, allowed: readonly T[], what: string, container: Record<string, unknown>, key: string): string[] | undefined {
    const values = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
    if (!values || !values.every((v): v is string => typeof v === 'string')) {
      this.error(`environment/bad-${what === 'hook' ? 'hook' : 'restricted-action'}`, `'${key}' must be one name or a list of names`, this.at(container, key));
      return undefined;
    }
    for (const value of values) {
      if (!(allowed as readonly string[]).includes(value)) {
        const message =
          what === 'hook'
            ? `Invalid hook type "${value}" for resource breakpoint, acceptable hook types are: ${allowed.join(', ')}`
            : `Invalid restricted_action type "${value}" for resource, acceptable restricted_action types are: ${allowed.join(', ')}`;
        this.error(what === 'hook' ? 'environment/bad-hook' : 'environment/bad-restricted-action', message, this.at(container, key), `use one of: ${allowed.join(', ')}`);
      }
    }
    return values;
  }

  resources(raw: unknown, container: Record<string, unknown>, key: string): Map<string, ResourceOverride> {
    const out = new Map<string, ResourceOverride>();
    if (raw === null) return out;
    if (!isMapping(raw)) {
      this.error('environment/bad-resources', "'resources' must map resource names to their overrides", this.at(container, key));
      return out;
    }
    for (const [name, body] of Object.entries(raw)) {
      const override: ResourceOverride = { types: new Map(), nested: new Map() };
      out.set(name, override);
      if (body === null) continue;
      if (!isMapping(body)) {
        this.error('environment/bad-resources', `the overrides of resource '${name}' must be a mapping`, this.at(raw, name));
        continue;
      }
      for (const [inner, value] of Object.entries(body)) {
        if (inner === 'hooks') override.hooks = this.actions(value, HOOK_TYPES, 'hook', body, inner);
        else if (inner === 'restricted_actions') override.restrictedActions = this.actions(value, RESTRICTED_ACTIONS, 'restricted action', body, inner);
        else if (isMapping(value)) {
          for (const [nestedName, nestedBody] of this.resources({ [inner]: value }, body, inner)) override.nested.set(nestedName, nestedBody);
        } else {
          const entry = this.entry(inner, value, body);
          if (entry) override.types.set(inner, entry);
        }
      }
    }
    return out;
  }

  read(value: unknown): EnvironmentFile {
    const env: EnvironmentFile = { file: this.file, requires: new Map(), registry: new Map(), resources: new Map(), findings: this.findings };
    if (value === null || value === undefined) return env;
    if (!isMapping(value)) {
      this.error('environment/not-a-mapping', 'The environment is not a valid YAML mapping data type.', this.at(value), 'an environment is a mapping of sections: resource_registry, parameter_defaults, requires, …');
      return env;
    }
    for (const [section, body] of Object.entries(value)) {
      if (!(ENVIRONMENT_SECTIONS as readonly string[]).includes(section)) {
        this.error('environment/unknown-section', `environment has wrong section "${section}"`, this.at(value, section), `allowed sections: ${ENVIRONMENT_SECTIONS.join(', ')}`);
        continue;
      }
      if (body === null) {
        // Heat's server refuses this; heatclient accepts it. The server decides what a stack gets.
        this.error('environment/empty-section', `environment has empty section "${section}"`, this.at(value, section), `remove '${section}:' or give it at least one entry (or write '${section}: {}')`);
        continue;
      }
      if (section === 'requires') this.readRequires(body, value);
      else if (section === 'resource_registry') this.readRegistry(body, value, env);
    }
    return env;
  }

  private readRequires(body: unknown, parent: Record<string, unknown>): void {
    if (!isMapping(body)) {
      this.error('environment/bad-requires', "'requires' must map capability keys to values", this.at(parent, 'requires'), 'write e.g. `requires: {deployment: puppet}`');
      return;
    }
    for (const [key, raw] of Object.entries(body)) {
      const text = capabilityText(raw);
      if (text === undefined) {
        this.error('environment/bad-requires', `the requirement '${key}' must be a single value (text, a number or a boolean)`, this.at(body, key), 'require one value per key; a template may list several values for it');
        continue;
      }
      this.requires.set(key, { value: text, file: this.file, position: this.at(body, key) });
    }
  }

  readonly requires = new Map<string, RequiredValue>();

  private readRegistry(body: unknown, parent: Record<string, unknown>, env: EnvironmentFile): void {
    if (!isMapping(body)) {
      this.error('environment/bad-registry', "'resource_registry' must map resource types to templates or types", this.at(parent, 'resource_registry'));
      return;
    }
    for (const [key, raw] of Object.entries(body)) {
      if (key === 'resources') {
        env.resources = this.resources(raw, body, key);
        continue;
      }
      if (key === 'base_url' && typeof raw === 'string') continue; // heatclient's own convention
      if (key.includes('*') && !key.endsWith('*')) {
        this.error(
          'environment/literal-star',
          `'${key}' has a '*' that is not at the end: Heat reads it as a literal name, not a wildcard, so it matches no other type`,
          this.at(body, key),
          'put the * at the end (OS::TripleO::Tasks::*) or spell out each type',
          'warning',
        );
      }
      const entry = this.entry(key, raw, body);
      if (entry) env.registry.set(key, entry);
    }
  }
}

/** Read one parsed environment file. `locate` turns a written template path into a file reference. */
export function readEnvironment(value: unknown, file: string, locate: (written: string) => TemplateRef): EnvironmentFile {
  const reader = new EnvironmentReader(file, locate);
  const env = reader.read(value);
  env.requires = reader.requires;
  return env;
}
