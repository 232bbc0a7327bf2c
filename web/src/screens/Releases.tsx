import { useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import type { Release } from '../types.js';
import { Problems } from '../components/Problems.js';

export function Releases() {
  const releases = useApi('/releases');
  const clusters = useApi('/clusters');
  const [error, setError] = useState<unknown>(null);
  const remove = async (r: Release) => {
    setError(null);
    try {
      if (!window.confirm(`Delete release ${r.name} ${r.version}? Environments cannot be created from it afterwards.`)) return;
      await call('delete', '/releases/{id}', { params: { id: r.id } });
      releases.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="releases-title">
      <h1 id="releases-title">Releases</h1>
      <Problems error={error || releases.error} title="The release was not removed" />
      {(releases.data ?? []).length === 0 && !releases.loading && <p>No release is installed. Install a release plugin on the Plugins page.</p>}
      <table>
        <caption>Installed releases</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Version</th>
            <th scope="col">Operating system</th>
            <th scope="col">Used by</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(releases.data ?? []).map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td>{r.version}</td>
              <td>{r.operating_system}</td>
              <td>
                {(() => {
                  const users = (clusters.data ?? []).filter((c) => String(c.release_id) === String(r.id));
                  return users.length === 0
                    ? 'no environment'
                    : users.map((c, i) => (
                        <span key={c.id}>
                          {i > 0 && ', '}
                          <a href={`#/env/${c.id}/nodes`}>{c.name}</a>
                        </span>
                      ));
                })()}
              </td>
              <td>
                <button type="button" onClick={() => remove(r)}>
                  Delete {r.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
