/** Reading an OpenAPI document the way a client does: an operation, and the schema of one answer. */

export interface OpenApiOperation {
  operationId?: string;
  requestBody?: { required?: boolean; content: Record<string, { schema?: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: object }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, object> };
}

/** The document's path for a router pattern: `:id` is `{id}`, a trailing `*` is `{path}`. */
export const documentPath = (pattern: string): string => pattern.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{path}');

export function operationOf(doc: OpenApiDocument, method: string, pattern: string): OpenApiOperation | undefined {
  return doc.paths[documentPath(pattern)]?.[method.toLowerCase()];
}

/**
 * The schema an answer must match: its status's own entry, or `default` for errors only (a
 * success must be documented with its real status). `schema: undefined` means "no body".
 */
export function responseSchemaOf(op: OpenApiOperation, status: number, contentType: string): { schema: object | undefined } | { problem: string } {
  const response = op.responses[String(status)] ?? (status >= 400 ? op.responses.default : undefined);
  if (!response) return { problem: `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})` };
  if (!response.content) return { schema: undefined };
  const media = response.content[contentType];
  if (!media) return { problem: `content type '${contentType}' is not documented for ${status} (documented: ${Object.keys(response.content).join(', ')})` };
  return { schema: media.schema ?? {} };
}
