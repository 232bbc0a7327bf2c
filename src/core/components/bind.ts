/**
 * Nailgun's `bind` of components: choosing a component sets values. Each item is a path
 * (`settings:section.field.value`, `cluster:net_provider`) set to true, or `[path, value]`.
 * Only `settings:` paths change anything Hearth stores; `cluster:` values are kept for the record.
 */
export interface BindResult {
  settings: Record<string, unknown>;
  cluster: Record<string, unknown>;
  problems: string[];
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Sets `path` under `root`, copying on the way only the objects this result does not own yet
 * (`owned`): the rest stays shared with the tree given, which is never changed.
 */
function setPath(root: Record<string, unknown>, path: string[], value: unknown, owned: Set<object>): boolean {
  let node: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (FORBIDDEN.has(key)) return false;
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next))) return false;
    if (next === undefined || !owned.has(next)) {
      const own = next === undefined ? {} : { ...(next as Record<string, unknown>) };
      owned.add(own);
      node[key] = own;
    }
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (FORBIDDEN.has(last)) return false;
  node[last] = value;
  return true;
}

/**
 * The settings with the chosen components' binds applied. `settings` is not changed; the result
 * shares with it every part no bind touched (read-only, like it): a whole copy of the release's
 * settings tree cost each POST /clusters about half a millisecond of the request thread.
 */
export function applyBind(settings: Record<string, unknown>, components: ReadonlyArray<{ name: string; bind?: unknown[] }>): BindResult {
  const out: BindResult = { settings: { ...settings }, cluster: {}, problems: [] };
  const owned = new Set<object>([out.settings, out.cluster]);
  for (const component of components) {
    for (const item of component.bind ?? []) {
      const [path, value] = Array.isArray(item) ? [item[0], item[1]] : [item, true];
      if (typeof path !== 'string' || !/^(settings|cluster):[^:]+$/.test(path)) {
        out.problems.push(`component ${component.name}: bind item ${JSON.stringify(item)} is not "settings:a.b.value" or "cluster:field"`);
        continue;
      }
      const [scope, dotted] = path.split(':') as ['settings' | 'cluster', string];
      const target = scope === 'settings' ? out.settings : out.cluster;
      if (!setPath(target, dotted.split('.'), value, owned)) out.problems.push(`component ${component.name}: cannot set ${path}`);
    }
  }
  return out;
}
