/**
 * Real nodes as the API shows them (`GET /nodes/{id}`, `POST /nodes` with `address`): how Hearth
 * reaches the host, its host key, its facts, and the last SSH error. A simulated node has only
 * `simulated: true`.
 */
import type { Node } from '../types.js';

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

/** The last time Hearth could not reach the node; `host_key` is the fingerprint presented when the key changed. */
export interface ReachError {
  code: string;
  message: string;
  host_key?: string;
  at?: string;
}

export interface NodeView extends Node {
  simulated?: boolean;
  address?: string;
  ssh_user?: string;
  ssh_port?: number;
  host_key_fingerprint?: string | null;
  facts?: NodeFacts | null;
  facts_at?: string | null;
  reach_error?: ReachError | null;
}

/** What each status means to the operator, said where the status is shown. */
export const NODE_STATUS: Record<string, string> = {
  discovered: 'registered; not deployed yet',
  ready: 'reachable; the last run ended before deploying it',
  deploying: 'a deployment is running on it',
  deployed: 'its roles are deployed',
  error: 'a task failed on it in the last deployment',
  offline: 'Hearth cannot reach it over SSH',
};

export const isReal = (n: NodeView) => n.simulated === false;

export const hostKeyChanged = (n: NodeView) => n.reach_error?.code === 'ssh/host-key-changed';

/** Bytes in the unit people buy disks and memory in (binary units, one decimal). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return 'unknown';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 || value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export const formatSpeed = (mbps: number | null) => (mbps === null ? 'not readable' : mbps >= 1000 ? `${mbps / 1000} Gb/s` : `${mbps} Mb/s`);

/** `root@10.0.0.5` (and the port when it is not 22), as one would type it after `ssh`. */
export const sshTarget = (n: NodeView) => `${n.ssh_user ?? 'root'}@${n.address ?? '?'}${n.ssh_port && n.ssh_port !== 22 ? ` -p ${n.ssh_port}` : ''}`;
