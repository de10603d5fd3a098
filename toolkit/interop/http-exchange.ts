import { readRequest } from '../canonical/canonical-request.js';
import { protocolOf } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';

/** The fixture formats nestcast reads and writes besides its own cassettes. */
export type FixtureFormat = 'nock' | 'polly' | 'har';

export const FIXTURE_FORMATS: readonly FixtureFormat[] = ['nock', 'polly', 'har'];

/**
 * One HTTP request and its answer as a foreign fixture holds it, before it becomes a model call:
 * the common shape the nock and HAR readers produce and the cassette converter consumes.
 */
export interface HttpExchange {
  /** Position in the fixture (0-based), for messages. */
  readonly index: number;
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** Request headers, names lower-cased. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body as text ('' when there was none). */
  readonly requestBody: string;
  readonly status: number;
  /** Response headers, names lower-cased. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The response body as text. */
  readonly responseBody: string;
}

/** The model API an exchange spoke (a wire protocol claims it); `undefined` for any other HTTP call. */
export function protocolOfExchange(exchange: HttpExchange): WireProtocol | undefined {
  return protocolOf({
    method: exchange.method.toUpperCase(),
    url: new URL(exchange.url),
    body: readRequest(exchange.requestBody).sent,
  });
}
