import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { lifecycleScheduleArbitrary, type LifecycleSchedule } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import { formatConformanceFailure, numberedSteps, rerunCommand } from './format-failure.js';
import { FuzzError } from './fuzz-error.js';
import { describeError } from './describe-error.js';
import { isListenerFailure } from './lifecycle-recorder.js';
import { runSchedule } from './run-schedule.js';
import type { ConformanceReport, LifecycleCheckOptions, LifecycleViolation, ProviderFactory } from './types.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/** Thrown inside the property so fast-check keeps the failing schedule's own violations and steps. */
class ScheduleFailed extends Error {
  constructor(
    readonly violations: readonly LifecycleViolation[],
    readonly steps: readonly string[],
  ) {
    super(violations.map((v) => `[${v.promise}] ${v.message}`).join('\n'));
  }
}

/**
 * Throws `options.runs` interleavings of start, readiness, result, cancel, dispose, parent teardown,
 * provider removal and faulty listeners at the provider `factory` builds (a fresh one per schedule),
 * under `fc.scheduler`, and checks the ordering and cleanup promises of the subagent seam.
 * Resolves with a report; never throws for a broken provider (see `assertProviderLifecycle`).
 */
export async function checkProviderLifecycle(factory: ProviderFactory, options: LifecycleCheckOptions): Promise<ConformanceReport> {
  const runs = validRuns(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const root = await mkdtemp(join(tmpdir(), 'nestcast-fuzz-'));
  const escaped: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    if (isListenerFailure(reason)) escaped.push(reason);
  };
  process.on('unhandledRejection', onUnhandled);
  const began = performance.now();
  let schedules = 0;
  try {
    const arbitrary = lifecycleScheduleArbitrary({ ...options.schedule, ...(factory.outcomes ? { outcomes: factory.outcomes } : {}) });
    // Between two releases, let native work (file writes, pipes) land, so a seed replays the same choices.
    const act = async (release: () => Promise<void>): Promise<void> => {
      await release();
      await new Promise((resolve) => setImmediate(resolve));
    };
    const property = fc.asyncProperty(fc.scheduler({ act }), arbitrary, async (s, schedule) => {
      const index = ++schedules;
      const before = escaped.length;
      const violations = await runSchedule(factory, schedule, s, { dir: join(root, `s${index}`), timeoutMs });
      await new Promise((resolve) => setImmediate(resolve));
      for (const failure of escaped.slice(before)) {
        violations.push({ promise: 'listener-failures-contained', message: `a listener failure escaped as an unhandled rejection: ${describeError(failure)}` });
      }
      if (violations.length > 0) throw new ScheduleFailed(violations, numberedSteps(s.report()));
    });
    const details = await fc.check(property, {
      numRuns: runs,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.path !== undefined ? { path: options.path } : {}),
      // A printed path already points at the shrunk schedule: replay it alone.
      endOnFailure: options.endOnFailure ?? options.path !== undefined,
    });
    const report = { provider: factory.name, runs, schedules, seed: details.seed, elapsedMs: performance.now() - began };
    if (!details.failed) return { ...report, ok: true };
    const failed = details.errorInstance;
    if (!(failed instanceof ScheduleFailed) || details.counterexample === null || details.counterexamplePath === null) {
      throw new FuzzError('LIFECYCLE_VIOLATION', `the lifecycle suite itself failed on provider "${factory.name}" (seed ${details.seed}): ${String(failed)}`, { cause: failed });
    }
    const schedule = details.counterexample[1] as LifecycleSchedule;
    return {
      ...report,
      ok: false,
      failure: {
        seed: details.seed,
        path: details.counterexamplePath,
        schedule,
        violations: failed.violations,
        steps: failed.steps,
        rerun: rerunCommand(factory.name, runs, details.seed, details.counterexamplePath),
      },
    };
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Like `checkProviderLifecycle`, but throws `LIFECYCLE_VIOLATION` with the readable failure (seed, path, steps, rerun command). */
export async function assertProviderLifecycle(factory: ProviderFactory, options: LifecycleCheckOptions): Promise<ConformanceReport> {
  const report = await checkProviderLifecycle(factory, options);
  if (!report.ok) throw new FuzzError('LIFECYCLE_VIOLATION', formatConformanceFailure(report));
  return report;
}

function validRuns(options: LifecycleCheckOptions): number {
  if (!Number.isSafeInteger(options.runs) || options.runs < 1) {
    throw new FuzzError('INVALID_FUZZ_OPTIONS', `runs must be a positive integer, got ${String(options.runs)}`);
  }
  if (options.path !== undefined && options.seed === undefined) {
    throw new FuzzError('INVALID_FUZZ_OPTIONS', `path ${JSON.stringify(options.path)} replays a failure only together with the seed it was printed with; pass both`);
  }
  return fuzzRuns(options.runs);
}
