import { isRecord } from '../../harness/is-record.js';
import type { RecordedResponse } from '../cassette/types.js';
import type { Reply } from './types.js';

interface Pending {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The assistant reply a recorded response carried: streamed deltas assembled (text, tool calls by
 * wire index) or a JSON completion's first choice. `undefined` for a failed call: it has no reply,
 * so the session's next call repeats its request.
 */
export function replyOfResponse(response: RecordedResponse): Reply | undefined {
  if ('error' in response) return undefined;
  if ('body' in response) return replyOfBody(response.body);
  let text = '';
  const calls = new Map<number, Pending>();
  for (const event of response.events) {
    if (!('data' in event)) continue;
    const choice = firstChoice(parse(event.data));
    const delta = record(choice?.['delta']);
    if (!delta) continue;
    if (typeof delta['content'] === 'string') text += delta['content'];
    const fragments = delta['tool_calls'];
    if (!Array.isArray(fragments)) continue;
    fragments.forEach((fragment: unknown, position: number) => {
      const part = record(fragment);
      if (!part) return;
      const index = typeof part['index'] === 'number' ? part['index'] : position;
      const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
      calls.set(index, call);
      if (typeof part['id'] === 'string' && part['id'] !== '') call.id = part['id'];
      const fn = record(part['function']);
      if (typeof fn?.['name'] === 'string' && fn['name'] !== '') call.name = fn['name'];
      if (typeof fn?.['arguments'] === 'string') call.arguments += fn['arguments'];
    });
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return { text, toolCalls };
}

/**
 * Whether the response may hold tool calls, without parsing it: a recorded reply is read for its
 * tool calls only when it may have some.
 */
export function mayAskForTools(response: RecordedResponse): boolean {
  if ('error' in response) return false;
  if ('body' in response) return response.body.includes('"tool_calls"');
  return response.events.some((event) => 'data' in event && event.data.includes('"tool_calls"'));
}

function replyOfBody(body: string): Reply | undefined {
  const message = record(firstChoice(parse(body))?.['message']);
  if (!message) return undefined;
  const text = typeof message['content'] === 'string' ? message['content'] : '';
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
  const toolCalls = calls.map((raw: unknown) => {
    const call = record(raw) ?? {};
    const fn = record(call['function']) ?? {};
    return {
      id: String(call['id'] ?? ''),
      name: String(fn['name'] ?? ''),
      arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '',
    };
  });
  return { text, toolCalls };
}

function firstChoice(chunk: unknown): Record<string, unknown> | undefined {
  const choices = record(chunk)?.['choices'];
  return Array.isArray(choices) ? record(choices[0]) : undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
