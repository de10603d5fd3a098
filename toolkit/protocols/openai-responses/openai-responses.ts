import type { WireProtocol } from '../wire-protocol.js';
import { responsesConversation } from './conversation.js';
import { responsesErrorResponse } from './error-response.js';
import { responsesEventKind } from './event-kind.js';
import { renderResponses } from './render.js';
import { responsesMayCallTools, responsesReply, responsesSurelyReplies } from './reply.js';
import { responsesRequestSummary, responsesStopReason } from './request-summary.js';

/**
 * The OpenAI Responses API (`POST …/responses`), the default of the OpenAI Agents SDK and of the
 * AI SDK's OpenAI provider: `instructions` apart, `input` items growing call by call (messages,
 * `function_call`s, `function_call_output`s by `call_id`, reasoning), or `previous_response_id`
 * naming the answer a call continues; streams are named `response.*` events with sequence numbers,
 * complete at `response.completed`.
 */
export const openaiResponses: WireProtocol = {
  id: 'openai-responses',
  title: 'OpenAI Responses',
  matches: (request) => request.method === 'POST' && /\/responses\/?$/.test(request.url.pathname),
  streams: (request) => request.body?.['stream'] === true,
  streamField: 'stream',
  model: (body) => (typeof body['model'] === 'string' ? body['model'] : undefined),
  framing: {
    namedEvents: true,
    terminalEvents: ['response.completed', 'response.incomplete', 'response.failed', 'error'],
  },
  historyField: 'input',
  conversation: responsesConversation,
  requestSummary: responsesRequestSummary,
  stopReason: responsesStopReason,
  reply: responsesReply,
  mayCallTools: responsesMayCallTools,
  surelyReplies: responsesSurelyReplies,
  eventKind: responsesEventKind,
  endpoint: () => 'responses',
  errorResponse: responsesErrorResponse,
  probe: (text) => ({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text }] }] }),
  credentials: { headers: ['authorization'], query: [] },
  render: renderResponses,
};
