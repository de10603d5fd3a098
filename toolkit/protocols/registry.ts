import type { Json } from '../canonical/canonical-json.js';
import { chatCompletions } from './chat-completions/chat-completions.js';
import { openaiResponses } from './openai-responses/openai-responses.js';
import type { ProtocolId, WireErrorResponse, WireProtocol, WireRequest } from './wire-protocol.js';

/**
 * Every model API nestcast threads, in the order requests are tried: the first that claims a
 * request reads it. A request none claims is opaque HTTP: recorded and replayed by exact request,
 * never threaded.
 */
export const PROTOCOLS: readonly WireProtocol[] = [chatCompletions, openaiResponses];

/** What a stored call says it was: a protocol's id, or `http` for a call no protocol claimed. */
export type CallProtocol = ProtocolId | typeof OPAQUE_HTTP;

/** The `protocol` of a call no protocol claimed. */
export const OPAQUE_HTTP = 'http';

/**
 * The protocol of calls stored without one: every cassette written before protocols were
 * stored holds chat completions (or opaque calls, which read as a conversation of no messages).
 */
export const DEFAULT_PROTOCOL: ProtocolId = 'chat-completions';

/** The protocol that claims this request; `undefined` for an opaque HTTP call. */
export function protocolOf(request: WireRequest): WireProtocol | undefined {
  return PROTOCOLS.find((protocol) => protocol.matches(request));
}

/** The protocol a stored call names (`undefined` for `http`), the default when it names none. */
export function protocolById(id: CallProtocol | undefined): WireProtocol | undefined {
  const wanted = id ?? DEFAULT_PROTOCOL;
  return PROTOCOLS.find((protocol) => protocol.id === wanted);
}

/** What a call is stored as: its protocol's id, or `http`. */
export function callProtocol(protocol: WireProtocol | undefined): CallProtocol {
  return protocol?.id ?? OPAQUE_HTTP;
}

/** Every protocol id and `http`: what a stored call may name. */
export const CALL_PROTOCOLS: readonly CallProtocol[] = [
  'chat-completions',
  'openai-responses',
  'anthropic-messages',
  'gemini',
  OPAQUE_HTTP,
];

/**
 * The error answer of a replay failure: the protocol's own shape, which its SDKs surface at once,
 * or for an opaque call a plain JSON error with the same code and message.
 */
export function errorResponseOf(protocol: WireProtocol | undefined, code: string, message: string): WireErrorResponse {
  if (protocol) return protocol.errorResponse(code, message);
  const body: Json = { error: { code, message: `${code}: ${message}` } };
  return { status: 422, headers: { 'content-type': 'application/json' }, body };
}

/** Request headers that carry any protocol's credentials (lower case). */
export function credentialHeaderNames(): string[] {
  return [...new Set(PROTOCOLS.flatMap((protocol) => protocol.credentials.headers))];
}

/** URL query parameters that carry any protocol's credentials. */
export function credentialQueryNames(): string[] {
  return [...new Set(PROTOCOLS.flatMap((protocol) => protocol.credentials.query))];
}
