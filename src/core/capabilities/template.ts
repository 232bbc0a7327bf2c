/**
 * What a parsed file says about itself as a HOT template: is it one, what capabilities it declares,
 * which resource types it uses. Any `heat_template_version` value counts (dates and names alike):
 * checking the version is Heat's job at stack creation, not a reason to hide a template here.
 */
import { finding, type Finding } from '../findings.js';
import { keyPositionOf, positionOf } from '../positions.js';
import type { Capabilities } from './match.js';

export interface TemplateCapabilities {
  /** The `capabilities:` mapping; undefined when the file is not a template or declares none. */
  capabilities?: Capabilities;
  /** `resource_type` as a list (a single string becomes one item). */
  resourceTypes: string[];
  findings: Finding[];
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function isHotTemplate(value: unknown): value is Record<string, unknown> {
  return isMapping(value) && Object.prototype.hasOwnProperty.call(value, 'heat_template_version');
}

/** The capabilities of a parsed file; `file` names it in findings. */
export function readTemplateCapabilities(value: unknown, file: string): TemplateCapabilities {
  const findings: Finding[] = [];
  if (!isHotTemplate(value)) return { resourceTypes: [], findings };
  if (!Object.prototype.hasOwnProperty.call(value, 'capabilities')) return { resourceTypes: [], findings };
  const raw = value.capabilities;
  const where = keyPositionOf(value, 'capabilities') ?? { file };
  if (raw === null) return { resourceTypes: [], findings };
  if (!isMapping(raw)) {
    findings.push(
      finding('template/bad-capabilities', 'warning', "'capabilities' must be a mapping of keys to values; this one is ignored", where, 'write it as `capabilities:` followed by indented `key: value` lines'),
    );
    return { resourceTypes: [], findings };
  }
  const resourceTypes: string[] = [];
  const types = raw.resource_type;
  if (typeof types === 'string') resourceTypes.push(types);
  else if (Array.isArray(types)) {
    types.forEach((item, index) => {
      if (typeof item === 'string') resourceTypes.push(item);
      else {
        findings.push(
          finding('template/bad-resource-type', 'warning', `resource_type item ${index + 1} is not a type name; it is ignored`, positionOf(types, index) ?? where, 'list type names such as OS::TripleO::Services::MySQL'),
        );
      }
    });
  } else if (types !== undefined && types !== null) {
    findings.push(
      finding('template/bad-resource-type', 'warning', "'resource_type' must be a type name or a list of them; it is ignored", positionOf(raw, 'resource_type') ?? where, 'write `resource_type: OS::X` or a list'),
    );
  }
  for (const [key, item] of Object.entries(raw)) {
    const scalar = (v: unknown) => v === null || typeof v !== 'object';
    if (!scalar(item) && !(Array.isArray(item) && item.every(scalar))) {
      findings.push(
        finding('template/bad-capability-value', 'warning', `the capability '${key}' is a mapping or a nested list, which no requirement can match`, positionOf(raw, key) ?? where, 'use a value or a list of values'),
      );
    }
  }
  return { capabilities: raw, resourceTypes, findings };
}

export interface ResourceUse {
  /** The resource's name in the template. */
  name: string;
  type: string;
}

/** The `type:` of every resource of a HOT template (non-string types are Heat's error, not ours). */
export function resourceTypesOf(value: unknown): ResourceUse[] {
  if (!isMapping(value) || !isMapping(value.resources)) return [];
  const uses: ResourceUse[] = [];
  for (const [name, resource] of Object.entries(value.resources)) {
    if (isMapping(resource) && typeof resource.type === 'string') uses.push({ name, type: resource.type });
  }
  return uses;
}
