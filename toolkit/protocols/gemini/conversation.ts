import { isRecord } from '../../../harness/is-record.js';
import type { Conversation, ConversationMessage, NeutralToolCall } from '../wire-protocol.js';
import { emptyParts, readParts, type ReadParts } from './parts.js';

/**
 * The conversation of a `generateContent` body: `systemInstruction` first, then `contents`, role
 * `model` read as `assistant`. Consecutive model contents are one turn (`@google/genai`'s chat keeps
 * a streamed answer as one content per chunk), so a turn reads the same as the answer it came from.
 * A content that holds only function responses is a `tool` message; each response answers the
 * call of the latest model turn with its name, in order (Gemini calls may carry no ids).
 */
export function conversationOf(body: Readonly<Record<string, unknown>> | undefined): Conversation {
  const messages: ConversationMessage[] = [];
  const system = systemText(body?.['systemInstruction']);
  if (system !== '') messages.push({ role: 'system', text: system });
  const turns: { role: string; parts: ReadParts }[] = [];
  const contents = body?.['contents'];
  for (const content of Array.isArray(contents) ? contents : []) {
    const record = isRecord(content) ? content : {};
    const role =
      record['role'] === 'model' ? 'assistant' : typeof record['role'] === 'string' ? record['role'] : 'user';
    const last = turns[turns.length - 1];
    if (role === 'assistant' && last?.role === 'assistant') readParts(record['parts'], last.parts);
    else turns.push({ role, parts: readParts(record['parts'], emptyParts()) });
  }
  let calls: readonly NeutralToolCall[] = [];
  for (const { role, parts } of turns) {
    if (role === 'assistant') calls = parts.toolCalls;
    messages.push(messageOf(role, parts, calls));
  }
  return { messages };
}

function messageOf(role: string, parts: ReadParts, calls: readonly NeutralToolCall[]): ConversationMessage {
  const seen = new Map<string, number>();
  const answers = parts.responses.map((response) => {
    if (response.id !== undefined) return response.id;
    const nth = seen.get(response.name) ?? 0;
    seen.set(response.name, nth + 1);
    return calls.filter((call) => call.name === response.name)[nth]?.id ?? '';
  });
  const onlyResponses =
    answers.length > 0 && parts.text === '' && parts.toolCalls.length === 0 && parts.other.length === 0;
  return {
    role: onlyResponses ? 'tool' : role,
    text: parts.text + parts.responses.map((response) => response.response).join(''),
    ...(parts.toolCalls.length > 0 ? { toolCalls: parts.toolCalls } : {}),
    ...(answers.length > 0 ? { answers, answerTexts: parts.responses.map((response) => response.response) } : {}),
    ...(parts.other.length > 0 ? { other: parts.other } : {}),
  };
}

/** `systemInstruction` is a content (`parts`), and some clients send a bare string or part list. */
function systemText(instruction: unknown): string {
  if (typeof instruction === 'string') return instruction;
  const parts = isRecord(instruction) ? instruction['parts'] : instruction;
  return readParts(parts, emptyParts()).text;
}
