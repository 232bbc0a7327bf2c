/** Schemas shared by routes (and so by the OpenAPI document). */
import { ERROR_SCHEMA } from '../errors.js';

export const errorResponses = { 400: ERROR_SCHEMA, 401: ERROR_SCHEMA, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } as const;

export const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } } as const;
export const clusterIdParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

export const FINDING_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    message: { type: 'string' },
    file: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    hint: { type: 'string' },
  },
  additionalProperties: true,
} as const;

/** Names people type: printable, no control characters, bounded. */
export const NAME = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$' } as const;
