import { canonicalize } from '../canonical/canonical-json.js';
import { requestContent, type CanonicalRequest } from '../canonical/canonical-request.js';
import { SseParser } from '../exchange/sse-parser.js';
import type { CassetteCall, RecordedResponse, SseEvent } from '../cassette/types.js';
import { DEFAULT_RESPONSE_HEADERS } from '../record/capture-response.js';
import { callProtocol } from '../protocols/registry.js';
import { withUrlFields } from '../protocols/url-fields.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import type { HttpExchange } from './http-exchange.js';

/**
 * The model call a fixture's exchange stands for, in `protocol`. A streamed body is split back
 * into its SSE events (the protocol's sentinel, if it has one, ends the stream); fixtures keep no
 * chunk timing, so every delay is 0 (`meta.json` says where it came from).
 */
export function exchangeToCall(exchange: HttpExchange, protocol: WireProtocol | undefined): CassetteCall {
  return {
    request: canonicalize(
      withUrlFields(protocol, new URL(exchange.url), requestContent(exchange.requestBody)),
    ) as CanonicalRequest,
    response: responseOf(exchange, protocol?.framing.sentinel),
    protocol: callProtocol(protocol),
  };
}

function responseOf(exchange: HttpExchange, sentinel: string | undefined): RecordedResponse {
  const headers = keptHeaders(exchange.responseHeaders);
  if (exchange.status >= 400)
    return { error: { kind: 'http', status: exchange.status, headers, body: exchange.responseBody } };
  if (!(exchange.responseHeaders['content-type'] ?? '').includes('text/event-stream')) {
    return { status: exchange.status, headers, body: exchange.responseBody };
  }
  const parser = new SseParser();
  const parsed = [...parser.push(exchange.responseBody), ...parser.flush()];
  const events: SseEvent[] = [];
  let done = false;
  for (const event of parsed) {
    if ('data' in event && sentinel !== undefined && event.data === sentinel) done = true;
    else if (!done) events.push({ delay: 0, ...event });
  }
  return { status: exchange.status, headers, events, done };
}

function keptHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of DEFAULT_RESPONSE_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
