import type { AuthoredReply } from '../authored-reply.js';
import { splitArguments, splitText } from '../split-text.js';
import type { RecordedResponse, SseEvent } from '../../exchange/recorded-response.js';
import type { RenderContext } from '../wire-protocol.js';

/** Fixed so rendered answers are byte-identical on every run. */
const CREATED_AT = 1_700_000_000;

type Item = Record<string, unknown>;

/**
 * An authored turn as the Responses API answers it: streamed, the `response.*` events with their
 * `event:` names and sequence numbers (`response.created` … `response.completed`, whose response
 * holds the whole output); otherwise that final response as a JSON body. Reasoning is a
 * `reasoning` item with a summary, text one `message` item, each tool call a `function_call`.
 */
export function renderResponses(turn: AuthoredReply, context: RenderContext): RecordedResponse {
  const events: Item[] = [];
  const output: Item[] = [];
  let deltas = 0;
  const responseId = `resp_${context.answerId}`;
  const skeleton = (status: string, items: readonly Item[], usage: Item | null): Item => ({
    id: responseId,
    object: 'response',
    created_at: CREATED_AT,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: context.model,
    output: items,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  });
  const emit = (type: string, fields: Item): void => {
    events.push({ type, sequence_number: events.length, ...fields });
  };
  emit('response.created', { response: skeleton('in_progress', [], null) });
  emit('response.in_progress', { response: skeleton('in_progress', [], null) });

  const reasoning = turn.reasoning ?? '';
  if (reasoning !== '') {
    const output_index = output.length;
    const item_id = `rs_${context.answerId}`;
    const part = { type: 'summary_text', text: reasoning };
    emit('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } });
    emit('response.reasoning_summary_part.added', {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    for (const delta of splitText(reasoning)) {
      deltas++;
      emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
    }
    emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text: reasoning });
    emit('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part });
    const item = { id: item_id, type: 'reasoning', summary: [part] };
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  }

  const text = turn.text ?? '';
  const calls = turn.toolCalls ?? [];
  if (text !== '' || calls.length === 0) {
    const output_index = output.length;
    const item_id = `msg_${context.answerId}`;
    const part = (value: string): Item => ({ type: 'output_text', annotations: [], logprobs: [], text: value });
    const message = (status: string, content: readonly Item[]): Item => ({
      id: item_id,
      type: 'message',
      status,
      content,
      role: 'assistant',
    });
    emit('response.output_item.added', { output_index, item: message('in_progress', []) });
    emit('response.content_part.added', { item_id, output_index, content_index: 0, part: part('') });
    for (const delta of splitText(text)) {
      deltas++;
      emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
    }
    emit('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
    emit('response.content_part.done', { item_id, output_index, content_index: 0, part: part(text) });
    const item = message('completed', [part(text)]);
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  }

  calls.forEach((call, index) => {
    const output_index = output.length;
    const item_id = `fc_${context.answerId}_${index + 1}`;
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const functionCall = (status: string, value: string): Item => ({
      id: item_id,
      type: 'function_call',
      status,
      arguments: value,
      call_id: context.toolCallIds[index] ?? `call_${context.answerId}_${index + 1}`,
      name: call.name,
    });
    emit('response.output_item.added', { output_index, item: functionCall('in_progress', '') });
    for (const delta of splitArguments(args)) {
      deltas++;
      emit('response.function_call_arguments.delta', { item_id, output_index, delta });
    }
    emit('response.function_call_arguments.done', { item_id, output_index, arguments: args });
    const item = functionCall('completed', args);
    emit('response.output_item.done', { output_index, item });
    output.push(item);
  });

  const input_tokens = turn.usage?.prompt ?? 0;
  const output_tokens = turn.usage?.completion ?? deltas;
  const usage = {
    input_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
  };
  const final = skeleton('completed', output, usage);
  if (!context.stream)
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(final) };
  emit('response.completed', { response: final });
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    events: events.map((event): SseEvent => ({
      delay: context.eventDelay,
      event: String(event['type']),
      data: JSON.stringify(event),
    })),
    done: false,
  };
}
