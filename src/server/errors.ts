/**
 * The API's one error shape, `{code, message, details}`, and the errors routes throw. Codes are
 * stable (clients match on them): `request/...` for malformed requests, `<entity>/...` for
 * domain refusals, `server/internal` only for Hearth's own bugs.
 */
import type { Finding } from '../core/findings.js';

export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export const notFound = (what: string, id: string | number): HttpError => new HttpError(404, `${what}/not-found`, `there is no ${what} '${id}'`);

/** A refusal explained by findings from the domain (400 with every finding as details). */
export function refused(code: string, message: string, findings: readonly Finding[], status = 400): HttpError {
  return new HttpError(status, code, message, { findings });
}

/** Only error findings refuse; warnings travel along with successful answers. */
export const errorsOf = (findings: readonly Finding[]): Finding[] => findings.filter((f) => f.severity === 'error');

export const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: 'stable, kebab-case, grouped by area' },
    message: { type: 'string' },
    details: { description: 'findings or other structured detail' },
  },
} as const;

/**
 * A failure of the storage under the database rather than of the request: the disk is full, or
 * the database went away. Neither is a bug in Hearth, and the answer says what the operator must
 * do; reads keep working while the disk is full, and writes work again once there is space.
 */
export function storageFailure(err: unknown): HttpError | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  // 53100: PostgreSQL's disk_full; ENOSPC where Node itself writes (PGlite's files).
  if (code === '53100' || code === 'ENOSPC' || /No space left on device/.test(text)) {
    return new HttpError(507, 'server/disk-full', 'the server is out of disk space; this change was not saved', {
      hint: 'free space where the database lives (the data folder, or the PostgreSQL server); reads still work, and changes work again once there is room',
    });
  }
  // 57P01-57P03: the server is shutting down or not accepting connections; 08xxx: the connection failed.
  if ((typeof code === 'string' && /^(57P0[1-3]|08\d{3})$/.test(code)) || code === 'ECONNREFUSED' || code === 'ECONNRESET') {
    return new HttpError(503, 'server/database-unavailable', 'the database does not answer; try again shortly', { hint: 'check the PostgreSQL server named by DATABASE_URL' });
  }
  return undefined;
}
