import type { Logger } from '../../harness/runtime/logger.js';
import type { Cassette } from '../cassette/types.js';
import type { HarvestedSession } from '../harvest/collect-sessions.js';
import type { NormalizeContext } from '../harvest/normalize.js';
import { scrubKeyLikeEnv } from '../guard/scrub-key-env.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import type { ModelSource } from './model-source.js';
import { captureLog } from './run-phases/captured-log.js';
import { driveScenario } from './run-phases/drive-scenario.js';
import { judgeRun, type RunTally } from './run-phases/judge-run.js';
import { openModelSource } from './run-phases/open-model-source.js';
import { closeRunFolders, openRunFolders } from './run-phases/run-folders.js';
import { refuseToSave } from './run-phases/save-recording.js';
import { refuseLinks } from '../recording-folder/refuse-links.js';
import { lockRecording, tookOverSentence, type RecordingLock } from '../recording-folder/recording-lock.js';
import { ScenarioError, ScenarioFailedError } from './scenario-error.js';
import { optionKeys, unknownOption } from '../../harness/option-keys.js';
import { failureList, type ScenarioFailure } from './scenario-failure.js';
import { isProgramScenario, type HarnessScenario, type ScenarioDefinition } from './types.js';
import { openProgramRun, type ProgramRun } from './program/program-run.js';
import { groupByCause } from './group-failures.js';
import type { Interruption } from './verdict/interruption.js';
import { describeFailures } from './scenario-report.js';
import { scenarioDeadline, scenarioTimeout } from './verdict/scenario-deadline.js';

export type { ScenarioFailure, ScenarioFailureCode } from './scenario-failure.js';

export interface RunScenarioOptions {
  /** `replay` (default): serve every model call from the recording; `record`: make the calls and save them. */
  readonly mode?: 'replay' | 'record';
  /** Folder holding one recording folder per scenario. Default `recordings`. */
  readonly recordingsDir?: string;
  /** Rewrite the expected transcripts from this run instead of comparing (implied by record). */
  readonly update?: boolean;
  readonly timing?: ReplayTiming;
  /** Record against this OpenAI-compatible API (its key: see `apiKeyEnv`) instead of the scenario's script. */
  readonly baseUrl?: string;
  /**
   * Record: the model name every session sends unless the scenario's `agent.model` names one
   * (replay then sends what the recording was made with). Required for a harness scenario
   * recorded against an API other than DeepSeek's, unless `agent.model` is set (MODEL_REQUIRED).
   * A program scenario sends what its code names, and refuses one (MODEL_NOT_APPLICABLE).
   */
  readonly model?: string;
  /** Record against `baseUrl` with the key in this variable (default: the host's usual one, else DEEPSEEK_API_KEY). */
  readonly apiKeyEnv?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Check the scenario's `expect` (default true). The live tier turns it off: a real model picks its own words and ids. */
  readonly checkExpectations?: boolean;
  /** Where the harness reports what it contained. Default: kept in memory, and a failed run's report carries it as `log`. */
  readonly logger?: Logger;
  /** Seconds before the run fails with SCENARIO_TIMEOUT, unless the scenario sets its own `timeout`. Default 60. */
  readonly timeout?: number;
  /** Settles when the run must stop now (a drained event loop, `process.exit`): see `runScenarioToVerdict`. */
  readonly interrupt?: Promise<Interruption>;
  /** Called with what the run left behind (session logs, model calls) before its folder is removed: what a report is built from. */
  readonly onEvidence?: (evidence: RunEvidence) => void;
}

/** Every key of `RunScenarioOptions`: any other is refused (`OPTIONS_INVALID`). */
export const RUN_SCENARIO_OPTION_KEYS = optionKeys<RunScenarioOptions>({
  mode: true,
  recordingsDir: true,
  update: true,
  timing: true,
  baseUrl: true,
  model: true,
  apiKeyEnv: true,
  env: true,
  checkExpectations: true,
  logger: true,
  timeout: true,
  interrupt: true,
  onEvidence: true,
});

/** What one run leaves behind for a report. */
export interface RunEvidence {
  /** Every session log of the run, in lineage order, with the run's own times. */
  readonly sessions: readonly HarvestedSession[];
  /** Where the run lived, to turn its folders into placeholders (as the transcripts do). */
  readonly places: NormalizeContext;
  /** The model calls served (replay) or made (record). */
  readonly cassette?: Cassette;
}

