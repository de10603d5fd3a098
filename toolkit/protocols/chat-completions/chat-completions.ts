import type { WireProtocol } from '../wire-protocol.js';
import { chatConversation } from './conversation.js';
import { chatErrorResponse } from './error-response.js';
import { chatEventKind } from './event-kind.js';
import { renderChat } from './render.js';
import { chatMayCallTools, chatReply, chatSurelyReplies } from './reply-of-response.js';
import { chatRequestSummary, chatStopReason } from './request-summary.js';

/**
 * OpenAI chat completions (`POST …/chat/completions`), as OpenAI, DeepSeek and every
 * OpenAI-compatible gateway serve it: `messages` grow call by call, tool calls carry ids their
 * `tool` messages answer, streams are unnamed `data:` chunks ending `[DONE]`.
 */
export const chatCompletions: WireProtocol = {
  id: 'chat-completions',
  title: 'OpenAI chat completions',
  matches: (request) => request.method === 'POST' && /\/chat\/completions\/?$/.test(request.url.pathname),
  streams: (request) => request.body?.['stream'] === true,
  streamField: 'stream',
  model: (body) => (typeof body['model'] === 'string' ? body['model'] : undefined),
  framing: { namedEvents: false, sentinel: '[DONE]', terminalEvents: [] },
  historyField: 'messages',
  conversation: chatConversation,
  requestSummary: chatRequestSummary,
  stopReason: chatStopReason,
  reply: chatReply,
  mayCallTools: chatMayCallTools,
  surelyReplies: chatSurelyReplies,
  eventKind: chatEventKind,
  endpoint: () => 'chat/completions',
  errorResponse: chatErrorResponse,
  probe: (text) => ({
    model: 'm',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: text },
    ],
  }),
  credentials: { headers: ['authorization', 'api-key'], query: [] },
  render: renderChat,
};
