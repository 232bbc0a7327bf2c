/**
 * `hearth user …` and `hearth token create | list | revoke` (issue 29): users and personal tokens
 * on a Hearth server (HEARTH_SERVER, HEARTH_TOKEN). A password is asked on the terminal without
 * echo, or read from stdin with --password-stdin (scripts); it never goes on the command line.
 */
import { escapeControls } from '../../core/text/controls.js';
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type ServerOptions } from './http.js';

const ROLES = ['viewer', 'operator', 'admin'] as const;
type Role = (typeof ROLES)[number];

function roleOf(value: string | undefined, flag = '--role'): Role {
  if (!ROLES.includes(value as Role)) throw new ClientError(`${flag} must be viewer, operator or admin${value === undefined ? '' : `, not '${value}'`}`, EXIT_USAGE);
  return value as Role;
}

/** `30d`, `12h`, `90m`, `3600s` or bare seconds, as seconds. */
export function durationSeconds(text: string): number {
  const m = /^(\d+)\s*([smhdw]?)$/.exec(text.trim());
  if (!m) throw new ClientError(`--expires '${text}' is not a duration (e.g. 30d, 12h, 90m)`, EXIT_USAGE);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[m[2] as '' | 's' | 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline is the end of the line `echo` or a file gave, not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Reads a line from the terminal without showing it. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let text = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new ClientError('cancelled', EXIT_USAGE));
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function password(o: { passwordStdin?: boolean }, confirm: boolean): Promise<string> {
  if (o.passwordStdin) return readStdin();
  if (!process.stdin.isTTY) throw new ClientError('no terminal to ask the password on: give it on stdin with --password-stdin', EXIT_USAGE);
  const first = await askHidden('Password: ');
  if (confirm && (await askHidden('Again: ')) !== first) throw new ClientError('the two passwords differ; nothing was changed', EXIT_USAGE);
  return first;
}

const print = (o: ServerOptions, value: unknown, text: string) => process.stdout.write(o.json ? `${JSON.stringify(value, null, 2)}\n` : escapeControls(text));

const table = (rows: string[][]): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
};

export const userList = (o: ServerOptions) =>
  run(o, async (c) => {
    const users = await c.call('get', '/users');
    print(o, users, users.length ? table([['NAME', 'ROLE', 'DISABLED', 'CREATED'], ...users.map((u) => [u.name, u.role, u.disabled ? 'yes' : 'no', u.created_at])]) : 'no users yet: hearth user create <name> --role admin\n');
  });

export const userCreate = (name: string, o: ServerOptions & { role?: string; passwordStdin?: boolean }) =>
  run(o, async (c) => {
    const role = roleOf(o.role);
    const user = await c.call('post', '/users', { body: { name, role, password: await password(o, true) } });
    print(o, user, `created ${user.role} '${user.name}'\n`);
  });

const patch = (name: string, o: ServerOptions, body: { role?: Role; disabled?: boolean; password?: string }, said: string) =>
  run(o, async (c) => {
    const user = await c.call('patch', '/users/{name}', { params: { name }, body });
    print(o, user, said);
  });

export const userSetRole = (name: string, role: string, o: ServerOptions) => patch(name, o, { role: roleOf(role, 'the role') }, `'${name}' is now ${role}\n`);
export const userDisable = (name: string, o: ServerOptions) => patch(name, o, { disabled: true }, `'${name}' is disabled: their sessions ended and their tokens are refused\n`);
export const userEnable = (name: string, o: ServerOptions) => patch(name, o, { disabled: false }, `'${name}' is enabled\n`);
export const userPasswd = async (name: string, o: ServerOptions & { passwordStdin?: boolean }) => {
  let secret: string;
  try {
    secret = await password(o, true);
  } catch (err) {
    return run(o, async () => Promise.reject(err));
  }
  return patch(name, o, { password: secret }, `the password of '${name}' is changed; their sessions ended\n`);
};

