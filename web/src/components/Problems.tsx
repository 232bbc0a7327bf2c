import { ApiError, detailMessages } from '../api.js';
import { inOurWords, schemaErrorWords, sentence } from './words.js';

/** An error from the API, with every explanation the engine gave, in the UI's words. */
export function Problems({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const schema = error instanceof ApiError && error.code === 'request/invalid' ? ((error.details as { errors?: unknown[] } | undefined)?.errors ?? []) : [];
  // The server's hint is what to do, said once after the list; codes and the names a refusal
  // lists by node (already in its message) are for programs.
  const extra = error instanceof ApiError && error.details && typeof error.details === 'object' ? (error.details as { hint?: unknown; nodes?: Array<{ name?: string }> }) : {};
  const hint = typeof extra.hint === 'string' ? extra.hint : null;
  const listed = new Set(Array.isArray(extra.nodes) ? extra.nodes.map((n) => n?.name) : []);
  const details = schema.length ? [] : detailMessages(error).filter((m) => m !== hint && !listed.has(m) && !/^[a-z-]+\/[a-z-]+$/.test(m)).map(inOurWords);
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
      {hint && <p className="hint">What to do: {sentence(inOurWords(hint))}</p>}
      {error instanceof ApiError && error.status === 401 && <p>Sign in with the admin token: `hearth serve` prints it when it first starts, or it is the value of HEARTH_ADMIN_TOKEN.</p>}
    </div>
  );
}
