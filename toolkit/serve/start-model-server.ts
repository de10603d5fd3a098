import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenClosable } from '../../harness/http/listen-closable.js';
import { readBody } from '../../harness/http/read-body.js';
import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import type { NestcastError } from '../../harness/errors.js';
import { readRequest, type CanonicalRequest } from '../canonical/canonical-request.js';
import { compileScript } from '../authored/compile-script.js';
import type { AuthoredScript, AuthoredTurn } from '../authored/types.js';
import { loadCassette } from '../cassette/load-cassette.js';
import type { SaveResult } from '../cassette/save-cassette.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { CassetteError } from '../errors/cassette-error.js';
import type { Normalisation } from '../normalisation/types.js';
import type { ReplayMode } from '../replay/replaying-fetch.js';
import type { Consumption } from '../replay/replay-messages.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import { SERVED_ORIGIN, type CallSource, type RoundReport } from './call-source.js';
import { clientEnv } from './client-env.js';
import { fetchSource } from './fetch-source.js';
import { recordSource } from './record-source.js';
import { replaySource } from './replay-source.js';
import { protocolError, servedProtocol, servedShapes } from './served-apis.js';
import { ServeError } from './serve-error.js';
import { optionKeys, unknownOption } from '../../harness/option-keys.js';
import { writeResponse } from './write-response.js';
import { CONTROL_PREFIX, sessionRoute } from './session-route.js';

interface Listening {
  readonly host?: string;
  /** 0 (default) picks a free port; a port in use is PORT_IN_USE. */
  readonly port?: number;
  /** Rules applied to every call before matching (replay) or before it is stored (record). */
  readonly normalise?: Normalisation;
}

/** Serve an authored script, per session. */
export interface ScriptServing extends Listening {
  readonly scripts: AuthoredScript;
  /** Pause before each streamed event, in ms, so a recorder captures real timing. Default 2. */
  readonly eventDelay?: number;
  /** Shown in failures as where the script is: `the script scripts/weather.json`. */
  readonly source?: string;
}

/** Replay a recording folder, keyless and strict, as the replaying fetch does. */
export interface RecordingServing extends Listening {
  readonly recording: string;
  /** Default `strict`. */
  readonly mode?: ReplayMode;
  /** Default `instant`. */
  readonly timing?: ReplayTiming;
  /** The command that re-records the folder, quoted in failures. Default: the `serve --record` line for it. */
  readonly recordHint?: string;
}

/** Forward to the real API, stream each chunk back as it arrives, save the recording whole at `close()`. */
export interface RecordServing extends Listening {
  readonly record: string;
  readonly upstream: string;
  /** The real key, put where the caller sent its dummy one. Never written: the recording is scanned for it. */
  readonly apiKey?: string;
  /** Send the session's lineage upstream: only when the upstream is `nestcast serve` itself. */
  readonly forwardLineage?: boolean;
}

/**
 * Hand every call to `through`: a scenario run's own replaying or recording fetch, so processes
 * the run starts are served from the same recording, sessions and cursors as its in-process calls.
 */
export interface ThroughServing extends Listening {
  readonly through: typeof globalThis.fetch;
}

export type ModelServerOptions = ScriptServing | RecordingServing | RecordServing | ThroughServing;
export type ServeMode = 'script' | 'recording' | 'record' | 'through';

