import type { RecordedResponse } from '../exchange/recorded-response.js';

/**
 * Whether a recorded answer's text holds `needle` (a quoted field or type name), without parsing
 * it; a failed call holds nothing. For a protocol's `mayCallTools`: a match split across two
 * events' data is a false "may", which only costs the parse it would have saved. The events' data
 * is searched joined: one search per event cost twice as much (docs/performance.md).
 */
export function answerMentions(response: RecordedResponse, needle: string): boolean {
  if ('error' in response) return false;
  if ('body' in response) return response.body.includes(needle);
  let text = '';
  for (const event of response.events) if ('data' in event) text += event.data;
  return text.includes(needle);
}
