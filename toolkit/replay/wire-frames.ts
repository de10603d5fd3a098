import { Buffer } from 'node:buffer';
import { DONE_FRAME, formatSseEvent } from '../exchange/sse-format.js';
import type { SseEvent } from '../cassette/types.js';

const encoder = new TextEncoder();
const encoded = new WeakMap<readonly SseEvent[], readonly Uint8Array[]>();

/**
 * The wire bytes of each event, then of `data: [DONE]`: formatted and encoded once per recorded
 * stream, not once per replay, and handed out as they are. Copying them per replay doubled the
 * cost of replay over the bare bytes (docs/performance.md). The whole stream is encoded in one
 * go and each frame is a view into that one buffer: a served recording is usually replayed once,
 * and encoding each event into its own buffer cost more than the rest of serving it. A client that
 * transferred a chunk's buffer away (every frame then reads as empty) gets the stream encoded
 * afresh, here and mid-body (`replay-body.ts` asks again when its next frame is empty).
 */
export function wireFrames(events: readonly SseEvent[]): readonly Uint8Array[] {
  let frames = encoded.get(events);
  if (!frames || frames.some(transferred)) {
    frames = encodedTogether([...events.map(formatSseEvent), DONE_FRAME]);
    encoded.set(events, frames);
  }
  return frames;
}

/** True once the frame's buffer was transferred: a frame always holds at least its closing blank line. */
export function transferred(frame: Uint8Array): boolean {
  return frame.byteLength === 0;
}

function encodedTogether(texts: readonly string[]): readonly Uint8Array[] {
  const bytes = encoder.encode(texts.join(''));
  const frames: Uint8Array[] = [];
  let offset = 0;
  for (const text of texts) {
    const length = Buffer.byteLength(text, 'utf8');
    frames.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return frames;
}
