import { isRecord } from '../../../harness/is-record.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import type { ReplyOf, TokenUsage } from '../wire-protocol.js';
import { emptyParts, endParts, readParts } from './parts.js';

/**
 * The model turn a Gemini answer becomes in the next request: the first candidate's parts over
 * every chunk of an `?alt=sse` stream, or of a JSON answer (`generateContent`'s object, or the
 * array `streamGenerateContent` sends without `alt=sse`). Function calls without ids get the ids
 * `conversationOf` derives for the same turn. `undefined` for a failure: an HTTP error, an `error`
 * chunk, or nothing that is an answer.
 */
export function replyOf(response: RecordedResponse): ReplyOf | undefined {
  if ('error' in response || response.status >= 400) return undefined;
  const chunks: unknown[] = [];
  if ('body' in response) {
    const body = parse(response.body);
    chunks.push(...(Array.isArray(body) ? body : [body]));
  } else for (const event of response.events) if ('data' in event) chunks.push(parse(event.data));
  const parts = emptyParts();
  let usage: TokenUsage | undefined;
  let answered = false;
  for (const chunk of chunks) {
    if (!isRecord(chunk) || 'error' in chunk) return undefined;
    const candidates = chunk['candidates'];
    const first = Array.isArray(candidates) ? candidates[0] : undefined;
    if (isRecord(first)) {
      answered = true;
      if (isRecord(first['content'])) readParts(first['content']['parts'], parts);
    }
    usage = usageOf(chunk['usageMetadata']) ?? usage;
  }
  if (!answered) return undefined;
  endParts(parts);
  return {
    message: {
      role: 'assistant',
      text: parts.text,
      ...(parts.toolCalls.length > 0 ? { toolCalls: parts.toolCalls } : {}),
    },
    ...(usage ? { usage } : {}),
  };
}

/** Thinking tokens are billed as output, so they count as output here. */
function usageOf(metadata: unknown): TokenUsage | undefined {
  if (!isRecord(metadata)) return undefined;
  const count = (key: string): number => (typeof metadata[key] === 'number' ? metadata[key] : 0);
  return { input: count('promptTokenCount'), output: count('candidatesTokenCount') + count('thoughtsTokenCount') };
}

/**
 * Whether a stream surely has a reply: no chunk mentions `error` (anywhere; a mention in the text
 * only costs a parse), every chunk is written as an object (`{…}`), and the first, the only one
 * parsed, has a candidate. A chunk written as an object that is not JSON (no server sends one) is
 * taken for one; recording and replay decide alike, so a session is filed the same either way.
 */
export function surelyReplies(response: RecordedResponse): boolean {
  if (!('events' in response) || response.status >= 400) return false;
  let first: string | undefined;
  for (const event of response.events) {
    if (!('data' in event)) continue;
    const data = event.data.trim();
    if (data.includes('error') || !data.startsWith('{') || !data.endsWith('}')) return false;
    first ??= data;
  }
  const chunk = first === undefined ? undefined : parse(first);
  const candidates = isRecord(chunk) ? chunk['candidates'] : undefined;
  return Array.isArray(candidates) && isRecord(candidates[0]);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
