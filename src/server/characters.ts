/**
 * One rule for every route: a NUL byte or a lone UTF-16 surrogate in a path parameter, a query
 * parameter or a JSON body is bad input, answered 400 `request/bad-characters` with where it was.
 * Left to pass, such text reached PostgreSQL (which refuses NUL in text and a lone surrogate in
 * jsonb) and came back as a 500 "this is a bug" (issue 24). The check runs before the routes'
 * schemas and handlers, tokenless routes included, so no route can forget it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findUnstorable, holdsUnstorable, storableText } from '../core/text/unstorable.js';
import { HttpError } from './errors.js';

const HINT = 'send text as UTF-8 without NUL bytes (%00, \\u0000) or unpaired UTF-16 surrogates (\\ud800-\\udfff)';

/** Where in the request: a parameter's name, or a pointer into the body. */
function refuse(part: 'path parameter' | 'query parameter' | 'JSON body', where: string, what: string): HttpError {
  const place = part === 'JSON body' ? (where === '' ? 'the JSON body' : `the JSON body at ${where}`) : `the ${part} '${where}'`;
  return new HttpError(400, 'request/bad-characters', `${place} holds ${what}`, { where: part === 'JSON body' ? { body: where } : { [part === 'path parameter' ? 'param' : 'query']: where }, hint: HINT });
}

export function checkCharacters(request: FastifyRequest): void {
  // One pass that makes nothing (every request's cost); where it is is found only when it is there.
  for (const [part, value] of [['path parameter', request.params], ['query parameter', request.query]] as const) {
    const found = holdsUnstorable(value) && findUnstorable(value);
    if (found) throw refuse(part, storableText(decodePointer(found.pointer)), found.what);
  }
  // Packages arrive as bytes (a Buffer), which this leaves alone; JSON bodies are walked.
  const body = holdsUnstorable(request.body) && findUnstorable(request.body);
  if (body) throw refuse('JSON body', body.pointer, body.what);
}

/** A parameter's name from its one-token pointer (`/a~1b` is `a/b`); an array value's index is dropped. */
const decodePointer = (pointer: string): string => (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

export function refuseBadCharacters(app: FastifyInstance): void {
  // A path no route matches is answered 404 as it is: there is nothing there to protect.
  // A callback hook: it runs on every request, and an async one costs a promise each.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.is404) return done();
    try {
      checkCharacters(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
