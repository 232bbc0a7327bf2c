import { useMemo, useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const currentHash = () => window.location.hash;

/**
 * Hash routes (`#/env/3/nodes`) keep the server's job simple: it serves one page. Read through
 * useSyncExternalStore, which looks at the address again once it listens: an address followed
 * between the first render and the listener being added (a busy machine, a script opening one
 * address right after another) would otherwise be missed, leaving the page on the screen before.
 */
export function useRoute(): string[] {
  const hash = useSyncExternalStore(subscribe, currentHash);
  return useMemo(() => hash.replace(/^#\/?/, '').split('/').filter(Boolean), [hash]);
}

export function go(path: string): void {
  window.location.hash = `#/${path.replace(/^\//, '')}`;
}
