import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { lifecycleScheduleArbitrary, type LifecycleSchedule } from '../arbitraries/lifecycle-schedule-arbitrary.js';
import { formatConformanceFailure, idNumbering, numberedSteps, rerunCommand } from './format-failure.js';
import { claimedPaths, CoverageCounter, type PathCell } from './coverage.js';
import type { SubagentCapabilities } from '../../providers/seam/types.js';
import { describeError } from '../../harness/error-text.js';
import { EscapeWatch } from './escape-watch.js';
import { optionKeys, unknownOption } from '../../harness/option-keys.js';
import { checkFactory } from './factory-keys.js';
import { FuzzError } from './fuzz-error.js';
import { isListenerFailure } from './lifecycle-recorder.js';
import { runSchedule } from './run-schedule.js';
import type { ConformanceReport, LifecycleCheckOptions, LifecycleViolation, ProviderFactory } from './types.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SETTLE_WAIT_MS = 2_000;
/** Extra rounds of `runs` schedules, at most, spent looking for claimed paths the first round missed. */
const COVERAGE_TOP_UPS = 4;

/** The seed of top-up round `round`: derived from the first, so one seed reproduces the whole run. */
function topUpSeed(seed: number, round: number): number {
  return (seed + Math.imul(round, 0x9e3779b9)) | 0;
}

/** What a failure's text says for the failing schedule's own folder. */
const SCHEDULE_DIR = '<schedule dir>';

/**
 * Thrown inside the property so fast-check keeps the failing schedule's own violations and steps,
 * their random ids numbered (see idNumbering) and the schedule's folder named `<schedule dir>`
 * (schedules run in folders numbered by their turn), so a replay from the seed and path reads the same.
 */
class ScheduleFailed extends Error {
  readonly violations: readonly LifecycleViolation[];
  readonly steps: readonly string[];

  constructor(
    readonly kind: 'provider' | 'suite',
    violations: readonly LifecycleViolation[],
    steps: readonly string[],
    readonly step: string,
    dir: string,
  ) {
    // Steps first: ids are numbered in the order the interleaving met them.
    const ids = idNumbering();
    const stable = (text: string): string => ids(text.split(dir).join(SCHEDULE_DIR));
    const stableSteps = steps.map(stable);
    const stableViolations = violations.map((v) => ({ ...v, message: stable(v.message) }));
    super(stableViolations.map((v) => `[${v.promise}] ${v.message}`).join('\n'));
    this.steps = stableSteps;
    this.violations = stableViolations;
  }
}

/** The label of the last scheduler step released so far: where a failure was seen. */
function lastStep(s: fc.Scheduler): string {
  const released = s.report().filter((item) => item.status !== 'pending');
  return released.length === 0
    ? '(before any step)'
    : `${released.length}. ${released[released.length - 1]?.label ?? ''}`;
}

/**
 * Throws `options.runs` interleavings of start, readiness, result, cancel, dispose, steering,
 * resume, parent teardown, provider removal and faulty listeners at the provider `factory` builds
 * (a fresh one per schedule), each act fired at a lifecycle point observed natively, and checks the
 * ordering and cleanup promises of the subagent seam. Any unhandled rejection or uncaught exception
 * while a schedule runs fails it. Resolves with a report; never throws for a broken provider (see
 * `assertProviderLifecycle`), nor for a bug of the suite itself (reported as a `suite` failure).
 */
