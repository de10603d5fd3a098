import { isRecord } from '../../../harness/is-record.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { answerMentions } from '../answer-mentions.js';

/** What one streamed chunk carried: a function call, words, or thoughts (a signature-only chunk carries none). */
export function eventKind(event: { readonly data: string }): 'reasoning' | 'text' | 'tool-call' | undefined {
  let chunk: unknown;
  try {
    chunk = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  const candidates = isRecord(chunk) ? chunk['candidates'] : undefined;
  const first = Array.isArray(candidates) ? candidates[0] : undefined;
  const content = isRecord(first) ? first['content'] : undefined;
  const parts = isRecord(content) && Array.isArray(content['parts']) ? content['parts'].filter(isRecord) : [];
  if (parts.some((part) => isRecord(part['functionCall']))) return 'tool-call';
  const written = parts.filter((part) => typeof part['text'] === 'string' && part['text'] !== '');
  if (written.some((part) => part['thought'] !== true)) return 'text';
  return written.length > 0 ? 'reasoning' : undefined;
}

/** Whether an answer may hold tool calls, without parsing it: it names a `functionCall` part. */
export function mayCallTools(response: RecordedResponse): boolean {
  return answerMentions(response, '"functionCall"');
}
