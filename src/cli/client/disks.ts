/**
 * `hearth node disks <node> [--json]`, `--set VOLUME=SIZE[@DISK]…`, `--defaults` (issue 26): a
 * node's disks and the volumes on each, the operator's sizes saved, back to the defaults. Sizes
 * print and parse in binary units through core/text/sizes.ts, as the web UI does.
 */
import { EXIT_USAGE } from '../exit.js';
import { formatMiB, parseMiB } from '../../core/text/sizes.js';
import { ClientError, run, type ServerOptions } from './http.js';
import { nodeId } from './refs.js';
import type { AnswerOf } from '../../api/client.js';
import { table } from './table.js';
import { chosenFormat, listOrPage, type Column, type OutputOptions } from '../output.js';

type Disk = AnswerOf<'/nodes/{id}/disks', 'get'>[number];
type Finding = { code: string; severity: string; message: string; hint?: string };

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

/** One `VOLUME=SIZE[@DISK]`. */
export function parseSetting(text: string): { volume: string; size: number; disk?: string } {
  const m = /^([^=@\s]+)=([^@]+)(?:@(.+))?$/.exec(text);
  if (!m) throw usage(`--set '${text}': say VOLUME=SIZE or VOLUME=SIZE@DISK (e.g. vm=200G@sdb)`);
  const size = parseMiB(m[2]);
  if (size === undefined) throw usage(`--set '${text}': '${m[2]}' is not a size (e.g. 200G, 512M, or MB alone)`);
  return { volume: m[1], size, ...(m[3] ? { disk: m[3] } : {}) };
}

/** The operator's sizes with the settings laid over: a disk by name or id; without one, the one disk holding the volume. */
export function applySettings(disks: Disk[], settings: Array<{ volume: string; size: number; disk?: string }>) {
  const out = disks.map((d) => ({ id: d.id, ...(d.exclude ? { exclude: true } : {}), volumes: d.volumes.map((v) => ({ name: v.name, size: v.size })) }));
  for (const s of settings) {
    let index: number;
    if (s.disk !== undefined) {
      index = disks.findIndex((d) => d.name === s.disk || d.id === s.disk);
      if (index < 0) throw usage(`--set ${s.volume}=…@${s.disk}: the node has no disk '${s.disk}' (its disks: ${disks.map((d) => d.name).join(', ')})`);
    } else {
      const holding = disks.flatMap((d, i) => (d.volumes.some((v) => v.name === s.volume && v.size > 0) ? [i] : []));
      if (holding.length !== 1) throw usage(`--set ${s.volume}=…: ${holding.length ? `'${s.volume}' is on ${holding.length} disks` : `'${s.volume}' is on no disk yet`}; say which with @DISK (e.g. ${s.volume}=${formatMiB(s.size).replace(' ', '')}@${disks.find((d) => !d.in_use)?.name ?? disks[0]?.name ?? 'sdb'})`);
      index = holding[0];
    }
    const volumes = out[index].volumes;
    const known = volumes.find((v) => v.name === s.volume);
    if (known) known.size = s.size;
    else volumes.push({ name: s.volume, size: s.size });
  }
  return out;
}

function describeDisks(disks: Disk[], findings: Finding[], saved?: { saved: boolean; saved_at: string | null }): string {
  const rows = disks.map((d) => [
    d.name,
    formatMiB(d.disk_size ?? d.size),
    d.in_use ? `in use${d.holds_root ? ' (/)' : ''}` : d.exclude ? 'excluded' : 'free',
    d.volumes.filter((v) => v.size > 0).map((v) => `${v.name} ${formatMiB(v.size)}`).join(', ') || '-',
    d.id,
  ]);
  const lines = [table(['disk', 'size', 'state', 'volumes', 'id'], rows).trimEnd()];
  if (saved) lines.push(saved.saved ? `layout saved ${saved.saved_at} (hearth node disks <node> --defaults goes back to the defaults)` : 'default layout (follows the roles)');
  for (const f of findings) lines.push(`${f.severity}: ${f.message}${f.hint ? `\n  hint: ${f.hint}` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** Sizes in MiB, as the API gives them (the table shows them for people). */
const DISK_COLUMNS: ReadonlyArray<Column<Disk>> = [
  { header: 'disk', value: (d) => d.name },
  { header: 'size', value: (d) => d.disk_size ?? d.size },
  { header: 'state', value: (d) => (d.in_use ? 'in use' : d.exclude ? 'excluded' : 'free') },
  { header: 'volumes', value: (d) => d.volumes.filter((v) => v.size > 0).map((v) => `${v.name}=${v.size}`) },
  { header: 'id', value: (d) => d.id },
];

export const nodeDisks = (ref: string, o: ServerOptions & OutputOptions & { set: string[]; defaults?: boolean }) =>
  run(o, async (c) => {
    chosenFormat(o); // a bad -f is refused before the server is asked
    if (o.defaults && o.set.length) throw usage('--defaults goes back to the default layout; --set changes sizes: use one of them');
    const settings = o.set.map(parseSetting);
    const id = await nodeId(c, ref);
    const params = { params: { id } };
    if (o.defaults) await c.call('delete', '/nodes/{id}/disks', params);
    if (settings.length) {
      const body = applySettings(await c.call('get', '/nodes/{id}/disks', params), settings);
      const res = await c.call('put', '/nodes/{id}/disks', { ...params, body });
      process.stdout.write(await listOrPage(o, DISK_COLUMNS, res.disks, res, () => describeDisks(res.disks, res.findings, { saved: true, saved_at: new Date().toISOString() })));
      return;
    }
    const [disks, check] = await Promise.all([c.call('get', '/nodes/{id}/disks', params), c.call('get', '/nodes/{id}/disks/check', params)]);
    process.stdout.write(await listOrPage(o, DISK_COLUMNS, disks, disks, () => describeDisks(disks, check.findings, check)));
  });
