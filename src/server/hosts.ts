/**
 * Which names a request may call this server by (its `Host` header). A page on any web site can
 * make a browser on the server's machine send requests to a name the attacker controls and then
 * point that name at 127.0.0.1 (DNS rebinding): the browser treats the answers as the page's own,
 * so the page reads a loopback server's open API. It cannot choose the `Host` header, which stays
 * the attacker's name, so a server bound to loopback answers only the names that mean itself.
 *
 * - Bound to loopback: `localhost`, `127.0.0.1`, `[::1]`, the bound address, the public URL's host
 *   (HEARTH_PUBLIC_URL) and the names given with `--allowed-hosts` (HEARTH_ALLOWED_HOSTS), any port.
 * - Bound to every address (0.0.0.0, ::) or a real one: other machines call it by names Hearth
 *   cannot know, so any name is answered, unless `--allowed-hosts` is given; then only those and the
 *   names above. `--allowed-hosts '*'` answers any name wherever the server is bound.
 *
 * The probes (/healthz, /readyz) answer whatever the name: they tell nothing, and load balancers
 * and health checks call them by names of their own.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const PROBES = new Set(['/healthz', '/readyz']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A host as compared: lower case, no port, no trailing dot, an IPv6 address in brackets. */
export function hostName(value: string): string {
  let v = value.trim().toLowerCase();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    return end > 0 ? v.slice(0, end + 1) : v;
  }
  // A bare IPv6 address (more than one colon) has no port to drop.
  if ((v.match(/:/g) ?? []).length > 1) return `[${v}]`;
  const colon = v.indexOf(':');
  if (colon >= 0) v = v.slice(0, colon);
  return v.replace(/\.$/, '');
}

export const isLoopback = (address: string): boolean => /^127\.\d+\.\d+\.\d+$/.test(address) || address === '::1' || /^::ffff:127\./i.test(address) || address === 'localhost';

/** `a,b , c` (the flag's or the variable's value) as the names it gives; empty entries dropped. */
export const parseAllowedHosts = (value: string): string[] =>
  value
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);

export interface HostRule {
  /** The address the server is bound to (`server.address().address`). */
  bound: string;
  /** `--allowed-hosts`, when given. */
  allowed?: readonly string[];
  /** Where nodes and clients reach the server (HEARTH_PUBLIC_URL, or the URL it listens at). */
  publicUrl?: string;
}

/** The names a rule answers to, made once per rule (a request's check is then one lookup). */
const namesOf = new WeakMap<HostRule, Set<string>>();
function allowedNames(rule: HostRule): Set<string> {
  let names = namesOf.get(rule);
  if (names) return names;
  names = new Set([...LOOPBACK_NAMES, hostName(rule.bound), ...(rule.allowed ?? []).map(hostName)]);
  if (rule.publicUrl) {
    try {
      names.add(hostName(new URL(rule.publicUrl).host));
    } catch {
      // Not a URL: it names no host to allow.
    }
  }
  namesOf.set(rule, names);
  return names;
}

/** Whether a request with this `Host` header is answered (undefined: no header, no browser sent it). */
export function hostAllowed(host: string | undefined, rule: HostRule): boolean {
  if (host === undefined || rule.allowed?.includes('*')) return true;
  if (rule.allowed === undefined && !isLoopback(rule.bound)) return true;
  return allowedNames(rule).has(hostName(host));
}

/** Refuse requests for a name the server does not go by (403 `request/unknown-host`), before anything else runs. */
export function guardHosts(app: FastifyInstance, options: { allowed?: readonly string[]; publicUrl: () => string | undefined }): void {
  // The rule is made again only when the bound address or the public URL changes (start-up).
  let rule: HostRule | undefined;
  // The bound address, read once per listen: server.address() asks the kernel (getsockname) each time.
  let address: ReturnType<typeof app.server.address> | undefined;
  const forget = () => void (address = undefined);
  app.server.on('listening', forget).on('close', forget);
  // Each Host header seen, judged once per rule: clients send the same one or two names again and
  // again, and judging one (lower case, port, brackets) costs several strings per request.
  let judged = new Map<string, boolean>();
  // A callback hook, not an async one: it runs on every request, and a promise each costs throughput.
  app.addHook('onRequest', (request, _reply, done) => {
    address ??= app.server.listening ? app.server.address() : null;
    // Not listening on a socket (`inject` in tests, a Unix socket): no browser can reach it by name.
    if (address === null || typeof address === 'string') return done();
    const host = request.headers.host;
    const publicUrl = options.publicUrl();
    if (!rule || rule.bound !== address.address || rule.publicUrl !== publicUrl) {
      rule = { bound: address.address, ...(options.allowed ? { allowed: options.allowed } : {}), ...(publicUrl ? { publicUrl } : {}) };
      judged = new Map();
    }
    let allowed = host === undefined || judged.get(host);
    if (allowed === undefined) {
      allowed = hostAllowed(host, rule);
      // Bounded: a client inventing names cannot grow it.
      if (judged.size >= 64) judged.clear();
      judged.set(host!, allowed);
    }
    if (allowed || PROBES.has(request.url.split('?')[0])) return done();
    const shown = String(host).slice(0, 100);
    done(
      new HttpError(403, 'request/unknown-host', `this server does not answer to the name '${shown}'`, {
        host: shown,
        hint: `call it as localhost or 127.0.0.1, or start it with --allowed-hosts ${hostName(shown) || '<name>'} (or HEARTH_ALLOWED_HOSTS) to answer that name; a server bound to loopback refuses other names so that a web page cannot reach it through DNS rebinding`,
      }),
    );
  });
}
