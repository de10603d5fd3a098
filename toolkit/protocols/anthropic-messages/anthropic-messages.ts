import { isRecord } from '../../../harness/is-record.js';
import type { WireProtocol, WireRequest } from '../wire-protocol.js';
import { conversationOf } from './conversation.js';
import { errorResponse } from './error-response.js';
import { eventKind, mayCallTools } from './event-kind.js';
import { render } from './render.js';
import { replyOf, surelyReplies } from './reply.js';
import { anthropicRequestSummary, anthropicStopReason } from './request-summary.js';

/**
 * Anthropic Messages: `POST …/messages` (the SDK's `/v1/messages`, with `?beta=true` for beta
 * calls) with a `messages` array. `…/messages/count_tokens` and batches are not model calls.
 */
export const anthropicMessages: WireProtocol = {
  id: 'anthropic-messages',
  title: 'Anthropic Messages',
  matches: (request: WireRequest) =>
    request.method.toUpperCase() === 'POST' &&
    request.url.pathname.endsWith('/messages') &&
    Array.isArray(request.body?.['messages']),
  streams: (request: WireRequest) => isRecord(request.body) && request.body['stream'] === true,
  streamField: 'stream',
  model: (body) => (typeof body['model'] === 'string' ? body['model'] : undefined),
  framing: { namedEvents: true, terminalEvents: ['message_stop'] },
  historyField: 'messages',
  conversation: conversationOf,
  requestSummary: anthropicRequestSummary,
  stopReason: anthropicStopReason,
  reply: replyOf,
  mayCallTools,
  surelyReplies,
  eventKind,
  endpoint: () => 'v1/messages',
  errorResponse,
  probe: (text) => ({ model: 'm', max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text }] }] }),
  credentials: { headers: ['x-api-key', 'authorization'], query: [] },
  render,
};
