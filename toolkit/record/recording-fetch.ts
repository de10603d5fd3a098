import { canonicalRequest, type CanonicalRequest } from '../canonical/canonical-request.js';
import { recorderName } from '../cassette/recorder-name.js';
import type { Secret } from '../cassette/find-secret.js';
import { saveCassette, type SaveResult } from '../cassette/save-cassette.js';
import type { Cassette, CassetteCall, Provenance, RecordedResponse } from '../cassette/types.js';
import { resolveLineage } from '../lineage/resolve-lineage.js';
import { callerSignal } from '../replay/caller-signal.js';
import { captureResponse, DEFAULT_RESPONSE_HEADERS } from './capture-response.js';
import { classifyFailure } from './classify-failure.js';
import { credentialSecrets } from './credential-headers.js';

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
}

interface Capture {
  request: CanonicalRequest;
  readonly url: URL;
  response?: RecordedResponse;
  readonly settled: Promise<void>;
}

/**
 * A fetch that passes every call through to the real endpoint and records it, keyed by the
 * calling session's lineage. The caller reads the live response as bytes arrive; the recorder
 * reads a copy. Request headers are never recorded.
 */
export function createRecordingFetch(options: RecordingOptions = {}): RecordingFetch {
  const realFetch = options.fetch ?? globalThis.fetch;
  const keepHeaders = options.responseHeaders ?? DEFAULT_RESPONSE_HEADERS;
  const secrets = new Map<string, Secret>((options.secrets ?? []).map((value, i) => [value, { value, label: `secret #${i + 1}` }]));
  const sessions = new Map<string, Capture[]>();

  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const signal = callerSignal(input, init);
    if (signal.aborted) throw signal.reason;
    const lineage = resolveLineage(request.headers);
    for (const secret of credentialSecrets(request.headers)) if (!secrets.has(secret.value)) secrets.set(secret.value, secret);
    let settle!: () => void;
    const capture: Capture = {
      request: {},
      url: new URL(request.url),
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    const calls = sessions.get(lineage) ?? [];
    sessions.set(lineage, calls);
    calls.push(capture);
    try {
      capture.request = canonicalRequest(await request.clone().text());
      const startedAt = performance.now();
      const response = await realFetch(request, { signal });
      void captureResponse(response.clone(), { startedAt, signal, keepHeaders }).then((recorded) => {
        capture.response = recorded;
        settle();
      });
      return response;
    } catch (error) {
      capture.response = { error: classifyFailure(error, signal, undefined) };
      settle();
      throw error;
    }
  };

  const cassette = async (provenance: ProvenanceInput = {}): Promise<Cassette> => {
    const all = [...sessions.values()].flat();
    await Promise.all(all.map((capture) => capture.settled));
    const calls: Record<string, CassetteCall[]> = {};
    for (const [lineage, captures] of sessions) {
      calls[lineage] = captures.map((capture) => ({ request: capture.request, response: capture.response as RecordedResponse }));
    }
    const first = all[0];
    const model = provenance.model ?? (typeof first?.request['model'] === 'string' ? first.request['model'] : undefined);
    const host = provenance.host ?? (first === undefined ? undefined : stableHost(first.url));
    return {
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
    save: async (dir: string, provenance?: ProvenanceInput) => saveCassette(dir, await cassette(provenance), { secrets: [...secrets.values()] }),
  });
}

/** A loopback server's port changes every run; keeping it would rewrite meta.json on every re-record. */
function stableHost(url: URL): string {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return loopback ? url.hostname : url.host;
}
