import { CassetteError } from '../../errors/cassette-error.js';
import { compareTranscripts } from '../../harvest/compare-transcripts.js';
import type { HarvestedSession } from '../../harvest/collect-sessions.js';
import { harvestSessions } from '../../harvest/collect-sessions.js';
import { formatTranscriptDiff } from '../../harvest/format-transcript-diff.js';
import type { NormalizedSession } from '../../harvest/normalize.js';
import { readTranscripts } from '../../harvest/transcript.js';
import { TRANSCRIPTS_DIR } from '../../harvest/transcript-files.js';
import { join } from 'node:path';
import { checkExpectations } from '../check-expectations.js';
import type { RecordingFiles } from '../../recording-folder/read-recording.js';
import type { ModelSourceResult } from '../model-source.js';
import { ScenarioError } from '../scenario-error.js';
import { codeOf, type FailureList } from '../scenario-failure.js';
import { isProgramScenario, type ScenarioDefinition } from '../types.js';
import { checkProgramResult } from '../program/check-program.js';
import { checkInvariants, type LoadedSessionLog } from '../../../harness/session/index.js';

/** Each failure the model source saw (a refused call, an unconsumed recording), with its own code and the error as cause. */
export function addSourceFailures(result: ModelSourceResult, failures: FailureList): void {
  for (const failure of result.failures) {
    failures.add(codeOf(failure), failure.message, {
      cause: failure,
      ...(failure instanceof CassetteError && failure.failedCall !== undefined
        ? { failedCall: failure.failedCall }
        : {}),
      ...((failure instanceof CassetteError || failure instanceof ScenarioError) && failure.sessions !== undefined
        ? { sessions: failure.sessions }
        : {}),
    });
  }
}

/** Every session log of the run, each checked against the log invariants. */
export async function harvestChecked(sessionsRoot: string, failures: FailureList): Promise<HarvestedSession[]> {
  return checkLogs(await harvestSessions(sessionsRoot), failures);
}

/** Session logs (harvested, or derived from a program's calls), each checked against the log invariants. */
export function checkLogs(logs: readonly LoadedSessionLog[], failures: FailureList): HarvestedSession[] {
  const harvested = logs.map((log) => ({ ...log, violations: checkInvariants(log, { finished: true }) }));
  for (const log of harvested) {
    for (const violation of log.violations) {
      failures.add(
        'INVARIANT_VIOLATION',
        `session "${log.header.lineage}" breaks [${violation.rule}] at seq ${violation.seq ?? '-'}: ${violation.message}`,
      );
    }
  }
  return harvested;
}

/**
 * The run against what it should have been: the committed transcripts (unless this run writes
 * them), a recording to --update against, and the scenario's expectations.
 */
export async function checkRun(
  scenario: ScenarioDefinition,
  run: {
    readonly recordingDir: string;
    readonly harvested: readonly HarvestedSession[];
    readonly normalized: readonly NormalizedSession[];
    readonly writing: boolean;
    readonly update: boolean;
    readonly fromRecording: boolean | undefined;
    readonly checkExpectations: boolean;
    /** The version of the recording the run replayed (see readRecording). */
    readonly recording: RecordingFiles | undefined;
    /** What a program scenario's program returned. */
    readonly returned?: { readonly returned: unknown };
  },
  failures: FailureList,
): Promise<void> {
  const recordCommand = `nestcast record ${scenario.name}`;
  if (!run.writing) {
    const callsDiverged = failures.all.length > 0;
    const expected = await readTranscripts(join(run.recordingDir, TRANSCRIPTS_DIR), {
      regenerate: `Record them with: ${recordCommand}`,
      ...(run.recording === undefined ? {} : { files: run.recording }),
    });
    const diff = compareTranscripts(expected, run.normalized);
    // --update rewrites transcripts only: it fixes a difference only when the recorded calls still match.
    const accept =
      callsDiverged || run.fromRecording === false ? recordCommand : `nestcast run ${scenario.name} --update`;
    if (diff) failures.add('TRANSCRIPT_MISMATCH', formatTranscriptDiff(diff, scenario.name, { accept }));
  }
  if (run.update && run.fromRecording === false) {
    failures.add(
      'NOT_RECORDED',
      `--update would write transcripts for calls nothing matches: ${run.recordingDir} has no recorded calls, so replay serves the authored script as it is. Record it with: ${recordCommand}`,
    );
  }
  if (run.checkExpectations) {
    for (const problem of checkExpectations(scenario.expect, run.harvested))
      failures.add('EXPECTATION_FAILED', problem);
    if (run.returned !== undefined && isProgramScenario(scenario)) {
      for (const problem of checkProgramResult(scenario.expect, run.returned.returned))
        failures.add('EXPECTATION_FAILED', problem);
    }
  }
}

/**
 * A failed run in which no model call was refused (at most some were left unconsumed) shows
 * first what each session's turns ended with: the adapter's protocol error is then the cause
 * the other failures only show the effect of. A refused call is the cause itself, shown already.
 */
export function leadWithTurnErrors(
  scenario: ScenarioDefinition,
  result: ModelSourceResult,
  harvested: readonly HarvestedSession[],
  failures: FailureList,
): void {
  const refused = result.failures.some((failure) => codeOf(failure) !== 'UNCONSUMED_CALLS');
  if (failures.all.length === 0 || refused) return;
  const causes = [];
  for (const log of harvested) {
    // A session the scenario expects to end in error is the scenario working, not a cause.
    if (scenario.expect?.turnEnd?.[log.header.lineage] === 'error') continue;
    for (const event of log.events) {
      if (event.type !== 'turn/end' || event.data.reason !== 'error' || !event.data.error) continue;
      const { code, message } = event.data.error;
      causes.push({
        code: 'TURN_ERROR' as const,
        message: `session "${log.header.lineage}" ended a turn with ${code}: ${message}`,
        sessions: [log.header.lineage],
      });
    }
  }
  failures.lead(causes);
}
