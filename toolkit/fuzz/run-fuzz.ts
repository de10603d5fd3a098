import { acpFactory } from './factories/acp-factory.js';
import { forkFactory, spawnFactory } from './factories/in-process-factories.js';
import { mockFactory } from './factories/mock-factory.js';
import { checkProviderLifecycle } from './check-provider-lifecycle.js';
import { formatCoverage } from './coverage.js';
import { formatConformanceFailure } from './format-failure.js';
import type { LifecycleCheckOptions, ProviderFactory } from './types.js';

/** The providers `nestcast fuzz` knows by name. */
export const FUZZ_PROVIDERS: Readonly<Record<string, ProviderFactory>> = {
  mock: mockFactory,
  spawn: spawnFactory,
  fork: forkFactory,
  acp: acpFactory,
};

/**
 * How many schedules a built-in provider gets by default. An ACP child is slow to start (about two
 * schedules a second), but 25 schedules did not reach every stop reason it claims; 100 do.
 */
export const DEFAULT_FUZZ_RUNS: Readonly<Record<string, number>> = { mock: 1000, spawn: 1000, fork: 1000, acp: 100 };

export interface FuzzIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const defaultIo: FuzzIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** What `nestcast fuzz` runs: the provider and the suite's options, as the CLI parsed them. */
export interface FuzzRun extends LifecycleCheckOptions {
  readonly factory: ProviderFactory;
  readonly coverage: boolean;
}

/** Runs the lifecycle suite on a provider and reports it; returns the exit code (0 every promise held, 1 one broke). */
export async function runFuzz(run: FuzzRun, io: FuzzIo = defaultIo): Promise<number> {
  const { factory, coverage, ...options } = run;
  io.stdout(
    `fuzzing provider "${factory.name}" with ${options.runs} schedule(s)${options.seed === undefined ? '' : `, seed ${options.seed}`}${options.path === undefined ? '' : `, path ${options.path}`}\n`,
  );
  const report = await checkProviderLifecycle(factory, options);
  if (coverage)
    io.stdout(
      `coverage (schedules reaching each act x phase):\n${formatCoverage(report.coverage, report.claimedPaths)}\n`,
    );
  if (!report.ok) {
    io.stderr(`${formatConformanceFailure(report)}\n`);
    return 1;
  }
  const rate = report.schedules / (report.elapsedMs / 1000);
  const topUps =
    report.topUps === 0 ? '' : `; ${report.topUps} more round(s) of ${report.runs} to reach every path it claims`;
  io.stdout(
    `ok: ${report.schedules} schedules kept every lifecycle promise (seed ${report.seed}, ${(report.elapsedMs / 1000).toFixed(1)} s, ${rate.toFixed(0)} schedules/s${topUps})\n`,
  );
  return 0;
}
