import { ApiError, detailMessages } from '../api.js';

/** An error from the API, with every explanation the engine gave. */
export function Problems({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const details = detailMessages(error);
  const message = error instanceof ApiError ? error.message : String((error as Error)?.message ?? error);
  return (
    <div role="alert" className="problems">
      <strong>{title ?? 'This did not work'}</strong>
      <p>{message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((d, i) => (
            <li key={i}>{d}</li>
          ))}
        </ul>
      )}
      {error instanceof ApiError && error.status === 401 && <p>Sign in with the admin token that `hearth serve` printed.</p>}
    </div>
  );
}
