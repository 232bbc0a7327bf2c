/**
 * The SSH transport: OpenSSH's own client, one multiplexed connection per node (ControlMaster),
 * so a node's hundred tasks open one TCP connection and one authentication, and rsync rides the
 * same connection. Host keys are checked against the key Hearth recorded for the node, from a
 * known_hosts file of one line written per node (never the operator's ~/.ssh/known_hosts), under
 * the alias `hearth-node`, so the check does not depend on how the address is spelt.
 * ssh and rsync run in the control folder and are given paths relative to it (hex names of ours,
 * and the key's path from there): a folder named with spaces, quotes, `%` or `${` split or changed
 * absolute paths in ssh's option values (UserKnownHostsFile takes a list of files, and ssh expands
 * `%` and `${...}` in them), so host keys landed in files outside the data folder.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { quote } from './quote.js';
import { ShellSession, guarded } from './session.js';
import { OutputTail, type DeployTarget, type ExecOptions, type ExecResult, type Transport } from './transport.js';

export interface SshOptions {
  /** Hearth's private key. */
  keyFile: string;
  /** Seconds to wait for a connection. */
  connectTimeoutS?: number;
  /** Where the control sockets live (short: a Unix socket path has ~100 bytes). */
  controlDir?: string;
  /** Keep a shell open per node for commands (default); false: a process per command. */
  sessions?: boolean;
}

const ALIAS = 'hearth-node';
/** Bytes of stdin a command may carry through a node's open shell (more: a process of its own). */
const SESSION_DATA_LIMIT = 8 * 1024 * 1024;

/** Words for the ways an SSH connection fails, from OpenSSH's messages. */
export function sshFailure(stderr: string): { code: string; message: string } {
  const text = stderr.trim();
  const last = text.split('\n').filter((l) => l && !l.startsWith('@') && !l.startsWith('Warning: Permanently added')).slice(-1)[0] ?? 'ssh failed without a message';
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/.test(text)) return { code: 'ssh/host-key-changed', message: 'the node presented a host key different from the one Hearth recorded' };
  if (/Permission denied/.test(text)) return { code: 'ssh/auth-failed', message: `the node refused Hearth's key (${last}); put the public key from \`hearth ssh-key\` in the user's ~/.ssh/authorized_keys` };
  if (/Connection refused/.test(text)) return { code: 'ssh/unreachable', message: `nothing accepts SSH connections there (${last})` };
  if (/timed out|No route to host|Network is unreachable|Could not resolve|Name or service not known/.test(text)) return { code: 'ssh/unreachable', message: `the node cannot be reached (${last})` };
  if (/Timeout, server .* not responding|client_loop: .*(Broken pipe|disconnect)|Connection reset|Connection closed by remote host/.test(text)) return { code: 'ssh/unreachable', message: `the node stopped answering (${last})` };
  return { code: 'ssh/failed', message: last };
}

/** SHA256 fingerprint of a `<type> <base64>` public key, as `ssh-keygen -l` prints it. */
export function fingerprint(publicKey: string): string {
  const blob = Buffer.from(publicKey.trim().split(/\s+/)[1] ?? '', 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Temporary folders of transports not closed yet, removed when the process exits: a server stopped
 * by a signal, or an owner that never calls close(), left one per transport in /tmp (issue 31).
 * One listener for all (a listener per transport would trip Node's leak warning).
 */
const ownedDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of ownedDirs) rmSync(dir, { recursive: true, force: true });
});

export class SshTransport implements Transport {
  readonly kind = 'ssh' as const;
  private readonly dir: string;
  private readonly masters = new Set<string>();
  private readonly sessions = new Map<string, ShellSession>();

