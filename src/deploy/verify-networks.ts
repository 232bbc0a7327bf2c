/**
 * Verify networks, the deploy layer's half (issue 27): the probe (net-probe.ts) runs on every node
 * at once, through the same transport as a deployment's tasks (SSH sessions, quoting, timeouts,
 * output kept), and each node's answer is read back as core's `ProbeReport`.
 * The script travels on the command line (base64), not on stdin: a command without stdin data runs
 * under the session's watcher, which kills it when its connection goes (a stop, a node dropping
 * out, the server dying); and the probe ends by itself after its budget, the remote `timeout` after
 * that. Nothing is left on the node: no file, no process, no change of its network.
 */
import { randomBytes } from 'node:crypto';
import type { ProbeInput, ProbeReport } from '../core/networks/verify.js';
import { NET_PROBE_SCRIPT } from './net-probe.js';
import { quote } from './quote.js';
import type { DeployTarget, Transport } from './transport.js';

export interface ProbeOptions {
  /** Seconds each probe listens (default 8); it sends during the first `sendS` (default 5). */
  budgetS?: number;
  sendS?: number;
  signal?: AbortSignal;
  /** Each node's output as it arrives (kept by the caller as the run's output). */
  onOutput?: (node: string, chunk: string) => void;
}

export interface ProbeRun {
  report: ProbeReport;
  /** The node's whole output (the probe's result line included), for the run's history. */
  output: string;
}

const RESULT = 'HEARTH-PROBE-RESULT ';
const LOADER = `import base64,sys;exec(compile(base64.b64decode(sys.argv.pop(1)),"hearth-net-probe","exec"))`;

/** The command that runs the probe with `input` on a node. */
export function probeCommand(input: ProbeInput, token: string, budgetS: number, sendS: number): string {
  const conf = Buffer.from(JSON.stringify({ ...input, token, budget: budgetS, send: sendS })).toString('base64');
  const script = Buffer.from(NET_PROBE_SCRIPT).toString('base64');
  return `command -v python3 >/dev/null 2>&1 || { echo 'hearth: python3 is not installed on this node' >&2; exit 127; }; exec python3 -c ${quote(LOADER)} ${script} ${conf}`;
}

/** Runs the probe on every node at once; each node's report, answered or with why not. */
export async function runProbes(transport: Transport, nodes: ReadonlyArray<{ target: DeployTarget; input: ProbeInput }>, options: ProbeOptions = {}): Promise<ProbeRun[]> {
  const budgetS = options.budgetS ?? 8;
  const sendS = Math.min(options.sendS ?? 5, budgetS);
  // One token per run: frames of another verification on the same wires are not taken for ours.
  const token = randomBytes(8).toString('hex');
  return Promise.all(
    nodes.map(async ({ target, input }): Promise<ProbeRun> => {
      const empty: ProbeReport = { node: target.id, answered: false, heard: {}, big_heard: {}, errors: [], duplicates: [], gateways: [] };
      if (options.signal?.aborted) return { report: { ...empty, failure: 'the verification was stopped before it started here' }, output: '' };
      const r = await transport.exec(target, probeCommand({ ...input, node: target.id }, token, budgetS, sendS), {
        timeoutMs: (budgetS + 20) * 1000,
        signal: options.signal,
        onOutput: (chunk) => options.onOutput?.(target.id, chunk),
      });
      const line = r.output.split('\n').find((l) => l.startsWith(RESULT));
      if (r.exitCode === 0 && line) {
        try {
          const parsed = JSON.parse(line.slice(RESULT.length)) as Omit<ProbeReport, 'node' | 'answered'>;
          return { report: { ...empty, ...parsed, node: target.id, answered: true }, output: r.output };
        } catch {
          // fall through: an unreadable answer is no answer
        }
      }
      const failure = options.signal?.aborted
        ? 'the verification was stopped'
        : r.transportError
          ? r.transportError.message
          : r.timedOut
            ? `the probe did not end within ${budgetS + 20} s`
            : r.exitCode === 127
              ? 'python3 is not installed on the node'
              : `the probe failed (exit ${r.exitCode ?? 'none'}): ${lastLine(r.output)}`;
      return { report: { ...empty, failure }, output: r.output };
    }),
  );
}

const lastLine = (text: string): string => text.trim().split('\n').slice(-1)[0]?.slice(0, 300) ?? '';
