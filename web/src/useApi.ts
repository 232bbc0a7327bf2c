import { useCallback, useEffect, useState } from 'react';
import { apiUrl, type AnswerOf, type PathsFor, type RequestArgs } from '../../src/api/client.js';
import { call } from './api.js';

/**
 * Load a resource, typed by the OpenAPI document: `useApi('/clusters/{id}', { params: { id } })`;
 * `null` loads nothing (yet). `reload` fetches it again after a change.
 */
export function useApi<P extends PathsFor<'get'>>(path: P | null, ...request: RequestArgs<P, 'get'>): { data?: AnswerOf<P, 'get'>; error?: unknown; loading: boolean; current: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: AnswerOf<P, 'get'>; error?: unknown; loading: boolean; url?: string | null }>({ loading: path !== null });
  const [tick, setTick] = useState(0);
  // The request's URL is what identifies it: a new one is loaded afresh.
  const parts = request[0] as { params?: Record<string, unknown>; query?: Record<string, unknown> } | undefined;
  const url = path === null ? null : apiUrl(path, parts?.params, parts?.query);
  useEffect(() => {
    if (path === null || url === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    call('get', path, ...request).then(
      (data) => live && setState({ data, loading: false, url }),
      (error) => live && setState({ error, loading: false, url }),
    );
    return () => {
      live = false;
    };
    // The URL stands for path and request: a new one is loaded afresh.
  }, [url, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  // `current`: the data answers this URL, not the one before it (kept meanwhile, so pages do not flicker).
  const { url: loadedFor, ...rest } = state;
  return { ...rest, current: !rest.loading && loadedFor === url, reload };
}
