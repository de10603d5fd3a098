import type { BodyResponse, StreamedResponse } from '../../exchange/recorded-response.js';
import { assembleChatStream } from './reply-of-response.js';

/**
 * An authored turn rendered as a stream, answered as a `chat.completion` JSON body instead, for a
 * client that asked with `stream: false`: the body holds what the stream said, ids and usage included.
 */
export function completionFromStream(stream: StreamedResponse): BodyResponse {
  const { text, calls } = assembleChatStream(stream.events);
  const reply = { text, toolCalls: calls };
  let id = 'chatcmpl-nestcast';
  let model = 'nestcast-authored';
  let created = 0;
  let finish: unknown = 'stop';
  let usage: unknown;
  for (const event of stream.events) {
    if (!('data' in event)) continue;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(event.data) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof chunk['id'] === 'string') id = chunk['id'];
    if (typeof chunk['model'] === 'string') model = chunk['model'];
    if (typeof chunk['created'] === 'number') created = chunk['created'];
    if (chunk['usage']) usage = chunk['usage'];
    const choice = Array.isArray(chunk['choices'])
      ? (chunk['choices'][0] as Record<string, unknown> | undefined)
      : undefined;
    if (typeof choice?.['finish_reason'] === 'string') finish = choice['finish_reason'];
  }
  const message = {
    role: 'assistant',
    content: reply.text === '' && reply.toolCalls.length > 0 ? null : reply.text,
    ...(reply.toolCalls.length === 0
      ? {}
      : {
          tool_calls: reply.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        }),
  };
  const body = {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    ...(usage === undefined ? {} : { usage }),
  };
  return { status: stream.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
