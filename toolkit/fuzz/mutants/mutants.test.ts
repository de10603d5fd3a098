import { afterAll, describe, expect, it } from 'vitest';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { formatConformanceFailure } from '../format-failure.js';
import { toyFactory } from '../toy-provider.js';
import { clearLeakedTimers, MUTANTS } from './index.js';

/** The CLI's default run count for a provider module: every mutant must be caught within it. */
const DEFAULT_RUNS = 1000;
const caughtAt: string[] = [];

afterAll(() => {
  clearLeakedTimers();
  // The record of how soon each flaw is caught (docs/fuzzing.md lists a measured run).
  console.info(`mutation set: schedules until caught\n${caughtAt.join('\n')}`);
});

describe('the mutation set', () => {
  it('holds at least one broken provider per promise, 20 or more in all, each its own module', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(MUTANTS.map((mutant) => mutant.module)).size).toBe(MUTANTS.length);
    expect(MUTANTS.every((mutant) => /^toolkit\/fuzz\/mutants\/[a-z-]+\.ts$/.test(mutant.module))).toBe(true);
  });

  it('leaves the correct toy provider they are made from passing 300 schedules', async () => {
    const report = await checkProviderLifecycle(toyFactory(), { runs: 300 });
    expect(report.ok, formatConformanceFailure(report)).toBe(true);
  });

  // Each stops at its first failure: the point is that it is caught, and how soon.
  it.each(MUTANTS.map((mutant) => [mutant.name, mutant.breaks, mutant] as const))('catches %s as [%s] within the default run count', async (_name, breaks, mutant) => {
    const report = await checkProviderLifecycle(mutant, { runs: DEFAULT_RUNS, endOnFailure: true, settleWaitMs: 500, timeoutMs: 3_000 });
    expect(report.failure?.kind).toBe('provider');
    expect(report.failure?.violations.map((violation) => violation.promise), report.ok ? 'never caught' : formatConformanceFailure(report)).toContain(breaks);
    expect(report.failure?.rerun).toContain(`--provider ${mutant.module} `);
    caughtAt.push(`  ${mutant.name}: caught at schedule ${report.schedules} (seed ${report.seed})`);
  });
});
