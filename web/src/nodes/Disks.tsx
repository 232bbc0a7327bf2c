import { useEffect, useState } from 'react';
import { ApiError, call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import { sentence } from '../components/words.js';
import type { AnswerOf } from '../../../src/api/client.js';
import { formatMiB, parseMiB } from '../../../src/core/text/sizes.js';
import { isoTime } from '../deploy/model.js';
import './disks.css';

/**
 * A node's disks as Fuel's "Configure disks" showed them (issue 26): each disk a bar split by its
 * volumes (name and size), what is left shown as free, a disk in use shown as such and left alone.
 * Sizes are typed as people write them (20G, 512M) and checked as the server checks them (a
 * volume's size, the disk's size) before saving; the server's refusal is shown on the disk it
 * names, its warnings (a volume below its minimum) beside. Sizes in binary units, as the CLI's.
 */

type Disk = AnswerOf<'/nodes/{id}/disks', 'get'>[number];
type Finding = { code: string; severity?: string; message: string; hint?: string };

/** One colour per volume name, the same on every disk of the node. */
const PALETTE = ['#1f5fbf', '#1d7a46', '#8a4fbf', '#c06014', '#0f7f8a', '#a3336b', '#5b6c1a', '#6b4a2b'];
const colourOf = (names: string[], name: string) => PALETTE[Math.max(0, names.indexOf(name)) % PALETTE.length];

/** A finding's disk, by the name its message quotes (`disk 'sdb'`), else undefined: said for the whole node. */
const diskNamed = (disks: Disk[], f: Finding) => disks.find((d) => f.message.includes(`disk '${d.name}'`) || f.message.includes(`'${d.id}'`));

export function Disks({ nodeId, onChanged }: { nodeId: number; onChanged?: () => void }) {
  const disks = useApi('/nodes/{id}/disks', { params: { id: nodeId } });
  const volumes = useApi('/nodes/{id}/volumes', { params: { id: nodeId } });
  const check = useApi('/nodes/{id}/disks/check', { params: { id: nodeId } });
  // Sizes as typed, per disk and volume; a volume not typed in keeps its size.
  const [typed, setTyped] = useState<Record<string, Record<string, string>>>({});
  const [refusal, setRefusal] = useState<unknown>(null);
  const [warnings, setWarnings] = useState<Finding[]>([]);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => setTyped({}), [disks.data]);

  if (disks.error) return <Problems error={disks.error} title="Cannot read this node's disks" />;
  if (!disks.data) return <p aria-busy="true">Reading the disks…</p>;
  const list = disks.data;
  const names = [...new Set([...(volumes.data ?? []).map((v) => v.name), ...list.flatMap((d) => d.volumes.map((v) => v.name))])];
  const labelOf = (name: string) => volumes.data?.find((v) => v.name === name)?.label ?? name;
  const minOf = (name: string) => volumes.data?.find((v) => v.name === name)?.min_size;

  /** The sizes the page would save, in MB; undefined where what was typed is not a size. */
  const sizeOf = (d: Disk, name: string, size: number) => {
    const text = typed[d.id]?.[name];
    return text === undefined ? size : parseMiB(text);
  };
  const localProblems = (d: Disk): string[] => {
    const out: string[] = [];
    for (const v of d.volumes) if (sizeOf(d, v.name, v.size) === undefined) out.push(`${labelOf(v.name)}: '${typed[d.id]?.[v.name]}' is not a size (say 20G, 1.5 GiB, 512M, or MB alone)`);
    const total = d.volumes.reduce((s, v) => s + (sizeOf(d, v.name, v.size) ?? 0), 0);
    if (total > d.size) out.push(`the volumes take ${formatMiB(total)}, and disk ${d.name} has ${formatMiB(d.size)} for them`);
    return out;
  };
  const edited = Object.values(typed).some((byVolume) => Object.keys(byVolume).length > 0);
  const blocked = list.some((d) => localProblems(d).length > 0);

  const refused = refusal instanceof ApiError ? (((refusal.details as { findings?: Finding[] } | undefined)?.findings ?? []) as Finding[]) : [];
  const refusedOn = (d: Disk) => refused.filter((f) => diskNamed(list, f) === d);
  const refusedElsewhere = refused.filter((f) => !diskNamed(list, f));
  const standing = ((check.data?.findings ?? []) as Finding[]).filter((f) => !warnings.some((w) => w.message === f.message));

  const after = (message: string) => {
    setDone(message);
    disks.reload();
    check.reload();
    onChanged?.();
  };
  const save = async () => {
    setBusy(true);
    setRefusal(null);
    setDone(null);
    try {
      const body = list.map((d) => ({ id: d.id, ...(d.exclude ? { exclude: true } : {}), volumes: d.volumes.map((v) => ({ name: v.name, size: sizeOf(d, v.name, v.size) ?? v.size })) }));
      const res = await call('put', '/nodes/{id}/disks', { params: { id: nodeId }, body });
      setWarnings(res.findings as Finding[]);
      after('Disk layout saved.');
    } catch (err) {
      setRefusal(err);
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    setBusy(true);
    setRefusal(null);
    setDone(null);
    try {
      await call('delete', '/nodes/{id}/disks', { params: { id: nodeId } });
      setWarnings([]);
      after('Back to the default layout.');
    } catch (err) {
      setRefusal(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="node-disks" aria-labelledby="node-disks-title" data-testid="node-disks">
      <div className="title-row">
        <h3 id="node-disks-title">Disks and volumes</h3>
        <span className="muted" data-testid="disks-layout">
          {check.data ? (check.data.saved ? `layout saved ${check.data.saved_at ? isoTime(check.data.saved_at) : ''}` : 'default layout (follows the roles)') : ''}
        </span>
      </div>
      {list.length === 0 && <p className="muted">No disks known for this node yet.</p>}
      {list.length > 0 && names.length === 0 && <p className="muted">Its roles bring no volumes: give it a role to lay out its disks.</p>}
      {list.map((d) => {
        const problems = localProblems(d);
        const sizes = d.volumes.map((v) => ({ ...v, shown: sizeOf(d, v.name, v.size) ?? v.size }));
        const used = sizes.reduce((s, v) => s + v.shown, 0);
        const free = d.size - used;
        const whole = Math.max(d.size, used, 1);
        const fixed = d.in_use || d.exclude === true;
        return (
          <div key={d.id} className="disk" data-disk={d.name} data-in-use={d.in_use ? 'true' : 'false'}>
            <div className="disk-head">
              <h4>{d.name}</h4>
              <span>{formatMiB(d.disk_size ?? d.size)}</span>
              {d.disk_size !== undefined && d.disk_size !== d.size && <span className="muted">({formatMiB(d.size)} for volumes; the rest holds boot records, partition table and LVM metadata)</span>}
              {d.in_use ? <span className="badge warn">in use{d.holds_root ? ' (holds /)' : ''}: Hearth leaves it as it is</span> : d.exclude ? <span className="badge">excluded</span> : <span className="badge good">free</span>}
              <code className="muted">{d.id}</code>
            </div>
            <div className={`disk-bar${d.in_use ? ' in-use' : ''}`} role="img" aria-label={`${d.name}: ${sizes.filter((v) => v.shown > 0).map((v) => `${labelOf(v.name)} ${formatMiB(v.shown)}`).join(', ') || 'no volumes'}${free > 0 ? `, ${formatMiB(free)} free` : ''}`}>
              {sizes
                .filter((v) => v.shown > 0)
                .map((v) => (
                  <div key={v.name} className="segment" data-volume={v.name} style={{ width: `${(v.shown / whole) * 100}%`, background: d.in_use ? undefined : colourOf(names, v.name) }} title={`${labelOf(v.name)}: ${formatMiB(v.shown)}`}>
                    <span>{labelOf(v.name)}</span>
                    <span>{formatMiB(v.shown)}</span>
                  </div>
                ))}
              {free > 0 && (
                <div className="segment free" data-volume="(free)" style={{ width: `${(free / whole) * 100}%` }} title={`free: ${formatMiB(free)}`}>
                  <span>{d.in_use ? 'in use' : 'free'}</span>
                  <span>{formatMiB(free)}</span>
                </div>
              )}
              {free < 0 && <div className="segment over" style={{ width: `${(-free / whole) * 100}%` }} title={`${formatMiB(-free)} more than the disk holds`} />}
            </div>
            {!fixed && d.volumes.length > 0 && (
              <div className="disk-volumes">
                {d.volumes.map((v) => {
                  const text = typed[d.id]?.[v.name];
                  const min = minOf(v.name);
                  return (
                    <label key={v.name}>
                      <span className="swatch" style={{ background: colourOf(names, v.name) }} />
                      {labelOf(v.name)}
                      <input
                        aria-label={`${labelOf(v.name)} on ${d.name}`}
                        data-volume={v.name}
                        value={text ?? formatMiB(v.size)}
                        aria-invalid={text !== undefined && parseMiB(text) === undefined}
                        title={min !== undefined ? `at least ${formatMiB(min)} for the node in all` : undefined}
                        onChange={(e) => setTyped((t) => ({ ...t, [d.id]: { ...t[d.id], [v.name]: e.target.value } }))}
                      />
                    </label>
                  );
                })}
              </div>
            )}
            {problems.map((p, i) => (
              <p key={`local-${i}`} className="disk-problem" role="alert">
                {sentence(p)}
              </p>
            ))}
            {refusedOn(d).map((f, i) => (
              <p key={`refused-${i}`} className="disk-problem" role="alert" data-code={f.code}>
                {sentence(f.message)}
              </p>
            ))}
          </div>
        );
      })}
      {refusal !== null && refused.length === 0 && <Problems error={refusal} title="This layout cannot be saved" />}
      {refused.length > 0 && (
        <div className="disk-problem" role="alert" data-testid="disks-refused">
          <strong>This layout cannot be saved{refusedElsewhere.length ? ':' : ': see the disks above.'}</strong>
          {refusedElsewhere.map((f, i) => (
            <p key={i} data-code={f.code}>
              {sentence(f.message)}
              {f.hint ? ` (${sentence(f.hint)})` : ''}
            </p>
          ))}
        </div>
      )}
      {[...warnings, ...standing].map((f, i) => (
        <p key={`warn-${i}`} className="disk-warning" data-testid="disks-warning" data-code={f.code}>
          {f.severity === 'error' ? 'Deploying needs this fixed: ' : 'Warning: '}
          {sentence(f.message)}
        </p>
      ))}
      <div aria-live="polite">{done && <p role="status" className="good">{done}</p>}</div>
      <div className="actions">
        <button type="button" className="primary" disabled={busy || !edited || blocked} onClick={() => void save()}>
          Save disk layout
        </button>
        <button type="button" disabled={busy || !edited} onClick={() => setTyped({})}>
          Cancel changes
        </button>
        <button type="button" disabled={busy || !check.data?.saved} onClick={() => void reset()}>
          Reset to defaults
        </button>
      </div>
    </section>
  );
}
