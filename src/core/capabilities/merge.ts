/**
 * Several environment files given in order (`-e a.yaml -e b.yaml`): a later file wins, key by key,
 * for `requires` and for `resource_registry` (so a list may replace a string and the other way
 * round). `null` deletes, as in Heat's Environment.load: `OS::X: null` drops `OS::X`, and
 * `OS::Net::*: null` drops every entry starting `OS::Net::`. Per-resource overrides merge per
 * resource and per type, as heatclient's deep merge does.
 */
import type { EnvironmentFile, RegistryEntry, RequiredValue, ResourceOverride } from './environment.js';

export interface MergedEnvironment {
  files: string[];
  requires: Map<string, RequiredValue>;
  /** Never holds deletions: they have been applied. */
  registry: Map<string, RegistryEntry>;
  resources: Map<string, ResourceOverride>;
}

function applyEntry(target: Map<string, RegistryEntry>, entry: RegistryEntry): void {
  if (entry.value.kind !== 'delete') {
    target.set(entry.key, entry);
    return;
  }
  target.delete(entry.key);
  if (entry.key.endsWith('*')) {
    const prefix = entry.key.slice(0, -1);
    for (const key of [...target.keys()]) if (key.startsWith(prefix)) target.delete(key);
  }
}

function mergeOverrides(target: Map<string, ResourceOverride>, source: Map<string, ResourceOverride>): void {
  for (const [name, override] of source) {
    let into = target.get(name);
    if (!into) {
      into = { types: new Map(), nested: new Map() };
      target.set(name, into);
    }
    for (const entry of override.types.values()) applyEntry(into.types, entry);
    if (override.hooks) into.hooks = override.hooks;
    if (override.restrictedActions) into.restrictedActions = override.restrictedActions;
    mergeOverrides(into.nested, override.nested);
  }
}

export function mergeEnvironments(files: readonly EnvironmentFile[]): MergedEnvironment {
  const merged: MergedEnvironment = { files: [], requires: new Map(), registry: new Map(), resources: new Map() };
  for (const env of files) {
    merged.files.push(env.file);
    for (const [key, value] of env.requires) merged.requires.set(key, value);
    for (const entry of env.registry.values()) applyEntry(merged.registry, entry);
    mergeOverrides(merged.resources, env.resources);
  }
  return merged;
}
