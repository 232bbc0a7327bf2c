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
