import { useState } from 'react';
import { api } from '../api.js';
import { useApi } from '../useApi.js';
import type { Plugin } from '../types.js';
import { Problems } from '../components/Problems.js';

interface PluginDetail extends Plugin {
  roles?: Array<{ name: string; label?: string }>;
  components?: Array<{ name: string; label?: string | null }>;
  tasks?: Record<string, unknown[]>;
  releases?: Array<{ os?: string; operating_system?: string; version?: string; name?: string }>;
}

export function Plugins() {
  const plugins = useApi<Plugin[]>('/plugins');
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [installed, setInstalled] = useState<{ plugin: Plugin; findings: Array<{ severity: string; message: string; code: string }> } | null>(null);
  const detail = useApi<PluginDetail>(open ? `/plugins/${open}` : null);

  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared at once, so choosing the same file again is a new choice (a browser fires no change otherwise).
    input.value = '';
    if (!file) return;
    setError(null);
    setInstalled(null);
    setStatus(`Installing ${file.name}…`);
    try {
      const answer = await api<{ plugin: Plugin; findings: Array<{ severity: string; message: string; code: string }> }>('POST', '/plugins', undefined, { raw: file, contentType: 'application/gzip' });
      setStatus('');
      setInstalled(answer);
      plugins.reload();
    } catch (e) {
      setStatus('');
      setError(e);
    }
  };

  const uninstall = async (p: Plugin) => {
    setError(null);
    try {
      await api('DELETE', `/plugins/${p.id}`);
      setStatus(`Uninstalled ${p.name} ${p.version}.`);
      if (open === String(p.id)) setOpen(null);
      plugins.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section aria-labelledby="plugins-title">
      <h1 id="plugins-title">Plugins</h1>
      <div className="title-row">
        <label htmlFor="plugin-upload">Upload a plugin package (.tar.gz)</label>
        <input id="plugin-upload" type="file" accept=".gz,.tgz,application/gzip" onChange={(e) => void upload(e.target)} />
      </div>
      <p role="status">{status}</p>
      {installed && (
        <div className="upload-result" role="status">
          <p>
            Installed {installed.plugin.title ?? installed.plugin.name} {installed.plugin.version}
            {installed.plugin.title && installed.plugin.title !== installed.plugin.name ? ` (${installed.plugin.name})` : ''}.
          </p>
          {installed.findings.filter((f) => f.severity !== 'info').length > 0 ? (
            <>
              <p>The validator's warnings on it:</p>
              <ul className="notes">
                {installed.findings
                  .filter((f) => f.severity !== 'info')
                  .map((f, i) => (
                    <li key={i}>
                      {f.severity}: {f.message} <code>{f.code}</code>
                    </li>
                  ))}
              </ul>
            </>
          ) : (
            <p>No warnings.</p>
          )}
        </div>
      )}
      <Problems error={error || plugins.error} title="The plugin change was refused" />
      <table>
        <caption>Installed plugins</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Version</th>
            <th scope="col">Kind</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(plugins.data ?? []).map((p) => (
            <tr key={p.id}>
              <th scope="row">
                <button type="button" className="link" onClick={() => setOpen(String(p.id))} aria-expanded={open === String(p.id)}>
                  {p.title ?? p.name}
                </button>
              </th>
              <td>{p.version}</td>
              <td>{p.is_release ? 'release plugin' : 'plugin'}</td>
              <td>
                <button type="button" onClick={() => uninstall(p)}>
                  Uninstall {p.name} {p.version}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && detail.data && (
        <div className="detail" role="region" aria-label={`${detail.data.name} details`}>
          <h2>
            {detail.data.name} {detail.data.version}
          </h2>
          <p>Releases: {(detail.data.releases ?? []).map((r) => `${r.name ?? r.os ?? r.operating_system ?? ''} ${r.version ?? ''}`.trim()).join(', ') || 'none'}</p>
          <p>Roles: {(detail.data.roles ?? []).map((r) => r.name).join(', ') || 'none'}</p>
          <p>Components: {(detail.data.components ?? []).map((c) => c.name).join(', ') || 'none'}</p>
          <p>
            Tasks:{' '}
            {Object.entries(detail.data.tasks ?? {})
              .map(([g, list]) => `${g}: ${list.length}`)
              .join(', ') || 'none'}
          </p>
        </div>
      )}
    </section>
  );
}
