/**
 * Node facts: what a host is, read over one SSH command. The script prints sections (`==name`)
 * from standard tools (hostname, /etc/os-release, nproc, /proc/meminfo, `lsblk -J -b`,
 * `ip -j addr`, /sys/class/net/<if>/speed); `parseFacts` turns them into plain data, keeping what
 * it cannot read as absent rather than guessing.
 */
import { storableText, storableValue } from '../core/text/unstorable.js';
import type { DeployTarget, Transport } from './transport.js';

export interface DiskFact {
  name: string;
  size_bytes: number;
  type: string;
  model: string | null;
  rotational: boolean | null;
}

export interface InterfaceFact {
  name: string;
  mac: string | null;
  state: string;
  addresses: string[];
  speed_mbps: number | null;
}

export interface NodeFacts {
  hostname: string;
  os: { id: string | null; version_id: string | null; pretty_name: string | null };
  cpus: number | null;
  memory_bytes: number | null;
  disks: DiskFact[];
  interfaces: InterfaceFact[];
}

export const FACTS_SCRIPT = [
  'echo ==hostname; hostname',
  'echo ==os; cat /etc/os-release 2>/dev/null',
  'echo ==cpus; nproc 2>/dev/null',
  'echo ==memory; grep MemTotal /proc/meminfo 2>/dev/null',
  'echo ==disks; lsblk -J -b -o NAME,SIZE,TYPE,MODEL,ROTA 2>/dev/null',
  'echo ==interfaces; ip -j addr 2>/dev/null',
  'echo ==speed; for f in /sys/class/net/*/speed; do n=${f%/speed}; echo "${n##*/} $(cat "$f" 2>/dev/null)"; done',
].join('; ');

function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let name = '';
  for (const line of text.split('\n')) {
    const m = /^==([a-z]+)$/.exec(line);
    if (m) {
      name = m[1];
      out.set(name, '');
    } else if (name) out.set(name, `${out.get(name)}${line}\n`);
  }
  return out;
}

function parseJson(text: string | undefined): unknown {
  try {
    return text && text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const osField = (release: string, key: string): string | null => {
  const m = new RegExp(`^${key}=(.*)$`, 'm').exec(release);
  return m ? m[1].trim().replace(/^"(.*)"$/, '$1') : null;
};

interface LsblkDevice {
  name?: string;
  size?: number | string;
  type?: string;
  model?: string | null;
  rota?: boolean | string | number;
  children?: LsblkDevice[];
}

/**
 * A node's answer as plain data. What the node says is the node's, not a request's: a NUL byte or
 * a lone UTF-16 surrogate in it (a hostname, a disk model, a `\ud800` escape in lsblk's JSON),
 * which PostgreSQL cannot store, becomes U+FFFD rather than a failed write answered 500.
 */
export function parseFacts(text: string): NodeFacts {
  return storableValue(readFacts(text));
}

function readFacts(text: string): NodeFacts {
  const s = sections(text);
  const release = s.get('os') ?? '';
  const mem = /MemTotal:\s+(\d+)\s*kB/.exec(s.get('memory') ?? '');
  const cpus = Number.parseInt((s.get('cpus') ?? '').trim(), 10);
  const disks: DiskFact[] = [];
  const blk = parseJson(s.get('disks')) as { blockdevices?: LsblkDevice[] } | undefined;
  for (const d of blk?.blockdevices ?? []) {
    // Disks as the operator places volumes on them: whole devices, not partitions or zram.
    if (d.type !== 'disk' || !d.name || d.name.startsWith('zram')) continue;
    disks.push({
      name: d.name,
      size_bytes: Number(d.size ?? 0),
      type: d.type,
      model: typeof d.model === 'string' ? d.model.trim() || null : null,
      rotational: d.rota === undefined ? null : d.rota === true || d.rota === '1' || d.rota === 1,
    });
  }
  const speeds = new Map<string, number>();
  for (const line of (s.get('speed') ?? '').split('\n')) {
    const m = /^(\S+) (-?\d+)$/.exec(line.trim());
    if (m && Number(m[2]) > 0) speeds.set(m[1], Number(m[2]));
  }
  const links = (parseJson(s.get('interfaces')) as Array<{ ifname?: string; address?: string; operstate?: string; link_type?: string; addr_info?: Array<{ local?: string; prefixlen?: number }> }> | undefined) ?? [];
  const interfaces: InterfaceFact[] = links
    .filter((l) => l.ifname && l.link_type !== 'loopback')
    .map((l) => ({
      name: l.ifname!,
      mac: l.address ?? null,
      state: (l.operstate ?? 'UNKNOWN').toLowerCase(),
      addresses: (l.addr_info ?? []).filter((a) => a.local).map((a) => `${a.local}/${a.prefixlen}`),
      speed_mbps: speeds.get(l.ifname!) ?? null,
    }));
  return {
    hostname: (s.get('hostname') ?? '').trim(),
    os: { id: osField(release, 'ID'), version_id: osField(release, 'VERSION_ID'), pretty_name: osField(release, 'PRETTY_NAME') },
    cpus: Number.isFinite(cpus) ? cpus : null,
    memory_bytes: mem ? Number(mem[1]) * 1024 : null,
    disks,
    interfaces,
  };
}

export type FactsResult = { ok: true; facts: NodeFacts } | { ok: false; code: string; message: string };

/** Connect and gather; a node that cannot be reached answers with the SSH error in words. */
export async function gatherFacts(transport: Transport, target: DeployTarget): Promise<FactsResult> {
  const r = await transport.exec(target, FACTS_SCRIPT, { timeoutMs: 60_000 });
  if (r.transportError) return { ok: false, code: r.transportError.code, message: storableText(r.transportError.message) };
  // The message is kept as the node's last error: what the node printed must be storable too.
  if (r.exitCode !== 0) return { ok: false, code: 'node/facts-failed', message: storableText(`gathering facts failed with exit status ${r.exitCode ?? 'none'}: ${r.output.trim().slice(-500)}`) };
  return { ok: true, facts: parseFacts(r.output) };
}
