/**
 * Lists in pages, as OpenStack APIs page them: `limit` (at most this many) and `marker` (the id of
 * the last item of the previous page). A list route opts in with `config: PAGED_READ`; its handler
 * returns the whole list in its own order, and the page is cut here, so every list pages alike.
 * The answer stays a JSON array (clients written for whole lists keep working); the `Link` header
 * names the next page, as in RFC 8288, when there is one.
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
    if (page.marker !== undefined) {
      const at = items.findIndex((item) => String(item.id) === page.marker);
      if (at < 0) throw new HttpError(400, 'request/unknown-marker', `no item '${page.marker}' to page after`, { hint: 'the marker is the id of the last item of the previous page; it may have been deleted meanwhile: start again without it' });
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
