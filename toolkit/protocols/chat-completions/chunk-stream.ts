import { splitArguments, splitText } from '../split-text.js';
import type { AuthoredReply } from '../authored-reply.js';

/** Fixed so compiled streams are byte-identical on every run. */
const CREATED = 1_700_000_000;

export interface ChunkContext {
  readonly id: string;
  readonly model: string;
  /** Resolved tool-call ids, one per `reply.toolCalls` entry. */
  readonly toolCallIds: readonly string[];
}

/**
 * The `data` texts of an OpenAI chat-completions stream for one reply: role chunk, reasoning
 * deltas, text deltas, tool calls (name first, then argument fragments), the finish chunk and a
 * usage-only chunk with empty `choices`. `[DONE]` is not included.
 */
export function replyChunks(reply: AuthoredReply, context: ChunkContext): string[] {
  const chunk = (choices: readonly object[], extra: object = {}): string =>
    JSON.stringify({
      id: context.id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: context.model,
      choices,
      ...extra,
    });
  const delta = (value: object, finish: string | null = null): string =>
    chunk([{ index: 0, delta: value, finish_reason: finish }]);

  const body: string[] = [delta({ role: 'assistant', content: '' })];
  for (const piece of splitText(reply.reasoning ?? '')) body.push(delta({ reasoning_content: piece }));
  for (const piece of splitText(reply.text ?? '')) body.push(delta({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    body.push(
      delta({
        tool_calls: [
          { index, id: context.toolCallIds[index], type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const fragment of splitArguments(args))
      body.push(delta({ tool_calls: [{ index, function: { arguments: fragment } }] }));
  });
  const finish = reply.finish ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
  const completion = reply.usage?.completion ?? body.length - 1;
  const prompt = reply.usage?.prompt ?? 0;
  return [
    ...body,
    delta({}, finish),
    chunk([], { usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
  ];
}