/** What the endpoint served, said at `close()`. */
export interface ServeSummary {
  readonly mode: ServeMode;
  /** The last round's sessions (record mode: the sessions recorded). */
  readonly sessions: readonly Consumption[];
  /** Every problem of every round: replay failures, calls never asked for, an upstream that could not be recorded. */
  readonly problems: readonly NestcastError[];
  /** Record mode: what was written, when it was saved. */
  readonly saved?: SaveResult;
  /** No problem in any round (and, recording, the recording was saved). */
  readonly ok: boolean;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>`: the base URL for clients (or see `env`). */
  readonly url: string;
  readonly mode: ServeMode;
  /** The environment that points the common clients here, with a dummy key. */
  readonly env: Readonly<Record<string, string>>;
  /** What each session has consumed this round, and the problems so far. */
  report(): RoundReport;
  /**
   * The body of every model call the session `lineage` sent this round, parsed from JSON, in
   * arrival order, answered or not (record mode files calls that name no session under `(derived)`).
   */
  requests(lineage: string): unknown[];
  /**
   * Script mode: appends turns to the script of `lineage`, served after its earlier turns.
   * SCRIPT_INVALID for an invalid turn or a session already refused a call this round;
   * SERVE_MODE_MISMATCH in the other modes.
   */
  add(lineage: string, ...turns: AuthoredTurn[]): void;
  /**
   * Ends the round and starts a fresh one (`POST <url>/__nestcast/reset` does the same): every
   * cursor back to the start, sessions derived anew. The ended round's problems still count at
   * `close()`. Not in record mode (SERVE_MODE_MISMATCH).
   */
  reset(): RoundReport;
  /** Stops listening, drops open connections, saves the recording (record mode), and says what was served. Idempotent. */
  close(): Promise<ServeSummary>;
}

/**
 * `nestcast serve` as a library: a loopback endpoint that answers model calls of any process from
 * an authored script, from a recording (keyless), or by recording the real API. Sessions are
 * derived from content as the replaying fetch derives them; a caller may name its own with the
 * path prefix `/lineage/<name>` or the `x-session-lineage` header. One server per test, or
 * `reset()` between tests.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const mode = modeOf(options);
  const { source: current, add } = await sourceFor(options);
  const ended: NestcastError[] = [];
  const server = createServer((req, res) => void answer(req, res));

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    if (raw.startsWith(CONTROL_PREFIX)) return control(method, raw, res);
    let route: ReturnType<typeof sessionRoute>;
    try {
      route = sessionRoute(raw);
    } catch (error) {
      return sendNotServed(res, (error as ServeError).message);
    }
    const body = await readBody(req);
    // Parsed once here: the protocol is told by path and body, and a body that is not JSON is refused.
    const json = jsonOf(body);
    const sent = isObject(json) ? json : readRequest(body).sent;
    const url = new URL(`${SERVED_ORIGIN}${route.path}`);
    const protocol = servedProtocol(method, url, sent);
    if (protocol === undefined) {
      return sendNotServed(
        res,
        `nestcast serve does not serve ${method} ${route.path}. It serves ${servedShapes()}, ` +
          `optionally after /lineage/<session>, and POST ${CONTROL_PREFIX}reset.`,
      );
    }
    if (json === NOT_JSON) {
      return writeResponse(
        res,
        protocolError(
          protocol,
          'BODY_NOT_JSON',
          `The body of ${method} ${route.path} is not JSON (it starts ${JSON.stringify(body.slice(0, 40))}); a model call's body is a JSON object.`,
        ),
      );
    }
    const gone = new AbortController();
    // Only a caller that left before the whole answer was written is gone: aborting after every
    // finished call built an AbortError (a DOMException, its stack) that nothing listened to any more.
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const lineage = route.lineage ?? headerValue(req.headers[LINEAGE_HEADER]);
    let response: Response;
    try {
      response = await current.answer({
        lineage,
        method,
        path: route.path,
        url,
        // Built only when asked for: replay does not read the caller's headers.
        get headers() {
          return requestHeaders(req);
        },
        body,
        json: sent,
        signal: gone.signal,
      });
    } catch (error) {
      if (error instanceof ServeError)
        return writeResponse(res, protocolError(protocol, error.code, error.message), 502);
      // A scripted network failure, or the caller gone: the connection drops as the real one would.
      req.socket.destroy();
      return;
    }
    await writeResponse(res, response);
  }

  async function control(method: string, raw: string, res: ServerResponse): Promise<void> {
    const path = raw.split('?')[0];
    if (method === 'POST' && path === `${CONTROL_PREFIX}reset`) {
      try {
        return sendJson(res, 200, { reset: true, ended: shown(reset()) });
      } catch (error) {
        return sendJson(res, 409, errorJson(error as ServeError));
      }
    }
    if (method === 'GET' && path === `${CONTROL_PREFIX}report`) return sendJson(res, 200, shown(current.report()));
    return sendNotServed(
      res,
      `nestcast serve has no ${method} ${path}: it answers POST ${CONTROL_PREFIX}reset and GET ${CONTROL_PREFIX}report.`,
    );
  }

  const reset = (): RoundReport => {
    const round = current.reset();
    ended.push(...round.problems);
    return round;
  };

  let closing: Promise<ServeSummary> | undefined;
  const { address, close } = await listenOn(server, options);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    mode,
    env: clientEnv(url),
    report: () => current.report(),
    requests: (lineage) => current.requests(lineage),
    add: (lineage, ...turns) => {
      if (add === undefined)
        throw new ServeError(
          'SERVE_MODE_MISMATCH',
          `Turns can be added in script mode only; this endpoint serves in ${mode} mode.`,
        );
      add(lineage, turns);
    },
    reset,
    close: () =>
      (closing ??= (async () => {
        await close();
        const last = await current.finish();
        const problems = [...ended, ...last.problems];
        return {
          mode,
          sessions: last.sessions,
          problems,
          ...(last.saved === undefined ? {} : { saved: last.saved }),
          ok: problems.length === 0 && (mode !== 'record' || last.saved !== undefined),
        };
      })()),
  };

  async function sourceFor(
    opts: ModelServerOptions,
  ): Promise<{ source: CallSource; add?: (lineage: string, turns: readonly AuthoredTurn[]) => void }> {
    if ('scripts' in opts) return scriptSource(opts);
    if ('through' in opts) return { source: fetchSource(opts.through) };
    if ('recording' in opts) {
      const hint = opts.recordHint ?? `nestcast serve --record ${opts.recording} --upstream <the real API>`;
      const cassette = await loadCassette(opts.recording, { recordHint: hint });
      return {
        source: replaySource(() => cassette, {
          mode: opts.mode ?? 'strict',
          timing: opts.timing ?? 'instant',
          recordHint: hint,
          location: `the recording at ${opts.recording}`,
          ...(opts.normalise === undefined ? {} : { normalise: opts.normalise }),
        }),
      };
    }
    return {
      source: recordSource({
        dir: opts.record,
        upstream: opts.upstream,
        ...(opts.apiKey === undefined ? {} : { apiKey: opts.apiKey }),
        ...(opts.forwardLineage === undefined ? {} : { forwardLineage: opts.forwardLineage }),
        ...(opts.normalise === undefined ? {} : { normalise: opts.normalise }),
      }),
    };
  }

  function scriptSource(opts: ScriptServing): {
    source: CallSource;
    add: (lineage: string, turns: readonly AuthoredTurn[]) => void;
  } {
    const eventDelay = opts.eventDelay ?? 2;
    const compiled = compileScript(opts.scripts, { eventDelay });
    // Owned here so `add` can extend a session: replay looks a session's calls up at each request.
    const turns = new Map<string, readonly AuthoredTurn[]>(Object.entries(opts.scripts.lineages));
    let calls: Record<string, readonly CassetteCall[]> = {};
    const cassette = (): Cassette => {
      calls = { ...compiled.calls, ...compiledAdded };
      return { ...compiled, calls };
    };
    const compiledAdded: Record<string, readonly CassetteCall[]> = {};
    const where = opts.source ?? 'the script';
    const replay = replaySource(cassette, {
      mode: 'sequence',
      timing: 'recorded',
      recordHint: `a turn for it in ${where} (nestcast serve --script)`,
      location: where,
      ...(opts.normalise === undefined ? {} : { normalise: opts.normalise }),
    });
    const addTurns = (lineage: string, more: readonly AuthoredTurn[]): void => {
      if (replay.refused(lineage)) {
        throw new CassetteError(
          'SCRIPT_INVALID',
          `Cannot add turns to session "${lineage}": the model server already refused it a call this round, and a refused session is refused for good. Add its turns before it calls, or reset.`,
        );
      }
      const all = [...(turns.get(lineage) ?? []), ...more];
      // The whole session is compiled again so chunk ids and default tool-call ids run on from its earlier turns.
      const script: AuthoredScript = {
        ...(opts.scripts.model === undefined ? {} : { model: opts.scripts.model }),
        lineages: { [lineage]: all },
      };
      const session =
        compileScript(script, { eventDelay, source: `(turns added to session "${lineage}")` }).calls[lineage] ?? [];
      compiledAdded[lineage] = session;
      calls[lineage] = session;
      turns.set(lineage, all);
    };
    return { source: replay, add: addTurns };
  }
}

