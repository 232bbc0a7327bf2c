/**
 * IPv4 arithmetic on plain numbers: addresses are parsed once at the edge of a computation and
 * compared as unsigned 32-bit integers, so planning a thousand nodes is integer work, not strings.
 */

/** `10.0.0.1` → 167772161, or null when not a dotted-quad IPv4 address. */
export function parseIp(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

export function formatIp(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

export interface Cidr {
  /** The network address (host bits zero). */
  first: number;
  /** The broadcast address. */
  last: number;
  prefix: number;
  /** True when the text had host bits set (`10.0.0.5/24`): Nailgun refused those. */
  hostBits: boolean;
}

/** `192.168.0.0/24` → its first and last address, or null when not an IPv4 CIDR. */
export function parseCidr(text: unknown): Cidr | null {
  if (typeof text !== 'string') return null;
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const base = parseIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (base === null || !/^\d{1,2}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > 32) return null;
  const size = 2 ** (32 - prefix);
  const first = base - (base % size);
  return { first, last: first + size - 1, prefix, hostBits: first !== base };
}

/** The usable host addresses of a CIDR (network and broadcast excluded below /31). */
export function hostRange(cidr: Cidr): [number, number] {
  return cidr.prefix >= 31 ? [cidr.first, cidr.last] : [cidr.first + 1, cidr.last - 1];
}

export const overlaps = (a: readonly [number, number], b: readonly [number, number]): boolean => a[0] <= b[1] && b[0] <= a[1];
export const within = (inner: readonly [number, number], outer: readonly [number, number]): boolean => inner[0] >= outer[0] && inner[1] <= outer[1];
