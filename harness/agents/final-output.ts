import type { SessionEvent } from '../session/types.js';

/**
 * The answer a run reports: the text of the last assistant message that has any text, looking
 * only at events from `fromSeq` on (a fork child never reports its parent's words).
 */
export function finalAssistantText(events: readonly SessionEvent[], fromSeq = 0): string {
  for (let i = events.length - 1; i >= fromSeq; i--) {
    const event = events[i];
    if (event?.type !== 'assistant/message') continue;
    const text = event.data.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    if (text !== '') return text;
  }
  return '';
}
