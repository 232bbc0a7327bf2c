/**
 * Node facts: what a host is, read over one SSH command. The script prints sections (`==name`)
 * from standard tools (hostname, /etc/os-release, nproc, /proc/meminfo, `lsblk -J -b`,
 * `ip -j addr`, /sys/class/net/<if>/speed); `parseFacts` turns them into plain data, keeping what
 * it cannot read as absent rather than guessing.
 *
 * Disks (issue 26): Hearth reaches running machines and never reinstalls them, so each disk says
 * whether it is `in_use` and why. lsblk gives the tree (partitions, mounts, `/`, swap, partition
 * tables) but reads filesystem signatures only from udev's database, which a node may not have;
 * `wipefs` (no `-a`: it only lists) reads them from the disk itself, so an unmounted ext4, an LVM
 * physical volume or a RAID member on a whole disk is seen too. A disk whose signatures cannot be
 * read counts as in use: never touch what we cannot see.
 */
import { storableText, storableValue } from '../core/text/unstorable.js';
import type { DeployTarget, Transport } from './transport.js';

export interface DiskFact {
  name: string;
  size_bytes: number;
  type: string;
  model: string | null;
  rotational: boolean | null;
  /**
   * Stable across fact runs, as Fuel's disk id: the node's `disk/by-path/…` link, else its
   * `disk/by-id/…` link, else the device name (`loop3`, `vdb` on a node without udev).
   */
  id?: string;
  /** Whole disk in MB (MiB, Fuel's unit). */
  size?: number;
  /** Holds anything (see in_use_reasons): Hearth leaves it as it is. */
  in_use?: boolean;
  /** Why it is in use, in words: `/`, `mounted /srv`, `swap`, `partition table gpt`, `signature ext4`, … */
  in_use_reasons?: string[];
  /** Holds `/` (itself or a partition, RAID or LVM volume on it). */
  holds_root?: boolean;
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
  // MOUNTPOINTS (every mount of a device) is util-linux 2.37's; older lsblk knows MOUNTPOINT only.
  'echo ==disks; lsblk -J -b -o NAME,SIZE,TYPE,MODEL,ROTA,MOUNTPOINTS,FSTYPE,PTTYPE 2>/dev/null || lsblk -J -b -o NAME,SIZE,TYPE,MODEL,ROTA,MOUNTPOINT,FSTYPE,PTTYPE 2>/dev/null',
  // "<disk>|<signature types, or ? when unreadable>|<holders>" for each whole disk.
  'echo ==signatures; for d in $(lsblk -dn -o NAME 2>/dev/null); do s=$(wipefs -i -O TYPE "/dev/$d" 2>/dev/null) || s="?"; echo "$d|$(echo $s)|$(echo $(ls "/sys/block/$d/holders" 2>/dev/null))"; done',
  'echo ==swaps; cat /proc/swaps 2>/dev/null',
  'echo ==ids; for l in /dev/disk/by-path/* /dev/disk/by-id/*; do [ -L "$l" ] && echo "${l#/dev/} $(readlink -f "$l")"; done 2>/dev/null; true',
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
  mountpoint?: string | null;
  mountpoints?: Array<string | null>;
  fstype?: string | null;
  pttype?: string | null;
  children?: LsblkDevice[];
}

/** Whole disks Hearth may place volumes on: disks and loop devices (test hosts' disks), not zram. */
const isDisk = (d: LsblkDevice): boolean => (d.type === 'disk' || d.type === 'loop') && !!d.name && !d.name.startsWith('zram') && Number(d.size ?? 0) > 0;

const mountsOf = (d: LsblkDevice): string[] => [...(d.mountpoints ?? []), d.mountpoint].filter((m): m is string => typeof m === 'string' && m !== '');

/**
 * Why a disk is in use, from its lsblk tree, its wipefs signatures, its holders and /proc/swaps;
 * empty when it is free. Partition tables are named once (lsblk's PTTYPE and wipefs's gpt/PMBR/dos).
 */
function inUseReasons(d: LsblkDevice, signatures: string[] | undefined, holders: string[], swaps: Set<string>): string[] {
  const reasons = new Set<string>();
  const walk = (dev: LsblkDevice): void => {
    for (const m of mountsOf(dev)) reasons.add(m === '/' ? '/' : m === '[SWAP]' ? 'swap' : `mounted ${m}`);
    if (dev.name && swaps.has(dev.name)) reasons.add('swap');
    if (dev.fstype) reasons.add(`signature ${dev.fstype}`);
    for (const c of dev.children ?? []) {
      if (c.type === 'part') reasons.add('partitions');
      walk(c);
    }
  };
  walk(d);
  if (d.pttype) reasons.add(`partition table ${d.pttype}`);
  if (signatures === undefined) reasons.add('signatures unreadable');
  for (const t of signatures ?? []) reasons.add(['gpt', 'PMBR', 'dos'].includes(t) ? `partition table ${t === 'PMBR' ? 'gpt' : t}` : `signature ${t}`);
  if (holders.length) reasons.add(`held by ${holders.join(', ')}`);
  return [...reasons];
}

const holdsRoot = (d: LsblkDevice): boolean => mountsOf(d).includes('/') || (d.children ?? []).some(holdsRoot);

/** Fuel's disk id: by-path first, then by-id (each sorted, the first link to this disk), else the name. */
function diskId(name: string, links: Array<[string, string]>): string {
  for (const kind of ['disk/by-path/', 'disk/by-id/']) {
    const found = links.filter(([l, target]) => l.startsWith(kind) && target === `/dev/${name}`).map(([l]) => l).sort()[0];
    if (found) return found;
  }
  return name;
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
  const signatures = new Map<string, { types: string[] | undefined; holders: string[] }>();
  for (const line of (s.get('signatures') ?? '').split('\n')) {
    const [name, types, holders] = line.trim().split('|');
    if (!name || types === undefined) continue;
    signatures.set(name, { types: types === '?' ? undefined : types.split(/\s+/).filter(Boolean), holders: (holders ?? '').split(/\s+/).filter(Boolean) });
  }
  const swaps = new Set((s.get('swaps') ?? '').split('\n').slice(1).map((l) => l.split(/\s+/)[0].replace(/^\/dev\//, '')).filter(Boolean));
  const diskLinks = (s.get('ids') ?? '').split('\n').map((l) => l.trim().split(' ')).filter((p): p is [string, string] => p.length === 2);
  for (const d of blk?.blockdevices ?? []) {
    // Disks as the operator places volumes on them: whole devices, not partitions or zram.
    if (!isDisk(d)) continue;
    const name = d.name!;
    const sizeBytes = Number(d.size ?? 0);
    // A fact without the signatures section (an older answer) cannot say the disk is free.
    const sig = s.has('signatures') ? signatures.get(name) ?? { types: undefined, holders: [] } : { types: undefined, holders: [] };
    const reasons = inUseReasons(d, sig.types, sig.holders, swaps);
    disks.push({
      name,
      size_bytes: sizeBytes,
      type: d.type!,
      model: typeof d.model === 'string' ? d.model.trim() || null : null,
      rotational: d.rota === undefined ? null : d.rota === true || d.rota === '1' || d.rota === 1,
      id: diskId(name, diskLinks),
      size: Math.floor(sizeBytes / 1024 ** 2),
      in_use: reasons.length > 0,
      in_use_reasons: reasons,
      holds_root: holdsRoot(d),
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
