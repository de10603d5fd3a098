import { DONE_FRAME, formatSseEvent } from '../exchange/sse-format.js';
import type { SseEvent } from '../cassette/types.js';

const encoder = new TextEncoder();
const encoded = new WeakMap<readonly SseEvent[], readonly Uint8Array[]>();

/**
 * The wire bytes of each event, then of `data: [DONE]`: formatted and encoded once per recorded
 * stream, not once per replay, and handed out as they are. Copying them per replay doubled the
 * cost of replay over the bare bytes (docs/performance.md); a client that transferred a chunk's
 * buffer away (it then reads as empty) gets the stream encoded afresh.
 */
export function wireFrames(events: readonly SseEvent[]): readonly Uint8Array[] {
  let frames = encoded.get(events);
  if (!frames || frames.some(transferred)) {
    frames = [...events.map(formatSseEvent), DONE_FRAME].map((text) => encoder.encode(text));
    encoded.set(events, frames);
  }
  return frames;
}

function transferred(frame: Uint8Array): boolean {
  return frame.byteLength === 0;
}
