import type { WireProtocol, WireRequest } from '../wire-protocol.js';
import { conversationOf } from './conversation.js';
import { errorResponse } from './error-response.js';
import { render } from './render.js';
import { replyOf } from './reply.js';

/** `…/models/<model>:generateContent` and `:streamGenerateContent` (Gemini API and Vertex AI paths alike). */
const GENERATE = /\/models\/[^/]+:(generateContent|streamGenerateContent)$/;

/**
 * Google Gemini. A streamed answer is asked for by the URL: `:streamGenerateContent?alt=sse`.
 * Without `alt=sse` that method answers one JSON array, which is a body like `generateContent`'s.
 */
export const gemini: WireProtocol = {
  id: 'gemini',
  title: 'Google Gemini',
  matches: (request: WireRequest) => request.method.toUpperCase() === 'POST' && GENERATE.test(request.url.pathname),
  streams: (request: WireRequest) =>
    request.url.pathname.endsWith(':streamGenerateContent') && request.url.searchParams.get('alt') === 'sse',
  framing: { namedEvents: false, terminalEvents: [] },
  historyField: 'contents',
  conversation: (request: WireRequest) => conversationOf(request.body),
  reply: replyOf,
  errorResponse,
  credentials: { headers: ['x-goog-api-key', 'authorization'], query: ['key'] },
  render,
};
