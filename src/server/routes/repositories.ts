/**
 * Plugin repositories served to nodes: `GET /plugins/<name>-<version>/repositories/<path>` answers
 * a file under the plugin's `repository_path` (in a registered folder, the bundled release, or the
 * package of a plugin installed from one, unpacked on this server: domain/plugin-files.ts). Open to all, as a package mirror is: nodes fetch without a token.
 * Only regular files whose real path (after every link) is inside the repository's real folder are
 * served, whatever the path says; anything else is the same 404 as a missing file (issue 24).
 */
import { open, realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPEN } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { repositoryFolder } from '../domain/runs/real-plan.js';
import { answer, errors } from './answers.js';

const SCHEMA = {
  summary: 'A file of a plugin\'s repository (`repository_path`), for nodes to install from; no token needed, as for a package mirror',
  tags: ['plugins'],
  params: { type: 'object', required: ['folder'], properties: { folder: { type: 'string', maxLength: 200, description: '`<name>-<version>`' }, '*': { type: 'string' } } },
  response: { 200: answer('the file', { type: 'string', format: 'binary' }, 'application/octet-stream'), ...errors(404) },
};

const inside = (root: string, real: string): boolean => real.startsWith(root.endsWith(sep) ? root : root + sep);
const realOrNothing = (path: string): Promise<string | undefined> => realpath(path).catch(() => undefined);

/**
 * The open file `rel` names in the repository `repoRoot` of a plugin folder `pluginRoot`, when,
 * after every link, it is a regular file inside the repository's real folder, itself inside the
 * plugin's; else undefined. A registered folder is live: a link added after registration
 * (`x -> /`, `key -> <data>/ssh/id_ed25519`) is judged here, at each request. Where the system
 * says which file was opened (Linux's /proc/self/fd), that is checked too, so a link swapped in
 * between the check and the open is caught.
 */
async function openInside(pluginRoot: string, repoRoot: string, rel: string) {
  const [plugin, repo] = await Promise.all([realOrNothing(pluginRoot), realOrNothing(repoRoot)]);
  if (!plugin || !repo || !(repo === plugin || inside(plugin, repo))) return undefined;
  const real = await realOrNothing(`${repo}${sep}${rel}`);
  if (!real || !inside(repo, real)) return undefined;
  const file = await open(real, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const st = await file.stat();
    const opened = process.platform === 'linux' ? await realOrNothing(`/proc/self/fd/${file.fd}`) : real;
    if (st.isFile() && opened !== undefined && inside(repo, opened)) return { file, size: st.size };
  } catch {
    // fall through: closed below
  }
  await file.close().catch(() => undefined);
  return undefined;
}

export function repositoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { folder: string; '*': string } }>('/plugins/:folder/repositories/*', { config: OPEN, schema: SCHEMA }, async (req, reply) => {
    const plugin = (await store.listPlugins(ctx.db)).find((p) => `${p.name}-${p.version}` === req.params.folder);
    const where = plugin && (await ctx.pluginFiles.rootOf(ctx.db, plugin));
    const repo = plugin && where && 'root' in where ? repositoryFolder(plugin, where.root) : undefined;
    if (!repo || !where || !('root' in where)) throw new HttpError(404, 'repository/not-found', `no plugin '${req.params.folder}' with a repository on this server`);
    // One answer for a file that is missing, a folder, a device, or a link leading out: none says what exists.
    const found = req.params['*'] ? await openInside(where.root, repo.root, req.params['*']) : undefined;
    if (!found) throw new HttpError(404, 'repository/no-such-file', `the repository of ${req.params.folder} has no file '${req.params['*']}'`);
    return reply.type('application/octet-stream').header('content-length', found.size).send(found.file.createReadStream());
  });
}
