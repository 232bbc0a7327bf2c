import { useState } from 'react';
import { ApiError, call } from '../api.js';
import type { Cluster } from '../types.js';
import type { PluginDetail } from './types.js';

/**
 * Enable, switch or disable a plugin in existing environments (not only in the wizard). The server
 * checks each change against the environment (nodes holding its roles, a deployment made with it,
 * chosen components) and its refusal is shown on the environment's row.
 */
export function PluginEnvironments({ versions, clusters, onChanged }: { versions: PluginDetail[]; clusters: Cluster[]; onChanged: () => void }) {
  const name = versions[0].name;
  const [wanted, setWanted] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Record<string, { ok: boolean; text: string }>>({});
  const fitting = (c: Cluster) => versions.filter((p) => p.release_fits?.some((r) => r.release_id === String(c.release_id) && r.fits));
  const current = (c: Cluster) => {
    const id = c.plugins?.[name];
    return id ? id.split('@').slice(1).join('@') : '';
  };
  const apply = async (c: Cluster) => {
    const choice = wanted[String(c.id)] ?? current(c);
    try {
      await call('put', '/clusters/{id}/attributes', { params: { id: c.id }, body: { plugins: { [name]: choice || null } } });
      setResult((r) => ({ ...r, [String(c.id)]: { ok: true, text: choice ? `Enabled ${name} ${choice}.` : `Disabled ${name}.` } }));
      onChanged();
    } catch (e) {
      const details = e instanceof ApiError ? ((e.details as { findings?: Array<{ message: string }> })?.findings ?? []).map((f) => f.message) : [];
      setResult((r) => ({ ...r, [String(c.id)]: { ok: false, text: [(e as Error).message, ...details].join(' ') } }));
    }
  };
  if (clusters.length === 0) return <p>No environment yet.</p>;
  return (
    <table className="plugin-envs">
      <caption>{name} in environments</caption>
      <thead>
        <tr>
          <th scope="col">Environment</th>
          <th scope="col">Version</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {clusters.map((c) => {
          const options = fitting(c);
          const key = String(c.id);
          const value = wanted[key] ?? current(c);
          const outcome = result[key];
          return (
            <tr key={key} data-env={c.name}>
              <th scope="row">
                <a href={`#/env/${c.id}/settings`}>{c.name}</a>
              </th>
              <td>
                {options.length === 0 && !current(c) ? (
                  <span className="muted">No version fits this environment's release.</span>
                ) : (
                  <select aria-label={`${name} in ${c.name}`} value={value} onChange={(e) => setWanted((w) => ({ ...w, [key]: e.target.value }))}>
                    <option value="">disabled</option>
                    {options.map((p) => (
                      <option key={String(p.id)} value={p.version}>
                        {p.version}
                      </option>
                    ))}
                  </select>
                )}
                {outcome && (
                  <p className={outcome.ok ? 'note' : 'refusal'} role={outcome.ok ? 'status' : 'alert'}>
                    {outcome.text}
                  </p>
                )}
              </td>
              <td>
                <button type="button" disabled={value === current(c) || (options.length === 0 && !current(c))} onClick={() => void apply(c)}>
                  Apply
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
