/**
 * Conditional GETs and compression, for every answer (app-level hooks, so routes stay as they are).
 *
 * - ETag: a route may set its own (a digest of the state its answer depends on, computed once per
 *   state, as the cached reads do); otherwise a GET's 200 answer gets a digest of its bytes. A
 *   request whose `If-None-Match` names it gets `304 Not Modified` and no body.
 * - Compression: answers of a compressible type above 1 KiB are compressed, with brotli or gzip
 *   as `Accept-Encoding` allows (`Vary: Accept-Encoding` says so to caches). Compressed bodies of
 *   answers that have an ETag are kept (a few MiB at most), so the same answer is compressed once.
 *   An ETag stays the same across encodings; it becomes weak (`W/`) when the body is compressed,
 *   as the bytes differ while the content is the same.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Smaller answers gain little and cost a compression each. */
export const COMPRESS_ABOVE = 1024;
/** Text: JSON, YAML (the Ansible inventory), XML and their `+json`/`+yaml`/`+xml` kinds, JavaScript, text/*, SVG. */
const COMPRESSIBLE = /^(application\/(json|javascript|xml|yaml|x-yaml|x-ndjson|[\w.-]+\+(json|yaml|xml))|text\/[\w.+-]+|image\/svg\+xml)\s*(;|$)/i;
/** Whether an answer of this Content-Type is worth compressing. */
export const isCompressible = (contentType: string): boolean => COMPRESSIBLE.test(contentType);
/** Compressed bodies kept, by ETag and encoding: at most this many bytes. */
const KEPT_BYTES = 16 * 1024 * 1024;

type Encoding = 'br' | 'gzip';

/** The encoding to use: brotli when accepted, else gzip, else none (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    if (name) accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const allowed = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allowed('br')) return 'br';
  if (allowed('gzip')) return 'gzip';
  return undefined;
}

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const mine = bare(etag);
  return ifNoneMatch.split(',').some((tag) => bare(tag) === mine);
}

class CompressedBodies {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;

  get(key: string): Buffer | undefined {
    return this.kept.get(key);
  }

  set(key: string, body: Buffer): void {
    if (body.length > KEPT_BYTES / 4) return;
    this.kept.set(key, body);
    this.bytes += body.length;
    // Oldest first: a Map keeps insertion order.
    for (const [old, value] of this.kept) {
      if (this.bytes <= KEPT_BYTES) break;
      this.kept.delete(old);
      this.bytes -= value.length;
    }
  }
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * zlib's asynchronous calls compress in libuv's thread pool: the request thread goes on serving
 * others meanwhile (a 1,000-node graph's 5.7 MB took it tens of ms with the synchronous ones).
 * Not @fastify/compress: it would add a dependency for the same zlib calls, and its own rules for
 * ETags, thresholds and Vary, which clients and tests here rely on as they are.
 */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  // Brotli's quality 5 and gzip's level 6 compress JSON well at a few ms a MiB; brotli's default
  // (11) takes ten times longer for a few per cent more.
  return encoding === 'br' ? brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : gzipAsync(body, { level: 6 });
}

export function httpCaching(app: FastifyInstance): void {
  const compressed = new CompressedBodies();
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams, empty answers
    if (reply.statusCode < 200 || reply.statusCode >= 300 || reply.statusCode === 204) return payload;
    const readable = request.method === 'GET' || request.method === 'HEAD';
    let etag = reply.getHeader('etag') as string | undefined;
    if (readable && reply.statusCode === 200) {
      etag ??= `"${createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        reply.removeHeader('content-type');
        reply.removeHeader('content-length');
        return '';
      }
    }
    const type = String(reply.getHeader('content-type') ?? '');
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (!isCompressible(type) || reply.hasHeader('content-encoding')) return payload;
    // Added to a Vary the route set (`/` varies by Accept: routes/openstack.ts).
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = length > COMPRESS_ABOVE ? chooseEncoding(request.headers['accept-encoding']) : undefined;
    if (!encoding) return payload;
    // An ETag names one representation of one resource (RFC 9110): the URL is part of the key, so
    // that two answers sharing a route's ETag (a graph as JSON and as DOT) never share a body.
    const key = etag ? `${encoding} ${request.url} ${etag}` : undefined;
    let body = key ? compressed.get(key) : undefined;
    if (!body) {
      body = await compress(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding);
      if (key) compressed.set(key, body);
    }
    if (etag && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