/** Your own password: the current one, then the new one (twice on a terminal; two lines on stdin). */
export const ownPasswd = async (o: ServerOptions & { passwordStdin?: boolean }) => {
  let current: string;
  let next: string;
  try {
    if (o.passwordStdin) {
      const lines = (await readStdin()).split(/\r?\n/);
      if (lines.length !== 2 || !lines[0] || !lines[1]) throw new ClientError('--password-stdin: give the current password on the first line and the new one on the second', EXIT_USAGE);
      [current, next] = lines as [string, string];
    } else {
      if (!process.stdin.isTTY) throw new ClientError('no terminal to ask the passwords on: give them on stdin with --password-stdin (current, then new, one a line)', EXIT_USAGE);
      current = await askHidden('Current password: ');
      next = await password({}, true);
    }
  } catch (err) {
    return run(o, async () => Promise.reject(err));
  }
  return run(o, async (c) => {
    await c.call('put', '/session/password', { body: { current_password: current, password: next } });
    print(o, { changed: true }, 'your password is changed; your other sessions ended\n');
  });
};

export const userDelete = (name: string, o: ServerOptions) =>
  run(o, async (c) => {
    await c.call('delete', '/users/{name}', { params: { name } });
    print(o, { deleted: name }, `deleted '${name}', with their tokens and sessions\n`);
  });

interface MadeToken {
  token: string;
  name: string;
  user: string;
  role: string;
  expires_at: string | null;
}

/**
 * A token made by signing in with a name and password (a person's first token, with nothing to
 * send as HEARTH_TOKEN yet): sign in, create it with the session and its CSRF token, sign out.
 */
async function tokenBySigningIn(o: ServerOptions & { signIn: string; passwordStdin?: boolean }, body: Record<string, unknown>) {
  const base = (o.server ?? process.env.HEARTH_SERVER ?? 'http://127.0.0.1:8420').replace(/\/$/, '');
  const secret = await password(o, false);
  const send = async (method: string, path: string, headers: Record<string, string>, payload?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${base}/api/v1${path}`, { method, headers: { accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, ...(payload === undefined ? {} : { body: JSON.stringify(payload) }) });
    } catch (err) {
      throw new ClientError(`cannot reach the Hearth server at ${base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, EXIT_FINDINGS);
    }
    const text = await res.text();
    const answer = text ? (JSON.parse(text) as Record<string, any>) : {};
    if (!res.ok) throw new ClientError(`${answer.code ?? `http ${res.status}`}: ${answer.message ?? res.statusText}`, EXIT_FINDINGS, answer);
    return { res, answer };
  };
  const signedIn = await send('POST', '/session', {}, { name: o.signIn, password: secret });
  const session = { cookie: (signedIn.res.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-csrf-token': String(signedIn.answer.csrf_token) };
  try {
    return (await send('POST', '/tokens', session, body)).answer as MadeToken;
  } finally {
    await send('DELETE', '/session', session).catch(() => undefined);
  }
}

export const tokenCreate = (name: string, o: ServerOptions & { role?: string; expires?: string; user?: string; signIn?: string; passwordStdin?: boolean }) =>
  run(o, async (c) => {
    const body = { name, ...(o.role !== undefined ? { role: roleOf(o.role) } : {}), ...(o.expires !== undefined ? { expires_in: durationSeconds(o.expires) } : {}), ...(o.user !== undefined ? { user: o.user } : {}) };
    const made = o.signIn !== undefined ? await tokenBySigningIn({ ...o, signIn: o.signIn }, body) : await c.call('post', '/tokens', { body });
    if (o.json) {
      print(o, made, '');
      return;
    }
    // The token alone on stdout (HEARTH_TOKEN=$(hearth token create ci)); what it is on stderr.
    process.stdout.write(`${made.token}\n`);
    process.stderr.write(escapeControls(`hearth: token '${made.name}' of ${made.user}, role ${made.role}, ${made.expires_at ? `expires ${made.expires_at}` : 'no expiry'}; it is shown this once\n`));
  });

export const tokenList = (o: ServerOptions & { user?: string }) =>
  run(o, async (c) => {
    const tokens = await c.call('get', '/tokens', o.user ? { query: { user: o.user } } : {});
    print(o, tokens, tokens.length ? table([['NAME', 'USER', 'ROLE', 'EXPIRES', 'LAST USED'], ...tokens.map((t) => [t.name, t.user, t.role, t.expires_at ?? 'never', t.last_used_at ?? 'never'])]) : 'no tokens\n');
  });

export const tokenRevoke = (name: string, o: ServerOptions & { user?: string }) =>
  run(o, async (c) => {
    await c.call('delete', '/tokens/{name}', { params: { name }, ...(o.user ? { query: { user: o.user } } : {}) });
    print(o, { revoked: name }, `revoked '${name}': every server refuses it from now on\n`);
  });
