import { knownSecrets } from '../secrets/known-secrets.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import type { ScenarioFailureCode, ScenarioReport } from './run-scenario.js';

// What a report says, in a module of its own: the CLI's reporters and the parent of workers use
// it without loading the runner.

/** The report of a scenario that never reached `runScenario`'s end: one failure, nothing counted. */
export function failedReport(
  name: string,
  mode: ScenarioReport['mode'],
  failure: { readonly code: ScenarioFailureCode; readonly message: string },
  durationMs: number,
): ScenarioReport {
  return {
    name,
    mode,
    source: 'none',
    sessions: 0,
    modelCalls: 0,
    passed: false,
    failures: [{ code: failure.code, message: `${name}: ${failure.message}` }],
    durationMs,
    wroteTranscripts: false,
  };
}

/**
 * Every failure as `[CODE] message`, then the harness log of the run, if it kept one (an ACP
 * child's stderr, say), with every known secret masked: this is what vitest and thrown errors show.
 */
export function describeFailures(report: ScenarioReport): string {
  const blocks = report.failures.map((failure) => `[${failure.code}] ${failure.message}`);
  if (report.log !== undefined) blocks.push(`harness log:\n${report.log.join('\n')}`);
  return maskSecrets(blocks.join('\n\n'), knownSecrets());
}
