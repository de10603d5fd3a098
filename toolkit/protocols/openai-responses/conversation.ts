import { canonicalJson, type Json } from '../../canonical/canonical-json.js';
import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import { canonicalArguments } from '../canonical-arguments.js';
import { isObject, textOfParts } from '../json-fields.js';
import type { Conversation, ConversationMessage, NeutralToolCall } from '../wire-protocol.js';

/** Content parts that are text, whoever wrote them. */
const TEXT_PARTS = new Set(['input_text', 'output_text', 'text']);

/**
 * A Responses request as the threader reads it: `instructions` first (role `system`), then the
 * `input` items. The items one answer produced (its assistant messages, `function_call`s and
 * reasoning) are one assistant message, as `responsesReply` reads the answer itself; reasoning
 * adds nothing to it (frameworks keep, drop or encrypt it). Each `function_call_output` answers
 * its `call_id`. `previous_response_id` is the continuation handle.
 */
export function responsesConversation(body: CanonicalRequest): Conversation {
  const messages: ConversationMessage[] = [];
  const instructions = body['instructions'];
  if (typeof instructions === 'string' && instructions !== '') messages.push({ role: 'system', text: instructions });
  const input = body['input'];
  if (typeof input === 'string') messages.push({ role: 'user', text: input });
  else if (Array.isArray(input)) messages.push(...inputMessages(input));
  const previous = body['previous_response_id'];
  return typeof previous === 'string' ? { messages, continues: previous } : { messages };
}

function inputMessages(items: readonly Json[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  let answer: { text: string; toolCalls: NeutralToolCall[] } | undefined;
  const close = (): void => {
    if (answer === undefined) return;
    const { text, toolCalls } = answer;
    messages.push({ role: 'assistant', text, ...(toolCalls.length === 0 ? {} : { toolCalls }) });
    answer = undefined;
  };
  for (const item of items) {
    if (!isObject(item)) {
      close();
      messages.push({ role: '', text: '', other: [canonicalJson(item)] });
      continue;
    }
    const type = item['type'];
    const role = item['role'];
    if (type === 'reasoning') {
      answer ??= { text: '', toolCalls: [] };
    } else if (type === 'function_call') {
      answer ??= { text: '', toolCalls: [] };
      answer.toolCalls.push({
        id: stringOf(item['call_id']),
        name: stringOf(item['name']),
        arguments: canonicalArguments(item['arguments']),
      });
    } else if (role === 'assistant' && (type === undefined || type === 'message')) {
      answer ??= { text: '', toolCalls: [] };
      answer.text += textOfParts(item['content']);
    } else {
      close();
      messages.push(otherItem(item));
    }
  }
  close();
  return messages;
}

function otherItem(item: { [key: string]: Json }): ConversationMessage {
  const type = item['type'];
  if (type === 'function_call_output') {
    return { role: 'tool', text: textOfParts(item['output']), answers: [stringOf(item['call_id'])] };
  }
  const role = item['role'];
  if (typeof role === 'string' && (type === undefined || type === 'message')) {
    const content = item['content'];
    const other = Array.isArray(content)
      ? content
          .filter((part) => !(isObject(part) && TEXT_PARTS.has(String(part['type']))))
          .map((part) => canonicalJson(part))
      : [];
    return { role, text: textOfParts(content), ...(other.length === 0 ? {} : { other }) };
  }
  // Hosted tool calls, item references, …: kept whole, so two requests differing there differ.
  return { role: typeof type === 'string' ? type : '', text: '', other: [canonicalJson(item)] };
}

function stringOf(value: Json | undefined): string {
  return typeof value === 'string' ? value : '';
}
