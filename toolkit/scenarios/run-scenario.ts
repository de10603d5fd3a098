import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createMemoryLogger, type Logger } from '../../harness/runtime/logger.js';
import { compareTranscripts } from '../harvest/compare-transcripts.js';
import { CassetteError, type FailedCall } from '../cassette/cassette-error.js';
import type { Cassette } from '../cassette/types.js';
import { harvestSessions, type HarvestedSession } from '../harvest/collect-sessions.js';
import { formatTranscriptDiff } from '../harvest/format-transcript-diff.js';
import { normalizeSessions, type NormalizeContext } from '../harvest/normalize.js';
import { readTranscripts, writeTranscripts } from '../harvest/transcript.js';
import { TRANSCRIPTS_DIR } from '../harvest/transcript-files.js';
import { scrubKeyLikeEnv } from '../guard/scrub-key-env.js';
import { recoverInterruptedSwaps } from '../recording-folder/recover-swaps.js';
import { replaceFolder } from '../recording-folder/replace-folder.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import { checkExpectations } from './check-expectations.js';
import { driveSteps } from './drive-steps.js';
import { recordSource, replaySource, type ModelSource } from './model-source.js';
import { buildScenarioRuntime } from './scenario-runtime.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioDefinition } from './types.js';
import { makeWorkFolder, removeWorkFolder } from './work-folders.js';
import { describeLastEvents } from './verdict/last-events.js';
import type { Interruption } from './verdict/interruption.js';
import { scenarioDeadline, scenarioTimeout } from './verdict/scenario-deadline.js';

/** How long an interrupted run's runtime gets to dispose before the runner moves on. */
const DISPOSE_GRACE_MS = 2_000;

export interface RunScenarioOptions {
  /** `replay` (default): serve every model call from the recording; `record`: make the calls and save them. */
  readonly mode?: 'replay' | 'record';
  /** Folder holding one recording folder per scenario. Default `recordings`. */
  readonly recordingsDir?: string;
  /** Rewrite the expected transcripts from this run instead of comparing (implied by record). */
  readonly update?: boolean;
  readonly timing?: ReplayTiming;
  /** Record against this OpenAI-compatible API (key from DEEPSEEK_API_KEY) instead of the scenario's script. */
  readonly baseUrl?: string;
  /** Record against `baseUrl` with the key in this variable (default: the host's usual one, else DEEPSEEK_API_KEY). */
  readonly apiKeyEnv?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Check the scenario's `expect` (default true). The live tier turns it off: a real model picks its own words and ids. */
  readonly checkExpectations?: boolean;
  /** Where the harness reports what it contained. Default: kept in memory and attached to a failure. */
  readonly logger?: Logger;
  /** Seconds before the run fails with SCENARIO_TIMEOUT, unless the scenario sets its own `timeout`. Default 60. */
  readonly timeout?: number;
  /** Settles when the run must stop now (a drained event loop, `process.exit`): see `runScenarioToVerdict`. */
  readonly interrupt?: Promise<Interruption>;
  /** Called with what the run left behind (session logs, model calls) before its folder is removed: what a report is built from. */
  readonly onEvidence?: (evidence: RunEvidence) => void;
}

/** What one run leaves behind for a report. */
export interface RunEvidence {
  /** Every session log of the run, in lineage order, with the run's own times. */
  readonly sessions: readonly HarvestedSession[];
  /** Where the run lived, to turn its folders into placeholders (as the transcripts do). */
  readonly places: NormalizeContext;
  /** The model calls served (replay) or made (record). */
  readonly cassette?: Cassette;
}

/** One failure of a scenario run: a stable code and a message that names the scenario, where, and what to do. */
export interface ScenarioFailure {
  readonly code: string;
  readonly message: string;
  /** The model call a replay failure is about (REQUEST_MISMATCH, CASSETTE_EXHAUSTED, UNRECORDED_SESSION). */
  readonly failedCall?: FailedCall;
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
}

/**
 * Runs one scenario in a private temporary folder (sessions root, workspace), then checks it:
 * every model call served and consumed (replay) or saved (record), no request escaped, every
 * session log passes the invariants, the transcripts equal the committed ones, and the
 * scenario's expectations hold. Never throws for a scenario failure: it is in the report.
 */
