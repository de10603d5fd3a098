import type { NestcastError } from '../../harness/errors.js';
import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import type { SaveResult } from '../cassette/save-cassette.js';
import type { Normalisation } from '../normalisation/types.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import type { Consumption } from '../replay/replay-messages.js';
import type { CallSource, RoundReport, ServedCall } from './call-source.js';
import { RequestLog } from './request-log.js';
import { withRealKey, withRealKeyInQuery } from './real-key.js';
import { ServeError } from './serve-error.js';

export interface RecordSourceOptions {
  /** The recording folder, replaced whole at the end. */
  readonly dir: string;
  /** The real API's base URL; a call to `<endpoint>/v1/messages` goes to `<upstream>/v1/messages`. */
  readonly upstream: string;
  /**
   * The key, put in place of whatever key the caller sent (its dummy key), in the header it sent
   * it in. Never stored: the whole recording is scanned for it before anything is written.
   */
  readonly apiKey?: string;
  readonly normalise?: Normalisation;
  /** Send the session's lineage upstream in `x-session-lineage`: only for an upstream that is `nestcast serve` itself. */
  readonly forwardLineage?: boolean;
  readonly fetch?: typeof globalThis.fetch;
}

/** Headers that describe one hop, not the call: the upstream connection sets its own. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding'];
/** fetch has already decoded the body it hands on, so these no longer describe it. */
const DECODED_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/**
 * Record mode: each call is forwarded to the real API through the recording fetch, and the
 * answer streamed back chunk by chunk as it arrives (the recorder reads a copy). At the end the
 * recording is saved whole through the same save path as every recording, secret scan first; it is
 * not saved when the upstream could not be reached or refused the key, since what it holds would
 * be failures, not the conversation.
 */
export function recordSource(options: RecordSourceOptions): CallSource {
  const upstream = options.upstream.replace(/\/+$/, '');
  const recording = createRecordingFetch({
    secrets: options.apiKey === undefined ? [] : [options.apiKey],
    forwardLineage: options.forwardLineage === true,
    ...(options.normalise === undefined ? {} : { normalise: options.normalise }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const received = new RequestLog();
  const counts = new Map<string, number>();
  const problems: NestcastError[] = [];

  const report = (): RoundReport => ({
    sessions: [...counts.entries()]
      .map(([lineage, count]): Consumption => ({ lineage, consumed: count, total: count }))
      .sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0)),
    problems: [...problems],
  });

  return {
    async answer(call: ServedCall): Promise<Response> {
      const headers = forwardedHeaders(call.headers, options.apiKey);
      if (call.lineage !== undefined) headers.set(LINEAGE_HEADER, call.lineage);
      // Derived sessions are filed by the recorder; the report counts calls per named session or `(derived)`.
      const filed = call.lineage ?? '(derived)';
      counts.set(filed, (counts.get(filed) ?? 0) + 1);
      received.add(filed, call.body);
      let response: Response;
      try {
        response = await recording(withKey(`${upstream}${call.path}`, options.apiKey), {
          method: call.method,
          headers,
          body: call.body,
          signal: call.signal,
        });
      } catch (error) {
        if (call.signal.aborted) throw error;
        const failure = new ServeError(
          'UPSTREAM_UNREACHABLE',
          `Could not reach the upstream ${upstream} to record ${call.method} ${call.path}: ${causeOf(error)}. ` +
            'Nothing will be saved. Check --upstream and the network, then record again.',
          { cause: error },
        );
        problems.push(failure);
        throw failure;
      }
      if (response.status === 401 || response.status === 403) {
        problems.push(
          new ServeError(
            'UPSTREAM_UNAUTHORIZED',
            `The upstream ${upstream} answered ${response.status} to ${call.method} ${call.path}: the key was missing or refused. ` +
              'Nothing will be saved. Put the key in the variable --api-key-env names (default: none is sent), then record again.',
          ),
        );
      }
      const passed = new Headers(response.headers);
      for (const name of DECODED_HEADERS) passed.delete(name);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers: passed });
    },
    requests: (lineage) => received.requests(lineage),
    report,
    reset() {
      throw new ServeError(
        'SERVE_MODE_MISMATCH',
        'A recording is one whole run: record mode cannot be reset. Start one `nestcast serve --record` per recording.',
      );
    },
    async finish() {
      if (problems.length > 0) return report();
      if (counts.size === 0) {
        problems.push(
          new ServeError(
            'NOTHING_RECORDED',
            `No model call reached the endpoint, so nothing was saved to ${options.dir}. Point the program's base URL at it (the lines it printed).`,
          ),
        );
        return report();
      }
      try {
        const saved: SaveResult = await recording.save(options.dir, { baseUrl: upstream });
        // Sessions as the recorder filed them, derived ones included.
        const { calls } = await recording.cassette();
        const sessions = Object.entries(calls)
          .map(([lineage, list]): Consumption => ({ lineage, consumed: list.length, total: list.length }))
          .sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0));
        return { sessions, problems: [], saved };
      } catch (error) {
        problems.push(error as NestcastError);
        return report();
      }
    },
  };
}

/** The caller's headers for the upstream: hop headers dropped, its (dummy) key replaced by the real one. */
function forwardedHeaders(sent: Headers, apiKey: string | undefined): Headers {
  const headers = new Headers(sent);
  for (const name of HOP_HEADERS) headers.delete(name);
  return apiKey === undefined ? headers : withRealKey(headers, apiKey);
}

/** A key the caller sent in the query (Gemini's `key=`), replaced the same way. */
function withKey(url: string, apiKey: string | undefined): string {
  return apiKey === undefined ? url : withRealKeyInQuery(url, apiKey);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | undefined)?.cause;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
