import { join } from 'node:path';
import { compileScript } from '../authored/compile-script.js';
import { CassetteError } from '../errors/cassette-error.js';
import { namedList } from '../errors/named-list.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { readRecording, type RecordingFiles } from '../recording-folder/read-recording.js';
import { saveCassette, writeCassetteInto, type SaveResult } from '../cassette/save-cassette.js';
import type { Cassette } from '../cassette/types.js';
import type { Normalisation, NormalisationHook } from '../normalisation/types.js';
import type { NetworkGuard } from '../guard/network-guard.js';
import { startModelServer, type ModelServer } from '../model-server/model-server.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import { MODEL_SERVER_STAND_IN, redirectingFetch } from '../record/redirecting-fetch.js';
import { createReplayingFetch, type ServedCall } from '../replay/replaying-fetch.js';
import { unconsumedCalls, type Consumption } from '../replay/replay-messages.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import type { OpenAcpChannel } from '../../providers/acp/acp-channel.js';
import { spawnAcpChild } from '../../providers/acp/acp-child-process.js';
import { loadAcpCassette } from '../acp-cassette/load-acp-cassette.js';
import { ProtocolRecorder } from '../acp-cassette/protocol-recorder.js';
import { ProtocolReplay } from '../acp-cassette/replay-channel.js';
import { refuseSecrets as refuseAcpSecrets, writeAcpCassette } from '../acp-cassette/write-acp-cassette.js';
import { joinChildRecordings, readChildReplays, runOutbox } from '../outbox/outbox.js';
import { keyLikeEnvSecrets } from '../secrets/key-like-env.js';
import { rememberSecret } from '../secrets/known-secrets.js';
import { stripUrlCredentials } from '../secrets/strip-url-credentials.js';
import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import { unexpectedCallFailures } from './unexpected-call-failures.js';
import { apiKeyVariable, DEFAULT_KEY_VARIABLE } from './api-key-variable.js';
import { watchChildStarts } from './child-starts.js';
import { ScenarioError } from './scenario-error.js';
import { scriptFingerprint } from '../authored/script-fingerprint.js';
import { scriptChanges } from './script-changes.js';
import type { AuthoredScript } from '../authored/types.js';

const DEEPSEEK_BASE_URL = 'https://api.deepseek.com';
import { isProgramScenario, type AcpCassetteKind, type ScenarioDefinition } from './types.js';
import { DEFAULT_MODEL } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';

/** Where a run's model calls come from and go to, and what is checked or written after the run. */
export interface ModelSource {
  readonly fetch: typeof fetch;
  readonly baseUrl: string;
  readonly apiKey?: string;
  /**
   * The model name sessions send when the scenario's `agent.model` names none: `record --model`,
   * or in replay the model the recording was made with. Undefined: the adapter's default.
   */
  readonly model?: string;
  /** Environment for out-of-process children: mode, cassette, outbox (made by this call). */
  childEnv(): Readonly<Record<string, string>>;
  /**
   * How an ACP provider's children are opened, by what is recorded of them. `protocol`: their
   * exchanges recorded, or replayed in process. `model-calls`: their command spawned, watched for
   * a child that could not be started (CHILD_NOT_STARTED).
   */
  acpChannel(cassette: AcpCassetteKind): OpenAcpChannel;
  /** One line for the progress output, e.g. `replay of recorded calls (127.0.0.1)`. */
  readonly describe: string;
  /** Replay: whether calls come from a saved recording (else from the authored script, unmatched). */
  readonly fromRecording?: boolean;
  /** Replay: the one version of the recording folder this run reads, calls to transcripts (see readRecording). */
  readonly recording?: RecordingFiles;
  /** After the run: every replay failure and unconsumed call (replay), or the recording ready to save (record). */
  finish(): Promise<ModelSourceResult>;
  /** Releases servers and guards; safe after a failed run. */
  close(): Promise<void>;
}

