import { useEffect, useMemo, useState } from 'react';
import { api, call } from '../api.js';
import { useApi } from '../useApi.js';
import type { AnswerOf } from '../../../src/api/client.js';
import { Problems } from '../components/Problems.js';
import type { PluginDetail } from './types.js';
import { PluginCard } from './PluginCard.js';
import { groupBy } from '../components/groupBy.js';

/** What installing a package answers (the body is the package's bytes, so it goes through `api`). */
type Installed = AnswerOf<'/plugins', 'post'>;

/** Installed plugins, grouped by name with their versions side by side, and package upload. */
export function Plugins() {
  const plugins = useApi('/plugins');
  const clusters = useApi('/clusters');
  const [details, setDetails] = useState<PluginDetail[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [installed, setInstalled] = useState<Installed | null>(null);

  // Each version's detail says which releases it fits and who enables it; a handful of requests at once.
  useEffect(() => {
    if (!plugins.data) return;
    let live = true;
    Promise.all(plugins.data.map((p) => call('get', '/plugins/{id}', { params: { id: p.id } }))).then(
      (list) => live && setDetails(list),
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [plugins.data]);

  const groups = useMemo(() => {
    const byName = groupBy(details ?? [], (p) => p.name);
    for (const list of byName.values()) list.sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
    return [...byName.values()].sort((a, b) => Number(Boolean(a[0].is_release)) - Number(Boolean(b[0].is_release)) || a[0].name.localeCompare(b[0].name));
  }, [details]);

  const reload = () => {
    plugins.reload();
    clusters.reload();
  };

  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared at once, so choosing the same file again is a new choice (a browser fires no change otherwise).
    input.value = '';
    if (!file) return;
    setError(null);
    setInstalled(null);
    setStatus(`Installing ${file.name}…`);
    try {
      const answer = await api<Installed>('POST', '/plugins', undefined, { raw: file, contentType: 'application/gzip' });
      setStatus('');
      setInstalled(answer);
      reload();
    } catch (e) {
      setStatus('');
      setError(e);
    }
  };

  const warnings = (installed?.findings ?? []).filter((f) => f.severity !== 'info');
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
          {warnings.length > 0 ? (
            <>
              <p>The validator's warnings on it:</p>
              <ul className="notes">
                {warnings.map((f, i) => (
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
      {plugins.data && plugins.data.length === 0 && <p>No plugin is installed.</p>}
      {!details && plugins.data && plugins.data.length > 0 && <p aria-busy="true">Reading the plugins…</p>}
      {groups.map((versions) => (
        <PluginCard key={versions[0].name} versions={versions} clusters={clusters.data ?? []} onChanged={reload} />
      ))}
    </section>
  );
}
