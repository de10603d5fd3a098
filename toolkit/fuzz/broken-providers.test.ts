import { describe, expect, it } from 'vitest';
import { BROKEN_PROVIDERS, escapingListenersFactory, toyFactory } from './broken-providers.js';
import { assertProviderLifecycle, checkProviderLifecycle } from './check-provider-lifecycle.js';
import { formatConformanceFailure } from './format-failure.js';
import type { ProviderFactory } from './types.js';

// On the escaping bus an end listener's throw would surface as a process-level unhandled rejection,
// which the test runner reports on its own; the start listener's escape is the one asserted here.
const optionsFor = (factory: ProviderFactory) => ({
  runs: 300,
  ...(factory === escapingListenersFactory ? { schedule: { endListenerFaults: ['none', 'mutate'] as const } } : {}),
});

const EXPECTED: Record<string, string> = {
  'emits end before its run has ended': 'end-reports-the-result',
  'leaks its child when cancelled before ready': 'rejected-start-releases-everything',
  'resolves dispose before the child stops': 'dispose-leaves-nothing-alive',
  'rejects the result on a child error': 'result-never-rejects',
  'resolves start for a start that must be rejected (signal already aborted)': 'aborted-start-rejects',
  'lets a listener failure escape': 'listener-failures-contained',
};

describe('the lifecycle suite has teeth', () => {
  it('passes the correct toy provider over 300 schedules', async () => {
    const report = await checkProviderLifecycle(toyFactory(null), { runs: 300 });
    expect(report.ok, formatConformanceFailure(report)).toBe(true);
  });

  it.each(Object.entries(BROKEN_PROVIDERS))('fails a provider that %s', async (what, factory) => {
    const report = await checkProviderLifecycle(factory, optionsFor(factory));
    expect(report.ok).toBe(false);
    expect(report.failure?.violations.map((v) => v.promise)).toContain(EXPECTED[what]);
  });
});

describe('a failure', () => {
  const broken = BROKEN_PROVIDERS['resolves dispose before the child stops'] as ProviderFactory;

  it('prints what broke, the seed and path, the numbered interleaving and the command that reruns it', async () => {
    const report = await checkProviderLifecycle(broken, { runs: 300 });
    const failure = report.failure;
    if (failure === undefined) throw new Error('the broken provider was expected to fail');
    const text = formatConformanceFailure(report);
    expect(text).toContain('[dispose-leaves-nothing-alive]');
    expect(text).toContain(`seed ${failure.seed}, path ${failure.path}`);
    expect(failure.steps[0]).toMatch(/^1\. /);
    expect(failure.steps.some((step) => /dispose\(\)/.test(step))).toBe(true);
    expect(failure.rerun).toBe(`nestcast fuzz --provider toy-dispose-before-child-stops --runs 300 --seed=${failure.seed} --path ${failure.path}`);
    expect(text).toContain(`rerun: ${failure.rerun}`);
  });

  it('replays from its seed and path: the same schedule, the same steps, the same broken promise', async () => {
    const first = await checkProviderLifecycle(broken, { runs: 300 });
    const failure = first.failure;
    if (failure === undefined) throw new Error('the broken provider was expected to fail');
    const replay = await checkProviderLifecycle(broken, { runs: 300, seed: failure.seed, path: failure.path });
    expect(replay.schedules).toBe(1);
    expect(replay.failure?.schedule).toEqual(failure.schedule);
    expect(replay.failure?.steps).toEqual(failure.steps);
    expect(replay.failure?.violations).toEqual(failure.violations);
  });

  it('is thrown, readable, by assertProviderLifecycle', async () => {
    await expect(assertProviderLifecycle(broken, { runs: 300 })).rejects.toMatchObject({
      code: 'LIFECYCLE_VIOLATION',
      message: expect.stringContaining('rerun: nestcast fuzz --provider toy-dispose-before-child-stops'),
    });
  });
});

describe('options', () => {
  it.each([0, -1, 1.5, Number.NaN])('refuses runs = %s', async (runs) => {
    await expect(checkProviderLifecycle(toyFactory(null), { runs })).rejects.toMatchObject({ code: 'INVALID_FUZZ_OPTIONS' });
  });

  it('refuses a path without the seed it belongs to', async () => {
    await expect(checkProviderLifecycle(toyFactory(null), { runs: 1, path: '3:1' })).rejects.toMatchObject({
      code: 'INVALID_FUZZ_OPTIONS',
      message: expect.stringContaining('seed'),
    });
  });

  it('fails a schedule that does not finish in time, naming the run that is stuck', async () => {
    const neverReady: ProviderFactory = {
      name: 'never-ready',
      outcomes: ['complete'],
      create: () => ({
        provider: { ...toyProviderShape, start: () => new Promise(() => undefined) },
      }),
    };
    const report = await checkProviderLifecycle(neverReady, { runs: 20, seed: 1, timeoutMs: 50, endOnFailure: true, schedule: { maxRuns: 1 } });
    expect(report.failure?.violations[0]).toMatchObject({ promise: 'schedule-finishes', message: expect.stringContaining('run r0-complete') });
  });
});

const toyProviderShape = {
  name: 'never-ready',
  capabilities: { outputSchema: false, maxDepth: false, toolFilter: false, persona: false },
  inheritsParentContext: false,
};
