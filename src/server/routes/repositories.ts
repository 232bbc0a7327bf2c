/**
 * Plugin repositories served to nodes: `GET /plugins/<name>-<version>/repositories/<path>` answers
 * a file under the plugin's `repository_path` (in a registered folder, the bundled release, or the
 * package of a plugin installed from one, unpacked on this server: domain/plugin-files.ts). Open to all, as a package mirror is: nodes fetch without a token.
 * Only files inside the repository folder are served, whatever the path says.
 */
import { createReadStream, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPEN } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { repositoryFolder } from '../domain/real-plan.js';
import { answer, errors } from './answers.js';

const SCHEMA = {
  summary: 'A file of a plugin\'s repository (`repository_path`), for nodes to install from; no token needed, as for a package mirror',
  tags: ['plugins'],
  params: { type: 'object', required: ['folder'], properties: { folder: { type: 'string', maxLength: 200, description: '`<name>-<version>`' }, '*': { type: 'string' } } },
  response: { 200: answer('the file', { type: 'string', format: 'binary' }, 'application/octet-stream'), ...errors(404) },
};

export function repositoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { folder: string; '*': string } }>('/plugins/:folder/repositories/*', { config: OPEN, schema: SCHEMA }, async (req, reply) => {
    const plugin = (await store.listPlugins(ctx.db)).find((p) => `${p.name}-${p.version}` === req.params.folder);
    const where = plugin && (await ctx.pluginFiles.rootOf(ctx.db, plugin));
    const repo = plugin && where && 'root' in where ? repositoryFolder(plugin, where.root) : undefined;
    if (!repo) throw new HttpError(404, 'repository/not-found', `no plugin '${req.params.folder}' with a repository on this server`);
    const file = resolve(repo.root, req.params['*'] ?? '');
    const inside = relative(repo.root, file);
    let size = -1;
    try {
      if (!inside.startsWith('..') && !isAbsolute(inside) && inside !== '') {
        const st = statSync(file);
        if (st.isFile()) size = st.size;
      }
    } catch {
      size = -1;
    }
    if (size < 0) throw new HttpError(404, 'repository/no-such-file', `the repository of ${req.params.folder} has no file '${req.params['*']}'`);
    return reply.type('application/octet-stream').header('content-length', size).send(createReadStream(file));
  });
}
