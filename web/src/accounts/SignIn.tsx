import { useState } from 'react';
import { signIn, signOut } from '../api.js';
import { go } from '../route.js';
import { useWho } from '../session.js';
import { Problems } from '../components/Problems.js';

/** Signing in with a name and password (issue 29); the admin token stays in the token bar. */
export function SignIn() {
  const who = useWho();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (who) {
    return (
      <section aria-labelledby="signin-title">
        <h1 id="signin-title">Signed in</h1>
        <p>
          You are signed in as <strong>{who.user}</strong> ({who.role}).
        </p>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </section>
    );
  }
  return (
    <section aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <form
        className="signin"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          signIn(name.trim(), password).then(
            () => {
              setPassword('');
              go('/');
            },
            (err: unknown) => setError(err),
          ).finally(() => setBusy(false));
        }}
      >
        <label htmlFor="signin-name">Name</label>
        <input id="signin-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="username" required />
        <label htmlFor="signin-password">Password</label>
        <input id="signin-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <Problems error={error} title="Not signed in" />
      <p className="muted">An admin creates accounts (hearth user create &lt;name&gt; --role viewer|operator|admin, or the Users page). Scripts use a personal token instead.</p>
    </section>
  );
}

/** Who the page acts as, in the header: the person signed in, or a link to sign in. */
export function WhoBar() {
  const who = useWho();
  if (!who) {
    return (
      <a className="who" href="#/sign-in">
        Sign in with a name
      </a>
    );
  }
  return (
    <div className="who">
      <span>
        {who.user} ({who.role})
      </span>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}
