/**
 * What the orchestrator needs of a way to reach nodes. Three implementations: OpenSSH (ssh.ts, the
 * real one), the dry run (records what it would do, touches nothing) and the instant fake of the
 * benchmark (fake.ts). Commands are whole shell command lines already quoted (quote.ts).
 */
import type { Readable } from 'node:stream';

/** A node as the transport reaches it. */
export interface DeployTarget {
  /** The graph's node id (the node's id in the store, as text). */
  id: string;
  name: string;
  address: string;
  port: number;
  user: string;
  /** The recorded host key, `<type> <base64>`; without one, the first key seen is accepted. */
  hostKey?: string;
}

export interface ExecOptions {
  /** Bytes (or a stream) for the command's stdin. */
  stdin?: Buffer | string | Readable;
  /** Kill the command after this long (ms); the remote side is told to stop too. */
  timeoutMs?: number;
  /** Each chunk of stdout and stderr as it arrives. */
  onOutput?: (chunk: string) => void;
  signal?: AbortSignal;
  /**
   * A deployment task's command: on the node it holds the task lock while it runs (session.ts), so
   * a resumed attempt waits until an earlier one is gone. Other commands (facts, the reachability
   * check, probes) do not wait behind a running task.
   */
  task?: boolean;
}

export interface ExecResult {
  /** The command's exit status; null when it was killed or never ran. */
  exitCode: number | null;
  /** stdout and stderr interleaved, the last `OUTPUT_LIMIT` bytes. */
  output: string;
  timedOut: boolean;
  /** Set when the transport itself failed (unreachable, host key refused): words for a person. */
  transportError?: { code: string; message: string };
}

export interface Transport {
  readonly kind: 'ssh' | 'dry-run' | 'fake';
  exec(target: DeployTarget, command: string, options?: ExecOptions): Promise<ExecResult>;
  /** `localDir/` mirrored to `remoteDir/` on the node (rsync over the same connection). */
  sync(target: DeployTarget, localDir: string, remoteDir: string, options?: ExecOptions): Promise<ExecResult>;
  /** A command on the Hearth server itself (master_shell), in `cwd`. */
  local(command: string, cwd: string, options?: ExecOptions): Promise<ExecResult>;
  /** Wait until the node answers again after a reboot, up to `timeoutMs`. */
  waitBack(target: DeployTarget, timeoutMs: number, signal?: AbortSignal): Promise<ExecResult>;
  /** Close every connection. */
  close(): Promise<void>;
}

/** Output kept per task: the last 1 MiB. */
export const OUTPUT_LIMIT = 1024 * 1024;

/** Keeps the last `limit` characters of what is appended. */
export class OutputTail {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly limit = OUTPUT_LIMIT) {}

  push(chunk: string): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.parts.length > 1) this.size -= this.parts.shift()!.length;
    if (this.size > this.limit) {
      this.parts[0] = this.parts[0].slice(this.size - this.limit);
      this.size = this.limit;
    }
  }

  toString(): string {
    return this.parts.join('');
  }
}
