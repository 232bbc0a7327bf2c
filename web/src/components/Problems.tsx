import { ApiError, detailMessages } from '../api.js';
import { inOurWords, schemaErrorWords, sentence } from './words.js';

/** An error from the API, with every explanation the engine gave, in the UI's words. */
export function Problems({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const schema = error instanceof ApiError && error.code === 'request/invalid' ? ((error.details as { errors?: unknown[] } | undefined)?.errors ?? []) : [];
  const details = schema.length ? [] : detailMessages(error).map(inOurWords);
  const message = schema.length ? schemaErrorWords(schema[0] as Parameters<typeof schemaErrorWords>[0]) : inOurWords(error instanceof ApiError ? error.message : String((error as Error)?.message ?? error));
  return (
    <div role="alert" className="problems">
      <strong>{title ?? 'This did not work'}</strong>
      <p>{sentence(message)}</p>
      {details.length > 0 && (
        <ul>
          {details.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      )}
      {error instanceof ApiError && error.status === 401 && <p>Sign in with the admin token: `hearth serve` prints it when it first starts, or it is the value of HEARTH_ADMIN_TOKEN.</p>}
    </div>
  );
}
