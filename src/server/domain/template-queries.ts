/**
 * The template routes' work (find, capabilities, resolve) off the request thread. Its cost grows
 * with what a client sends, and the routes are open to anyone: 10,000 chained aliases once held
 * the server's only thread, `/healthz` included, for 78 s, and a 32 MiB body parsed there for 17 s.
 * In a warm worker (worker-pool.ts: a capped heap, a time limit) everyone else goes on being
 * answered, and a query that runs too long is given up with `template/too-complex`.
 */
import { sep } from 'node:path';
import type { Requirements } from '../../core/capabilities/index.js';
import { findTemplates, resolveEnvironments, summariseTemplateFiles } from '../../package/templates/index.js';
import { SentFilesError, SentTemplates } from '../../package/templates/sent.js';
import { HttpError } from '../errors.js';
import { workerScript } from './worker-run.js';
import { WorkerPool } from './worker-pool.js';

/** A query is given up after this long (the Heat corpus's largest takes well under a second). */
export const TEMPLATE_QUERY_TIMEOUT_MS = 20_000;
const TEMPLATE_QUERY_HEAP_MB = 512;
/** Warm workers kept for template queries, and how many more queries may wait for one. */
const TEMPLATE_WORKERS = 2;
const TEMPLATE_QUEUE = 32;

/** Files a client sent, as the request carried them (SentTemplates checks them, in the worker). */
export interface SentBody {
  files: Record<string, unknown>;
  root?: string;
}

/** One query: with `sent`, over the sent files; otherwise over paths on the server's disk, already checked to lie inside --templates-dir. */
export type TemplateQuery =
  | { op: 'find'; sent?: SentBody; paths: string[]; constraints: Requirements; recursive?: boolean; shownFrom?: string }
  | { op: 'capabilities'; sent?: SentBody; paths: string[]; environments: string[] }
  | { op: 'resolve'; sent?: SentBody; environments: string[]; root?: string; cwd?: string };

/**
 * What the worker posts: the answer as the JSON text sent (an answer can be many times the size
 * of the request, 60,000 findings for 2 MiB; cloning and serialising it held the request thread
 * over a second), or a refusal of the sent files (400).
 */
export type TemplateAnswer = { ok: true; text: string } | { ok: false; code: string; message: string; hint: string };

/** Answer one query here, on this thread (the worker calls this). */
export function answerTemplateQuery(query: TemplateQuery): TemplateAnswer {
  const answered = answer(query);
  return answered.ok ? { ok: true, text: JSON.stringify(answered.answer) } : answered;
}

function answer(query: TemplateQuery): { ok: true; answer: unknown } | Exclude<TemplateAnswer, { ok: true }> {
  let sent: SentTemplates | undefined;
  try {
    sent = query.sent ? new SentTemplates(query.sent.files, query.sent.root) : undefined;
  } catch (err) {
    if (err instanceof SentFilesError) return { ok: false, code: err.code, message: err.message, hint: err.hint };
    throw err;
  }
  switch (query.op) {
    case 'find': {
      const found = findTemplates(sent ? [] : query.paths, query.constraints, { ...(sent ? { sent } : {}), ...(query.recursive === undefined ? {} : { recursive: query.recursive }) });
      // Disk files are shown relative to the templates folder, as the client named them.
      const base = query.shownFrom === undefined ? undefined : `${query.shownFrom}${sep}`;
      return { ok: true, answer: base ? { ...found, templates: found.templates.map((t) => (t.startsWith(base) ? t.slice(base.length) : t)) } : found };
    }
    case 'capabilities':
      return { ok: true, answer: summariseTemplateFiles(query.paths, sent ? { sent, environments: query.environments } : { environments: query.environments }) };
    case 'resolve':
      return {
        ok: true,
        answer: sent
          ? resolveEnvironments(query.environments, { sent: { files: sent.files, show: sent.show, root: sent.root } })
          : resolveEnvironments(query.environments, { ...(query.root === undefined ? {} : { root: query.root }), ...(query.cwd === undefined ? {} : { cwd: query.cwd }) }),
      };
  }
}

let pool: WorkerPool | undefined;

/** Answer one query in a worker thread: the answer's JSON text; a refusal becomes a 400. */
export async function askTemplates(query: TemplateQuery, timeoutMs = TEMPLATE_QUERY_TIMEOUT_MS): Promise<string> {
  const script = workerScript('template-worker');
  const hint = 'send fewer or smaller files (the part of the tree the question needs), or break long chains of aliases';
  pool ??= script
    ? new WorkerPool({
        script,
        size: TEMPLATE_WORKERS,
        heapMb: TEMPLATE_QUERY_HEAP_MB,
        queue: TEMPLATE_QUEUE,
        busy: () => new HttpError(503, 'template/busy', `${TEMPLATE_WORKERS + TEMPLATE_QUEUE} template queries are under way or waiting; try again shortly`, { hint: 'ask again in a few seconds' }),
        what: 'reading the templates',
        who: 'the template reader',
      })
    : undefined;
  const answered = pool
    ? await pool.run<TemplateAnswer>({
        data: query,
        timeoutMs,
        tooSlow: () => new HttpError(400, 'template/too-complex', `answering took more than ${timeoutMs / 1000} s; it was given up`, { hint }),
        tooLarge: () => new HttpError(400, 'template/too-large', `answering needed more than ${TEMPLATE_QUERY_HEAP_MB} MiB; it was given up`, { hint }),
      })
    : answerTemplateQuery(query); // a partial install without the worker script: answer here rather than not at all
  if (!answered.ok) throw new HttpError(400, answered.code, answered.message, { hint: answered.hint });
  return answered.text;
}
