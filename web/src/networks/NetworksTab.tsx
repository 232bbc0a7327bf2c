import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import type { Cluster } from '../types.js';
import type { AnswerOf } from '../../../src/api/client.js';
import { VerifySlot } from './VerifySlot.js';
import { groupBy } from '../components/groupBy.js';

type Configuration = AnswerOf<'/clusters/{id}/network_configuration', 'get'>;
type Finding = Configuration['findings'][number];

/** One network's editable fields as typed (text until saved, so half-typed values stay on screen). */
interface Draft {
  cidr: string;
  gateway: string;
  vlan: string;
  ranges: string;
  mtu: string;
}

const rangesText = (ranges: Array<[string, string]> | string[][]) => ranges.map(([a, b]) => (a === b ? a : `${a}-${b}`)).join(', ');
const parseRanges = (text: string): Array<[string, string]> =>
  text
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [a, b] = r.split('-').map((x) => x.trim());
      return [a, b || a];
    });

function draftsOf(config: Configuration): Record<string, Draft> {
  return Object.fromEntries(config.networks.map((n) => [n.name, { cidr: n.cidr ?? '', gateway: n.gateway ?? '', vlan: n.vlan_start === null ? '' : String(n.vlan_start), ranges: rangesText(n.ip_ranges as Array<[string, string]>), mtu: n.mtu ? String(n.mtu) : '' }]));
}

/**
 * The environment's networks (Fuel's Networks tab): each network's CIDR, VLAN, gateway, IP
 * ranges and MTU, editable, the floating range, and what the checks find with what to change. Saving is
 * refused, field by field, while the result has errors; a real deployment is refused while the
 * saved one has any.
 */
