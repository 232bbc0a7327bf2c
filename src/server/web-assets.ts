/**
 * The built web UI (web/dist), served as files: one route per file, found when the app is built
 * (a handful of files; the asset names carry a hash of their content, so a browser may keep them
 * for good). This replaces `@fastify/static`, whose loading alone cost a restart about a tenth of
 * its time; ETags, 304s and compression come from http-cache.ts as for every answer.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, root);
    return entry.isFile() ? [relative(root, path).split(sep).join('/')] : [];
  });
}

/**
 * Serves every file under `dist` at its path; answers how to send `index.html`, which `/` serves
 * to browsers (routes/openstack.ts owns `/`: JSON clients get version discovery there).
 */
export function webAssetRoutes(app: FastifyInstance, dist: string): (request: unknown, reply: FastifyReply) => Promise<unknown> {
  let index = async (_request: unknown, reply: FastifyReply): Promise<unknown> => reply.status(404).send({ code: 'request/no-such-route', message: 'the web UI has no index.html' });
  for (const file of filesUnder(dist)) {
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    // Vite names what it builds under assets/ by content: such a name never holds other bytes.
    const cacheControl = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    const send = async (_request: unknown, reply: FastifyReply) => reply.type(type).header('cache-control', cacheControl).send(await readFile(join(dist, file)));
    app.get(`/${file}`, send);
    if (file === 'index.html') index = send;
  }
  return index;
}
