import {
  readParsedRequest,
  readRequest,
  type CanonicalRequest,
  type ReadRequest,
} from '../canonical/canonical-request.js';
import type { Json } from '../canonical/canonical-json.js';
import { firstDivergence, type Divergence } from '../canonical/first-divergence.js';
import { showPath, showValues } from '../canonical/show-values.js';
import { DEFAULT_RECORD_HINT, refuseUnknownOptions, type CassetteError } from '../errors/cassette-error.js';
import { optionKeys } from '../../harness/option-keys.js';
import { requestEqual } from '../cassette/request-equal.js';
import type { Cassette, CassetteCall, RecordedResponse } from '../cassette/types.js';
import { explicitLineage } from '../lineage/resolve-lineage.js';
import { createNormaliser } from '../normalisation/normaliser.js';
import type { Normalisation, UnusedRule } from '../normalisation/types.js';
import { callProtocol, protocolById, protocolOf, type CallProtocol } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import { withUrlFields } from '../protocols/url-fields.js';
import { authoredResponse } from './authored-response.js';
import { conversationOf, replyOf } from '../threading/thread-calls.js';
import { Threader } from '../threading/threader.js';
import {
  ambiguousChildFailure,
  cassetteExhausted,
  requestMismatch,
  unconsumedCalls,
  unrecordedSession,
  type Consumption,
  type MessageContext,
} from './replay-messages.js';
import { givenSignal } from './caller-signal.js';
import { failureResponse } from './failure-response.js';
import { incomingCall } from './incoming-call.js';
import { respond } from './respond.js';
import { SessionBinding } from './session-binding.js';
import type { ReplayTiming } from './replay-timing.js';

/** `strict`: the live request must equal the recorded one. `sequence`: serve by position, report drift as warnings. */
export type ReplayMode = 'strict' | 'sequence';

export interface ReplayOptions {
  readonly mode?: ReplayMode;
  readonly timing?: ReplayTiming;
  /** Called for each drift in sequence mode (warnings are also kept in `report()`). */
  readonly onWarning?: (warning: ReplayWarning) => void;
  /** The command that re-records this cassette, quoted in messages. */
  readonly recordHint?: string;
  /**
   * Rules applied to every live request (and recorded one) before matching and threading, after
   * the cassette's own `normalise` rules; the hook is how a rule in code reaches replay.
   */
  readonly normalise?: Normalisation;
  /**
   * How a failed match reaches the caller. `respond` (default): the error answer of the call's
   * protocol (`WireProtocol.errorResponse`) carrying the code and message, which its SDKs show at
   * once instead of retrying into `Connection error.`. `reject`: the fetch rejects with the
   * CassetteError. Either way the failure is kept for `assertConsumed`.
   */
  readonly failures?: 'respond' | 'reject';
  /** Told which session each call was filed under (named or derived), with its body, before it is answered. */
  readonly onCall?: (call: { readonly lineage: string; readonly body: string }) => void;
  /**
   * Told of each call answered from the cassette (a refused one is not), as it is answered: the
   * live request as matched (normalised) and the answer served, in the call's own protocol.
   */
  readonly onServed?: (served: ServedCall) => void;
}

/** Every key of `ReplayOptions`: any other is refused (`OPTIONS_INVALID`). */
export const REPLAY_OPTION_KEYS = optionKeys<ReplayOptions>({
  mode: true,
  timing: true,
  onWarning: true,
  recordHint: true,
  normalise: true,
  failures: true,
  onCall: true,
  onServed: true,
});

/** A call the replaying fetch answered: what a program scenario builds its session transcripts from. */
export interface ServedCall {
  readonly lineage: string;
  /** 1-based, in the session's own order. */
  readonly call: number;
  readonly request: CanonicalRequest;
  readonly protocol: CallProtocol;
  readonly response: RecordedResponse;
}

/** A request that differed from its recording but was served anyway (sequence mode). */
export interface ReplayWarning {
  readonly code: 'REQUEST_DRIFT';
  readonly lineage: string;
  readonly call: number;
  readonly divergence: Divergence;
  readonly message: string;
}

export interface ReplayReport {
  /** Every session of the cassette or of the run, sorted by lineage. */
  readonly sessions: readonly Consumption[];
  readonly warnings: readonly ReplayWarning[];
  /** Every error replay raised, even those the calling code caught. */
  readonly failures: readonly CassetteError[];
  /** Declarative normalisation rules that changed no request so far. */
  readonly unusedRules: readonly UnusedRule[];
}

export interface ReplayingFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Throws the first failure replay raised (even if the caller caught it), else UNCONSUMED_CALLS if calls were left. */
  assertConsumed(): void;
  report(): ReplayReport;
  /**
   * Answers a call its receiver has already read (nestcast serve: the body parsed once, the session
   * named by path or header): as the fetch would answer the same call, with nothing read again.
   */
  answer(call: ReadCall): Promise<Response>;
}