  constructor(private readonly options: SshOptions) {
    this.dir = resolve(options.controlDir ?? mkdtempSync(join(tmpdir(), 'hearth-ssh-')));
    if (!options.controlDir) ownedDirs.add(this.dir);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private slug(t: DeployTarget): string {
    return createHash('sha256').update(`${t.user}@${t.address}:${t.port}\n${t.hostKey ?? ''}`).digest('hex').slice(0, 20);
  }

  /** The ssh options for a node (known_hosts written on the way). */
  private baseArgs(t: DeployTarget): string[] {
    const slug = this.slug(t);
    const known = `${slug}.known`;
    // First contact starts from an empty file, so the key read back is the one just presented.
    writeFileSync(join(this.dir, known), t.hostKey ? `${ALIAS} ${t.hostKey.trim()}\n` : '', { mode: 0o600 });
    this.masters.add(slug);
    return [
      '-F', '/dev/null',
      '-i', sshPath(relative(this.dir, resolve(this.options.keyFile))),
      '-o', 'IdentitiesOnly=yes',
      '-o', 'BatchMode=yes',
      '-o', `HostKeyAlias=${ALIAS}`,
      '-o', `UserKnownHostsFile=${known}`,
      '-o', 'GlobalKnownHostsFile=/dev/null',
      '-o', `StrictHostKeyChecking=${t.hostKey ? 'yes' : 'accept-new'}`,
      '-o', 'UpdateHostKeys=no',
      '-o', `ConnectTimeout=${this.options.connectTimeoutS ?? 10}`,
      '-o', 'ServerAliveInterval=5',
      '-o', 'ServerAliveCountMax=3',
      // A connection is shared only once the key is the recorded one: first contact stands alone.
      ...(t.hostKey ? ['-o', 'ControlMaster=auto', '-o', `ControlPath=${slug}.sock`, '-o', 'ControlPersist=120'] : ['-o', 'ControlMaster=no', '-o', 'ControlPath=none']),
      '-o', 'LogLevel=ERROR',
      '-p', String(t.port),
      '-l', t.user,
    ];
  }

  /** The host key a node presented on its first connection (after `exec` with no recorded key). */
  seenHostKey(t: DeployTarget): string | undefined {
    try {
      const line = readFileSync(join(this.dir, `${this.slug({ ...t, hostKey: undefined })}.known`), 'utf8').split('\n').find((l) => l.startsWith(`${ALIAS} `));
      return line?.slice(ALIAS.length + 1).trim();
    } catch {
      return undefined;
    }
  }

  exec(t: DeployTarget, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    // The remote side enforces the timeout too: closing our end does not stop a remote command.
    const remote = options.timeoutMs ? `timeout --kill-after=5 ${Math.max(1, Math.ceil(options.timeoutMs / 1000))} sh -c ${quote(command)}` : command;
    // A node with a recorded key keeps a shell open (session.ts); streamed or large stdin, or a
    // second command while one runs there, goes through a process of its own.
    const small = options.stdin === undefined || ((typeof options.stdin === 'string' || Buffer.isBuffer(options.stdin)) && Buffer.byteLength(options.stdin) <= SESSION_DATA_LIMIT);
    if (t.hostKey && small && this.options.sessions !== false) {
      const slug = this.slug(t);
      let session = this.sessions.get(slug);
      if (!session?.alive) this.sessions.set(slug, (session = new ShellSession(['ssh', ...this.baseArgs(t), '--', t.address], sshFailure, this.dir)));
      if (session.idle) return session.run(remote, options);
    }
    // Without stdin data the command is guarded as in a session: its watcher reads ssh's stdin,
    // kept open, so a server killed while the command runs ends it on the node too (a session
    // busy with the reachability check's `true` sent a task here, where it outlived its server).
    const guard = options.stdin === undefined;
    return this.spawnSsh('ssh', [...this.baseArgs(t), '--', t.address, guard ? guarded(remote, options.task === true) : remote], { ...options, keepStdinOpen: guard }, true, this.dir);
  }

  sync(t: DeployTarget, localDir: string, remoteDir: string, options: ExecOptions = {}): Promise<ExecResult> {
    // rsync splits -e on spaces itself, keeping quoted words whole (a quote inside is doubled).
    const sshCommand = ['ssh', ...this.baseArgs(t)].map(rsyncWord).join(' ');
    const target = `${t.address.includes(':') ? `[${t.address}]` : t.address}:${remoteDir.replace(/\/?$/, '/')}`;
    // --secluded-args (-s): the remote path reaches rsync as it is, not through the remote shell.
    // --safe-links: a link leading out of the folder is never sent (deployment.ts refuses such a folder first; issue 24).
    return this.spawnSsh('rsync', ['-a', '-s', '--safe-links', '--delete', '--mkpath', '-e', sshCommand, `${resolve(localDir).replace(/\/?$/, '/')}`, target], options, true, this.dir);
  }

  local(command: string, cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
    return this.spawnSsh('/bin/sh', ['-c', command], { ...options }, false, cwd);
  }

  async waitBack(t: DeployTarget, timeoutMs: number, signal?: AbortSignal): Promise<ExecResult> {
    const until = Date.now() + timeoutMs;
    const pause = () => new Promise((r) => setTimeout(r, 500));
    // First see it go (a connection that fails), so a node still shutting down is not taken as back.
    let down = false;
    while (!down && Date.now() < until && !signal?.aborted) {
      const r = await this.exec(t, 'true', { timeoutMs: 5000 });
      if (r.exitCode !== 0) down = true;
      else await pause();
    }
    let last: ExecResult = { exitCode: null, output: '', timedOut: true };
    while (down && Date.now() < until && !signal?.aborted) {
      await this.forget(t);
      last = await this.exec(t, 'true', { timeoutMs: 10_000 });
      if (last.exitCode === 0) return { exitCode: 0, output: '', timedOut: false };
      await pause();
    }
    const why = down ? `did not come back within ${Math.round(timeoutMs / 1000)} s${last.transportError ? ` (${last.transportError.message})` : ''}` : `did not go down within ${Math.round(timeoutMs / 1000)} s of the reboot command`;
    return { exitCode: null, output: last.output, timedOut: true, transportError: { code: 'deploy/reboot-timeout', message: `the node ${why}` } };
  }

  /** Drop a node's master connection (after a reboot it is dead anyway). */
  async forget(t: DeployTarget): Promise<void> {
    this.sessions.get(this.slug(t))?.close();
    this.sessions.delete(this.slug(t));
    await this.spawnSsh('ssh', [...this.baseArgs(t), '-O', 'exit', t.address], { timeoutMs: 5000 }, false, this.dir).catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
    const { readdirSync } = await import('node:fs');
    const socks = readdirSync(this.dir).filter((f) => f.endsWith('.sock'));
    await Promise.all(
      socks.map((s) => this.spawnSsh('ssh', ['-F', '/dev/null', '-o', `ControlPath=${s}`, '-O', 'exit', 'x'], { timeoutMs: 5000 }, false, this.dir).catch(() => undefined)),
    );
    if (!this.options.controlDir) {
      rmSync(this.dir, { recursive: true, force: true });
      ownedDirs.delete(this.dir);
    }
  }

  private spawnSsh(cmd: string, args: string[], options: ExecOptions & { keepStdinOpen?: boolean }, classify: boolean, cwd?: string): Promise<ExecResult> {
    return new Promise((resolve) => {
      const tail = new OutputTail();
      let stderr = '';
      let timedOut = false;
      // A process group of its own: Ctrl-C on the server's terminal (SIGINT to its whole group) must
      // not kill running tasks behind the server's back; the server stops them itself, with a grace.
      const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}), detached: true });
      const take = (isErr: boolean) => (d: Buffer) => {
        const s = d.toString('utf8');
        if (isErr && stderr.length < 65536) stderr += s;
        tail.push(s);
        options.onOutput?.(s);
      };
      child.stdout.on('data', take(false));
      child.stderr.on('data', take(true));
      // A remote timeout ends the command first; this one only catches a connection that hangs.
      const guard = options.timeoutMs ? setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), options.timeoutMs + 15_000) : undefined;
      const abort = () => child.kill('SIGKILL');
      options.signal?.addEventListener('abort', abort, { once: true });
      child.stdin.on('error', () => undefined);
      if (options.stdin instanceof Readable) options.stdin.pipe(child.stdin);
      else if (options.stdin !== undefined) child.stdin.end(options.stdin);
      else if (!options.keepStdinOpen) child.stdin.end();
      const finish = (code: number | null, spawnError?: Error) => {
        if (guard) clearTimeout(guard);
        options.signal?.removeEventListener('abort', abort);
        const output = tail.toString();
        // 124/137: coreutils timeout ended the remote command.
        const remoteTimeout = options.timeoutMs !== undefined && (code === 124 || code === 137) && cmd === 'ssh';
        const result: ExecResult = { exitCode: code, output, timedOut: timedOut || remoteTimeout };
        if (spawnError) result.transportError = { code: 'deploy/no-client', message: `cannot run ${cmd}: ${spawnError.message} (install openssh-client and rsync on the Hearth server)` };
        else if (classify && code === 255 && cmd === 'ssh' && !/^\s*$/.test(stderr) && sshLike(stderr)) result.transportError = sshFailure(stderr);
        // ssh says nothing at LogLevel=ERROR when a live connection dies (ServerAlive gives up).
        else if (classify && code === 255 && cmd === 'ssh' && /^\s*$/.test(stderr)) result.transportError = { code: 'ssh/unreachable', message: 'the node stopped answering: the connection was lost (ssh ended with status 255 and no message)' };
        else if (classify && cmd === 'rsync' && code !== 0 && /ssh:|connection unexpectedly closed|Host key/.test(stderr)) result.transportError = sshFailure(stderr);
        resolve(result);
      };
      child.on('error', (err) => finish(null, err));
      child.on('close', (code) => finish(code));
    });
  }
}

/** A path as an ssh option value: ssh expands `%` tokens in it (`%%` is a `%`). */
const sshPath = (path: string): string => path.replaceAll('%', '%%');

/** A word of rsync's -e command: quoted when it holds a space or a quote (rsync's own rules). */
const rsyncWord = (word: string): string => (/[\s'"]/.test(word) ? `'${word.replaceAll("'", "''")}'` : word);

/** Exit 255 is also a command's own status: only ssh's own words make it a transport failure. */
const sshLike = (stderr: string) => /^(ssh|kex_exchange_identification|Connection|Host key|@@@|[^\n]*Permission denied|Control socket|mux_client|Timeout, server|client_loop)/m.test(stderr);
