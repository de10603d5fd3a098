import { canonicalJson } from '../canonical/canonical-json.js';
import { DONE_FRAME, formatSseEvent } from '../exchange/sse-format.js';
import type { CassetteCall } from '../cassette/types.js';
import { protocolById } from '../protocols/registry.js';
import { sentBody } from '../protocols/url-fields.js';

/** An opaque call's stream is asked for as chat completions asks (`stream`), the field canonical requests drop. */
const OPAQUE_STREAM_FIELD = 'stream';

/** A model call as bytes on the wire, the form nock and HAR hold. */
export interface WireExchange {
  readonly requestBody: string;
  readonly status: number;
  /** The recorded response headers (already allow-listed), content-type always among them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly responseBody: string;
  /** Sum of the recorded event delays, in ms. */
  readonly duration: number;
}

/**
 * The call as the client sent and received it, or why a flat fixture cannot hold it: a network
 * failure, timeout or abort has no status and body to replay, and `request: null` (an authored
 * call that matches anything) has no body to send.
 */
export function wireExchange(call: CassetteCall): WireExchange | { readonly unsupported: string } {
  if (call.request === null) return { unsupported: 'an authored call that matches any request has no request body' };
  const { response } = call;
  if ('error' in response) {
    const failure = response.error;
    if (failure.kind !== 'http') return { unsupported: `a ${failure.kind} failure has no HTTP answer to replay` };
    return {
      requestBody: bodyOf(call, false),
      status: failure.status,
      headers: withType(failure.headers, 'application/json'),
      responseBody: failure.body,
      duration: 0,
    };
  }
  if ('events' in response) {
    const text = response.events.map(formatSseEvent).join('') + (response.done ? DONE_FRAME : '');
    const duration = response.events.reduce((sum, event) => sum + event.delay, 0);
    return {
      requestBody: bodyOf(call, true),
      status: response.status,
      headers: withType(response.headers, 'text/event-stream'),
      responseBody: text,
      duration,
    };
  }
  return {
    requestBody: bodyOf(call, false),
    status: response.status,
    headers: withType(response.headers, 'application/json'),
    responseBody: response.body,
    duration: 0,
  };
}

function withType(headers: Readonly<Record<string, string>>, fallback: string): Record<string, string> {
  return { 'content-type': fallback, ...headers };
}

/**
 * The canonical request without its URL-borne fields, asking again for the stream the recording was
 * (canonical requests leave the field out) where its protocol asks in the body; an opaque call as
 * chat completions would (`stream`), the field canonical requests drop.
 */
function bodyOf(call: CassetteCall, streamed: boolean): string {
  const request = sentBody(call.request ?? {});
  const protocol = protocolById(call.protocol);
  const field = protocol === undefined ? OPAQUE_STREAM_FIELD : protocol.streamField;
  return canonicalJson(
    streamed && field !== undefined && !(field in request) ? { ...request, [field]: true } : request,
  );
}
