/** Schemas of users and personal tokens (issue 29), shared by their routes and the OpenAPI document. */

export const ROLE_NAME = { type: 'string', enum: ['viewer', 'operator', 'admin'], description: 'viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything' } as const;

/** A user's or token's name: a word a shell and a URL carry as it is. */
export const USER_NAME = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._@-]*$' } as const;
export const TOKEN_NAME = USER_NAME;

export const USER = {
  type: 'object',
  required: ['name', 'role', 'disabled', 'created_at'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, role: ROLE_NAME, disabled: { type: 'boolean' }, created_at: { type: 'string', format: 'date-time' } },
} as const;

export const TOKEN = {
  type: 'object',
  required: ['name', 'user', 'role', 'created_at', 'expires_at', 'last_used_at'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    user: { type: 'string', description: 'its owner' },
    role: { ...ROLE_NAME, description: 'the role it acts with (never more than its owner has at the moment of use)' },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
    last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'to the minute' },
  },
} as const;

export const NEW_TOKEN = {
  ...TOKEN,
  required: [...TOKEN.required, 'token'],
  properties: { ...TOKEN.properties, token: { type: 'string', description: 'the token itself: shown this once, stored only as a digest' } },
} as const;
