import { useEffect, useState } from 'react';
import { checkToken, setToken, token } from '../api.js';

const WHERE = 'The admin token is printed by `hearth serve` when it first starts (and stored in its data folder), or set with HEARTH_ADMIN_TOKEN.';

/**
 * Changing anything needs the admin token; reading does not. A token is checked against the
 * server when it is entered (and when the page opens with one kept), so a wrong one is said at
 * once rather than by every change failing later.
 */
export function TokenBar() {
  const [state, setState] = useState<'out' | 'checking' | 'in'>(token() ? 'checking' : 'out');
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  // A kept token may be stale (a server restarted with another one): checked once on load.
  useEffect(() => {
    const kept = token();
    if (!kept) return;
    checkToken(kept).then(
      (r) => {
        if (r === 'ok') setState('in');
        else {
          setToken(null);
          setState('out');
          setProblem(`The kept token is not this server's admin token any more. ${WHERE}`);
        }
      },
      () => setState('in'),
    );
  }, []);

  if (state === 'in' || state === 'checking') {
    return (
      <div className="token">
        <span aria-busy={state === 'checking'}>{state === 'in' ? 'Signed in as admin' : 'Checking the token…'}</span>
        <button type="button" onClick={() => (setToken(null), setState('out'))}>
          Sign out
        </button>
      </div>
    );
  }
  const submit = async () => {
    const candidate = draft.trim();
    if (!candidate) {
      setProblem(`Enter the admin token. ${WHERE}`);
      return;
    }
    setProblem(null);
    try {
      if ((await checkToken(candidate)) === 'ok') {
        setToken(candidate);
        setDraft('');
        setState('in');
      } else setProblem(`That is not the admin token of this server. ${WHERE}`);
    } catch (e) {
      setProblem(`The token could not be checked: ${(e as Error).message}.`);
    }
  };
  return (
    <form
      className="token"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor="admin-token" title={WHERE}>
        Admin token
      </label>
      <input id="admin-token" type="password" value={draft} onChange={(e) => setDraft(e.target.value)} autoComplete="off" aria-describedby={problem ? 'token-problem' : 'token-where'} />
      <button type="submit">Sign in</button>
      <span id="token-where" className="sr-only">
        {WHERE}
      </span>
      {problem && (
        <p id="token-problem" role="alert" className="token-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
