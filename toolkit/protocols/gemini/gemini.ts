import type { WireProtocol, WireRequest } from '../wire-protocol.js';
import { conversationOf } from './conversation.js';
import { errorResponse } from './error-response.js';
import { eventKind, mayCallTools } from './event-kind.js';
import { render } from './render.js';
import { replyOf } from './reply.js';

/** `…/models/<model>:generateContent` and `:streamGenerateContent` (Gemini API and Vertex AI paths alike). */
/** The model an exported Gemini call is filed under. */
const EXPORTED_MODEL = 'gemini';

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
  conversation: conversationOf,
  reply: replyOf,
  mayCallTools,
  eventKind,
  // The model is part of the URL, not the body, and a stored request keeps no URL: a stand-in names it.
  endpoint: (_body, stream) =>
    `v1beta/models/${EXPORTED_MODEL}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  errorResponse,
  credentials: { headers: ['x-goog-api-key', 'authorization'], query: ['key'] },
  render,
};
