import { deferred } from '../../harness/runtime/deferred.js';
import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { canonicalize } from '../canonical/canonical-json.js';
import { readRequest, type CanonicalRequest } from '../canonical/canonical-request.js';
import { recorderName } from '../cassette/recorder-name.js';
import { createMessageSharer } from '../cassette/request-encoding.js';
import { saveCassette, type SaveResult } from '../cassette/save-cassette.js';
import type { Cassette, CassetteCall, Provenance, RecordedResponse } from '../cassette/types.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';
import { optionKeys } from '../../harness/option-keys.js';
import { explicitLineage } from '../lineage/resolve-lineage.js';
import { createNormaliser } from '../normalisation/normaliser.js';
import type { Normalisation, UnusedRule } from '../normalisation/types.js';
import { callProtocol, protocolOf } from '../protocols/registry.js';
import { withUrlFields } from '../protocols/url-fields.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import { conversationOf, replyOf } from '../threading/thread-calls.js';
import { Threader, type ThreadInput } from '../threading/threader.js';
import type { AmbiguousChild } from '../threading/types.js';
import { callerSignal } from '../replay/caller-signal.js';
import { incomingCall } from '../replay/incoming-call.js';
import { captureResponse, DEFAULT_RESPONSE_HEADERS } from './capture-response.js';
import { classifyFailure } from './classify-failure.js';
import { credentialQuerySecrets, credentialSecrets } from '../secrets/credential-headers.js';
import { rememberSecret } from '../secrets/known-secrets.js';
import type { Secret } from '../secrets/secret.js';

export interface RecordingOptions {
  /** The fetch that reaches the real endpoint. Default: the global fetch at creation time. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Values that must never be written, typically the API key; named `secret #1`, `#2`… in messages.
   * The values of credential headers seen on requests are added automatically.
   */
  readonly secrets?: readonly string[];
  /** Response headers to keep (lower case). Default: content-type, retry-after, retry-after-ms, x-request-id. */
  readonly responseHeaders?: readonly string[];
  /**
   * Applied to every request before it is fingerprinted, threaded and stored. The declarative rules
   * are saved in meta.json, so replay normalises the same way; a hook must be given to replay too.
   */
  readonly normalise?: Normalisation;
  /**
   * Send the call's lineage (named or derived) upstream in `x-session-lineage`. Only for an
   * upstream that is nestcast's own model server; a real endpoint never sees the header. A call
   * whose session is derived then goes upstream once its session is decided (the only case where
   * recording holds a call back).
   */
  readonly forwardLineage?: boolean;
}

/** Every key of `RecordingOptions`: any other is refused (`OPTIONS_INVALID`). */
export const RECORDING_OPTION_KEYS = optionKeys<RecordingOptions>({
  fetch: true,
  secrets: true,
  responseHeaders: true,
  normalise: true,
  forwardLineage: true,
});

/** What the recorder noticed that the user should act on. */
export interface RecordReport {
  /** Children that matched several open tool calls equally (AMBIGUOUS_CHILD). */
  readonly ambiguities: readonly AmbiguousChild[];
  /** Declarative normalisation rules that changed no request of the recording (UNUSED_RULE). */
  readonly unusedRules: readonly UnusedRule[];
}

/** What the caller may state about a recording; the rest is filled in from the calls seen. */
export interface ProvenanceInput {
  readonly source?: Provenance['source'];
  readonly host?: string;
  readonly baseUrl?: string;
  readonly model?: string;
}

export interface RecordingFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Waits for calls still streaming, then returns everything recorded so far. */
  cassette(provenance?: ProvenanceInput): Promise<Cassette>;
  /**
   * Waits for calls still streaming, scans the whole recording for every secret (refusing with
   * SECRET_IN_RECORDING and writing nothing if one is found), then saves it to `dir`.
   */
  save(dir: string, provenance?: ProvenanceInput): Promise<SaveResult>;
  report(): RecordReport;
}

