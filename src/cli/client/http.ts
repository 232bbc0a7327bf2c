/**
 * The CLI's HTTP client for a Hearth server: `--server` / HEARTH_SERVER, `--token` / HEARTH_TOKEN.
 * A refusal from the server is printed with its code, message and findings, and sets exit status 1.
 */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ApiPathError, apiUrl, typedCaller, type AnswerOf } from '../../api/client.js';
import { escapeControls } from '../../core/text/controls.js';
import { OutputError } from '../output.js';

export interface ServerOptions {
  server?: string;
  token?: string;
  json?: boolean;
}

export class ClientError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly body?: { code?: string; message?: string; details?: any },
  ) {
    super(message);
  }
}

export interface Client {
  base: string;
  /** A request typed by the OpenAPI document: `c.call('get', '/clusters/{id}', { params: { id } })`. */
  call: ReturnType<typeof typedCaller>;
  /** Installs a plugin package: the body is the package's bytes, not JSON. */
  upload(bytes: Buffer, onSent?: (sent: number) => void): Promise<AnswerOf<'/plugins', 'post'>>;
  /** An answer that is text, not JSON (a graph as dot or mermaid). */
  text(path: string, query: Record<string, string>, params: Record<string, unknown>): Promise<string>;
  /**
   * A Server-Sent Events stream (a deployment's live events), each event as it arrives, until the
   * server ends it or `signal` aborts. A refusal (404) throws like any other answer.
   */
  events(path: string, params: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<ServerEvent>;
}

/** One Server-Sent Event: its name and its data, parsed as JSON. */
export interface ServerEvent {
  event: string;
  data: unknown;
}

export function client(options: ServerOptions): Client {
  const server = options.server ?? process.env.HEARTH_SERVER ?? 'http://127.0.0.1:8420';
  let base: string;
  try {
    base = new URL(server).toString().replace(/\/$/, '');
  } catch {
    throw new ClientError(`--server '${server}' is not a URL (e.g. http://127.0.0.1:8420)`, EXIT_USAGE);
  }
  const token = options.token ?? process.env.HEARTH_TOKEN;
  const request = async (method: string, path: string, body?: unknown, extra: { raw?: Buffer; onSent?: (sent: number) => void; accept?: string } = {}): Promise<unknown> => {
    // Every id is encoded into its segment; a "." or ".." segment left would be resolved by fetch
    // to another resource (DELETE /plugins/x@0/../../clusters/2 is DELETE /clusters/2).
    if (hasDotSegment(path)) throw new ClientError(`refusing to send ${method} ${path}: a path segment is "." or ".."`, EXIT_FINDINGS);
    const headers: Record<string, string> = { accept: extra.accept ?? 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | ReadableStream<Uint8Array> | undefined;
    if (extra.raw) {
      headers['content-type'] = 'application/octet-stream';
      payload = extra.onSent ? countedBody(extra.raw, extra.onSent) : extra.raw;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let res: Response;
    try {
      // A stream body is sent as it is read (`duplex: 'half'`, as fetch requires of one).
      res = await fetch(`${base}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}), ...(payload instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
    } catch (err) {
      throw new ClientError(`cannot reach the Hearth server at ${base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, EXIT_FINDINGS);
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && text ? JSON.parse(text) : text;
    if (!res.ok) {
      const b = typeof parsed === 'object' && parsed ? parsed : { message: String(parsed) };
      const hint = res.status === 401 ? ' (set HEARTH_TOKEN or --token to the admin token hearth serve printed)' : '';
      throw new ClientError(`${b.code ?? `http ${res.status}`}: ${b.message ?? res.statusText}${hint}`, EXIT_FINDINGS, b);
    }
    return parsed;
  };
  async function* events(path: string, params: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<ServerEvent> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    const url = `${base}${apiUrl(path, params)}`;
    let res: Response;
    try {
      res = await fetch(url, { headers, ...(signal ? { signal } : {}) });
    } catch (err) {
      if (signal?.aborted) return;
      throw new ClientError(`cannot reach the Hearth server at ${base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, EXIT_FINDINGS);
    }
    if (!res.ok || !res.body) {
      const text = await res.text();
      let b: { code?: string; message?: string } = { message: text };
      try {
        b = JSON.parse(text);
      } catch {
        // not JSON: the text is the message
      }
      throw new ClientError(`${b.code ?? `http ${res.status}`}: ${b.message ?? res.statusText}`, EXIT_FINDINGS, b);
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const bytes of res.body) {
        buffer += decoder.decode(bytes as Uint8Array, { stream: true });
        // Events end with a blank line; a partial one waits for the next chunk.
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (!data.length) continue;
          let parsed: unknown = data.join('\n');
          try {
            parsed = JSON.parse(parsed as string);
          } catch {
            // kept as text
          }
          yield { event, data: parsed };
        }
      }
    } catch (err) {
      // A stream the server dropped ends here; the caller decides whether to attach again.
      if (signal?.aborted) return;
      if ((err as Error).name !== 'TypeError' && (err as Error).name !== 'AbortError') throw err;
    }
  }
  return {
    base,
    events,
    call: typedCaller((method, path, body) => request(method, path, body)),
    upload: async (bytes, onSent) => (await request('POST', apiUrl('/plugins'), undefined, { raw: bytes, ...(onSent ? { onSent } : {}) })) as AnswerOf<'/plugins', 'post'>,
    text: async (path, query, params) => String(await request('GET', apiUrl(path, params, query), undefined, { accept: 'text/plain, text/vnd.graphviz, */*' })),
  };
}

/** The bytes as a stream of 256 KiB pieces, telling how many were handed to the connection so far. */
function countedBody(bytes: Buffer, onSent: (sent: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.length) return controller.close();
      const piece = bytes.subarray(sent, sent + 256 * 1024);
      sent += piece.length;
      controller.enqueue(piece);
      onSent(sent);
    },
  });
}

/** Run a client command: print refusals (with the server's findings) and set the exit status. */
export async function run(options: ServerOptions, work: (c: Client) => Promise<void>): Promise<void> {
  try {
    await work(client(options));
  } catch (caught) {
    // A value that cannot be a path segment ("." or ".."): refused before anything is sent.
    const err = caught instanceof ApiPathError ? new ClientError(caught.message, EXIT_FINDINGS) : caught instanceof OutputError ? new ClientError(caught.message, EXIT_USAGE) : caught;
    if (!(err instanceof ClientError)) throw err;
    if (options.json && err.body) process.stdout.write(`${JSON.stringify(err.body, null, 2)}\n`);
    // The server's words may quote a plugin's (a title, a file's text): each control character escaped.
    process.stderr.write(escapeControls(`hearth: ${err.message}\n`));
    for (const f of err.body?.details?.findings ?? []) {
      process.stderr.write(escapeControls(`  ${f.severity ?? 'error'} ${f.code}: ${f.message}${f.hint ? `\n    hint: ${f.hint}` : ''}\n`));
    }
    // What does not fit a release upgrade (PUT /clusters/{id}): one line each.
    for (const u of err.body?.details?.unfit ?? []) {
      process.stderr.write(escapeControls(`  ${String(u.kind).replace('_', ' ')} ${u.name}: ${u.reason}${u.nodes?.length ? ` (nodes: ${u.nodes.map((n: { name: string }) => n.name).join(', ')})` : ''}\n`));
    }
    // Environments a synced release folder no longer fits (POST /plugins/{id}/sync): each, then what.
    for (const e of err.body?.details?.environments ?? []) {
      for (const u of e.unfit ?? []) process.stderr.write(escapeControls(`  ${e.name}: ${String(u.kind).replace('_', ' ')} ${u.name}: ${u.reason}${u.nodes?.length ? ` (nodes: ${u.nodes.map((n: { name: string }) => n.name).join(', ')})` : ''}\n`));
    }
    if (err.body?.details?.hint) process.stderr.write(escapeControls(`  hint: ${err.body.details.hint}\n`));
    process.exitCode = err.exitCode;
  }
}

/** Whether a path (before its query) has a `.` or `..` segment, plain or percent-encoded, which URL parsing would resolve away. */
export function hasDotSegment(path: string): boolean {
  return path
    .split('?')[0]!
    .split('/')
    .some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}
