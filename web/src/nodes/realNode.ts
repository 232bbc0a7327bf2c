/**
 * Real nodes as the API shows them (`GET /nodes/{id}`, `POST /nodes` with `address`): how Hearth
 * reaches the host, its host key, its facts, and the last SSH error. A simulated node has only
 * `simulated: true`.
 */
import type { Schemas } from '../../../src/api/client.js';
import { NODE_MEANING } from '../../../src/core/lifecycle/states.js';

export type NodeFacts = Schemas['NodeFacts'];
export type DiskFact = NodeFacts['disks'][number];
export type InterfaceFact = NodeFacts['interfaces'][number];
/** The last time Hearth could not reach the node; `host_key` is the fingerprint presented when the key changed. */
export type ReachError = NonNullable<Schemas['Node']['reach_error']>;
/** A node with how it is reached (the API's Node: real nodes carry address, host key, facts). */
export type NodeView = Schemas['Node'];

/** What each status means to the operator: the lifecycle model's meanings (src/core/lifecycle/states.ts). */
export const NODE_STATUS: Record<string, string> = Object.fromEntries(Object.entries(NODE_MEANING).map(([state, m]) => [state, m.meaning]));

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
