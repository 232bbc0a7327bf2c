/**
 * A shell kept open on a node, over its multiplexed connection: each command is written to the
 * shell's stdin and its output read back up to an end line carrying a random token and the exit
 * status. A command therefore costs no local process, no new SSH session and no login shell on the
 * node: about a round trip instead of an `ssh` start (which took ~350 ms a command at load).
 * Each command runs in a subshell with stdin from /dev/null (so it can neither read the commands
 * that follow it nor change the shell's folder or variables), stdout and stderr together, as
 * `exec` gives them. A session runs one command at a time; a command with stdin data, or one that
 * finds the session busy, goes through a process of its own (ssh.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { quote } from './quote.js';
import { OutputTail, type ExecOptions, type ExecResult } from './transport.js';

/**
 * How a command without stdin data runs on the node, so that it cannot outlive its connection (a
 * server killed mid-task left it running, and a resumed run started it again beside it): in a
 * session of its own (setsid), a deployment task holding the node's task lock (flock on
 * /etc/hearth/task.lock, once Hearth's folder is there and where the node has flock: a resumed task
 * waits there until an earlier attempt is gone; not in /run/lock, which the test hosts share;
 * other commands, such as facts, do not wait behind a running task), while a watcher reads
 * the shell's stdin. Hearth sends nothing while a command runs (the next command follows its end line), so
 * that read ends only when the connection is gone; then the command's session gets TERM, and
 * KILL 5 s later. A command that ends normally takes the watcher down with it; what the command
 * started in the background (a service) is left alone, and does not hold the lock (flock -o).
 * The end line is written only once the watcher is gone, not only signalled: a reader killed in
 * its read but not yet scheduled (a loaded node) still takes data that arrives first, and Hearth
 * writes the next command as soon as it sees the end line, so a dying reader ate it, in part or
 * whole, and the session hung until the task's timeout ('no answer within 135 s'; at 50 hosts about
 * one task in 500, and one command in 600 on 50 sessions of `true` at load 17). The watcher is the
 * shell's own child with no child of its own, so `wait` on it is that guarantee.
 */
/** Whether the command takes the node's task lock: Hearth's folder is there and the node has flock. */
const CAN_LOCK = `[ -d /etc/hearth ] && [ -w /etc/hearth ] && command -v flock >/dev/null 2>&1`;
/*
 * The watcher hands the kill to a reaper in a session of its own, which TERMs and 5 s later KILLs:
 * a kill from the watcher itself, in pid order, ended the command's first process (flock), which
 * woke the wrapper, which killed the watcher before it reached the rest, and the command lived on
 * (one run in two on a loaded machine, test/deploy/ssh.test.ts).
 */
const REAPER = `pkill -TERM -s "$1" 2>/dev/null || kill -TERM -"$1" 2>/dev/null; sleep 5; pkill -KILL -s "$1" 2>/dev/null || kill -KILL -"$1" 2>/dev/null`;
/*
 * Every process here is paid on every node for every command, and 50 nodes starting a task at once
 * share the machine's cores (issue 30: a wave of 50 `true` took 0.46 s). So the wrapper is a brace
 * group, not a subshell; the watcher is a subshell running the shell's own `read`, not `cat` in a
 * new session: it has no child, so killing its pid ends it, and `wait` returns once it is gone;
 * the lock's conditions are tested by the shell's builtins; the status is given back by a
 * function's `return`. Started: setsid, flock (with the lock) and sh for the command, and one fork
 * for the watcher, where there used to be nine processes and a polling loop.
 */
export const guarded = (command: string, lock: boolean): string => {
  const task = `sh -c ${quote(command)} </dev/null 3<&- 2>&1 &`;
  const start = lock ? `if ${CAN_LOCK}; then setsid flock -o /etc/hearth/task.lock ${task} else setsid ${task} fi;` : `setsid ${task}`;
  return (
    `{ hearth_status() { return "$1"; }; ${start} hearth_p=$!; ` +
    `{ while read -r hearth_line; do :; done; setsid sh -c ${quote(REAPER)} hearth-reaper "$hearth_p" </dev/null >/dev/null 2>&1 & } <&3 >/dev/null 2>&1 & hearth_w=$!; ` +
    `wait "$hearth_p"; hearth_s=$?; kill -KILL "$hearth_w" 2>/dev/null; wait "$hearth_w" 2>/dev/null; hearth_status "$hearth_s"; } 3<&0 </dev/null`
  );
};


interface Running {
  marker: string;
  tail: OutputTail;
  options: ExecOptions;
  finish: (r: ExecResult) => void;
}

export class ShellSession {
  private readonly child: ChildProcess;
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private stderr = '';
  private current: Running | undefined;
  private closed = false;
  /** Closed by Hearth (stop, timeout): the command was cut off, the connection did not fail. */
  private cutOff = false;
  /** Set when the session was closed because the node did not answer at all. */
  private silence: string | undefined;

