import { knownSecrets } from '../secrets/known-secrets.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { failureGroups, failureSummary, type FailureGroup } from './group-failures.js';
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
 * Every headline failure as `[CODE] message`, the failures it caused listed under it by their
 * first line, then the harness log of the run, if it kept one (an ACP child's stderr, say), with
 * every known secret masked: this is what vitest and thrown errors show.
 */
export function describeFailures(report: ScenarioReport): string {
  const blocks = failureGroups(report.failures).map(describeGroup);
  if (report.log !== undefined) blocks.push(`harness log:\n${report.log.join('\n')}`);
  return maskSecrets(blocks.join('\n\n'), knownSecrets());
}

/** `[CODE] message`, then `because of it:` and one `- [CODE] first line` per consequence. */
export function describeGroup({ headline, consequences }: FailureGroup): string {
  const lines = [`[${headline.code}] ${headline.message}`];
  if (consequences.length > 0) lines.push(consequencesLine(consequences.length));
  for (const failure of consequences) lines.push(`  - [${failure.code}] ${failureSummary(failure.message)}`);
  return lines.join('\n');
}

/** The line that introduces a headline's consequences. */
export function consequencesLine(count: number): string {
  return count === 1 ? 'and, because of it, 1 more failure:' : `and, because of it, ${count} more failures:`;
}