export interface ScenarioReport {
  readonly name: string;
  readonly mode: 'replay' | 'record';
  /** Where the model calls came from. */
  readonly source: string;
  readonly sessions: number;
  readonly modelCalls: number;
  readonly passed: boolean;
  readonly failures: readonly ScenarioFailure[];
  readonly durationMs: number;
  /** Expected transcripts written by this run (record or --update). */
  readonly wroteTranscripts: boolean;
  /** A failed run's harness log (`warn: …` lines), when no `logger` was given and it logged anything. */
  readonly log?: readonly string[];
  /** What nestcast repaired or took over before the run (an interrupted save completed, a dead writer's lock), as sentences. */
  readonly notes?: readonly string[];
}

/**
 * Runs one scenario in a private temporary folder (sessions root, workspace), then checks it:
 * every model call served and consumed (replay) or saved (record), no request escaped, every
 * session log passes the invariants, the transcripts equal the committed ones, and the
 * scenario's expectations hold. Never throws for a scenario failure: it is in the report.
 */
export async function runScenario(
  scenario: ScenarioDefinition,
  options: RunScenarioOptions = {},
): Promise<ScenarioReport> {
  // A misspelt `recordingsDir` would replay another folder's recording.
  const unknown = unknownOption(options, RUN_SCENARIO_OPTION_KEYS);
  if (unknown !== undefined) throw new ScenarioError('OPTIONS_INVALID', `runScenario: ${unknown}.`);
  const started = performance.now();
  const mode = options.mode ?? 'replay';
  const writing = mode === 'record' || options.update === true;
  const failures = failureList(scenario.name);
  const tally: RunTally = { sessions: 0, modelCalls: 0, wroteTranscripts: false };
  const folders = await openRunFolders(scenario.name, options.recordingsDir);
  // Replay is keyless for library callers too: restored when the run ends.
  const restoreEnv = mode === 'replay' ? scrubKeyLikeEnv(process.env) : () => undefined;
  const log = captureLog(options.logger);
  const deadline = scenarioDeadline(scenarioTimeout(scenario.timeout, options.timeout));
  let source: ModelSource | undefined;
  let program: ProgramRun | undefined;
  const notes = [...folders.repaired];
  let lock: RecordingLock | undefined;
  try {
    if (writing) {
      // Refused before the run rather than after it: the save would refuse it anyway (see replaceFolder).
      refuseLinks(folders.recordingDir);
      // Held for the whole run, so a second writer fails fast instead of after running.
      lock = lockRecording(folders.recordingDir);
      if (lock.tookOver !== undefined) notes.push(tookOverSentence(folders.recordingDir, lock.tookOver));
    }
    if (isProgramScenario(scenario)) program = await openProgramRun(mode, folders.cwd);
    source = await openModelSource(scenario, folders, { ...options, mode }, program?.sourceOptions);
    const driving = { folders, source, deadline, interrupt: options.interrupt };
    const interrupted =
      program !== undefined && isProgramScenario(scenario)
        ? await program.drive(scenario, driving)
        : await driveScenario(scenario as HarnessScenario, { ...driving, logger: log.logger });
    if (interrupted !== undefined) failures.add(interrupted.code, interrupted.message);
    else await judgeRun(scenario, { folders, source, options, writing, program }, failures, tally);
  } catch (error) {
    failures.addThrown(error);
  } finally {
    deadline.cancel();
    // A source that cannot close (its model server, its guard) fails the run: a teardown error is never dropped.
    await program?.close().catch((error: unknown) => failures.addThrown(error));
    await source?.close().catch((error: unknown) => failures.addThrown(error));
    await closeRunFolders(folders, { passed: failures.all.length === 0 });
    lock?.release();
    restoreEnv();
  }
  if (writing && failures.all.length > 0 && !tally.wroteTranscripts) refuseToSave(folders.recordingDir, failures);
  return {
    name: scenario.name,
    mode,
    source: source?.describe ?? 'none',
    sessions: tally.sessions,
    modelCalls: tally.modelCalls,
    passed: failures.all.length === 0,
    failures: groupByCause(failures.all),
    durationMs: performance.now() - started,
    wroteTranscripts: tally.wroteTranscripts,
    ...(failures.all.length > 0 && log.lines.length > 0 ? { log: [...log.lines] } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * Throws a `ScenarioError` carrying every failure of the report, for test runners: its code is
 * the first failure's own (REQUEST_MISMATCH stays REQUEST_MISMATCH), its cause that failure's
 * error where the run had one, and its message every failure, then the harness log.
 */
export function assertScenarioPassed(report: ScenarioReport): void {
  if (report.passed) return;
  const [first] = report.failures;
  throw new ScenarioFailedError(
    first?.code ?? 'ERROR',
    describeFailures(report),
    first?.cause !== undefined ? { cause: first.cause } : undefined,
  );
}