export async function checkProviderLifecycle(
  factory: ProviderFactory,
  options: LifecycleCheckOptions,
): Promise<ConformanceReport> {
  const runs = validRuns(options);
  checkFactory(factory);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const settleWaitMs = options.settleWaitMs ?? DEFAULT_SETTLE_WAIT_MS;
  const root = await mkdtemp(join(tmpdir(), 'nestcast-fuzz-'));
  const watch = new EscapeWatch();
  const coverage = new CoverageCounter();
  const began = performance.now();
  let schedules = 0;
  let invalidFixture: FuzzError | undefined;
  let capabilities: SubagentCapabilities | undefined;
  const offers = { steer: false, resume: false };
  try {
    const arbitrary = lifecycleScheduleArbitrary({
      ...options.schedule,
      ...(factory.outcomes ? { outcomes: factory.outcomes } : {}),
    });
    // Between two releases, let native work (file writes, pipes) land, so a seed replays the same choices.
    const act = async (release: () => Promise<void>): Promise<void> => {
      await release();
      await new Promise((resolve) => setImmediate(resolve));
    };
    const property = fc.asyncProperty(fc.scheduler({ act }), arbitrary, async (s, schedule) => {
      const index = ++schedules;
      const mark = watch.escapes.length;
      let outcome;
      const dir = join(root, `s${index}`);
      try {
        outcome = await runSchedule(factory, schedule, s, { dir, timeoutMs, settleWaitMs });
      } catch (error) {
        // The fixture's own mistake, not the suite's: it ends the check as it is (below).
        if (error instanceof FuzzError && error.code === 'INVALID_PROVIDER_FACTORY') throw (invalidFixture = error);
        const step = lastStep(s);
        const message = `the lifecycle suite itself threw at step ${step}: ${describeError(error)}${error instanceof Error && error.stack ? `\n${error.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
        throw new ScheduleFailed('suite', [{ promise: 'suite-error', message }], numberedSteps(s.report()), step, dir);
      }
      coverage.add(outcome.cells);
      capabilities ??= outcome.capabilities;
      offers.steer ||= outcome.offers.steer;
      offers.resume ||= outcome.offers.resume;
      await new Promise((resolve) => setImmediate(resolve));
      const violations = [...outcome.violations];
      for (const { kind, error } of watch.since(mark)) {
        violations.push(
          isListenerFailure(error)
            ? {
                promise: 'listener-failures-contained',
                message: `a listener failure escaped as an ${kind}: ${describeError(error)}`,
              }
            : {
                promise: 'no-unhandled-failures',
                message: `an ${kind} happened during the schedule: ${describeError(error)}`,
              },
        );
      }
      if (violations.length > 0)
        throw new ScheduleFailed('provider', violations, numberedSteps(s.report()), lastStep(s), dir);
    });
    const claimed = (): PathCell[] =>
      capabilities === undefined
        ? []
        : claimedPaths({
            capabilities,
            ...(factory.outcomes ? { outcomes: factory.outcomes } : {}),
            streams: factory.streams ?? true,
            steers: offers.steer,
            resumes: offers.resume,
            maxRuns: options.schedule?.maxRuns ?? 3,
          });
    const unreached = (): PathCell[] => claimed().filter((cell) => !coverage.report()[cell]);
    let details = await fc.check(property, {
      numRuns: runs,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.path !== undefined ? { path: options.path } : {}),
      // A printed path already points at the shrunk schedule: replay it alone.
      endOnFailure: options.endOnFailure ?? options.path !== undefined,
    });
    if (invalidFixture) throw invalidFixture;
    const firstSeed = details.seed;
    // A rare path missed by bad luck is not the provider's fault: more rounds, seeded from the first
    // (so the same --seed runs the same rounds), look for it before the run fails for coverage.
    // A replay runs one schedule: it is about that schedule's promises, not about what the rest would reach.
    let topUps = 0;
    while (!details.failed && options.path === undefined && topUps < COVERAGE_TOP_UPS && unreached().length > 0) {
      topUps++;
      details = await fc.check(property, {
        numRuns: runs,
        seed: topUpSeed(firstSeed, topUps),
        endOnFailure: options.endOnFailure ?? false,
      });
    }
    const report = {
      provider: factory.name,
      runs,
      schedules,
      seed: details.failed ? details.seed : firstSeed,
      topUps,
      elapsedMs: performance.now() - began,
      coverage: coverage.report(),
      claimedPaths: claimed(),
    };
    const path = details.counterexamplePath ?? '';
    const rerun = rerunCommand(options.rerunAs ?? factory.module ?? factory.name, runs, report.seed, path);
    if (!details.failed) {
      const missing = options.path === undefined ? unreached() : [];
      if (missing.length === 0) return { ...report, ok: true };
      const message = `${missing.length} path(s) the provider claims were never reached in ${schedules} schedule(s) (${runs} asked for, then ${topUps} more round(s) of ${runs} looking for them), so the checks that need them never ran: ${missing.map((cell) => cell.slice('path:'.length)).join(', ')}. Run more schedules (--runs), or see docs/fuzzing.md ("Paths") for what each needs from the fixture`;
      return {
        ...report,
        ok: false,
        failure: {
          kind: 'coverage',
          seed: report.seed,
          path: '',
          schedule: null as unknown as LifecycleSchedule,
          violations: [{ promise: 'paths-reached', message }],
          steps: [],
          rerun: rerun.replace(/ --path $/, ''),
          step: '(none)',
        },
      };
    }
    const failed = details.errorInstance;
    const schedule = (details.counterexample?.[1] ?? null) as LifecycleSchedule;
    if (!(failed instanceof ScheduleFailed)) {
      // fast-check itself, or the arbitrary, blew up: still a suite failure with its seed and path, never a bare crash.
      const message = `the lifecycle suite itself failed outside any schedule step: ${describeError(failed)}`;
      return {
        ...report,
        ok: false,
        failure: {
          kind: 'suite',
          seed: details.seed,
          path,
          schedule,
          violations: [{ promise: 'suite-error', message }],
          steps: [],
          rerun,
          step: '(none)',
        },
      };
    }
    return {
      ...report,
      ok: false,
      failure: {
        kind: failed.kind,
        seed: details.seed,
        path,
        schedule,
        violations: failed.violations,
        steps: failed.steps,
        rerun,
        step: failed.step,
      },
    };
  } finally {
    watch.restore();
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Like `checkProviderLifecycle`, but throws `LIFECYCLE_VIOLATION` with the readable failure (seed, path, steps, rerun command). */
export async function assertProviderLifecycle(
  factory: ProviderFactory,
  options: LifecycleCheckOptions,
): Promise<ConformanceReport> {
  const report = await checkProviderLifecycle(factory, options);
  if (!report.ok) throw new FuzzError('LIFECYCLE_VIOLATION', formatConformanceFailure(report));
  return report;
}

/** Every key of `LifecycleCheckOptions`, and of its `schedule`: a misspelt `seed` would run another seed than the one to reproduce. */
const CHECK_OPTION_KEYS = optionKeys<LifecycleCheckOptions>({
  runs: true,
  seed: true,
  path: true,
  timeoutMs: true,
  schedule: true,
  endOnFailure: true,
  rerunAs: true,
  settleWaitMs: true,
});
const SCHEDULE_OPTION_KEYS = optionKeys<NonNullable<LifecycleCheckOptions['schedule']>>({
  maxRuns: true,
  startListenerFaults: true,
  endListenerFaults: true,
});

function validRuns(options: LifecycleCheckOptions): number {
  const unknown = unknownOption(options, CHECK_OPTION_KEYS, '', { schedule: SCHEDULE_OPTION_KEYS });
  if (unknown !== undefined) throw new FuzzError('INVALID_FUZZ_OPTIONS', `checkProviderLifecycle: ${unknown}`);
  if (!Number.isSafeInteger(options.runs) || options.runs < 1) {
    throw new FuzzError('INVALID_FUZZ_OPTIONS', `runs must be a positive integer, got ${String(options.runs)}`);
  }
  if (options.path !== undefined && options.seed === undefined) {
    throw new FuzzError(
      'INVALID_FUZZ_OPTIONS',
      `path ${JSON.stringify(options.path)} replays a failure only together with the seed it was printed with; pass both`,
    );
  }
  return fuzzRuns(options.runs);
}
