import type { LlmMessage } from '../llm/types.js';
import type { ContentBlock, SessionEvent } from '../session/types.js';

const textOf = (content: readonly ContentBlock[]): string => content.map((block) => block.text).join('');

/**
 * The conversation the model sees, derived from the log alone: a seeded or resumed session sees
 * its inherited history, and nothing the log does not hold can leak into a request.
 */
export function messagesFromLog(events: readonly SessionEvent[]): LlmMessage[] {
  const messages: LlmMessage[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'user/message':
        messages.push({ role: 'user', content: textOf(event.data.content) });
        break;
      case 'assistant/message': {
        let text = '';
        let reasoning = '';
        const toolCalls: { id: string; name: string; arguments: string }[] = [];
        for (const block of event.data.content) {
          if (block.type === 'text') text += block.text;
          else if (block.type === 'reasoning') reasoning += block.text;
          else toolCalls.push({ id: block.id, name: block.name, arguments: block.arguments });
        }
        messages.push({
          role: 'assistant',
          content: text,
          ...(reasoning !== '' ? { reasoning } : {}),
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
        });
        break;
      }
      case 'tool/result':
        messages.push({ role: 'tool', toolCallId: event.data.id, content: event.data.output });
        break;
      default:
        break;
    }
  }
  return messages;
}
