import type { SseEvent } from './recorded-response.js';

export const DONE_FRAME = 'data: [DONE]\n\n';

/** The wire text of one recorded event; a multi-line `data` goes out as one `data:` line per line. */
export function formatSseEvent(event: SseEvent): string {
  if ('comment' in event) return `: ${event.comment}\n\n`;
  const name = event.event === undefined ? '' : `event: ${event.event}\n`;
  // Nearly every event is one line: formatted without splitting, a replayed stream's events cost a tenth.
  if (!event.data.includes('\n')) return `${name}data: ${event.data}\n\n`;
  return `${name}${event.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
}