export function NetworksTab({ cluster }: { cluster: Cluster }) {
  const config = useApi('/clusters/{id}/network_configuration', { params: { id: cluster.id } });
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [floating, setFloating] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [refused, setRefused] = useState<Finding[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!config.data) return;
    setDrafts(draftsOf(config.data));
    setFloating(rangesText((config.data.networking_parameters.floating_ranges ?? []) as Array<[string, string]>));
  }, [config.data]);
  if (config.error) return <Problems error={config.error} title="Cannot read the networks" />;
  if (!config.data) return <p aria-busy="true">Reading the networks…</p>;
  const c = config.data;
  const locked = cluster.status === 'deploying';
  const fieldFindings = groupBy(refused, (f) => f.field || undefined);

  const change = (name: string, field: keyof Draft, value: string) => {
    setSaved(false);
    setDrafts((d) => ({ ...d, [name]: { ...d[name], [field]: value } }));
  };
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setRefused([]);
    setSaved(false);
    // An MTU that is no number is said here, on its field, rather than sent as none.
    const notNumbers = c.networks.filter((n) => drafts[n.name] && drafts[n.name].mtu.trim() !== '' && !/^\d+$/.test(drafts[n.name].mtu.trim()));
    if (notNumbers.length) {
      setRefused(notNumbers.map((n) => ({ code: 'network/invalid-mtu', severity: 'error', message: `${n.name}'s MTU is not a number`, networks: [n.name], field: `${n.name}.mtu`, hint: 'an MTU is a number of bytes, such as 1500 or 9000; empty: the interfaces\' own' })));
      setBusy(false);
      return;
    }
    try {
      const networks = c.networks
        .filter((n) => n.meta.configurable !== false)
        .map((n) => {
          const d = drafts[n.name];
          return { id: n.id, cidr: d.cidr.trim() || null, gateway: d.gateway.trim() || null, vlan_start: d.vlan.trim() === '' ? null : Number(d.vlan), ip_ranges: parseRanges(d.ranges), mtu: d.mtu.trim() === '' ? null : Number(d.mtu) };
        });
      await call('put', '/clusters/{id}/network_configuration', { params: { id: cluster.id }, body: { networks, networking_parameters: { floating_ranges: parseRanges(floating) } } });
      setSaved(true);
      config.reload();
    } catch (err) {
      setError(err);
      const details = (err as { details?: { findings?: Finding[] } }).details;
      setRefused(details?.findings ?? []);
    } finally {
      setBusy(false);
    }
  };
  const errors = c.findings.filter((f) => f.severity === 'error');
  const input = (name: string, field: keyof Draft, label: string, disabled: boolean, placeholder?: string) => {
    const key = `${name}.${field === 'vlan' ? 'vlan_start' : field === 'ranges' ? 'ip_ranges' : field}`;
    const problems = fieldFindings.get(key) ?? [];
    return (
      <td className={problems.length ? 'bad' : undefined}>
        <input aria-label={`${name} ${label}`} name={key} value={drafts[name]?.[field] ?? ''} disabled={disabled} placeholder={placeholder} aria-invalid={problems.length > 0} onChange={(e) => change(name, field, e.target.value)} />
        {problems.map((p, i) => (
          <small key={i} className="bad" style={{ display: 'block' }}>
            {p.hint}
          </small>
        ))}
      </td>
    );
  };

  return (
    <section aria-labelledby="networks-title" className="networks">
      <h2 id="networks-title">Networks</h2>
      <p className="note">
        {c.saved ? 'The networks as saved for this environment.' : "The release's networks, not changed yet."} Nodes get an address on each network their roles need; the admin network ({'fuelweb_admin'}) is the one Hearth reaches nodes on, at their SSH address, and is not edited here.
      </p>
      <form onSubmit={(e) => void save(e)}>
        <div className="table-wrap">
          <table data-testid="networks-table">
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col">CIDR</th>
                <th scope="col">VLAN</th>
                <th scope="col">Gateway</th>
                <th scope="col">IP ranges</th>
                <th scope="col">MTU</th>
              </tr>
            </thead>
            <tbody>
              {c.networks.map((n) => {
                const fixed = locked || n.meta.configurable === false;
                return (
                  <tr key={n.name} data-network={n.name}>
                    <th scope="row">
                      {n.name}
                      {n.meta.configurable === false && <small className="muted"> (not editable)</small>}
                    </th>
                    {input(n.name, 'cidr', 'CIDR', fixed, 'none')}
                    {input(n.name, 'vlan', 'VLAN', fixed, 'untagged')}
                    {input(n.name, 'gateway', 'gateway', fixed, 'none')}
                    {input(n.name, 'ranges', 'IP ranges', fixed, 'first-last, …')}
                    {input(n.name, 'mtu', 'MTU', fixed, 'default')}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p>
          <label>
            Floating IP ranges (Neutron, inside public):{' '}
            <input aria-label="floating ranges" name="networking_parameters.floating_ranges" value={floating} disabled={locked} onChange={(e) => (setSaved(false), setFloating(e.target.value))} />
          </label>{' '}
          <span className="muted">segmentation: {String(c.networking_parameters.segmentation_type)}</span>
        </p>
        <button type="submit" className="primary" disabled={busy || locked}>
          Save networks
        </button>
        {locked && <span className="muted"> The environment is being deployed: its networks are locked until the run ends.</span>}
        <div aria-live="polite">
          {saved && (
            <p role="status" className="good">
              Networks saved; node addresses follow them.
            </p>
          )}
        </div>
        <Problems error={error} title="The networks were not saved" />
      </form>
      <h3>Checks</h3>
      {errors.length === 0 ? (
        <p className="good" data-testid="network-checks">
          No errors{c.findings.length ? `, ${c.findings.length} warning${c.findings.length === 1 ? '' : 's'}` : ''}.
        </p>
      ) : (
        <p className="bad" data-testid="network-checks">
          {errors.length} error{errors.length === 1 ? '' : 's'}: a real deployment is refused until they are fixed.
        </p>
      )}
      {c.findings.length > 0 && (
        <ul className="findings" data-testid="network-findings">
          {c.findings.map((f, i) => (
            <li key={i} className={f.severity === 'error' ? 'bad' : undefined} data-code={f.code}>
              {f.message}
              {f.field && <code> {f.field}</code>}
              <br />
              <small>What to change: {f.hint}</small>
            </li>
          ))}
        </ul>
      )}
      <VerifySlot cluster={cluster} disabled={locked} />
    </section>
  );
}
