/**
 * How a route documents what it answers (its `response` schema). Each success is written with its
 * real status: 200 for an answer, 201 for something created, 202 for work started that goes on
 * after the answer, 204 for no body. Errors are documented once for all (openapi.ts adds the one
 * error shape as `default`); a route names the error statuses worth knowing with `errors(...)`.
 */
import { ERROR_SCHEMA } from '../errors.js';

/** A JSON answer (or another media type's) with what it means. */
export const answer = (description: string, schema: object, mediaType = 'application/json') => ({ description, content: { [mediaType]: { schema } } }) as const;

/** An answer without a body. */
export const noContent = (description: string) => ({ description, type: 'null' }) as const;

/** A list of one shape. */
export const listOf = (schema: object) => ({ type: 'array', items: schema }) as const;

const ERROR_MEANINGS: Record<number, string> = {
  400: 'the request is malformed or refused by the domain\'s rules (details say which)',
  401: 'no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session)',
  403: 'the credential is good but its role is too low, or a session\'s change lacks its CSRF token or came from another origin',
  404: 'no such resource',
  409: 'the resource\'s state does not allow it now',
  413: 'the body is too large',
  415: 'the body\'s media type is not accepted',
  422: 'the node could not be reached or identified',
  429: 'too many at once from this client (open event streams), or too many failed sign-ins: wait and try again',
  503: 'the server cannot do this now (no SSH key, the database does not answer, or too slow)',
};

/** The error statuses a route may answer, each with the one error shape. */
export function errors<S extends number>(...statuses: S[]): Record<S, ReturnType<typeof answer>> {
  return Object.fromEntries(statuses.map((status) => [status, answer(ERROR_MEANINGS[status] ?? 'error', ERROR_SCHEMA)])) as Record<S, ReturnType<typeof answer>>;
}
