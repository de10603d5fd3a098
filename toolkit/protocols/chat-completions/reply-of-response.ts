import type { Json } from '../../canonical/canonical-json.js';
import type { RecordedResponse, SseEvent } from '../../exchange/recorded-response.js';
import { answerMentions } from '../answer-mentions.js';
import { canonicalArguments } from '../canonical-arguments.js';
import { isObject, parseJson } from '../json-fields.js';
import type { NeutralToolCall, ReplyOf, TokenUsage } from '../wire-protocol.js';

interface Pending {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The assistant reply a recorded chat completion carried: streamed deltas assembled (text, tool
 * calls by wire index) or a JSON completion's first choice. `undefined` for a failed call or a
 * body without a message: it has no reply, so the session's next call repeats its request.
 */
export function chatReply(response: RecordedResponse): ReplyOf | undefined {
  if ('error' in response) return undefined;
  if ('body' in response) return replyOfBody(response.body);
  const { text, calls, usage } = assembleChatStream(response.events);
  const toolCalls = calls.map((call): NeutralToolCall => ({ ...call, arguments: canonicalArguments(call.arguments) }));
  return withUsage({ role: 'assistant', text, ...(toolCalls.length === 0 ? {} : { toolCalls }) }, usage);
}

/** What a chat-completions stream said: text, tool calls (arguments as streamed) and the last usage. */
export function assembleChatStream(events: readonly SseEvent[]): {
  text: string;
  calls: NeutralToolCall[];
  usage: TokenUsage | undefined;
} {
  let text = '';
  let usage: TokenUsage | undefined;
  const calls = new Map<number, Pending>();
  for (const event of events) {
    if (!('data' in event)) continue;
    const chunk = parseJson(event.data);
    if (!isObject(chunk)) continue;
    usage = usageOf(chunk['usage']) ?? usage;
    const delta = firstChoice(chunk)?.['delta'];
    if (!isObject(delta)) continue;
    if (typeof delta['content'] === 'string') text += delta['content'];
    const fragments = delta['tool_calls'];
    if (!Array.isArray(fragments)) continue;
    fragments.forEach((part, position) => {
      if (!isObject(part)) return;
      const index = typeof part['index'] === 'number' ? part['index'] : position;
      const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
      calls.set(index, call);
      if (typeof part['id'] === 'string' && part['id'] !== '') call.id = part['id'];
      const fn = part['function'];
      if (!isObject(fn)) return;
      if (typeof fn['name'] === 'string' && fn['name'] !== '') call.name = fn['name'];
      if (typeof fn['arguments'] === 'string') call.arguments += fn['arguments'];
    });
  }
  return { text, calls: [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call), usage };
}

/** Whether the answer may hold tool calls, without parsing it. */
export function chatMayCallTools(response: RecordedResponse): boolean {
  return answerMentions(response, '"tool_calls"');
}

/** A stream always assembles into a reply (text, tool calls or neither); a JSON body must be parsed to tell. */
export function chatSurelyReplies(response: RecordedResponse): boolean {
  return 'events' in response;
}

function replyOfBody(body: string): ReplyOf | undefined {
  const parsed = parseJson(body);
  const message = isObject(parsed) ? firstChoice(parsed)?.['message'] : undefined;
  if (!isObject(message) || !isObject(parsed)) return undefined;
  const text = typeof message['content'] === 'string' ? message['content'] : '';
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
  const toolCalls = calls.map((raw): NeutralToolCall => {
    const call = isObject(raw) ? raw : {};
    const fn = isObject(call['function']) ? call['function'] : {};
    return {
      id: typeof call['id'] === 'string' ? call['id'] : '',
      name: typeof fn['name'] === 'string' ? fn['name'] : '',
      arguments: canonicalArguments(typeof fn['arguments'] === 'string' ? fn['arguments'] : ''),
    };
  });
  return withUsage(
    { role: 'assistant', text, ...(toolCalls.length === 0 ? {} : { toolCalls }) },
    usageOf(parsed['usage']),
  );
}

function withUsage(message: ReplyOf['message'], usage: TokenUsage | undefined): ReplyOf {
  return usage === undefined ? { message } : { message, usage };
}

function usageOf(value: Json | undefined): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value['prompt_tokens'];
  const output = value['completion_tokens'];
  return typeof input === 'number' && typeof output === 'number' ? { input, output } : undefined;
}

function firstChoice(chunk: { [key: string]: Json }): { [key: string]: Json } | undefined {
  const choices = chunk['choices'];
  const first = Array.isArray(choices) ? choices[0] : undefined;
  return isObject(first) ? first : undefined;
}
