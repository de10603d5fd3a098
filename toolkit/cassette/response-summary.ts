import { protocolById } from '../protocols/registry.js';
import type { CassetteCall } from './types.js';

/** What a recorded answer said, for a person: its text and the tools it called with their arguments. */
export interface ResponseSummary {
  readonly text: string;
  readonly toolCalls: readonly { readonly name: string; readonly args: string }[];
}

const NOTHING: ResponseSummary = { text: '', toolCalls: [] };

/**
 * Rebuilds a recorded answer as its protocol reads it (`WireProtocol.reply`), streamed or not, or
 * what arrived of it before a failure. An opaque HTTP call, or anything its protocol cannot read,
 * says nothing: a summary never fails.
 */
export function summarizeResponse(call: CassetteCall): ResponseSummary {
  const protocol = protocolById(call.protocol);
  if (!protocol) return NOTHING;
  const { response } = call;
  const partial = 'error' in response && response.error.kind !== 'http' ? response.error.partial : undefined;
  const readable = partial ? { ...partial, done: false } : response;
  const message = protocol.reply(readable)?.message;
  if (!message) return NOTHING;
  return {
    text: message.text,
    toolCalls: (message.toolCalls ?? []).map((call) => ({ name: call.name || '?', args: call.arguments })),
  };
}
