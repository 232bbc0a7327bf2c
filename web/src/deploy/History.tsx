import { apartWords, countsOf, doneOf, formatSeconds, isoTime, runMeaning, runWord, seconds, type Deployment } from './model.js';
import { namesIn } from './DeploymentView.js';

/** Past deployments, newest first; choosing one shows its tasks and their output. */
/** `list` is null while the runs are being read. */
export function History({ list, current, onOpen, nodeName }: { list: Deployment[] | null; current: number | null; onOpen: (id: number) => void; nodeName: (id: string) => string }) {
  if (list === null) return <p aria-busy="true">Loading…</p>;
  if (list.length === 0) return <p className="muted">No deployment yet.</p>;
  return (
    <div className="table-wrap">
      <table className="history">
        <caption>Deployments of this environment</caption>
        <thead>
          <tr>
            <th scope="col">Deployment</th>
            <th scope="col">Graph</th>
            <th scope="col">Outcome</th>
            <th scope="col">Tasks done</th>
            <th scope="col">Started</th>
            <th scope="col">By</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {list.map((d) => (
            <tr key={d.id} aria-current={d.id === current ? 'true' : undefined} data-deployment={d.id}>
              <th scope="row">
                <button type="button" className="link" onClick={() => onOpen(d.id)}>
                  #{d.id}
                </button>
                {d.mode && d.mode !== 'real' ? <span className="badge">dry run</span> : null}
              </th>
              <td>{d.graph_type ?? 'default'}</td>
              <td className={d.status === 'failed' || d.status === 'interrupted' ? 'bad' : d.status === 'succeeded' ? 'good' : undefined} title={runMeaning(d.status)}>
                {runWord(d.status)}
                {d.message ? `: ${namesIn(d.message, nodeName)}` : ''}
              </td>
              <td>
                {doneOf(d)} / {d.total}
                {apartWords(countsOf(d)) ? <span className="muted"> ({apartWords(countsOf(d))})</span> : null}
              </td>
              <td className="nowrap">{isoTime(d.started_at)}</td>
              <td>{d.requested_by ?? <span className="muted">—</span>}</td>
              <td>{formatSeconds(seconds(d.started_at, d.finished_at))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
