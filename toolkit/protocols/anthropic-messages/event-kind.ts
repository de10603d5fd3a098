import { isRecord } from '../../../harness/is-record.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { answerMentions } from '../answer-mentions.js';

/** What one streamed event carried, by its delta: thinking, words, or tool input (`ping`, starts and stops carry none). */
export function eventKind(event: { readonly data: string }): 'reasoning' | 'text' | 'tool-call' | undefined {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  if (!isRecord(data)) return undefined;
  if (data['type'] === 'content_block_start' && isRecord(data['content_block']))
    return data['content_block']['type'] === 'tool_use' ? 'tool-call' : undefined;
  if (data['type'] !== 'content_block_delta' || !isRecord(data['delta'])) return undefined;
  const kind = data['delta']['type'];
  if (kind === 'thinking_delta') return 'reasoning';
  if (kind === 'text_delta') return 'text';
  if (kind === 'input_json_delta') return 'tool-call';
  return undefined;
}

/** Whether an answer may hold tool calls, without parsing it: it names a `tool_use` block. */
export function mayCallTools(response: RecordedResponse): boolean {
  return answerMentions(response, '"tool_use"');
}