function modeOf(options: ModelServerOptions): ServeMode {
  const given = (['scripts', 'recording', 'record', 'through'] as const).filter((key) => key in options);
  if (given.length !== 1) {
    throw new ServeError(
      'SERVE_OPTIONS_INVALID',
      `startModelServer needs exactly one of scripts, recording, record, through; got ${given.length === 0 ? 'none' : given.join(', ')}.`,
    );
  }
  if ('record' in options && typeof options.upstream !== 'string')
    throw new ServeError('SERVE_OPTIONS_INVALID', 'Record mode needs `upstream`: the real API to forward to.');
  const mode = given[0] === 'scripts' ? 'script' : (given[0] as ServeMode);
  const unknown = unknownOption(options, MODE_OPTION_KEYS[mode]);
  if (unknown !== undefined)
    throw new ServeError('SERVE_OPTIONS_INVALID', `startModelServer (${mode} mode): ${unknown}.`);
  return mode;
}

/** The keys of `Listening`, which every mode reads. */
const LISTENING = { host: true, port: true, normalise: true } as const satisfies Record<keyof Listening, true>;
/** Every key each mode reads: any other is refused (`{ recording, normalize }` would replay without the rules). */
const MODE_OPTION_KEYS: Readonly<Record<ServeMode, readonly string[]>> = {
  script: optionKeys<ScriptServing>({ ...LISTENING, scripts: true, eventDelay: true, source: true }),
  recording: optionKeys<RecordingServing>({
    ...LISTENING,
    recording: true,
    mode: true,
    timing: true,
    recordHint: true,
  }),
  record: optionKeys<RecordServing>({
    ...LISTENING,
    record: true,
    upstream: true,
    apiKey: true,
    forwardLineage: true,
  }),
  through: optionKeys<ThroughServing>({ ...LISTENING, through: true }),
};

async function listenOn(server: ReturnType<typeof createServer>, where: Listening) {
  try {
    return await listenClosable(server, { host: where.host, port: where.port });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new ServeError(
        'PORT_IN_USE',
        `Port ${where.port} on ${where.host ?? '127.0.0.1'} is already in use. Stop what holds it, or pick another with --port (0 picks a free one).`,
        { cause: error },
      );
    }
    throw error;
  }
}

function sendNotServed(res: ServerResponse, message: string): void {
  sendJson(res, 404, { error: { message, type: 'nestcast_serve_error', code: 'UNKNOWN_ROUTE' } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function errorJson(error: ServeError): unknown {
  return { error: { message: error.message, type: 'nestcast_serve_error', code: error.code } };
}

function shown(round: RoundReport): unknown {
  return {
    sessions: round.sessions,
    problems: round.problems.map((problem) => ({ code: problem.code, message: problem.message })),
  };
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

const NOT_JSON = Symbol('not JSON');

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function isObject(json: unknown): json is CanonicalRequest {
  return json !== null && typeof json === 'object' && !Array.isArray(json);
}
