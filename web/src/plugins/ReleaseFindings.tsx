import type { ReleaseFinding, ReleaseValidation } from './types.js';

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** `file:line:col`, or as much of it as the finding knows. */
const place = (f: ReleaseFinding) => (f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}` : '');

/**
 * What validating a plugin version against each installed release it declares found beyond its own
 * validation (circles through the release's graph, references to the release's tasks, roles and
 * components: issue 18, class 5), the server's `release_findings`. Errors first: an error here means
 * the plugin will not deploy with that release as it is.
 */
export function ReleaseFindings({ checks }: { checks: ReleaseValidation[] | undefined }) {
  if (!checks || checks.length === 0) return <span className="muted">no installed release it declares</span>;
  return (
    <ul className="release-checks" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {checks.map((check) => {
        const sorted = [...check.findings].sort((a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3));
        const errors = sorted.filter((f) => f.severity === 'error').length;
        const warnings = sorted.filter((f) => f.severity === 'warning').length;
        const infos = sorted.length - errors - warnings;
        return (
          <li key={check.release_id} data-release-check={check.release_id}>
            {sorted.length === 0 ? (
              <span className="good">{check.release}: nothing more found.</span>
            ) : (
              <details open={errors > 0}>
                <summary className={errors > 0 ? 'bad' : 'warn-note'}>
                  {check.release}: {[counted(errors, 'error'), counted(warnings, 'warning'), counted(infos, 'note')].filter(Boolean).join(', ')}
                </summary>
                <ul className="notes">
                  {sorted.map((f, i) => (
                    <li key={i} data-severity={f.severity}>
                      <span className={f.severity === 'error' ? 'badge bad-badge' : 'badge warn'}>{f.severity}</span> <code>{f.code}</code>
                      {place(f) && (
                        <>
                          {' '}
                          <code className="place">{place(f)}</code>
                        </>
                      )}{' '}
                      {f.message}
                      {f.hint && <span className="muted"> Hint: {f.hint}</span>}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** "2 warnings", or nothing when there are none. */
function counted(n: number, word: string): string | false {
  return n > 0 && `${n} ${word}${n === 1 ? '' : 's'}`;
}
