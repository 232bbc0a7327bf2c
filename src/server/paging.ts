/**
 * Lists in pages, as OpenStack APIs page them: `limit` (at most this many) and `marker` (the id of
 * the last item of the previous page). A list route opts in with `config: PAGED_READ`; its handler
 * returns the whole list in its own order, and the page is cut here, so every list pages alike.
 * The answer stays a JSON array (clients written for whole lists keep working); the `Link` header
 * names the next page, as in RFC 8288, when there is one.
 *
 * A list that can be long pages in the database (`pageInStore`): its handler reads only the page,
 * from after the marker, one item more than the limit (so the next page's link is known). Cutting
 * the whole list here cost 2.3 s for `?limit=1` over 100,000 nodes (issue 24, item 19).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers a list of items with an `id` that `limit`/`marker` page. */
    paged?: boolean;
  }
}

export const PAGED_READ = { access: 'read', paged: true } as const;

/** At most this many items a page, whatever `limit` asks. */
export const MAX_PAGE = 1000;

export const PAGE_PARAMETERS = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE, description: 'at most this many items' },
  marker: { type: 'string', maxLength: 200, description: 'the id of the last item of the previous page' },
} as const;

// Requests whose handler read only their page (pageInStore): the marker is behind them already.
const pagedInStore = new WeakSet<FastifyRequest>();

/** What a page asks the database for: `after` the marker, at most `limit` rows (one more than the page). */
export interface StorePage {
  marker?: string;
  limit?: number;
}

/**
 * For a handler that reads only its page from the database: the page asked (undefined: the whole
 * list), with one more item than the page holds. The handler's answer must start after the marker.
 */
export function pageInStore(request: FastifyRequest): StorePage | undefined {
  const page = pageOf(request);
  if (!page) return undefined;
  pagedInStore.add(request);
  return { ...(page.marker !== undefined ? { marker: page.marker } : {}), ...(page.limit !== undefined ? { limit: page.limit + 1 } : {}) };
}

/**
 * A list read from the database in the page asked (pageInStore), or whole when none is: `read`
 * gets the key after which to start (the marker as `key` reads it) and how many rows, and answers
 * undefined when the marker names no item of the list.
 */
export async function readPaged<T, K>(request: FastifyRequest, key: (marker: string) => K, read: (page: { after?: K; limit?: number }) => Promise<T[] | undefined>): Promise<T[]> {
  const page = pageInStore(request);
  const items = await read(page ? { ...(page.marker !== undefined ? { after: key(page.marker) } : {}), ...(page.limit !== undefined ? { limit: page.limit } : {}) } : {});
  if (!items) throw unknownMarker(page?.marker ?? '');
  return items;
}

/** A marker naming no item of the list (or an id that cannot be one). */
export const unknownMarker = (marker: string): HttpError =>
  new HttpError(400, 'request/unknown-marker', `no item '${marker}' to page after`, { hint: 'the marker is the id of the last item of the previous page; it may have been deleted meanwhile: start again without it' });

/** A marker as a whole-number id, or the refusal of one that cannot be an id. */
export function numericMarker(marker: string): number {
  if (!/^[1-9]\d{0,9}$/.test(marker) || Number(marker) > 2147483647) throw unknownMarker(marker);
  return Number(marker);
}

function pageOf(request: FastifyRequest): { limit?: number; marker?: string } | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (query.limit === undefined && query.marker === undefined) return undefined;
  let limit: number | undefined;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new HttpError(400, 'request/bad-limit', `limit must be a whole number from 1 to ${MAX_PAGE}`);
  }
  const marker = query.marker === undefined ? undefined : String(query.marker);
  return { ...(limit !== undefined ? { limit } : {}), ...(marker !== undefined ? { marker } : {}) };
}

export function pageLists(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.paged) pageOf(request);
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (!request.routeOptions.config.paged || !Array.isArray(payload) || reply.statusCode !== 200) return payload;
    const page = pageOf(request);
    if (!page) return payload;
    let items = payload as Array<{ id?: unknown }>;
    if (page.marker !== undefined && !pagedInStore.has(request)) {
      const at = items.findIndex((item) => String(item.id) === page.marker);
      if (at < 0) throw unknownMarker(page.marker);
      items = items.slice(at + 1);
    }
    if (page.limit !== undefined && items.length > page.limit) {
      items = items.slice(0, page.limit);
      const url = new URL(request.url, 'http://hearth');
      url.searchParams.set('marker', String(items[items.length - 1].id));
      url.searchParams.set('limit', String(page.limit));
      void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
    }
    return items;
  });
}
