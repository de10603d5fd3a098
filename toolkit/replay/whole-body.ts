import type { SseEvent } from '../cassette/types.js';
import { wireFrames } from './wire-frames.js';

/** Replayed answers whose every byte was due at once, with those bytes. */
const wholeBodies = new WeakMap<Response, Uint8Array>();

/**
 * Marks a replayed stream whose every event is due now (instant timing, a clean end) as available
 * whole: a server writing it on (nestcast serve) sends its bytes in one write instead of reading
 * the body event by event and joining the events again. The bytes are a view into the buffer the
 * frames share (`wire-frames.ts`), not a copy.
 */
export function withWholeBody(response: Response, events: readonly SseEvent[], done: boolean): Response {
  const frames = wireFrames(events);
  // The last frame is `data: [DONE]`, sent only when the recording had it.
  const count = done ? frames.length : frames.length - 1;
  const first = frames[0] as Uint8Array;
  const last = frames[count - 1];
  const bytes =
    last === undefined
      ? new Uint8Array(0)
      : new Uint8Array(first.buffer, first.byteOffset, last.byteOffset + last.byteLength - first.byteOffset);
  wholeBodies.set(response, bytes);
  return response;
}

/** The whole body of a response marked by `withWholeBody`, if nothing has read its stream yet. */
export function wholeBodyOf(response: Response): Uint8Array | undefined {
  return response.bodyUsed ? undefined : wholeBodies.get(response);
}