/** A model call already read by whoever received it, for `ReplayingFetch.answer`. */
export interface ReadCall {
  /** Upper case. */
  readonly method: string;
  readonly url: URL;
  /** The session the caller named; `undefined`: derived from the content. */
  readonly lineage: string | undefined;
  readonly body: string;
  /** `body`, parsed: a JSON object. */
  readonly json: CanonicalRequest;
  /** `undefined`: nothing can abort the call. */
  readonly signal: AbortSignal | undefined;
}

/** A session's cursor, taken for one call. */
interface Taken {
  readonly lineage: string;
  readonly state: SessionState;
  readonly call: number;
}

interface SessionState {
  next: number;
  /** Once a session failed, every later call fails the same way: a retrying client cannot walk past it. */
  failure?: CassetteError;
}

/**
 * A fetch that answers from a cassette and never touches the network. Each session has its own
 * cursor, taken synchronously once its request is read, so concurrent sessions each get their own
 * recording whatever order they call in. A call that names no lineage is threaded by content
 * (docs/recording.md, "Which session made the call"): it continues the session its messages extend, or starts one bound to the recorded
 * session hanging from the same tool call.
 */
export function createReplayingFetch(cassette: Cassette, options: ReplayOptions = {}): ReplayingFetch {
  refuseUnknownOptions('createReplayingFetch', options, REPLAY_OPTION_KEYS);
  const mode = options.mode ?? 'strict';
  const timing = options.timing ?? 'instant';
  const context: MessageContext = {
    location: cassette.location === undefined ? 'the cassette' : `the cassette at ${cassette.location}`,
    recordHint: options.recordHint ?? DEFAULT_RECORD_HINT,
  };
  const normaliser = createNormaliser(
    {
      rules: [...(cassette.normalise ?? []), ...(options.normalise?.rules ?? [])],
      ...(options.normalise?.hook ? { hook: options.normalise.hook } : {}),
    },
    context.location,
  );
  const normalising = normaliser.rules.length > 0 || options.normalise?.hook !== undefined;
  const calls: Record<string, readonly CassetteCall[]> = normalising
    ? normaliseCalls(cassette.calls, normaliser.apply)
    : cassette.calls;
  const sessions = new Map<string, SessionState>(Object.keys(calls).map((lineage) => [lineage, { next: 0 }]));
  const threader = new Threader();
  const binding = new SessionBinding(calls);
  const warnings: ReplayWarning[] = [];
  const failures: CassetteError[] = [];
  const answerFailure = options.failures ?? 'respond';

  const fail = (state: SessionState, raised: CassetteError, protocol: WireProtocol | undefined): Promise<Response> => {
    const error = ambiguousChildFailure(raised, cassette.ambiguities);
    state.failure ??= error;
    failures.push(error);
    return answerFailure === 'reject' ? Promise.reject(error) : Promise.resolve(failureResponse(error, protocol));
  };

  const replayingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = incomingCall(input, init);
    const signal = givenSignal(input, init);
    if (signal?.aborted) throw signal.reason;
    const named = explicitLineage(request.headers);
    // A named call takes its cursor on arrival; a derived one once its content says which session it is.
    const taken = named === undefined ? undefined : take(named);
    const body = await request.text();
    return answerRead(request.method, request.url, body, readRequest(body), named, taken, signal, false);
  };

  const answer = async (call: ReadCall): Promise<Response> => {
    if (call.signal?.aborted) throw call.signal.reason;
    const taken = call.lineage === undefined ? undefined : take(call.lineage);
    return answerRead(
      call.method,
      call.url,
      call.body,
      readParsedRequest(call.json),
      call.lineage,
      taken,
      call.signal,
      true,
    );
  };

  /** The rest of a call once it is read: its session, its match, its answer. */
  const answerRead = (
    method: string,
    url: URL,
    body: string,
    read: ReadRequest,
    named: string | undefined,
    taken: Taken | undefined,
    signal: AbortSignal | undefined,
    /** The answer is written on by a server: an instant stream is also available whole (`whole-body.ts`). */
    whole: boolean,
  ): Promise<Response> => {
    const { content, stream: streamField, sent } = read;
    const protocol = protocolOf({ method, url, body: sent });
    const stream = protocol ? protocol.streams({ method, url, body: sent }) : streamField;
    const asked = withUrlFields(protocol, url, content);
    const live = normalising ? normaliser.apply(asked) : asked;
    const placed = taken === undefined ? place(live, protocol) : undefined;
    const { lineage, state, call } = taken ?? take(placed?.lineage as string);
    options.onCall?.({ lineage, body });
    const recorded = calls[lineage];
    if (state.failure) return fail(state, state.failure, protocol);
    if (!recorded) return fail(state, unrecordedSession(lineage, Object.keys(calls).sort(), context), protocol);
    const entry = recorded[call - 1];
    if (!entry) return fail(state, cassetteExhausted(lineage, call, recorded.length, context), protocol);
    // An authored reply is served in the wire form of the request it answers, streamed or not.
    const authored = entry.authored;
    const response =
      authored && protocol ? authoredResponse(protocol, entry.response, authored, stream, url) : entry.response;
    if (named === undefined)
      threader.settle(lineage, replyOf(authored ? protocol : protocolById(entry.protocol), response));

    // An authored turn answers either way; a recorded stream answers only a streaming call, and the reverse.
    const switched = entry.request === null ? undefined : streamSwitch(entry.response, stream);
    if (switched) return fail(state, requestMismatch(lineage, call, switched, context), protocol);
    // The equality check allocates nothing; the readable divergence is built only for a mismatch.
    const proven = placed?.equal === true && call === 1;
    const divergence =
      entry.request === null || proven || sameRequest(entry.request, live)
        ? undefined
        : firstDivergence(entry.request, live);
    if (divergence && mode === 'strict')
      return fail(state, requestMismatch(lineage, call, divergence, context), protocol);
    if (divergence)
      warn({ code: 'REQUEST_DRIFT', lineage, call, divergence, message: driftMessage(lineage, call, divergence) });
    options.onServed?.({ lineage, call, request: live, protocol: callProtocol(protocol), response });
    return respond(response, timing, signal, whole);
  };

  const take = (lineage: string): Taken => {
    const state = sessions.get(lineage) ?? { next: 0 };
    sessions.set(lineage, state);
    binding.claim(lineage);
    return { lineage, state, call: ++state.next };
  };

  /** The session of a call that names none, decided and filed synchronously so concurrent calls see each other. */
  const place = (live: CanonicalRequest, protocol: WireProtocol | undefined): { lineage: string; equal: boolean } => {
    const threadInput = threader.input(conversationOf(protocol, live));
    const placement = threader.place(threadInput);
    // Binding a new session compares its first request already; the match below need not repeat it.
    const bound =
      placement.kind === 'start' ? binding.bind(placement, live) : { lineage: placement.lineage, equal: false };
    threader.commit(bound.lineage, threadInput, placement);
    return bound;
  };

  const warn = (warning: ReplayWarning): void => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };

  const report = (): ReplayReport => ({
    sessions: [...sessions.entries()]
      .map(([lineage, state]) => {
        const total = calls[lineage]?.length ?? 0;
        return { lineage, consumed: Math.min(state.next, total), total };
      })
      .sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0)),
    warnings: [...warnings],
    failures: [...failures],
    unusedRules: normaliser.unused(),
  });

  return Object.assign(replayingFetch, {
    answer,
    report,
    assertConsumed(): void {
      const [firstFailure] = failures;
      if (firstFailure) throw firstFailure;
      const left = report().sessions.filter((session) => session.consumed < session.total);
      if (left.length > 0) throw unconsumedCalls(left, context);
    },
  });
}

