/**
 * Transports that reach no node. The dry run records what a real run would do (commands, syncs)
 * and answers success, so `--dry-run` walks the same code as a real deployment; the benchmark's
 * fake answers at once and records nothing, so what it measures is Hearth's own bookkeeping.
 */
import type { DeployTarget, ExecOptions, ExecResult, Transport } from './transport.js';

const ok: ExecResult = { exitCode: 0, output: '', timedOut: false };

export interface RecordedCall {
  kind: 'exec' | 'sync' | 'local' | 'wait';
  node?: string;
  command: string;
  stdinBytes?: number;
}

export class DryRunTransport implements Transport {
  readonly kind: 'dry-run' | 'fake';
  readonly calls: RecordedCall[] = [];

  constructor(private readonly record = true) {
    this.kind = record ? 'dry-run' : 'fake';
  }

  async exec(t: DeployTarget, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.record) this.calls.push({ kind: 'exec', node: t.id, command, ...(typeof options.stdin === 'string' || Buffer.isBuffer(options.stdin) ? { stdinBytes: Buffer.byteLength(options.stdin) } : {}) });
    return ok;
  }

  async sync(t: DeployTarget, localDir: string, remoteDir: string): Promise<ExecResult> {
    if (this.record) this.calls.push({ kind: 'sync', node: t.id, command: `${localDir} -> ${remoteDir}` });
    return ok;
  }

  async local(command: string): Promise<ExecResult> {
    if (this.record) this.calls.push({ kind: 'local', command });
    return ok;
  }

  async waitBack(t: DeployTarget): Promise<ExecResult> {
    if (this.record) this.calls.push({ kind: 'wait', node: t.id, command: 'wait for the node to come back' });
    return ok;
  }

  async close(): Promise<void> {}
}
