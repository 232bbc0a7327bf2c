import { useState } from 'react';
import { ApiError, call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import { sentence } from '../components/words.js';
import { formatBytes, formatSpeed, hostKeyChanged, sshTarget, type NodeView } from './realNode.js';
import { NodeStatusLine } from '../components/NodeStatus.js';
import { NodeNetworks } from './NodeNetworks.js';
import { Disks } from './Disks.js';
import { isoTime } from '../deploy/model.js';

/**
 * One node in full: its status, how Hearth reaches it, its host key and its facts (OS, CPUs,
 * memory, every disk and interface), read from `GET /nodes/{id}`. "Refresh facts" connects again;
 * a host key that changed is said plainly, with the fingerprints, and can be accepted here.
 */
export function NodeDetails({ id, onClose, onChanged }: { id: string | number; onClose: () => void; onChanged: () => void }) {
  const node = useApi('/nodes/{id}', { params: { id: Number(id) } });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  const refresh = async (acceptHostKey?: string) => {
    const n = node.data!;
    if (acceptHostKey && !window.confirm(`Accept the host key ${acceptHostKey} for ${n.name} (${n.address})? Do this only if you know the host was reinstalled or its key was replaced: otherwise another machine may be answering at that address.`)) return;
    setBusy(acceptHostKey ? 'Accepting the new host key and gathering facts…' : `Connecting to ${n.address} and gathering its facts…`);
    setError(null);
    setDone(null);
    try {
      await call('post', '/nodes/{id}/refresh', { params: { id: Number(id) }, body: acceptHostKey ? { accept_host_key: acceptHostKey } : {} });
      setDone(acceptHostKey ? `Accepted the new host key ${acceptHostKey}; facts gathered again.` : 'Facts gathered again.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
      node.reload();
      onChanged();
    }
  };

  if (node.error) return <Problems error={node.error} title="Cannot read this node" />;
  if (!node.data) return <p aria-busy="true">Reading the node…</p>;
  const n = node.data;
  // The key presented now: from the refusal just answered, else from the error recorded.
  const refusal = error instanceof ApiError && error.code === 'node/host-key-changed' ? (error.details as { recorded_fingerprint?: string; presented_fingerprint?: string | null }) : null;
  const presented = refusal?.presented_fingerprint ?? (hostKeyChanged(n) ? n.reach_error?.host_key : undefined) ?? null;
  const keyChanged = refusal !== null || hostKeyChanged(n);
  const facts = n.facts;

  return (
    <section className="detail node-details" aria-labelledby="node-details-title" data-node={n.name}>
      <div className="title-row">
        <h2 id="node-details-title">{n.name}</h2>
        {n.simulated !== false && <span className="badge">simulated</span>}
        <NodeStatusLine node={n} />
        {n.simulated === false && (
          <button type="button" disabled={busy !== null} onClick={() => void refresh()}>
            Refresh facts
          </button>
        )}
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      {n.simulated !== false ? (
        <p className="note">A simulated node, for planning: it has no host to connect to, and a real deployment refuses environments that hold one. Hardware assumed: {hardwareWords(n)}.</p>
      ) : (
        <>
          <dl className="facts-list">
            <dt>Reached as</dt>
            <dd>
              <code>{sshTarget(n)}</code>
            </dd>
            <dt>Host key (recorded)</dt>
            <dd>
              <code data-testid="host-key">{n.host_key_fingerprint ?? 'not recorded'}</code>
            </dd>
            {n.host_key_accepted_by && (
              <>
                <dt>Changed key accepted</dt>
                <dd data-testid="host-key-accepted">
                  by {n.host_key_accepted_by} at {isoTime(n.host_key_accepted_at)}
                </dd>
              </>
            )}
            <dt>Facts gathered</dt>
            <dd>{n.facts_at ? isoTime(n.facts_at) : 'never'}</dd>
          </dl>
          <div aria-live="polite">
            {busy && (
              <p role="status" aria-busy="true">
                {busy}
              </p>
            )}
            {done && (
              <p role="status" className="good">
                {done}
              </p>
            )}
          </div>
          {keyChanged ? (
            <div className="problems" role="alert" data-testid="host-key-changed">
              <strong>The host key of {n.name} changed</strong>
              <p>
                Hearth recorded {refusal?.recorded_fingerprint ?? n.host_key_fingerprint}, and the host now presents {presented ?? 'another key'}. Hearth does not connect to it until the new key is accepted.
              </p>
              {presented ? (
                <p>
                  If the host was reinstalled (or its key replaced on purpose), accept the new key:{' '}
                  <button type="button" className="danger" disabled={busy !== null} onClick={() => void refresh(presented)}>
                    Accept the new key {presented}
                  </button>
                </p>
              ) : (
                <p>Refresh facts to see the fingerprint it presents now.</p>
              )}
            </div>
          ) : (
            <>
              {n.reach_error && !error && (
                <p className="bad" data-testid="reach-error">
                  Last SSH error{n.reach_error.at ? ` (${isoTime(n.reach_error.at)})` : ''}: {sentence(n.reach_error.message)}
                </p>
              )}
              <Problems error={error} title="The facts could not be gathered" />
            </>
          )}
          {facts ? <Facts n={n} /> : <p className="muted">No facts gathered yet.</p>}
        </>
      )}
      <Disks nodeId={n.id} onChanged={onChanged} />
      <NodeNetworks node={n} onChanged={() => (node.reload(), onChanged())} />
    </section>
  );
}

const hardwareWords = (n: NodeView) => {
  const h = (n.hardware ?? {}) as { cpus?: number; memory_gb?: number; disks_gb?: number[] };
  return [h.cpus !== undefined ? `${h.cpus} CPUs` : null, h.memory_gb !== undefined ? `${h.memory_gb} GB memory` : null, h.disks_gb?.length ? `disks of ${h.disks_gb.join(', ')} GB` : null].filter(Boolean).join(', ') || 'none given';
};

function Facts({ n }: { n: NodeView }) {
  const f = n.facts!;
  return (
    <>
      <dl className="facts-list" data-testid="facts">
        <dt>Hostname</dt>
        <dd>{f.hostname || 'unknown'}</dd>
        <dt>Operating system</dt>
        <dd>{f.os.pretty_name ?? ([f.os.id, f.os.version_id].filter(Boolean).join(' ') || 'unknown')}</dd>
        <dt>CPUs</dt>
        <dd>{f.cpus ?? 'unknown'}</dd>
        <dt>Memory</dt>
        <dd>{formatBytes(f.memory_bytes)}</dd>
      </dl>
      <div className="table-wrap">
        <table className="disks">
          <caption>Disks ({f.disks.length})</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
              <th scope="col">Type</th>
              <th scope="col">Model</th>
              <th scope="col">Rotational</th>
            </tr>
          </thead>
          <tbody>
            {f.disks.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No whole disk was listed by lsblk (partitions and zram are left out).
                </td>
              </tr>
            )}
            {f.disks.map((d) => (
              <tr key={d.name}>
                <th scope="row">{d.name}</th>
                <td>{formatBytes(d.size_bytes)}</td>
                <td>{d.type}</td>
                <td>{d.model ?? <span className="muted">not given</span>}</td>
                <td>{d.rotational === null ? 'unknown' : d.rotational ? 'yes (spinning disk)' : 'no (solid state)'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-wrap">
        <table className="interfaces">
          <caption>Network interfaces ({f.interfaces.length})</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">MAC</th>
              <th scope="col">Addresses</th>
              <th scope="col">State</th>
              <th scope="col">Speed</th>
            </tr>
          </thead>
          <tbody>
            {f.interfaces.map((i) => (
              <tr key={i.name}>
                <th scope="row">{i.name}</th>
                <td>
                  <code>{i.mac ?? 'none'}</code>
                </td>
                <td>{i.addresses.length ? i.addresses.join(', ') : <span className="muted">none</span>}</td>
                <td className={i.state === 'up' ? 'good' : undefined}>{i.state}</td>
                <td>{formatSpeed(i.speed_mbps)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
