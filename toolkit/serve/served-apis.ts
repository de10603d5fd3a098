import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { errorResponseOf, PROTOCOLS, protocolOf } from '../protocols/registry.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';

/**
 * The protocol whose model call this is (each protocol knows its own paths), if the endpoint
 * serves it; `sent` is the body as sent, parsed.
 */
export function servedProtocol(method: string, url: URL, sent: CanonicalRequest): WireProtocol | undefined {
  return protocolOf({ method, url, body: sent });
}

/** What the endpoint serves, for the 404 that says so: `POST <base URL>/chat/completions (OpenAI chat completions), …`. */
export function servedShapes(): string {
  return PROTOCOLS.map((protocol) => `POST <base URL>/${protocol.endpoint({}, false)} (${protocol.title})`).join(', ');
}

/** An error in the protocol's own shape and non-retried status, carrying the nestcast code. */
export function protocolError(protocol: WireProtocol, code: string, message: string): Response {
  const answer = errorResponseOf(protocol, code, message);
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { ...answer.headers, 'x-nestcast-error': code },
  });
}
