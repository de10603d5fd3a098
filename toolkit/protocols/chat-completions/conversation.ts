import { canonicalJson, type Json } from '../../canonical/canonical-json.js';
import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import { canonicalArguments } from '../canonical-arguments.js';
import { isObject, textOfParts } from '../json-fields.js';
import type { Conversation, ConversationMessage, NeutralToolCall } from '../wire-protocol.js';

/** The `messages` of a chat-completions request, protocol-neutral. */
export function chatConversation(body: CanonicalRequest): Conversation {
  const messages = body['messages'];
  return { messages: Array.isArray(messages) ? messages.map(chatMessage) : [] };
}

function chatMessage(message: Json): ConversationMessage {
  if (!isObject(message)) return { role: '', text: '', other: [canonicalJson(message)] };
  const content = message['content'];
  const calls = message['tool_calls'];
  const answered = message['tool_call_id'];
  const other = Array.isArray(content)
    ? content.filter((part) => !(isObject(part) && part['type'] === 'text')).map((part) => canonicalJson(part))
    : [];
  return {
    role: typeof message['role'] === 'string' ? message['role'] : '',
    text: textOfParts(content),
    ...(Array.isArray(calls) && calls.length > 0 ? { toolCalls: calls.map(toolCall) } : {}),
    ...(typeof answered === 'string' ? { answers: [answered] } : {}),
    ...(other.length > 0 ? { other } : {}),
  };
}

function toolCall(call: Json): NeutralToolCall {
  if (!isObject(call)) return { id: '', name: '', arguments: canonicalJson(call) };
  const fn = isObject(call['function']) ? call['function'] : {};
  return {
    id: String(call['id'] ?? ''),
    name: String(fn['name'] ?? ''),
    arguments: canonicalArguments(fn['arguments']),
  };
}
