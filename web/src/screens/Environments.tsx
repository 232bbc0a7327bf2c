import { useApi } from '../useApi.js';
import { environmentLabel, environmentMeaning } from '../components/states.js';
import { Problems } from '../components/Problems.js';


export function Environments() {
  const releases = useApi('/releases');
  const clusters = useApi('/clusters');
  if (releases.loading || clusters.loading) return <p aria-busy="true">Loading…</p>;
  if (releases.error) return <Problems error={releases.error} title="Cannot read the releases" />;
  const noRelease = (releases.data ?? []).length === 0;
  return (
    <section aria-labelledby="envs-title">
      <div className="title-row">
        <h1 id="envs-title">Environments</h1>
        {!noRelease && (
          <a className="button primary" href="#/new">
            New environment
          </a>
        )}
      </div>
      {noRelease && (
        <div className="notice" role="status">
          <h2>No release is installed</h2>
          <p>
            An environment is built from a release, and Hearth has none right now. Install a release plugin first: upload its package on the{' '}
            <a href="#/plugins">Plugins</a> page, or run <code>hearth plugin install &lt;package&gt;</code>.
          </p>
        </div>
      )}
      <Problems error={clusters.error} />
      {(clusters.data ?? []).length === 0 && !noRelease && <p>No environments yet.</p>}
      <ul className="cards">
        {(clusters.data ?? []).map((c) => {
          const release = (releases.data ?? []).find((r) => String(r.id) === String(c.release_id));
          const plugins = Object.keys(c.plugins ?? {});
          return (
            <li key={c.id} data-env={c.name}>
              <a href={`#/env/${c.id}/nodes`}>{c.name}</a>
              <span className="muted">
                {' '}
                <span title={environmentMeaning(c.status)}>{environmentLabel(c.status)}</span>
                {release ? ` · ${release.name} ${release.version}` : ''}
                {plugins.length ? ` · plugins: ${plugins.join(', ')}` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