export async function runScenario(scenario: ScenarioDefinition, options: RunScenarioOptions = {}): Promise<ScenarioReport> {
  const started = performance.now();
  const mode = options.mode ?? 'replay';
  // Absolute: out-of-process children run in the scenario's workspace, not here.
  const recordingDir = resolve(options.recordingsDir ?? 'recordings', scenario.name);
  // A save another run of this folder left half-done is finished first, so this run sees it whole.
  recoverInterruptedSwaps(recordingDir);
  // Replay is keyless for library callers too: restored when the run ends.
  const restoreEnv = mode === 'replay' ? scrubKeyLikeEnv(process.env) : () => undefined;
  const workDir = await makeWorkFolder(scenario.name);
  const sessionsRoot = join(workDir, 'sessions');
  const cwd = join(workDir, 'workspace');
  await mkdir(sessionsRoot, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const logger = options.logger ?? createMemoryLogger();
  const failures: ScenarioFailure[] = [];
  // Once per scenario: a client that retries meets the same replay failure several times.
  const fail = (code: string, message: string, failedCall?: FailedCall) => {
    const failure = { code, message: `${scenario.name}: ${message}`, ...(failedCall !== undefined ? { failedCall } : {}) };
    if (!failures.some((seen) => seen.code === failure.code && seen.message === failure.message)) failures.push(failure);
  };
  const recordCommand = `nestcast record ${scenario.name}`;
  let source: ModelSource | undefined;
  let sessions = 0;
  let modelCalls = 0;
  let wroteTranscripts = false;
  const deadline = scenarioDeadline(scenarioTimeout(scenario.timeout, options.timeout));
  try {
    const sourceOptions = {
      scenario,
      recordingDir,
      workDir,
      env: options.env ?? process.env,
      ...(options.timing !== undefined ? { timing: options.timing } : {}),
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.apiKeyEnv !== undefined ? { apiKeyEnv: options.apiKeyEnv } : {}),
    };
    source = mode === 'record' ? await recordSource(sourceOptions) : await replaySource(sourceOptions);
    const { runtime, modelStream } = await buildScenarioRuntime(scenario, { sessionsRoot, source, logger });
    let interrupted: Interruption | undefined;
    let lastEvents = '';
    try {
      const driven = (async () => {
        const session = await runtime.sessions.create({ lineage: 'main', cwd });
        const agent = runtime.agents.create({
          session,
          ...(scenario.agent?.system !== undefined ? { system: scenario.agent.system } : {}),
          ...(scenario.agent?.model !== undefined ? { model: scenario.agent.model } : {}),
          ...(scenario.agent?.maxSteps !== undefined ? { maxSteps: scenario.agent.maxSteps } : {}),
        });
        await driveSteps(agent, scenario.steps, { runtime, modelStream });
        return undefined;
      })();
      // Whatever the abandoned run does later is no longer this report's business.
      driven.catch(() => undefined);
      interrupted = await Promise.race([driven, deadline.interrupted, ...(options.interrupt ? [options.interrupt] : [])]);
      // Read before disposal, which ends every turn and would hide where the run stood.
      if (interrupted) lastEvents = await describeLastEvents(sessionsRoot);
    } finally {
      deadline.cancel();
      if (interrupted === undefined) await runtime.dispose();
      else await disposeWithin(runtime, DISPOSE_GRACE_MS);
    }
    if (interrupted !== undefined) {
      fail(interrupted.code, `${interrupted.message}. Last event of each session: ${lastEvents}`);
      throw new Interrupted();
    }
    const result = await source.finish();
    modelCalls = result.modelCalls;
    for (const failure of result.failures) fail(codeOf(failure), failure.message, failure instanceof CassetteError ? failure.failedCall : undefined);

    const harvested = await harvestSessions(sessionsRoot);
    sessions = harvested.length;
    for (const log of harvested) {
      for (const violation of log.violations) {
        fail('INVARIANT_VIOLATION', `session "${log.header.lineage}" breaks [${violation.rule}] at seq ${violation.seq ?? '-'}: ${violation.message}`);
      }
    }
    const places = { cwd, sessionsRoot, tempDirs: [workDir] };
    options.onEvidence?.({ sessions: harvested, places, cassette: result.cassette });
    const normalized = normalizeSessions(harvested, places);
    const writing = mode === 'record' || options.update === true;
    const callsDiverged = failures.length > 0;
    if (!writing) {
      const diff = compareTranscripts(await readTranscripts(join(recordingDir, TRANSCRIPTS_DIR), { regenerate: `Record them with: ${recordCommand}` }), normalized);
      // --update rewrites transcripts only: it fixes a difference only when the recorded calls still match.
      const accept = callsDiverged || source.fromRecording === false ? recordCommand : `nestcast run ${scenario.name} --update`;
      if (diff) fail('TRANSCRIPT_MISMATCH', formatTranscriptDiff(diff, scenario.name, { accept }));
    }
    if (options.update === true && source.fromRecording === false) {
      fail(
        'NOT_RECORDED',
        `--update would write transcripts for calls nothing matches: ${recordingDir} has no recorded calls, so replay serves the authored script as it is. Record it with: ${recordCommand}`,
      );
    }
    if (options.checkExpectations !== false) {
      for (const problem of checkExpectations(scenario.expect, harvested)) fail('EXPECTATION_FAILED', problem);
    }
    // A failed run in which no model call was refused (at most some were left unconsumed) shows
    // first what each session's turns ended with: the adapter's protocol error is then the cause
    // the other failures only show the effect of. A refused call is the cause itself, shown already.
    const refused = result.failures.some((failure) => codeOf(failure) !== 'UNCONSUMED_CALLS');
    if (failures.length > 0 && !refused) {
      const causes: ScenarioFailure[] = [];
      for (const log of harvested) {
        // A session the scenario expects to end in error is the scenario working, not a cause.
        if (scenario.expect?.turnEnd?.[log.header.lineage] === 'error') continue;
        for (const event of log.events) {
          if (event.type !== 'turn/end' || event.data.reason !== 'error' || !event.data.error) continue;
          const { code, message } = event.data.error;
          causes.push({ code: 'TURN_ERROR', message: `${scenario.name}: session "${log.header.lineage}" ended a turn with ${code}: ${message}` });
        }
      }
      failures.unshift(...causes);
    }
    // A recording is saved whole or not at all: calls and transcripts only for a run that passed,
    // so re-recording a broken scenario never replaces a good recording with half of a bad one.
    if (writing && failures.length > 0) {
      fail('NOT_SAVED', `nothing was written to ${recordingDir}: fix the failures above, then run the command again`);
    } else if (writing) {
      // Calls, meta and transcripts swapped in as one folder: a kill or a write error leaves the old one whole.
      await replaceFolder(recordingDir, async (staged) => {
        await result.save?.(staged);
        await writeTranscripts(join(staged, TRANSCRIPTS_DIR), normalized);
      });
      wroteTranscripts = true;
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) fail(codeOf(error), error instanceof Error ? error.message : String(error));
    if (mode === 'record' || options.update === true) {
      fail('NOT_SAVED', `nothing was written to ${recordingDir}: fix the failures above, then run the command again`);
    }
  } finally {
    deadline.cancel();
    await source?.close().catch(() => undefined);
    await removeWorkFolder(workDir);
    restoreEnv();
  }
  return {
    name: scenario.name,
    mode,
    source: source?.describe ?? 'none',
    sessions,
    modelCalls,
    passed: failures.length === 0,
    failures,
    durationMs: performance.now() - started,
    wroteTranscripts,
  };
}

/** Ends the checks of an interrupted run: its failure is already in the report. */
class Interrupted extends Error {}

/** Disposes, but gives up after `ms` (a tool that never settles may hold disposal forever). The timer is ref'd on purpose: the grace must elapse. */
async function disposeWithin(runtime: { dispose(): Promise<void> }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([runtime.dispose().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'ERROR';
}

/** Throws a `ScenarioError` carrying every failure of the report; for test runners. */
export function assertScenarioPassed(report: ScenarioReport): void {
  if (report.passed) return;
  const [first] = report.failures;
  throw new ScenarioError(
    first?.code === 'TRANSCRIPT_MISMATCH' ? 'TRANSCRIPT_MISMATCH' : 'EXPECTATION_FAILED',
    report.failures.map((failure) => `[${failure.code}] ${failure.message}`).join('\n\n'),
  );
}
