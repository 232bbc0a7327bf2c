/**
 * The server's messages in the words the UI uses: a schema refusal (`request/invalid`, Ajv's
 * `body /simulate/prefix must match pattern ...`) becomes a sentence about the field, and Nailgun's
 * "cluster" is an "environment" here.
 */
interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const fieldName = (path: string | undefined) => {
  const last = (path ?? '').split('/').filter(Boolean).filter((p) => !/^\d+$/.test(p)).pop();
  if (!last) return 'The request';
  const words = last.replace(/_/g, ' ');
  return words === 'release id' ? 'The release' : `The ${words}`;
};

export function schemaErrorWords(e: AjvError): string {
  const field = fieldName(e.instancePath);
  const p = e.params ?? {};
  switch (e.keyword) {
    case 'maxLength':
      return `${field} can have at most ${p.limit} characters.`;
    case 'minLength':
      return p.limit === 1 ? `${field} cannot be empty.` : `${field} needs at least ${p.limit} characters.`;
    case 'pattern':
      return `${field} holds characters that are not allowed here.`;
    case 'maximum':
      return `${field} can be at most ${p.limit}.`;
    case 'minimum':
      return `${field} must be at least ${p.limit}.`;
    case 'maxItems':
      return `${field} can list at most ${p.limit} items.`;
    case 'type':
      return `${field} must be ${p.type === 'integer' ? 'a whole number' : `a ${p.type}`}.`;
    case 'required':
      return `${fieldName(`/${String(p.missingProperty)}`)} is needed.`;
    case 'additionalProperties':
      return `'${String(p.additionalProperty)}' is not expected here.`;
    default:
      return `${field} ${e.message ?? 'is not valid'}.`;
  }
}

/** "cluster" in a server message reads "environment" (the UI's word); identifiers in quotes stay. */
export const inOurWords = (text: string) => text.replace(/\bclusters\b(?![^']*'[^']*$)/g, 'environments').replace(/\bcluster\b(?![^']*'[^']*$)/g, 'environment');

/** A clause as a sentence: a capital first letter and a full stop at the end. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(first) ? first : `${first}.`;
}
