import type { AuthoredReply } from '../authored-reply.js';
import { splitArguments, splitText } from '../split-text.js';
import type { RecordedResponse, SseEvent } from '../../exchange/recorded-response.js';
import { objectArguments } from '../object-arguments.js';
import type { RenderContext } from '../wire-protocol.js';

/** The script's finish reasons are OpenAI's; Anthropic names them its own way. Others pass as written. */
const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
};

/**
 * An authored reply as Anthropic sends it: a `message_start … message_stop` stream with `event:`
 * lines (reasoning as a thinking block with a signature, text, each tool call as a `tool_use`
 * block whose input arrives in `input_json_delta` fragments), or the same message as JSON.
 */
export function render(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  return context.stream ? renderStream(turn, context) : renderMessage(turn, context);
}

function renderStream(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  const events: SseEvent[] = [];
  const send = (data: { type: string } & Record<string, unknown>): void => {
    events.push({ delay: context.eventDelay, event: data.type, data: JSON.stringify(data) });
  };
  let deltas = 0;
  let index = 0;
  const block = (start: Record<string, unknown>, deltasOf: readonly Record<string, unknown>[]): void => {
    send({ type: 'content_block_start', index, content_block: start });
    if (index === 0) send({ type: 'ping' });
    for (const delta of deltasOf) send({ type: 'content_block_delta', index, delta });
    send({ type: 'content_block_stop', index });
    deltas += deltasOf.length;
    index++;
  };
  const input_tokens = turn.usage?.prompt ?? 0;
  send({
    type: 'message_start',
    message: { ...envelope(context), content: [], stop_reason: null, usage: { input_tokens, output_tokens: 1 } },
  });
  if (turn.reasoning)
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitText(turn.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: signatureOf(context) },
    ]);
  if (turn.text)
    block(
      { type: 'text', text: '' },
      splitText(turn.text).map((text) => ({ type: 'text_delta', text })),
    );
  (turn.toolCalls ?? []).forEach((call, position) => {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const id = context.toolCallIds[position] ?? '';
    block({ type: 'tool_use', id, name: call.name, input: {} }, [
      { type: 'input_json_delta', partial_json: '' },
      ...splitArguments(args).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    ]);
  });
  send({
    type: 'message_delta',
    delta: { stop_reason: stopReason(turn), stop_sequence: null },
    usage: { output_tokens: turn.usage?.completion ?? deltas },
  });
  send({ type: 'message_stop' });
  return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, events, done: false };
}

function renderMessage(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  const content: Record<string, unknown>[] = [];
  if (turn.reasoning) content.push({ type: 'thinking', thinking: turn.reasoning, signature: signatureOf(context) });
  if (turn.text) content.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, position) =>
    content.push({
      type: 'tool_use',
      id: context.toolCallIds[position] ?? '',
      name: call.name,
      input: objectArguments(call, 'an Anthropic Messages JSON answer'),
    }),
  );
  const deltas = splitText(turn.reasoning ?? '').length + splitText(turn.text ?? '').length;
  const message = {
    ...envelope(context),
    content,
    stop_reason: stopReason(turn),
    usage: { input_tokens: turn.usage?.prompt ?? 0, output_tokens: turn.usage?.completion ?? deltas },
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) };
}

function envelope(context: RenderContext): Record<string, unknown> {
  return {
    id: `msg_${context.answerId}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    stop_sequence: null,
  };
}

function stopReason(turn: AuthoredReply): string {
  const finish = turn.finish ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
  return STOP_REASONS[finish] ?? finish;
}

/** Clients send thinking blocks back with their signature; a stable one keeps those requests equal across runs. */
function signatureOf(context: RenderContext): string {
  return Buffer.from(`nestcast:${context.answerId}`).toString('base64');
}
