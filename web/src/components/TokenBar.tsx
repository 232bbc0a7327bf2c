import { useState } from 'react';
import { setToken, token } from '../api.js';

/** Changing anything needs the admin token `hearth serve` printed; reading does not. */
export function TokenBar() {
  const [has, setHas] = useState(Boolean(token()));
  const [draft, setDraft] = useState('');
  if (has) {
    return (
      <div className="token">
        <span>Signed in as admin</span>
        <button type="button" onClick={() => (setToken(null), setHas(false))}>
          Sign out
        </button>
      </div>
    );
  }
  return (
    <form
      className="token"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.trim()) {
          setToken(draft.trim());
          setHas(true);
        }
      }}
    >
      <label htmlFor="admin-token">Admin token</label>
      <input id="admin-token" type="password" value={draft} onChange={(e) => setDraft(e.target.value)} autoComplete="off" />
      <button type="submit">Sign in</button>
    </form>
  );
}
