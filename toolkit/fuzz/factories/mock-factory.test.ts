import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { formatConformanceFailure } from '../format-failure.js';
import { mockFactory } from './mock-factory.js';

describe('the mock provider under the lifecycle suite', () => {
  it('keeps every ordering and cleanup promise over 1,000 schedules', async () => {
    const report = await checkProviderLifecycle(mockFactory, { runs: 1000 });
    expect(report.ok, formatConformanceFailure(report)).toBe(true);
    expect(report.schedules).toBe(fuzzRuns(1000));
  });
});
