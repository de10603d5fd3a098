import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { expectedCells, formatCoverage } from '../coverage.js';
import { formatConformanceFailure } from '../format-failure.js';
import { forkFactory, spawnFactory } from './in-process-factories.js';

describe('the in-process providers under the lifecycle suite', () => {
  // A generous limit: the run count is what matters, and a busy machine runs it slower.
  it.each([spawnFactory, forkFactory])(
    '$name keeps every promise over 1,000 schedules, which reach every phase x act',
    { timeout: 300_000 },
    async (factory) => {
      const report = await checkProviderLifecycle(factory, { runs: 1000 });
      expect(report.ok, formatConformanceFailure(report)).toBe(true);
      expect(report.schedules).toBe(fuzzRuns(1000));
      const missed = expectedCells({ streams: true, steers: true, resumes: true }).filter(
        (cell) => (report.coverage[cell] ?? 0) === 0,
      );
      expect(missed, `seed ${report.seed}:\n${formatCoverage(report.coverage)}`).toEqual([]);
    },
  );
});
