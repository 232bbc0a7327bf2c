import { useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import { Refused } from './AdminOnly.js';
import type { Role } from '../session.js';
import { isoTime } from '../deploy/model.js';

const ROLES: Role[] = ['viewer', 'operator', 'admin'];

/** Users, for admins (issue 29): create, change a role, set a password, disable or enable, delete. */
export function Users() {
  const users = useApi('/users');
  const [error, setError] = useState<unknown>(null);
  const [draft, setDraft] = useState<{ name: string; role: Role; password: string }>({ name: '', role: 'viewer', password: '' });
  const [reset, setReset] = useState<{ name: string; password: string }>({ name: '', password: '' });
  const [done, setDone] = useState('');
  const act = (work: Promise<unknown>) =>
    work.then(
      () => (setError(null), users.reload()),
      (err: unknown) => setError(err),
    );
  if (users.loading && !users.data) return <p aria-busy="true">Loading…</p>;
  if (users.error) return <Refused error={users.error} what="The Users page" />;
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      <Problems error={error} />
      <table className="users">
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>State</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(users.data ?? []).map((u) => (
            <tr key={u.name} data-user={u.name}>
              <td>{u.name}</td>
              <td>
                <select aria-label={`Role of ${u.name}`} value={u.role} onChange={(e) => void act(call('patch', '/users/{name}', { params: { name: u.name }, body: { role: e.target.value as Role } }))}>
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td>{u.disabled ? 'disabled' : 'active'}</td>
              <td>{isoTime(u.created_at)}</td>
              <td>
                <button type="button" onClick={() => void act(call('patch', '/users/{name}', { params: { name: u.name }, body: { disabled: !u.disabled } }))}>
                  {u.disabled ? 'Enable' : 'Disable'}
                </button>{' '}
                <button type="button" className="danger" onClick={() => window.confirm(`Delete ${u.name} with their tokens and sessions?`) && void act(call('delete', '/users/{name}', { params: { name: u.name } }))}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(users.data ?? []).length === 0 && <p>No users yet.</p>}
      <h2>Set a password</h2>
      <p className="hint">The user's sessions end: they sign in again with the new password. Their personal tokens keep working.</p>
      <form
        className="set-password"
        onSubmit={(e) => {
          e.preventDefault();
          const name = reset.name || (users.data ?? [])[0]?.name || '';
          setDone('');
          void act(call('patch', '/users/{name}', { params: { name }, body: { password: reset.password } }).then(() => (setReset({ name, password: '' }), setDone(`The password of ${name} is set; their sessions have ended.`))));
        }}
      >
        <label htmlFor="password-user">User</label>
        <select id="password-user" value={reset.name || (users.data ?? [])[0]?.name || ''} onChange={(e) => setReset({ ...reset, name: e.target.value })}>
          {(users.data ?? []).map((u) => (
            <option key={u.name}>{u.name}</option>
          ))}
        </select>
        <label htmlFor="password-new">New password</label>
        <input id="password-new" type="password" value={reset.password} onChange={(e) => setReset({ ...reset, password: e.target.value })} required autoComplete="new-password" />
        <button type="submit" className="primary">
          Set password
        </button>
      </form>
      <p role="status">{done}</p>
      <h2>New user</h2>
      <form
        className="new-user"
        onSubmit={(e) => {
          e.preventDefault();
          void act(call('post', '/users', { body: { name: draft.name.trim(), role: draft.role, password: draft.password } }).then(() => setDraft({ name: '', role: 'viewer', password: '' })));
        }}
      >
        <label htmlFor="new-user-name">Name</label>
        <input id="new-user-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} required autoComplete="off" />
        <label htmlFor="new-user-role">Role</label>
        <select id="new-user-role" value={draft.role} onChange={(e) => setDraft({ ...draft, role: e.target.value as Role })}>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
        <label htmlFor="new-user-password">Password</label>
        <input id="new-user-password" type="password" value={draft.password} onChange={(e) => setDraft({ ...draft, password: e.target.value })} required autoComplete="new-password" />
        <button type="submit" className="primary">
          Create
        </button>
      </form>
    </section>
  );
}
