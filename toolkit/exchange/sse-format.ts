import type { SseEvent } from './recorded-response.js';

export const DONE_FRAME = 'data: [DONE]\n\n';

/** The wire text of one recorded event; a multi-line `data` goes out as one `data:` line per line. */
export function formatSseEvent(event: SseEvent): string {
  if ('comment' in event) return `: ${event.comment}\n\n`;
  const name = event.event === undefined ? '' : `event: ${event.event}\n`;
  return `${name}${event.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
}
