import { isRecord } from '../../../harness/is-record.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import type { Conversation, ConversationMessage, NeutralToolCall } from '../wire-protocol.js';

/**
 * The conversation of a `POST /v1/messages` body: `system` (a string or text blocks) first, then
 * each message with its text blocks joined, `tool_use` blocks as tool calls and `tool_result`
 * blocks as answers by `tool_use_id`. A user message that holds only tool results is a `tool`
 * message. Thinking blocks are left out: clients drop or keep them freely between calls.
 */
export function conversationOf(body: Readonly<Record<string, unknown>> | undefined): Conversation {
  const messages: ConversationMessage[] = [];
  const system = textOfContent(body?.['system']);
  if (system !== '') messages.push({ role: 'system', text: system });
  const list = body?.['messages'];
  if (Array.isArray(list)) for (const message of list) messages.push(messageOf(message));
  return { messages };
}

function messageOf(raw: unknown): ConversationMessage {
  const message = isRecord(raw) ? raw : {};
  const role = typeof message['role'] === 'string' ? message['role'] : '';
  const content = message['content'];
  if (!Array.isArray(content)) return { role, text: typeof content === 'string' ? content : '' };
  let text = '';
  const toolCalls: NeutralToolCall[] = [];
  const answers: string[] = [];
  const answerTexts: string[] = [];
  const other: string[] = [];
  let onlyResults = content.length > 0;
  for (const block of content) {
    const type = isRecord(block) ? block['type'] : undefined;
    if (type !== 'tool_result') onlyResults = false;
    if (!isRecord(block)) other.push(canonicalJson(block));
    else if (type === 'text') text += typeof block['text'] === 'string' ? block['text'] : '';
    else if (type === 'tool_use') toolCalls.push(toolCallOf(block));
    else if (type === 'tool_result') {
      answers.push(String(block['tool_use_id'] ?? ''));
      answerTexts.push(textOfContent(block['content']));
      text += textOfContent(block['content']);
      other.push(...otherBlocks(block['content']));
    } else if (type !== 'thinking' && type !== 'redacted_thinking') other.push(canonicalJson(block));
  }
  return {
    role: onlyResults ? 'tool' : role,
    text,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(answers.length > 0 ? { answers, answerTexts } : {}),
    ...(other.length > 0 ? { other } : {}),
  };
}

function toolCallOf(block: Readonly<Record<string, unknown>>): NeutralToolCall {
  return {
    id: String(block['id'] ?? ''),
    name: String(block['name'] ?? ''),
    arguments: canonicalJson(block['input'] ?? {}),
  };
}

/** A string, or the `text` of its text blocks joined (what `system` and a `tool_result`'s content hold). */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content)
    if (isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string') text += block['text'];
  return text;
}

function otherBlocks(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((block) => !(isRecord(block) && block['type'] === 'text')).map((block) => canonicalJson(block));
}
