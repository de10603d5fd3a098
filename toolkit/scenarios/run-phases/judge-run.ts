import { normalizeSessions, type NormalizeContext } from '../../harvest/normalize.js';
import type { ModelSource } from '../model-source.js';
import type { RunScenarioOptions } from '../run-scenario.js';
import type { FailureList } from '../scenario-failure.js';
import type { ScenarioDefinition } from '../types.js';
import type { ProgramRun } from '../program/program-run.js';
import { addProgramFailure } from '../program/check-program.js';
import { addSourceFailures, checkLogs, checkRun, harvestChecked, leadWithTurnErrors } from './check-run.js';
import type { RunFolders } from './run-folders.js';
import { saveRecording } from './save-recording.js';

/** What a report counts of a run, set as each becomes known so a run that fails later still reports it. */
export interface RunTally {
  sessions: number;
  modelCalls: number;
  wroteTranscripts: boolean;
}

/**
 * After the steps: the model source's own failures, the session logs harvested and checked, the
 * evidence handed over, the run compared with what it should have been, and, for a run that
 * writes, the recording saved if nothing failed.
 */
export async function judgeRun(
  scenario: ScenarioDefinition,
  run: {
    readonly folders: RunFolders;
    readonly source: ModelSource;
    readonly options: RunScenarioOptions;
    readonly writing: boolean;
    /** A program scenario's run: its sessions are derived from its calls, and what it returned is checked. */
    readonly program?: ProgramRun | undefined;
  },
  failures: FailureList,
  tally: RunTally,
): Promise<void> {
  const { folders, source, options } = run;
  const result = await source.finish();
  tally.modelCalls = result.modelCalls;
  addSourceFailures(result, failures);
  const { program } = run;
  if (program?.outcome !== undefined && 'threw' in program.outcome) addProgramFailure(program.outcome.threw, failures);
  const harvested =
    program === undefined
      ? await harvestChecked(folders.sessionsRoot, failures)
      : checkLogs(
          program.sessions(result, folders).map((log) => ({ ...log, path: `(derived) ${log.header.lineage}` })),
          failures,
        );
  tally.sessions = harvested.length;
  const places: NormalizeContext = {
    cwd: folders.cwd,
    sessionsRoot: folders.sessionsRoot,
    tempDirs: [folders.workDir],
  };
  options.onEvidence?.({ sessions: harvested, places, cassette: result.cassette });
  const normalized = normalizeSessions(harvested, places);
  const checks = {
    recordingDir: folders.recordingDir,
    harvested,
    normalized,
    writing: run.writing,
    update: options.update === true,
    fromRecording: source.fromRecording,
    checkExpectations: options.checkExpectations !== false,
    recording: source.recording,
    ...(program?.outcome !== undefined && 'returned' in program.outcome ? { returned: program.outcome } : {}),
  };
  await checkRun(scenario, checks, failures);
  leadWithTurnErrors(scenario, result, harvested, failures);
  if (run.writing) tally.wroteTranscripts = await saveRecording(folders.recordingDir, result, normalized, failures);
}
