import { DONE_FRAME, formatSseEvent } from '../cassette/sse-format.js';
import type { SseEvent } from '../cassette/types.js';

/** A recorded stream as bytes: every frame back to back, and where each one ends. */
interface EncodedFrames {
  readonly bytes: Uint8Array;
  readonly ends: readonly number[];
}

const encoder = new TextEncoder();
const encoded = new WeakMap<readonly SseEvent[], EncodedFrames>();

/**
 * The wire bytes of each event (then of `data: [DONE]` when `done`), one array per frame. The
 * text is formatted and encoded once per recorded stream, not once per replay; each replay gets
 * its own copy, so a client that writes into a chunk it was given cannot change the next replay.
 */
export function wireFrames(events: readonly SseEvent[], done: boolean): Uint8Array[] {
  let stream = encoded.get(events);
  if (!stream) {
    const texts = events.map(formatSseEvent);
    texts.push(DONE_FRAME);
    const parts = texts.map((text) => encoder.encode(text));
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    const ends: number[] = [];
    for (const part of parts) {
      const start = ends.at(-1) ?? 0;
      bytes.set(part, start);
      ends.push(start + part.length);
    }
    stream = { bytes, ends };
    encoded.set(events, stream);
  }
  const copy = stream.bytes.slice();
  const count = done ? stream.ends.length : stream.ends.length - 1;
  const frames: Uint8Array[] = new Array(count);
  for (let i = 0; i < count; i++) frames[i] = copy.subarray(i === 0 ? 0 : (stream.ends[i - 1] as number), stream.ends[i]);
  return frames;
}
