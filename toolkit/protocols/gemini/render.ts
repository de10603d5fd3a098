import type { AuthoredReply } from '../authored-reply.js';
import { splitText } from '../split-text.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { objectArguments } from '../object-arguments.js';
import type { RenderContext } from '../wire-protocol.js';

/** The script's finish reasons are OpenAI's; Gemini ends a turn with calls as `STOP` too. Others pass as written. */
const FINISH_REASONS: Readonly<Record<string, string>> = { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS' };

/**
 * An authored reply as Gemini sends it: `?alt=sse` chunks (thought parts, text, each function
 * call whole in its own chunk; the last chunk carries the finish reason and usage), the same
 * candidate as one JSON answer, or, for `:streamGenerateContent` without `alt=sse`, those chunks
 * as one JSON array. Calls go without ids, as Gemini's API sends them, unless the script
 * gave the call one (`FunctionCall.id` is optional on the wire): then its child session is named
 * by that id instead of the one derived from name, arguments and position.
 */
export function render(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  const parts: Record<string, unknown>[] = [
    ...splitText(turn.reasoning ?? '').map((text) => ({ text, thought: true })),
    ...splitText(turn.text ?? '').map((text) => ({ text })),
    ...(turn.toolCalls ?? []).map((call) => ({
      functionCall: {
        ...(call.id === undefined ? {} : { id: call.id }),
        name: call.name,
        args: objectArguments(call, 'a Gemini answer'),
      },
    })),
  ];
  const prompt = turn.usage?.prompt ?? 0;
  const output = turn.usage?.completion ?? parts.length;
  const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output };
  const finish = turn.finish ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
  const chunk = (chunkParts: readonly object[], last: boolean): Record<string, unknown> => ({
    candidates: [
      {
        content: { parts: chunkParts, role: 'model' },
        ...(last ? { finishReason: FINISH_REASONS[finish] ?? finish } : {}),
        index: 0,
      },
    ],
    ...(last ? { usageMetadata } : {}),
    modelVersion: context.model,
    responseId: context.answerId,
  });
  // The finish reason rides on the last part: a chunk of one empty text part would end the turn with an invalid content.
  const pieces = parts.length > 0 ? parts : [{ text: '' }];
  const chunks = pieces.map((part, index) => chunk([part], index === pieces.length - 1));
  if (context.stream)
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: chunks.map((data) => ({ delay: context.eventDelay, data: JSON.stringify(data) })),
      done: false,
    };
  // `:streamGenerateContent` without `alt=sse` sends the same chunks as one JSON array.
  const body = context.url?.pathname.endsWith(':streamGenerateContent') ? chunks : chunk(pieces, true);
  return { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) };
}
