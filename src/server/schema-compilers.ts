/**
 * How route schemas become request validators and answers become JSON, given to Fastify as its
 * schema compilers. Given this way, Fastify does not load its own (`@fastify/ajv-compiler` with a
 * second copy of Ajv, and `fast-json-stringify`), which cost a restart a tenth of its time; and each
 * validator is compiled when its route is first called, not at start, since most routes are not
 * called in a server's first seconds.
 *
 * Path and query parameters arrive as text and are coerced to their types; JSON bodies are taken
 * exactly as sent (a string where a list belongs is an error, not a one-item list). Answers go out
 * as plain JSON: response schemas document them (OpenAPI) and are not used as a filter.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

type Schema = Record<string, unknown>;

export function schemaCompilers(): CompilersFactory {
  let ajvs: { coercing: Ajv; exact: Ajv } | undefined;
  // Schemas added with `app.addSchema` (referenced by `$ref`), as Fastify hands them over.
  let shared: Record<string, Schema> = {};
  const instances = () => {
    if (ajvs) return ajvs;
    const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false });
    const exact = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false });
    for (const ajv of [coercing, exact]) {
      // OpenAPI's and Fastify's own keywords, which do not constrain a value.
      ajv.addKeyword('consumes').addKeyword('hide');
      for (const schema of Object.values(shared)) ajv.addSchema(schema);
    }
    return (ajvs = { coercing, exact });
  };
  return {
    buildValidator: (externalSchemas?: unknown) => {
      shared = (externalSchemas ?? {}) as Record<string, Schema>;
      return ({ schema, httpPart }: { schema: unknown; httpPart?: string }) => {
        let compiled: ValidateFunction | undefined;
        // Fastify reads the errors from the function it was given, so they are copied onto it.
        const validate = (data: unknown) => {
          compiled ??= (httpPart === 'body' ? instances().exact : instances().coercing).compile(schema as Schema);
          const ok = compiled(data);
          validate.errors = compiled.errors;
          return ok;
        };
        validate.errors = null as ValidateFunction['errors'];
        return validate;
      };
    },
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
    // Fastify's types describe its own Ajv-based factories; these keep the same calling convention.
  } as unknown as CompilersFactory;
}