interface Capture {
  request: CanonicalRequest;
  readonly url: URL;
  /** The model API the call speaks; `undefined` for opaque HTTP. */
  protocol?: WireProtocol;
  /** Key of the request's messages, set for a call whose session was derived: later calls that extend it wait for its reply. */
  threadKey?: string;
  response?: RecordedResponse;
  readonly settled: Promise<void>;
}

/**
 * A fetch that passes every call through to the real endpoint and records it, keyed by the
 * calling session's lineage. The caller reads the live response as bytes arrive; the recorder
 * reads a copy. Request headers are never recorded.
 */
export function createRecordingFetch(options: RecordingOptions = {}): RecordingFetch {
  refuseUnknownOptions('createRecordingFetch', options, RECORDING_OPTION_KEYS);
  const realFetch = options.fetch ?? globalThis.fetch;
  const keepHeaders = options.responseHeaders ?? DEFAULT_RESPONSE_HEADERS;
  const secrets = new Map<string, Secret>(
    (options.secrets ?? []).map((value, i) => [value, { value, label: `secret #${i + 1}` }]),
  );
  const sessions = new Map<string, Capture[]>();
  const normaliser = createNormaliser(options.normalise ?? {}, 'the recording options');
  const normalising = normaliser.rules.length > 0 || options.normalise?.hook !== undefined;
  const threader = new Threader();
  // A session's requests repeat its history: each item is kept once, whatever the session's length.
  const sharers = new Map<string, (request: CanonicalRequest) => CanonicalRequest>();
  /** Derived calls whose reply is still streaming, by the key of their messages. */
  const inFlight = new Set<Capture>();
  /** Every call in arrival order, filed or not yet: what `cassette()` waits for. */
  const arrivals: Capture[] = [];
  /** Sessions are decided in arrival order: each derived call's after those that arrived before it. */
  let deciding: Promise<unknown> = Promise.resolve();

  /**
   * Waits for the replies a call's placement may depend on: of calls it extends, and, if it starts
   * a session (a child of any of them), of every call in flight. Only the decision waits: the call
   * itself has gone upstream already, so siblings overlap as they do without nestcast.
   */
  const threadAfterReplies = async (input: ThreadInput, capture: Capture): Promise<string> => {
    for (;;) {
      const extended = [...inFlight].filter(
        (capture) => capture.threadKey !== undefined && input.prefixes.includes(capture.threadKey),
      );
      if (extended.length > 0) {
        await Promise.all(extended.map((capture) => capture.settled));
        continue;
      }
      const placement = threader.place(input);
      if (placement.kind === 'start' && inFlight.size > 0) {
        await Promise.all([...inFlight].map((capture) => capture.settled));
        continue;
      }
      threader.commit(placement.lineage, input, placement);
      // In flight from the moment it is filed, so a call placed next waits for its reply.
      capture.threadKey = input.prefixes[input.prefixes.length - 1];
      inFlight.add(capture);
      return placement.lineage;
    }
  };

  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = incomingCall(input, init);
    const signal = callerSignal(input, init);
    if (signal.aborted) throw signal.reason;
    const named = explicitLineage(call.headers);
    for (const secret of [...credentialSecrets(call.headers), ...credentialQuerySecrets(call.url)]) {
      if (!secrets.has(secret.value)) secrets.set(secret.value, secret);
      // Process-wide too: `cassette()` then `saveCassette()` (the merge pattern) must not lose them.
      rememberSecret(secret.value, secret.label);
    }
    const { promise: settled, resolve: settle } = deferred<void>();
    const capture: Capture = { request: {}, url: call.url, settled };
    let decided: Promise<string>;
    try {
      const { content, sent } = readRequest(await call.text());
      capture.protocol = protocolOf({ method: call.method, url: call.url, body: sent });
      const asked = withUrlFields(capture.protocol, call.url, content);
      // Without rules the sharer below canonicalises what it keeps, the items it has not seen:
      // canonicalising the whole history first copied every message of a long session on every call.
      capture.request = normalising ? normaliser.apply(canonicalize(asked) as CanonicalRequest) : asked;
      if (named === undefined) {
        const threadInput = threader.input(conversationOf(capture.protocol, capture.request));
        decided = deciding.then(() => threadAfterReplies(threadInput, capture));
        deciding = decided.catch(() => undefined);
      } else decided = Promise.resolve(named);
    } catch (error) {
      settle();
      throw error;
    }
    arrivals.push(capture);
    const protocol = capture.protocol;
    const filed = decided.then((lineage) => {
      const sharerKey = `${lineage}\u0000${callProtocol(protocol)}`;
      const share = sharers.get(sharerKey) ?? createMessageSharer(protocol?.historyField);
      sharers.set(sharerKey, share);
      capture.request = share(capture.request);
      const calls = sessions.get(lineage) ?? [];
      sessions.set(lineage, calls);
      calls.push(capture);
      return lineage;
    });
    const finish = (recorded: RecordedResponse): void => {
      capture.response = recorded;
      // A reply settles its session once the call is filed: the decision may still wait on earlier replies.
      void filed.then((lineage) => {
        if (named === undefined) {
          threader.settle(lineage, replyOf(protocol, recorded));
          inFlight.delete(capture);
        }
        settle();
      });
    };
    try {
      const startedAt = performance.now();
      const forwarded = options.forwardLineage === true ? await filed : undefined;
      const headers = upstreamHeaders(call.headers, forwarded, options.forwardLineage === true);
      const response = await realFetch(...call.sendOn(headers, signal));
      void captureResponse(response.clone(), { startedAt, signal, keepHeaders }).then(finish);
      return response;
    } catch (error) {
      finish({ error: classifyFailure(error, signal, undefined) });
      throw error;
    }
  };

  const cassette = async (provenance: ProvenanceInput = {}): Promise<Cassette> => {
    await Promise.all(arrivals.map((capture) => capture.settled));
    const calls: Record<string, CassetteCall[]> = {};
    for (const [lineage, captures] of sessions) {
      calls[lineage] = captures.map((capture) => ({
        request: capture.request,
        response: capture.response as RecordedResponse,
        protocol: callProtocol(capture.protocol),
      }));
    }
    const first = arrivals[0];
    const model =
      provenance.model ??
      (first === undefined
        ? undefined
        : first.protocol
          ? first.protocol.model(first.request)
          : typeof first.request['model'] === 'string'
            ? first.request['model']
            : undefined);
    const host = provenance.host ?? (first === undefined ? undefined : stableHost(first.url));
    const rules = normaliser.rules;
    const ambiguities = threader.ambiguities().map(({ lineage, candidates }) => ({ lineage, candidates }));
    return {
      ...(rules.length === 0 ? {} : { normalise: rules }),
      ...(ambiguities.length === 0 ? {} : { ambiguities }),
      provenance: {
        source: provenance.source ?? 'recorded',
        ...(host === undefined ? {} : { host }),
        ...(provenance.baseUrl === undefined ? {} : { baseUrl: provenance.baseUrl }),
        ...(model === undefined ? {} : { model }),
        recordedAt: new Date().toISOString(),
        recorder: recorderName(),
      },
      calls,
    };
  };

  return Object.assign(recordingFetch, {
    cassette,
    report: (): RecordReport => ({ ambiguities: threader.ambiguities(), unusedRules: normaliser.unused() }),
    save: async (dir: string, provenance?: ProvenanceInput) =>
      saveCassette(dir, await cassette(provenance), { secrets: [...secrets.values()] }),
  });
}

/** A loopback server's port changes every run; keeping it would rewrite meta.json on every re-record. */
function stableHost(url: URL): string {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return loopback ? url.hostname : url.host;
}

/** The headers the upstream gets: the lineage header is ours, so it goes only to our own model server. */
function upstreamHeaders(sent: Headers, lineage: string | undefined, forward: boolean): Headers {
  if (!forward && !sent.has(LINEAGE_HEADER)) return sent;
  const headers = new Headers(sent);
  if (forward && lineage !== undefined) headers.set(LINEAGE_HEADER, lineage);
  else headers.delete(LINEAGE_HEADER);
  return headers;
}