export interface ModelSourceResult {
  readonly failures: readonly Error[];
  readonly modelCalls: number;
  /** Record: writes the cassette into `dir` (scanned for secrets first). The runner calls it only for a run that passed. */
  readonly save?: (dir: string) => Promise<SaveResult>;
  /** The calls the run was served (replay) or made (record), for reports. */
  readonly cassette: Cassette;
}

export interface ModelSourceOptions {
  readonly scenario: ScenarioDefinition;
  /** `recordings/<scenario>`. */
  readonly recordingDir: string;
  /** A private folder of this run (children leave reports here). */
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timing?: ReplayTiming;
  /** Record against this OpenAI-compatible API instead of the scenario's script. */
  readonly baseUrl?: string;
  /** The variable holding that API's key. Default: the host's usual one (`apiKeyVariable`). */
  readonly apiKeyEnv?: string;
  /** Record: the model name every session sends unless the scenario's `agent.model` names one. */
  readonly model?: string;
  /** Replay: told of each call answered, as it is answered (a program scenario's transcripts are built from them). */
  readonly onServed?: (served: ServedCall) => void;
  /** Replay: requests the network guard lets through (a program scenario's own loopback endpoint). */
  readonly allow?: (url: URL) => boolean;
  /** Applied to every request after the scenario's rules, in record and replay alike (a program scenario's `<cwd>`). */
  readonly hook?: NormalisationHook;
}

/** The scenario's rules and the run's hook, as the recording or replaying fetch takes them (none: no key). */
function normalisationOf(options: ModelSourceOptions): { normalise?: Normalisation } {
  const rules = options.scenario.normalise;
  if (rules === undefined && options.hook === undefined) return {};
  return {
    normalise: {
      ...(rules === undefined ? {} : { rules }),
      ...(options.hook === undefined ? {} : { hook: options.hook }),
    },
  };
}

/** Replays the recording, or the authored script when the scenario has no recording yet. */
export async function replaySource(options: ModelSourceOptions): Promise<ModelSource> {
  // msw loads with replay's guard only: a recording never arms one (about 0.3 s of CPU to load).
  const { installNetworkGuard } = await import('../guard/network-guard.js');
  const recordHint = `nestcast record ${options.scenario.name}`;
  // Read once, whole: a re-record swapping the folder in meanwhile never mixes two versions in one run.
  const recording = readRecording(options.recordingDir);
  const cassette = await cassetteFor(options, recording, recordHint);
  refuseChangedScript(options.scenario, cassette, recordHint);
  const replay = createReplayingFetch(cassette, {
    mode: hasAuthoredCalls(cassette) ? 'sequence' : 'strict',
    timing: options.timing ?? 'instant',
    recordHint,
    ...normalisationOf(options),
    ...(options.onServed === undefined ? {} : { onServed: options.onServed }),
  });
  const outbox = runOutbox(options.workDir);
  let cassetteDir = options.recordingDir;
  let childCassetteDir: string | undefined;
  if (cassette.provenance.source === 'authored' && cassette.location === undefined) {
    cassetteDir = childCassetteDir = join(options.workDir, 'authored-cassette');
    await saveCassette(cassetteDir, cassette);
  }
  // A child reads a folder itself: given the version this run read, written out when the first child starts.
  const childCassette = (): string => {
    if (childCassetteDir === undefined) {
      childCassetteDir = join(options.workDir, 'recording');
      recording.copyTo(childCassetteDir);
    }
    return childCassetteDir;
  };
  const protocol = new ProtocolReplay(await loadAcpCassette(recording, recordHint), {
    recordHint,
    location: options.recordingDir,
    timing: options.timing ?? 'instant',
  });
  const starts = watchChildStarts('replay');
  const guard: NetworkGuard = installNetworkGuard(options.allow === undefined ? {} : { allow: options.allow });
  // Never reached: the replaying fetch answers everything, and the guard fails anything else. The
  // client gets the URL it was recorded with, so whatever quotes it (an error message) is unchanged.
  const baseUrl =
    cassette.provenance.baseUrl ??
    (cassette.provenance.source === 'authored' ? MODEL_SERVER_STAND_IN : DEEPSEEK_BASE_URL);
  return {
    fetch: replay,
    baseUrl,
    childEnv: () => ({
      [CHILD_ENV.mode]: 'replay',
      [CHILD_ENV.cassette]: childCassette(),
      [CHILD_ENV.outbox]: outbox.make(),
      [CHILD_ENV.recordHint]: recordHint,
      DEEPSEEK_BASE_URL: baseUrl,
    }),
    acpChannel: (kind) => (kind === 'protocol' ? protocol.channel : starts.watch(spawnAcpChild)),
    describe:
      cassette.provenance.source === 'authored' && cassette.location === undefined
        ? 'authored script (no recording yet)'
        : `recording at ${options.recordingDir}`,
    fromRecording: cassette.location !== undefined,
    // Sent again as recorded (`record --model`): the requests then match.
    ...(cassette.location !== undefined && cassette.provenance.model !== undefined
      ? { model: cassette.provenance.model }
      : {}),
    recording,
    async finish() {
      const children = await readChildReplays(outbox.path);
      const report = replay.report();
      const failures: Error[] = [
        ...starts.failures(),
        ...report.failures,
        ...children.failures,
        ...protocol.failures(),
      ];
      const consumed = new Map<string, Consumption>();
      for (const session of [...report.sessions, ...children.sessions]) {
        const seen = consumed.get(session.lineage);
        if (!seen || session.consumed > seen.consumed) consumed.set(session.lineage, session);
      }
      const left = [...consumed.values()].filter((session) => session.consumed < session.total);
      if (failures.length === 0 && left.length > 0) {
        failures.push(unconsumedCalls(left, { location: `the cassette at ${cassetteDir}`, recordHint }));
      }
      try {
        guard.assertNoEscapes();
      } catch (error) {
        failures.push(error as Error);
      }
      const modelCalls = [...consumed.values()].reduce((sum, session) => sum + session.consumed, 0);
      return { failures, modelCalls, cassette };
    },
    async close() {
      guard.close();
    },
  };
}