  /** `argv`: the ssh command line up to (not including) the remote command. */
  /** `cwd`: where ssh runs (its option values name files relative to it). */
  constructor(argv: readonly string[], private readonly failure: (stderr: string) => { code: string; message: string }, cwd?: string) {
    // Its own process group, as ssh.ts's commands: a signal to the server's terminal group is the server's to handle.
    this.child = spawn(argv[0], [...argv.slice(1), 'exec sh'], { stdio: ['pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}), detached: true });
    this.child.stdin!.on('error', () => undefined);
    this.child.stdout!.on('data', (d: Buffer) => this.take(this.decoder.write(d)));
    this.child.stderr!.on('data', (d: Buffer) => {
      if (this.stderr.length < 65536) this.stderr += d.toString('utf8');
    });
    this.child.on('error', () => this.end());
    this.child.on('close', () => this.end());
  }

  /** Free for a command: alive and not running one. */
  get idle(): boolean {
    return !this.closed && !this.current;
  }

  get alive(): boolean {
    return !this.closed;
  }

  run(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (!this.idle) return Promise.reject(new Error('the session is busy or closed'));
    return new Promise((resolve) => {
      const token = `hearth-end-${randomBytes(12).toString('hex')}`;
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const abort = () => this.close();
      const running: Running = {
        marker: `\n${token} `,
        tail: new OutputTail(),
        options,
        finish: (r) => {
          if (timer) clearTimeout(timer);
          options.signal?.removeEventListener('abort', abort);
          this.current = undefined;
          resolve(timedOut ? { ...r, timedOut: true } : r);
        },
      };
      this.current = running;
      // The remote `timeout` ends a command first: no end line 15 s after it means the connection
      // hangs, which is the node not answering.
      if (options.timeoutMs) {
        const waited = Math.round(options.timeoutMs / 1000) + 15;
        timer = setTimeout(() => {
          timedOut = true;
          this.silence = `the node stopped answering: no answer within ${waited} s`;
          this.close();
        }, options.timeoutMs + 15_000);
      }
      if (options.signal?.aborted) return abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      // The newline before `)` ends a trailing comment of the command; printf's own newline first
      // puts the end line on a line of its own (taken off again with it). Data for the command's
      // stdin travels in a here-document, in base64 (any bytes, no line the shell could misread).
      const end = `; printf '\\n%s %s\\n' ${token} "$?"\n`;
      const data = options.stdin;
      if (typeof data === 'string' || Buffer.isBuffer(data)) {
        const lines = (Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8')).toString('base64').replace(/.{1,76}/g, '$&\n');
        this.child.stdin!.write(`( base64 -d | ( ${command}\n) ) 2>&1 <<'${token}-data'${end}${lines}${token}-data\n`);
      } else this.child.stdin!.write(`${guarded(command, options.task === true)} 2>&1${end}`);
    });
  }

  /** Kill the session (a command running in it is cut off). */
  close(): void {
    if (this.closed) return;
    this.cutOff = true;
    this.child.stdin!.end();
    this.child.kill('SIGKILL');
    this.end();
  }

  private take(text: string): void {
    const run = this.current;
    if (!run) return;
    this.pending += text;
    const at = this.pending.indexOf(run.marker);
    if (at >= 0) {
      const eol = this.pending.indexOf('\n', at + run.marker.length);
      if (eol < 0) return this.emit(run, this.pending.slice(0, at), at);
      const status = Number(this.pending.slice(at + run.marker.length, eol));
      this.emit(run, this.pending.slice(0, at), at);
      this.pending = '';
      // 124/137: coreutils timeout ended the command.
      const remoteTimeout = run.options.timeoutMs !== undefined && (status === 124 || status === 137);
      run.finish({ exitCode: Number.isInteger(status) ? status : null, output: run.tail.toString(), timedOut: remoteTimeout });
      return;
    }
    // Keep back only what could be the start of the end line (a newline and part of the token).
    let from = this.pending.length;
    const nl = this.pending.lastIndexOf('\n');
    if (nl >= 0 && this.pending.length - nl < run.marker.length && run.marker.startsWith(this.pending.slice(nl))) from = nl;
    this.emit(run, this.pending.slice(0, from), from);
  }

  private emit(run: Running, chunk: string, upTo: number): void {
    this.pending = this.pending.slice(upTo);
    if (!chunk) return;
    run.tail.push(chunk);
    run.options.onOutput?.(chunk);
  }

  private end(): void {
    this.closed = true;
    const run = this.current;
    if (!run) return;
    if (this.pending) run.tail.push(this.pending);
    this.pending = '';
    const stderr = this.stderr.trim();
    if (this.silence) return run.finish({ exitCode: null, output: run.tail.toString(), timedOut: true, transportError: { code: 'ssh/unreachable', message: this.silence } });
    if (this.cutOff) return run.finish({ exitCode: null, output: run.tail.toString(), timedOut: false });
    run.finish({ exitCode: null, output: run.tail.toString(), timedOut: false, transportError: stderr ? this.failure(stderr) : { code: 'ssh/unreachable', message: 'the node stopped answering: the connection was lost' } });
  }
}
