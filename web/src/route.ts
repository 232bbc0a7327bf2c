import { useEffect, useState } from 'react';

/** Hash routes (`#/env/3/nodes`) keep the server's job simple: it serves one page. */
export function useRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const onChange = () => setParts(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parts;
}

export function go(path: string): void {
  window.location.hash = `#/${path.replace(/^\//, '')}`;
}
