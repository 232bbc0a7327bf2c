import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import type { NodeView } from './realNode.js';

/**
 * A node's place on its environment's networks: its address on each (Fuel's network_data) and its
 * interfaces with the networks on each, which can be moved between them. The admin network stays
 * on the interface Hearth reaches the node on: the server refuses a mapping that would cut it off.
 */
export function NodeNetworks({ node, onChanged }: { node: NodeView; onChanged: () => void }) {
  const inEnvironment = node.cluster_id !== null && node.cluster_id !== undefined;
  const interfaces = useApi(inEnvironment ? '/nodes/{id}/interfaces' : null, { params: { id: node.id } });
  // Network name → interface, as chosen on screen.
  const [placed, setPlaced] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const out: Record<string, string> = {};
    for (const i of interfaces.data ?? []) for (const n of i.assigned_networks) out[n.name] = i.name;
    setPlaced(out);
  }, [interfaces.data]);
  if (!inEnvironment) return null;
  const data = node.network_data ?? [];
  const list = interfaces.data ?? [];
  const admin = list.find((i) => i.pxe)?.name;
  const changed = list.some((i) => i.assigned_networks.some((n) => placed[n.name] !== i.name));

  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const body = list.map((i) => ({ name: i.name, assigned_networks: Object.entries(placed).filter(([, nic]) => nic === i.name).map(([name]) => ({ name })) }));
      await call('put', '/nodes/{id}/interfaces', { params: { id: node.id }, body });
      setSaved(true);
      interfaces.reload();
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`node-networks-${node.id}`} className="node-networks">
      <h3 id={`node-networks-${node.id}`}>Networks</h3>
      <div className="table-wrap">
        <table data-testid="node-addresses">
          <caption>Addresses ({data.length})</caption>
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col">Address</th>
              <th scope="col">VLAN</th>
              <th scope="col">Interface</th>
              <th scope="col">Gateway</th>
            </tr>
          </thead>
          <tbody>
            {data.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No addresses: the node gets one on each network its roles need once it has roles.
                </td>
              </tr>
            )}
            {data.map((d) => (
              <tr key={d.name} data-network={d.name}>
                <th scope="row">{d.name}</th>
                <td>
                  <code>{d.ip ?? 'none'}</code>
                </td>
                <td>{d.vlan === null ? 'untagged' : d.vlan}</td>
                <td>{d.dev ?? '-'}</td>
                <td>{d.gateway ?? '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {interfaces.error ? (
        <Problems error={interfaces.error} title="Cannot read the interfaces" />
      ) : (
        <div className="table-wrap">
          <table data-testid="node-interfaces">
            <caption>Interfaces: which network goes where</caption>
            <thead>
              <tr>
                <th scope="col">Network</th>
                {list.map((i) => (
                  <th scope="col" key={i.name}>
                    {i.name}
                    {i.pxe && <small className="muted"> (Hearth reaches the node here)</small>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Object.keys(placed).map((network) => (
                <tr key={network} data-network={network}>
                  <th scope="row">{network}</th>
                  {list.map((i) => (
                    <td key={i.name}>
                      <input
                        type="radio"
                        name={`nic-${node.id}-${network}`}
                        aria-label={`${network} on ${i.name}`}
                        checked={placed[network] === i.name}
                        // The admin network is where Hearth reaches the node: it is not moved from here.
                        disabled={network === 'fuelweb_admin' && i.name !== admin}
                        onChange={() => (setSaved(false), setPlaced((p) => ({ ...p, [network]: i.name })))}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" disabled={busy || !changed} onClick={() => void save()}>
        Save interfaces
      </button>
      <div aria-live="polite">
        {saved && (
          <p role="status" className="good">
            Interfaces saved.
          </p>
        )}
      </div>
      <Problems error={error} title="The interfaces were not saved" />
    </section>
  );
}
