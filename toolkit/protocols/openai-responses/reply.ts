import type { Json } from '../../canonical/canonical-json.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { answerMentions } from '../answer-mentions.js';
import { canonicalArguments } from '../canonical-arguments.js';
import { isObject, parseJson, textOfParts } from '../json-fields.js';
import type { NeutralToolCall, ReplyOf, TokenUsage } from '../wire-protocol.js';

type JsonObject = { [key: string]: Json };

/**
 * The answer a recorded Responses call carried, as its next request sends it back: the text of
 * its `message` items and its `function_call`s (by `call_id`), from a JSON body or a stream (the
 * `response.output_item.done` items, else the terminal event's `response.output`), with the
 * response's `id` as the handle a `previous_response_id` names. `undefined` for a failure, a
 * `response.failed`, or a stream that never finished an item.
 */
export function responsesReply(response: RecordedResponse): ReplyOf | undefined {
  if ('error' in response) return undefined;
  if ('body' in response) {
    const body = parseJson(response.body);
    return isObject(body) && Array.isArray(body['output']) ? replyOf(body, body['output']) : undefined;
  }
  const done: Json[] = [];
  let final: JsonObject | undefined;
  let created: JsonObject | undefined;
  for (const event of response.events) {
    if (!('data' in event)) continue;
    const data = parseJson(event.data);
    if (!isObject(data)) continue;
    const type = data['type'];
    if (type === 'response.output_item.done' && data['item'] !== undefined) done.push(data['item']);
    else if (type === 'response.created' && isObject(data['response'])) created = data['response'];
    else if (type === 'response.failed') return undefined;
    else if ((type === 'response.completed' || type === 'response.incomplete') && isObject(data['response']))
      final = data['response'];
  }
  const output = final && Array.isArray(final['output']) && final['output'].length > 0 ? final['output'] : done;
  if (output.length === 0 && final === undefined) return undefined;
  return replyOf(final ?? created ?? {}, output);
}

/** Whether the answer may hold function calls, without parsing it. */
export function responsesMayCallTools(response: RecordedResponse): boolean {
  return answerMentions(response, '"function_call"');
}

/**
 * Whether a stream surely has a reply: nothing in it mentions `response.failed` (anywhere, so a
 * failure however it is written is caught; a mention in the text only costs a parse), and its last
 * event, the only one parsed, is `response.completed` or `response.incomplete` with output items.
 */
export function responsesSurelyReplies(response: RecordedResponse): boolean {
  if (!('events' in response)) return false;
  let last: string | undefined;
  for (const event of response.events) {
    if (!('data' in event)) continue;
    if (event.data.includes('response.failed')) return false;
    last = event.data;
  }
  const data = last === undefined ? undefined : parseJson(last);
  if (!isObject(data) || (data['type'] !== 'response.completed' && data['type'] !== 'response.incomplete'))
    return false;
  const final = data['response'];
  return isObject(final) && Array.isArray(final['output']) && final['output'].length > 0;
}

function replyOf(response: JsonObject, output: readonly Json[]): ReplyOf {
  let text = '';
  const toolCalls: NeutralToolCall[] = [];
  for (const item of output) {
    if (!isObject(item)) continue;
    if (item['type'] === 'message') text += textOfParts(item['content']);
    else if (item['type'] === 'function_call')
      toolCalls.push({
        id: typeof item['call_id'] === 'string' ? item['call_id'] : '',
        name: typeof item['name'] === 'string' ? item['name'] : '',
        arguments: canonicalArguments(item['arguments']),
      });
  }
  const id = response['id'];
  const usage = usageOf(response['usage']);
  return {
    message: { role: 'assistant', text, ...(toolCalls.length === 0 ? {} : { toolCalls }) },
    ...(typeof id === 'string' ? { handle: id } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}

function usageOf(value: Json | undefined): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value['input_tokens'];
  const output = value['output_tokens'];
  return typeof input === 'number' && typeof output === 'number' ? { input, output } : undefined;
}
