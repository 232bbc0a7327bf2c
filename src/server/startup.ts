/**
 * The server listens before its start-up work is done (opening the database, migrations, the
 * admin token, the bundled release, the SSH key), so that a probe or a client gets an answer at
 * once instead of a refused connection. Until that work is done, requests wait for it: none fails
 * because it came early. Only the probes answer at once: `/healthz` (the process runs), and
 * `/readyz`, which answers 503 `server/starting` until the work is done.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export type StartupState = { state: 'starting' } | { state: 'ready' } | { state: 'failed'; reason: string };

const LIVENESS = '/healthz';
const READINESS = '/readyz';
const HEALTHCHECK = '/healthcheck';

export class StartupGate {
  private current: StartupState = { state: 'starting' };
  private readonly done: Promise<void>;

  constructor(work: Promise<unknown>) {
    this.done = work.then(
      () => void (this.current = { state: 'ready' }),
      (err: unknown) => {
        this.current = { state: 'failed', reason: err instanceof Error ? err.message : String(err) };
        throw err;
      },
    );
    // Requests that wait see the failure; an unobserved one must not crash the process.
    this.done.catch(() => undefined);
  }

  /** Resolves when the work is done; rejects with its failure. */
  ready(): Promise<void> {
    return this.done;
  }

  get status(): StartupState {
    return this.current;
  }

  /** Holds every request but the probes until the start-up work is done; registered before the access check. */
  guard(app: FastifyInstance, details: Record<string, unknown> = {}, early?: (request: FastifyRequest) => string | undefined): void {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (this.current.state === 'ready' || request.is404) return;
      // An answer known to hold before the work is done (start.ts: the releases a clean stop left).
      const known = this.current.state === 'starting' ? early?.(request) : undefined;
      if (known !== undefined) return reply.type('application/json; charset=utf-8').send(known);
      const route = request.routeOptions.url;
      // /healthcheck answers 503 at once while starting (routes/openstack.ts), as /readyz does.
      if (route === LIVENESS || route === HEALTHCHECK) return;
      if (route === READINESS) {
        const answer =
          this.current.state === 'failed'
            ? { code: 'server/start-failed', message: `the server could not start: ${this.current.reason}`, details }
            : { code: 'server/starting', message: 'the server is starting: opening the database and bringing its schema up to date', details };
        return reply.status(503).send(answer);
      }
      try {
        await this.done;
      } catch {
        throw new HttpError(503, 'server/start-failed', `the server could not start: ${this.current.state === 'failed' ? this.current.reason : 'unknown reason'}`, { hint: 'the server log and its standard error say why; it is stopping' });
      }
    });
  }
}