/**
 * Records through the real adapter: against the scenario's authored script served by a loopback
 * model server (keyless), or against a real API (`baseUrl`, key from DEEPSEEK_API_KEY).
 */
export async function recordSource(options: ModelSourceOptions): Promise<ModelSource> {
  const { scenario, env } = options;
  refuseModelForProgram(scenario, options.model);
  let server: ModelServer | undefined;
  let baseUrl: string;
  let apiKey: string | undefined;
  let keyVariable = DEFAULT_KEY_VARIABLE;
  if (options.baseUrl === undefined && scenario.script !== undefined) {
    server = await startModelServer({ scripts: scenario.script });
    baseUrl = MODEL_SERVER_STAND_IN;
  } else {
    baseUrl = options.baseUrl ?? env['DEEPSEEK_BASE_URL'] ?? DEEPSEEK_BASE_URL;
    keyVariable = apiKeyVariable(baseUrl, options.apiKeyEnv);
    apiKey = env[keyVariable];
    if (apiKey === undefined || apiKey === '') {
      throw new ScenarioError(
        'MISSING_KEY',
        `Recording "${scenario.name}" against ${baseUrl} needs an API key: set ${keyVariable}, or name the variable that holds it with --api-key-env <NAME>` +
          (scenario.script ? '; or drop --base-url to record against its authored script with no key.' : '.'),
      );
    }
    refuseDefaultModelElsewhere(scenario, baseUrl, options.model);
  }
  if (apiKey !== undefined) rememberSecret(apiKey, `the ${keyVariable} environment variable`);
  stripUrlCredentials(baseUrl);
  const upstream = server ? redirectingFetch(globalThis.fetch, MODEL_SERVER_STAND_IN, server.url) : globalThis.fetch;
  const recording = createRecordingFetch({
    fetch: upstream,
    secrets: apiKey ? [apiKey] : [],
    // Our own model server serves sessions by the header; a real endpoint never gets it.
    forwardLineage: server !== undefined,
    ...normalisationOf(options),
  });
  const outbox = runOutbox(options.workDir);
  const protocol = new ProtocolRecorder();
  const starts = watchChildStarts('record');
  return {
    fetch: recording,
    acpChannel: (kind) => starts.watch(kind === 'protocol' ? protocol.channel : spawnAcpChild),
    baseUrl,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    childEnv: () => ({
      [CHILD_ENV.mode]: 'record',
      [CHILD_ENV.outbox]: outbox.make(),
      ...(server ? { [CHILD_ENV.upstream]: server.url } : {}),
      DEEPSEEK_BASE_URL: baseUrl,
      ...(apiKey !== undefined ? { DEEPSEEK_API_KEY: apiKey } : {}),
    }),
    describe: server ? `recording against nestcast model-server (${baseUrl})` : `recording against ${baseUrl}`,
    async finish() {
      // Credentials in the base URL (`user:pass@`, `?token=`) are never stored.
      const own = await recording.cassette({ baseUrl: stripUrlCredentials(baseUrl) });
      const children = await joinChildRecordings(outbox.path, own);
      const calls = children.calls;
      const fromScript = server !== undefined && scenario.script !== undefined;
      const provenance = fromScript
        ? { ...own.provenance, scriptFingerprint: scriptFingerprint(scenario.script as AuthoredScript) }
        : own.provenance;
      const merged: Cassette = { ...own, provenance, calls };
      const modelCalls = Object.values(calls).reduce((sum, list) => sum + list.length, 0);
      const exchanges = await protocol.exchanges();
      // A session the script does not know gets the model server's 404: the misfit is the cause to show, not that failed call.
      const misfits = server ? scriptMisfits(scenario, server.report().sessions) : [];
      const failures: Error[] = [
        ...starts.failures(),
        ...children.failures,
        ...misfits,
        ...(misfits.length > 0
          ? []
          : unexpectedCallFailures(scenario, calls).map((problem) => new ScenarioError('NOT_SAVED', problem))),
      ];
      const save = async (dir: string): Promise<SaveResult> => {
        // Protocol exchanges are scanned for the same keys plus every key-like variable the children could see.
        const acpSecrets = keyLikeEnvSecrets(env);
        refuseAcpSecrets(dir, exchanges, acpSecrets);
        const saved = await writeCassetteInto(dir, merged);
        const acpWritten = await writeAcpCassette(dir, exchanges, { secrets: acpSecrets });
        return { ...saved, written: [...saved.written, ...acpWritten] };
      };
      return { failures, modelCalls, cassette: merged, save };
    },
    async close() {
      await server?.close();
    },
  };
}

