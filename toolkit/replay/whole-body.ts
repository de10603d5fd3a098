import type { SseEvent } from '../cassette/types.js';
import { DONE_FRAME, formatSseEvent } from '../exchange/sse-format.js';

/** Replayed answers whose every byte was due at once, with their text. */
const wholeBodies = new WeakMap<Response, string>();

/**
 * Marks a replayed stream whose every event is due now (instant timing, a clean end) as available
 * whole: a server writing it on (nestcast serve) sends its text in one write instead of reading the
 * body event by event and joining the events again. As text, not bytes: a served recording is
 * usually replayed once, and encoding it into a buffer of its own cost more than the socket's
 * write of the string (docs/performance.md).
 */
export function withWholeBody(response: Response, events: readonly SseEvent[], done: boolean): Response {
  let text = '';
  for (const event of events) text += formatSseEvent(event);
  wholeBodies.set(response, done ? text + DONE_FRAME : text);
  return response;
}

/** The whole body of a response marked by `withWholeBody`, if nothing has read its stream yet. */
export function wholeBodyOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : wholeBodies.get(response);
}
