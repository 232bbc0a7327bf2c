/**
 * Verify networks on the Networks tab (issue 27): the Verify button runs `POST
 * /clusters/{id}/network_configuration/verify` (every real node probes at once, about ten seconds),
 * then shows each network as passing, or its matrix (who heard whom on its VLAN), the absent VLANs
 * and the findings with what to check. A refusal (no real nodes, a run in progress) is shown with
 * the server's hint.
 */
import { useState } from 'react';
import { call } from '../api.js';
import { Problems } from '../components/Problems.js';
import type { Cluster } from '../types.js';
import type { AnswerOf } from '../../../src/api/client.js';

type Verification = AnswerOf<'/clusters/{id}/network_configuration/verify', 'post'>;
type Matrix = Verification['networks'][number];

const on = (m: Pick<Matrix, 'network' | 'vlan' | 'vlans'>) => `${m.network} (${m.vlans?.length ? `VLANs ${m.vlans[0]}-${m.vlans[m.vlans.length - 1]}` : m.vlan === null ? 'untagged' : `VLAN ${m.vlan}`})`;

function MatrixTable({ m }: { m: Matrix }) {
  return (
    <div className="table-wrap">
      <table data-testid={`verify-matrix-${m.network}`}>
        <caption>
          {on(m)}: rows hear columns
        </caption>
        <thead>
          <tr>
            <th scope="col">heard by \ from</th>
            {m.nodes.map((b) => (
              <th key={b.node} scope="col">
                {b.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {m.nodes.map((a) => (
            <tr key={a.node} data-node={a.name}>
              <th scope="row">
                {a.name} <small className="muted">{a.interface}</small>
              </th>
              {m.nodes.map((b) => {
                if (a.node === b.node) return <td key={b.node}>-</td>;
                const h = m.heard[a.node]?.[b.node];
                return (
                  <td key={b.node} className={h === true ? 'good' : 'bad'}>
                    {h === true ? 'ok' : h === false ? 'NO' : '?'}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VerifySlot({ cluster, disabled }: { cluster: Cluster; disabled: boolean }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Verification | null>(null);
  const [error, setError] = useState<unknown>(null);
  const verify = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await call('post', '/clusters/{id}/network_configuration/verify', { params: { id: cluster.id }, body: {} }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="verify-title" className="verify-networks">
      <h3 id="verify-title">Verify networks</h3>
      <p className="note">Each real node sends tagged frames on every network's VLAN and listens for the others', looks for duplicate addresses and asks the gateway. Nothing of the nodes changes.</p>
      <button type="button" onClick={() => void verify()} disabled={busy || disabled}>
        {busy ? 'Verifying…' : 'Verify networks'}
      </button>
      <div aria-live="polite" aria-busy={busy}>
        {busy && <p className="muted">Probing every node (about ten seconds)…</p>}
        {result && (
          <div data-testid="verify-result" data-status={result.status}>
            <p className={result.status === 'passed' ? 'good' : 'bad'} role="status">
              {result.status === 'passed' ? 'Every network passes between every node.' : `Verification failed: ${result.findings.filter((f) => f.severity === 'error').length} problem(s).`}{' '}
              <span className="muted">(run {result.deployment_id} in the history)</span>
            </p>
            <ul data-testid="verify-networks">
              {result.networks.map((m) => (
                <li key={m.network} data-network={m.network} className={m.passes ? 'good' : 'bad'}>
                  {on(m)}: {m.passes ? `passes between all ${m.nodes.length} nodes` : 'fails'}
                </li>
              ))}
            </ul>
            {result.networks
              .filter((m) => !m.passes)
              .map((m) => (
                <MatrixTable key={m.network} m={m} />
              ))}
            {result.absent_vlans.length > 0 && (
              <p data-testid="verify-absent">Absent VLANs (0: untagged): {result.absent_vlans.map((a) => `${a.name} ${a.interface}: ${a.absent_vlans.join(', ')}`).join('; ')}</p>
            )}
            {result.findings.length > 0 && (
              <ul className="findings" data-testid="verify-findings">
                {result.findings.map((f, i) => (
                  <li key={i} className={f.severity === 'error' ? 'bad' : undefined} data-code={f.code}>
                    {f.message}
                    {f.hint && (
                      <>
                        <br />
                        <small>What to check: {f.hint}</small>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <Problems error={error} title="Networks were not verified" />
      </div>
    </section>
  );
}
