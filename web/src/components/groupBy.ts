/**
 * `items` grouped by `keyOf`, each group in the items' order, in one pass. Copying a group at each
 * of its items (`[...(map.get(k) ?? []), item]`) made grouping quadratic: at 10,000 components
 * the wizard's groups cost millions of copies on every state, and a watched run of 200,000 tasks
 * grouped by node twenty million. Items whose key is undefined are left out.
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