/**
 * `--model` names the model a harness scenario's sessions send. A program's own code names its
 * model in every request it builds: rewriting them would record requests the program never sends
 * (replay would then refuse its real ones), and ignoring the flag would be a flag that does nothing.
 */
function refuseModelForProgram(scenario: ScenarioDefinition, model: string | undefined): void {
  if (model === undefined || !isProgramScenario(scenario)) return;
  throw new ScenarioError(
    'MODEL_NOT_APPLICABLE',
    `record --model ${model} does not apply to "${scenario.name}": a program scenario sends the model its own code names. ` +
      `Change the model in its program, and record it without --model (name the harness scenarios that need --model: nestcast record <scenario...> --model ${model}).`,
  );
}

/**
 * The harness's default model name is DeepSeek's: sent to another API it is refused at best, and
 * at worst answered by a model nobody chose. A harness scenario recorded elsewhere must say which.
 */
function refuseDefaultModelElsewhere(scenario: ScenarioDefinition, baseUrl: string, model: string | undefined): void {
  if (isProgramScenario(scenario) || scenario.agent?.model !== undefined || model !== undefined) return;
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return;
  }
  if (host === new URL(DEEPSEEK_BASE_URL).hostname) return;
  throw new ScenarioError(
    'MODEL_REQUIRED',
    `Recording "${scenario.name}" against ${baseUrl} would send the default model name ${DEFAULT_MODEL}, which is DeepSeek's. ` +
      `Say which model to send: \`agent: { model: '<name>' }\` in the scenario, or record --model <name>.`,
  );
}

