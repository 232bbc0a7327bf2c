/**
 * A Hearth server in a child process of its own whose transport reaches no host: each task's
 * command (`T:<task>`) succeeds, fails or is held as its parent says over the IPC channel, and every
 * command it starts is reported back with its time. The lifecycle model test runs it so that a
 * shutdown is a real SIGTERM and a crash a real SIGKILL, on a real embedded database in a folder.
 *
 *   node --import tsx test/support/model-server.ts <data-dir> <admin-token>
 *
 * Messages from the parent: {op: 'script', failing: ['<node> <task>'], holding?: task} and
 * {id, op: 'insertRealNode' | 'recordReachError' | 'markReachable', args} (answered {id, result}).
 * To the parent: {event: 'ready', url}, {event: 'started', node, task, at} (epoch ms) and
 * {event: 'held', count}.
 */
import { performance } from 'node:perf_hooks';
import { startServer } from '../../src/server/start.js';
import * as real from '../../src/store/real-nodes.js';
import type { DeployTarget, ExecOptions, ExecResult, Transport } from '../../src/deploy/transport.js';
import type { SshTransport } from '../../src/deploy/ssh.js';

const [dataDir, token] = process.argv.slice(2);
if (!dataDir || !token || !process.send) {
  console.error('usage (from a parent with an IPC channel): model-server.ts <data-dir> <admin-token>');
  process.exit(2);
}
const send = (message: unknown) => process.send?.(message);
const now = () => performance.timeOrigin + performance.now();

class ScriptedTransport implements Transport {
  readonly kind = 'fake' as const;
  failing = new Set<string>();
  holding?: string;
  private held = 0;
  private readonly waiting = new Set<() => void>();

  release(): void {
    for (const wake of this.waiting) wake();
  }

  async exec(t: DeployTarget, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const task = /T:([a-z]+)/.exec(command)?.[1];
    if (!task) return { exitCode: 0, output: '', timedOut: false };
    send({ event: 'started', node: t.id, task, at: now() });
    if (this.holding === task) {
      send({ event: 'held', count: ++this.held });
      // Held until killed (no exit status, as SSH's child) or released by the parent.
      await new Promise<void>((resolve) => {
        if (options.signal?.aborted) return resolve();
        const wake = () => {
          this.waiting.delete(wake);
          resolve();
        };
        this.waiting.add(wake);
        options.signal?.addEventListener('abort', wake, { once: true });
      });
      send({ event: 'held', count: --this.held });
      return options.signal?.aborted ? { exitCode: null, output: 'held\n', timedOut: false } : { exitCode: 0, output: 'released\n', timedOut: false };
    }
    return this.failing.has(`${t.id} ${task}`) ? { exitCode: 7, output: 'failed on purpose\n', timedOut: false } : { exitCode: 0, output: `ran ${task}\n`, timedOut: false };
  }
  async sync(): Promise<ExecResult> {
    return { exitCode: 0, output: '', timedOut: false };
  }
  async local(): Promise<ExecResult> {
    return { exitCode: 0, output: '', timedOut: false };
  }
  async waitBack(): Promise<ExecResult> {
    return { exitCode: 0, output: '', timedOut: false };
  }
  async close(): Promise<void> {}
}

const transport = new ScriptedTransport();
const server = await startServer({
  port: 0,
  dataDir,
  adminToken: token,
  bundledRelease: false,
  deploy: { sliceDelayMs: 0, sliceSize: 100 },
  shutdownGraceMs: 50,
  transport: transport as unknown as SshTransport,
});

process.on('message', async (message: { id?: number; op: string; failing?: string[]; holding?: string; args?: any[] }) => {
  if (message.op === 'script') {
    transport.failing = new Set(message.failing ?? []);
    transport.holding = message.holding;
    if (!message.holding) transport.release();
    return;
  }
  try {
    const args = message.args ?? [];
    let result: unknown;
    if (message.op === 'insertRealNode') result = await real.insertRealNode(server.db, args[0]);
    else if (message.op === 'recordReachError') result = await real.recordReachError(server.db, args[0], args[1], args[2]);
    else if (message.op === 'markReachable') result = await real.markReachable(server.db, args[0]);
    else throw new Error(`unknown op ${message.op}`);
    send({ id: message.id, result: result ?? null });
  } catch (err) {
    send({ id: message.id, error: (err as Error).message });
  }
});

// As `hearth serve` does: a SIGTERM closes the server (nothing new starts, running tasks get the
// grace period, the run is recorded interrupted), then the process ends.
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
process.on('disconnect', () => process.exit(0));
send({ event: 'ready', url: server.url });
