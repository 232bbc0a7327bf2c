import { useState } from 'react';
import { useApi } from '../useApi.js';
import { Refused } from './AdminOnly.js';
import { isoTime } from '../deploy/model.js';

const PAGE = 50;

/** The audit log, for admins (issue 29): newest first, a page at a time, filtered by who or what. */
export function Activity() {
  const [filter, setFilter] = useState({ actor: '', object: '' });
  const [draft, setDraft] = useState(filter);
  // The markers of the pages before this one: Back pops one.
  const [markers, setMarkers] = useState<string[]>([]);
  const marker = markers[markers.length - 1];
  const query = { limit: PAGE, ...(filter.actor ? { actor: filter.actor } : {}), ...(filter.object ? { object: filter.object } : {}), ...(marker ? { marker } : {}) };
  const log = useApi('/audit', { query });
  if (log.loading && !log.data) return <p aria-busy="true">Loading…</p>;
  if (log.error && !log.data) return <Refused error={log.error} what="The Activity page" />;
  const entries = log.data ?? [];
  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setMarkers([]);
          setFilter({ actor: draft.actor.trim(), object: draft.object.trim() });
        }}
      >
        <label htmlFor="activity-actor">Who</label>
        <input id="activity-actor" size={24} value={draft.actor} placeholder="a user, or admin-token" onChange={(e) => setDraft({ ...draft, actor: e.target.value })} />
        <label htmlFor="activity-object">What</label>
        <input id="activity-object" size={30} value={draft.object} placeholder="environment/3, node, plugin…" onChange={(e) => setDraft({ ...draft, object: e.target.value })} />
        <button type="submit">Filter</button>
      </form>
      {log.error ? <Refused error={log.error} what="The Activity page" /> : null}
      {entries.length === 0 ? (
        <p>Nothing recorded{filter.actor || filter.object ? ' for this filter' : ''}.</p>
      ) : (
        <table className="activity">
          <thead>
            <tr>
              <th>When</th>
              <th>Who</th>
              <th>What</th>
              <th>On</th>
              <th>Outcome</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-outcome={e.outcome}>
                <td>{isoTime(e.at)}</td>
                <td>
                  {e.actor ?? <span className="muted">nobody</span>}
                  {e.token_name ? <span className="muted"> (token {e.token_name})</span> : null}
                </td>
                <td>
                  <code>
                    {e.method} {e.route.replace(/^\/api\/v1/, '')}
                  </code>
                </td>
                <td>
                  {e.object ?? ''}
                  {e.deployment_id !== undefined ? <span className="muted"> · deployment {e.deployment_id}</span> : null}
                </td>
                <td className={`outcome-${e.outcome}`}>
                  {e.outcome} ({e.status}
                  {e.code ? ` ${e.code}` : ''})
                </td>
                <td>{e.address ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="pager">
        <button type="button" disabled={!markers.length} onClick={() => setMarkers(markers.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={entries.length < PAGE} onClick={() => setMarkers([...markers, String(entries[entries.length - 1].id)])}>
          Older
        </button>
      </div>
    </section>
  );
}
