/**
 * fast-check settings shared by the property tests: a fixed seed so CI is repeatable, and the
 * number of runs from HEARTH_FUZZ_RUNS for the long run (`npm run fuzz`).
 */
export const seed = Number(process.env.HEARTH_FUZZ_SEED ?? 42);
export const runs = (ci: number): { seed: number; numRuns: number } => ({ seed, numRuns: Number(process.env.HEARTH_FUZZ_RUNS ?? ci) });
