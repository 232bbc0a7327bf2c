/**
 * The benchmark harness: time a function many times, print median and p95, and ratios against a
 * baseline measured in the same run. Benchmarks never assert; they print figures for the notes.
 */
import { performance } from 'node:perf_hooks';

export interface Timing {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
}

export function time(name: string, fn: () => unknown, options: { runs?: number; warmup?: number; maxMs?: number } = {}): Timing {
  const runs = options.runs ?? 20;
  const warmup = options.warmup ?? 2;
  const maxMs = options.maxMs ?? 20_000;
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
    if (performance.now() - started > maxMs) break;
  }
  return summarise(name, samples);
}

export async function timeAsync(name: string, fn: () => Promise<unknown>, options: { runs?: number; warmup?: number; maxMs?: number } = {}): Promise<Timing> {
  const runs = options.runs ?? 20;
  const warmup = options.warmup ?? 2;
  const maxMs = options.maxMs ?? 20_000;
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    if (performance.now() - started > maxMs) break;
  }
  return summarise(name, samples);
}

export function summarise(name: string, samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { name, runs: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), minMs: sorted[0] };
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

/** Print a table; `target` (ms) adds a pass/miss column, `baseline` a ratio column. */
export function report(title: string, rows: Array<Timing & { targetMs?: number; baselineMs?: number; note?: string }>): void {
  console.log(`\n## ${title}`);
  console.log('| case | runs | median ms | p95 ms | target ms | ratio | note |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const target = r.targetMs === undefined ? '' : `${r.targetMs} ${r.medianMs <= r.targetMs ? '(met)' : '(MISSED)'}`;
    const ratio = r.baselineMs ? `${(r.medianMs / r.baselineMs).toFixed(2)}x` : '';
    console.log(`| ${r.name} | ${r.runs} | ${fmt(r.medianMs)} | ${fmt(r.p95Ms)} | ${target} | ${ratio} | ${r.note ?? ''} |`);
  }
}
