import { urlField } from '../url-fields.js';
import type { WireProtocol, WireRequest } from '../wire-protocol.js';
import { conversationOf } from './conversation.js';
import { errorResponse } from './error-response.js';
import { eventKind, mayCallTools } from './event-kind.js';
import { render } from './render.js';
import { replyOf, surelyReplies } from './reply.js';
import { geminiRequestSummary, geminiStopReason } from './request-summary.js';

/** The model an exported Gemini call is filed under when its cassette predates stored URL fields. */
const EXPORTED_MODEL = 'gemini';

/** `…/models/<model>:generateContent` and `:streamGenerateContent` (Gemini API and Vertex AI paths alike). */
const GENERATE = /\/models\/([^/]+):(generateContent|streamGenerateContent)$/;

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
  streamField: undefined,
  model: (body) => {
    const model = urlField(body, 'model');
    return typeof model === 'string' ? model : undefined;
  },
  framing: { namedEvents: false, terminalEvents: [] },
  historyField: 'contents',
  // The model is named by the URL only; the key that may share it (`?key=`) is a credential.
  urlFields: (url: URL): Record<string, string> => {
    const model = GENERATE.exec(url.pathname)?.[1];
    return model === undefined ? {} : { model: decodeURIComponent(model) };
  },
  conversation: conversationOf,
  requestSummary: geminiRequestSummary,
  stopReason: geminiStopReason,
  reply: replyOf,
  mayCallTools,
  surelyReplies,
  eventKind,
  endpoint: (body, stream) => {
    const model = urlField(body, 'model');
    const path = encodeURIComponent(typeof model === 'string' ? model : EXPORTED_MODEL);
    return `v1beta/models/${path}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  },
  errorResponse,
  probe: (text) => ({ contents: [{ role: 'user', parts: [{ text }] }] }),
  credentials: { headers: ['x-goog-api-key', 'authorization'], query: ['key'] },
  render,
};
