/**
 * How many runs a property or the lifecycle suite makes: `base`, raised (never lowered) by the
 * `FUZZ_RUNS` environment variable for long runs, e.g. `FUZZ_RUNS=20000 npm test`.
 */
export function fuzzRuns(base: number, env: NodeJS.ProcessEnv = process.env): number {
  const raised = Number(env['FUZZ_RUNS']);
  return Number.isSafeInteger(raised) && raised > base ? raised : base;
}
