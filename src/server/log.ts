/**
 * The server's log: Fastify's own logger (pino), JSON lines with a request id on each, or the same
 * records as readable lines on a terminal. Tokens never reach it: the Authorization header is not
 * logged, and values of token-like query parameters are masked in the URLs that are.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { isTokenQueryName } from './access.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

export interface LogOptions {
  level: LogLevel;
  format: LogFormat;
  /** Where lines go (default stdout). */
  destination?: NodeJS.WritableStream;
}

/**
 * The URL with the value of each query parameter whose name is token-like, however it is spelled
 * (access.ts decides, on the name as sent: `%74oken`, `access%5Ftoken`, `token[]`), replaced by
 * `[redacted]`. A value runs to the next `&`: the server reads a `#` in a request line as part of it.
 */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  let masked = false;
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    if (eq >= 0 && isTokenQueryName(parts[i].slice(0, eq))) {
      parts[i] = `${parts[i].slice(0, eq)}=[redacted]`;
      masked = true;
    }
  }
  return masked ? `${url.slice(0, q + 1)}${parts.join('&')}` : url;
}

/** A client's own request id is kept when it is short and plain, so logs can be joined across services. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The request's id: the client's `x-request-id`, or OpenStack's `X-OpenStack-Request-ID`
 * (`req-<uuid>`, which openstackclient and Nova send), else a new one.
 */
export function requestId(req: IncomingMessage): string {
  for (const header of ['x-request-id', 'x-openstack-request-id']) {
    const given = req.headers[header];
    if (typeof given === 'string' && CLIENT_ID.test(given)) return given;
  }
  return randomBytes(6).toString('hex');
}

/** Every answer names its request under both names, so Hearth's and OpenStack's tools each find it. */
export const requestIdHeaders = (id: string): Record<string, string> => ({ 'x-request-id': id, 'x-openstack-request-id': id });

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One pino record as a line a person reads: time, level, request id, message, and what matters. */
export function prettyLine(record: Record<string, any>): string {
  const time = new Date(record.time ?? Date.now()).toISOString().slice(11, 23);
  const level = (LEVEL_NAMES[record.level as number] ?? String(record.level)).padEnd(5);
  const req = record.req as { method?: string; url?: string } | undefined;
  const res = record.res as { statusCode?: number } | undefined;
  const parts = [time, level, record.reqId ? `[${record.reqId}]` : '', record.msg ?? ''];
  if (req?.method) parts.push(`${req.method} ${req.url}`);
  if (res?.statusCode) parts.push(`→ ${res.statusCode}`);
  if (typeof record.responseTime === 'number') parts.push(`${record.responseTime.toFixed(1)} ms`);
  let line = parts.filter(Boolean).join(' ');
  if (record.err?.stack) line += `\n${String(record.err.stack).replace(/^/gm, '    ')}`;
  return `${line}\n`;
}

/** A stream that turns pino's JSON lines into readable ones. */
function prettyStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      pending += chunk.toString('utf8');
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const text = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        try {
          out.write(prettyLine(JSON.parse(text)));
        } catch {
          out.write(`${text}\n`);
        }
      }
      done();
    },
  });
}

/** Fastify's logger options for these settings. */
export function loggerOptions(options: LogOptions): NonNullable<FastifyServerOptions['loggerInstance'] | FastifyServerOptions['logger']> {
  const out = options.destination ?? process.stdout;
  return {
    level: options.level,
    stream: options.format === 'pretty' ? prettyStream(out) : out,
    // Every header that carries a credential (issue 29: OpenStack's X-Auth-Token, the session cookie, its CSRF token).
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-auth-token"]', 'req.headers["x-csrf-token"]', 'headers.authorization', 'headers.cookie', 'headers["x-auth-token"]', 'headers["x-csrf-token"]', 'headers["set-cookie"]'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({ method: req.method, url: maskUrl(req.url), remoteAddress: req.ip }),
    },
  } as never;
}