/** A streaming call answered from a JSON recording, or the reverse: the client could not read it. */
function streamSwitch(response: RecordedResponse, live: boolean): Divergence | undefined {
  const recorded = 'events' in response ? true : 'body' in response ? false : undefined;
  return recorded === undefined || recorded === live ? undefined : { path: 'stream', recorded, live };
}

function normaliseCalls(
  calls: Readonly<Record<string, readonly CassetteCall[]>>,
  apply: (request: CanonicalRequest) => CanonicalRequest,
): Record<string, readonly CassetteCall[]> {
  const out: Record<string, readonly CassetteCall[]> = {};
  for (const [lineage, list] of Object.entries(calls))
    out[lineage] = list.map((call) => (call.request === null ? call : { ...call, request: apply(call.request) }));
  return out;
}

function driftMessage(lineage: string, call: number, divergence: Divergence): string {
  const [recorded, live] = showValues(divergence.recorded, divergence.live);
  return (
    `Model call ${call} of session "${lineage}" differs from its recording at ${showPath(divergence.path)} ` +
    `(recorded ${recorded}, live ${live}); served the recording anyway (sequence mode).`
  );
}

/** `requestEqual` is the fast path; a request nested deeper than its recursion can go is compared by the walk that cannot overflow. */
function sameRequest(recorded: Json, live: Json): boolean {
  try {
    return requestEqual(recorded, live);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return firstDivergence(recorded, live) === undefined;
  }
}