/** A recording made from a script says which; replaying it after the script was edited would test the old script. */
function refuseChangedScript(scenario: ScenarioDefinition, cassette: Cassette, recordHint: string): void {
  const recordedFrom = cassette.provenance.scriptFingerprint;
  if (recordedFrom === undefined || cassette.location === undefined) return;
  const now = scenario.script === undefined ? undefined : scriptFingerprint(scenario.script);
  if (now === recordedFrom) return;
  const changes = scriptChanges(scenario.script as AuthoredScript | undefined, cassette);
  const what =
    changes.length === 0
      ? 'No session answers differently: the change is elsewhere in the script (its model name, say). '
      : `What changed: ${changes.join('; ')}. `;
  throw new ScenarioError(
    'SCRIPT_CHANGED',
    `${now === undefined ? 'The scenario no longer has the authored script' : 'The authored script changed since'} ${cassette.location} was recorded from it ` +
      `(script fingerprint ${recordedFrom.slice(0, 12)} then, ${now === undefined ? 'none' : now.slice(0, 12)} now), so the recording no longer says what the script says. ` +
      `${what}Re-record with: ${recordHint}`,
  );
}

/**
 * A keyless record must use the script as written: a scripted session no call reached is a typo
 * or a path the run did not take, and a session the script does not know got the model server's
 * 404 as its answer. Either would be saved as a recording that passes.
 */
function scriptMisfits(scenario: ScenarioDefinition, sessions: readonly Consumption[]): Error[] {
  const scripted = Object.keys(scenario.script?.lineages ?? {}).sort();
  const failures: Error[] = [];
  const unscripted = sessions
    .filter((session) => !scripted.includes(session.lineage))
    .map((session) => session.lineage);
  if (unscripted.length > 0) {
    failures.push(
      new ScenarioError(
        'UNSCRIPTED_SESSION',
        `Session${unscripted.length > 1 ? 's' : ''} ${unscripted.map((name) => `"${name}"`).join(', ')} asked the model server for an answer, but the script has no lineage of that name. ` +
          `Scripted lineages: ${namedList(scripted, unscripted[0]) || '(none)'}. A child's lineage is <parent lineage>/<id of the tool call that started it>: rename the script's lineage to match, or add it.`,
      ),
    );
  }
  const used = new Set(sessions.filter((session) => session.consumed > 0).map((session) => session.lineage));
  const unused = scripted.filter((lineage) => !used.has(lineage));
  if (unused.length > 0) {
    failures.push(
      new ScenarioError(
        'SCRIPT_LINEAGE_UNUSED',
        `The script's lineage${unused.length > 1 ? 's' : ''} ${unused.map((name) => `"${name}"`).join(', ')} answered no model call: no session of that name ran. ` +
          `Sessions that ran: ${namedList([...used].sort(), unused[0]) || '(none)'}. Fix the lineage name (a child is <parent lineage>/<tool call id>) or remove it from the script.`,
      ),
    );
  }
  return failures;
}

async function cassetteFor(
  options: ModelSourceOptions,
  recording: RecordingFiles,
  recordHint: string,
): Promise<Cassette> {
  try {
    return await loadCassette(recording, { recordHint });
  } catch (error) {
    if (error instanceof CassetteError && error.code === 'CASSETTE_NOT_FOUND' && options.scenario.script) {
      return compileScript(options.scenario.script);
    }
    throw error;
  }
}

function hasAuthoredCalls(cassette: Cassette): boolean {
  return Object.values(cassette.calls).some((calls) => calls.some((call) => call.request === null));
}
