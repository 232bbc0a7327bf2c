import { useState, type ReactNode } from 'react';
import { call } from '../api.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import type { PluginDetail } from './types.js';
import { PluginEnvironments } from './PluginEnvironments.js';
import { ReleaseFindings } from './ReleaseFindings.js';

/**
 * One plugin, every installed version side by side: which releases each fits (and why not, as the
 * server composes them), its roles, components and tasks, its install warnings, the environments
 * that enable it, and the environments where it can be enabled or disabled.
 */
export function PluginCard({ versions, clusters, onChanged }: { versions: PluginDetail[]; clusters: Cluster[]; onChanged: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState(false);
  const latest = versions[versions.length - 1];
  const uninstall = async (p: PluginDetail) => {
    setError(null);
    if (!window.confirm(`Uninstall ${p.title ?? p.name} ${p.version}? It is removed from the server; an environment that enables it must disable it first.`)) return;
    try {
      await call('delete', '/plugins/{id}', { params: { id: p.id } });
      onChanged();
    } catch (e) {
      setError(e);
    }
  };
  const cell = (f: (p: PluginDetail) => ReactNode) => versions.map((p) => <td key={String(p.id)}>{f(p)}</td>);
  const releases = [...new Map(versions.flatMap((p) => p.release_fits ?? []).map((r) => [r.release_id, r.release])).entries()];
  return (
    <article className="plugin-card" data-plugin={latest.name} aria-labelledby={`plugin-${latest.name}-title`}>
      <h2 id={`plugin-${latest.name}-title`}>
        {latest.title ?? latest.name} <span className="badge">{latest.is_release ? 'release plugin' : `plugin ${latest.name}`}</span>
      </h2>
      {latest.description && <p className="muted">{latest.description}</p>}
      <div className="table-wrap">
        <table className="versions">
          <caption className="sr-only">Versions of {latest.name}</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              {versions.map((p) => (
                <th scope="col" key={String(p.id)}>
                  {p.version}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Package format</th>
              {cell((p) => p.package_version)}
            </tr>
            {releases.map(([id, label]) => (
              <tr key={id}>
                <th scope="row">Fits release {label}</th>
                {cell((p) => {
                  const fit = p.release_fits?.find((r) => r.release_id === id);
                  if (!fit) return '—';
                  return fit.fits ? (
                    <span className="good" data-fit="yes">
                      Yes: it {fit.reasons.join(' ')}.
                    </span>
                  ) : (
                    <span className="bad" data-fit="no">
                      No: {fit.reasons.slice(0, 3).join('; ')}
                      {fit.reasons.length > 3 ? `; and ${fit.reasons.length - 3} more` : ''}.
                    </span>
                  );
                })}
              </tr>
            ))}
            <tr>
              <th scope="row">Roles</th>
              {cell((p) => (p.roles ?? []).map((r) => r.name).join(', ') || 'none')}
            </tr>
            <tr>
              <th scope="row">Components</th>
              {cell((p) => (p.components ?? []).map((c) => c.label ?? c.name).join(', ') || 'none')}
            </tr>
            <tr>
              <th scope="row">Tasks</th>
              {cell((p) => Object.entries(p.tasks ?? {}).map(([g, list]) => `${list.length} in ${g}`).join(', ') || 'none')}
            </tr>
            <tr>
              <th scope="row">Install warnings</th>
              {cell((p) =>
                (p.install_findings ?? []).length === 0 ? (
                  'none'
                ) : (
                  <details data-install-findings>
                    <summary>
                      {p.install_findings!.length} warning{p.install_findings!.length === 1 ? '' : 's'}
                    </summary>
                    <ul className="notes">
                      {p.install_findings!.map((f, i) => (
                        <li key={i}>
                          {f.message} <code>{f.code}</code>
                        </li>
                      ))}
                    </ul>
                  </details>
                ),
              )}
            </tr>
            {!latest.is_release && (
              <tr>
                <th scope="row">Checked against its releases</th>
                {cell((p) => (
                  <ReleaseFindings checks={p.release_findings} />
                ))}
              </tr>
            )}
            <tr>
              <th scope="row">Enabled in</th>
              {cell((p) =>
                (p.used_by ?? []).length === 0
                  ? 'no environment'
                  : p.used_by!.map((c, i) => (
                      <span key={c.id}>
                        {i > 0 && ', '}
                        <a href={`#/env/${c.id}/settings`}>{c.name}</a>
                      </span>
                    )),
              )}
            </tr>
            <tr>
              <th scope="row">
                <span className="sr-only">Actions</span>
              </th>
              {cell((p) => (
                <button type="button" onClick={() => void uninstall(p)}>
                  Uninstall {p.version}
                </button>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <Problems error={error} title="The plugin was not uninstalled" />
      {!latest.is_release && (
        <>
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide environments' : 'Enable or disable it in an environment'}
          </button>
          {open && <PluginEnvironments versions={versions} clusters={clusters} onChanged={onChanged} />}
        </>
      )}
    </article>
  );
}
