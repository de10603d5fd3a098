import type { CanonicalRequest } from '../canonical/canonical-request.js';
import type { NestcastError } from '../../harness/errors.js';
import type { SaveResult } from '../cassette/save-cassette.js';
import type { Consumption } from '../replay/replay-messages.js';

/** The origin a mode sees calls come to: only their path and query matter. */
export const SERVED_ORIGIN = 'http://nestcast-serve';

/** A model call as the endpoint hands it to the mode that answers it. */
export interface ServedCall {
  /** The session the caller named (path prefix or header); `undefined`: derived from the content. */
  readonly lineage: string | undefined;
  readonly method: string;
  /** Path and query as the API sees them (the lineage prefix taken off). */
  readonly path: string;
  /** `path` on `SERVED_ORIGIN`. */
  readonly url: URL;
  readonly headers: Headers;
  /** The body, already checked to be JSON. */
  readonly body: string;
  /** `body`, parsed once by the endpoint: replay reads it as it is. */
  readonly json: CanonicalRequest;
  /** Aborted when the caller goes away. */
  readonly signal: AbortSignal;
}

/** What one round (start or the last reset, to now) consumed and what went wrong in it. */
export interface RoundReport {
  readonly sessions: readonly Consumption[];
  /** Replay failures, calls never asked for, an upstream that could not be recorded: each once. */
  readonly problems: readonly NestcastError[];
}

/** How one mode answers calls: an authored script, a recording, or the real API being recorded. */
export interface CallSource {
  answer(call: ServedCall): Promise<Response>;
  /** The parsed body of every call filed under `lineage` since the last reset, in arrival order. */
  requests(lineage: string): unknown[];
  /** The current round, so far. */
  report(): RoundReport;
  /** Ends the round and starts a fresh one: cursors back to the start, sessions derived anew. */
  reset(): RoundReport;
  /** Ends the last round; record mode saves the recording here (or says why it did not). */
  finish(): Promise<RoundReport & { readonly saved?: SaveResult }>;
}
