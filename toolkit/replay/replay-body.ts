import type { SseEvent } from '../cassette/types.js';
import type { UnderlyingSource } from 'node:stream/web';
import { pause, scaledDelay, untilAborted, type ReplayTiming } from './replay-timing.js';
import { transferred, wireFrames } from './wire-frames.js';

/** How a replayed body ends after its events: cleanly, with an error, or held open until the caller aborts. */
export type BodyEnding =
  { readonly kind: 'close' } | { readonly kind: 'error'; readonly error: unknown } | { readonly kind: 'hold' };

export interface BodyPlan {
  readonly events: readonly SseEvent[];
  readonly done: boolean;
  readonly ending: BodyEnding;
}

/**
 * One chunk per recorded event (`data: …\n\n`), then `data: [DONE]\n\n` if the recording had it.
 * Each event is due at its recorded offset from the start, so a slow reader does not stretch the
 * timeline; nothing is queued ahead of the reader, so an ending error never swallows events the
 * reader has not read yet. An aborted request signal errors the body, as a real connection would:
 * a read waiting for a due frame fails at once, any later read with the abort reason. A frame that is already due is handed over synchronously: with `instant` timing a replay costs
 * no timer and no extra promise per event.
 */
export function replayBody(
  plan: BodyPlan,
  timing: ReplayTiming,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(new ReplaySource(plan, timing, signal), { highWaterMark: 0 });
}

/**
 * The body's source. A class, not a closure per callback: every replayed call builds one, and
 * its methods live once on the prototype instead of being allocated afresh for each call (under
 * tsx each closure was also renamed with `Object.defineProperty`, which cost more than the rest of
 * the body's setup).
 */
class ReplaySource implements UnderlyingSource<Uint8Array> {
  readonly #plan: BodyPlan;
  readonly #timing: ReplayTiming;
  /** `undefined` when the caller gave none: nothing can abort the body. */
  readonly #signal: AbortSignal | undefined;
  /**
   * Views into one buffer shared by every replay of the recording (`wire-frames.ts`), encoded at
   * the first read: nestcast serve writes an instant answer whole, as text, and never reads it.
   */
  #encoded: readonly Uint8Array[] | undefined;
  /** Frames to send: every event's, then `data: [DONE]` only when the recording had it. */
  readonly #count: number;
  readonly #startedAt: number;
  #dueAt = 0;
  #next = 0;
  #open = true;
  #listener: (() => void) | undefined;

  constructor(plan: BodyPlan, timing: ReplayTiming, signal: AbortSignal | undefined) {
    this.#plan = plan;
    this.#timing = timing;
    this.#signal = signal;
    this.#count = plan.done ? plan.events.length + 1 : plan.events.length;
    this.#startedAt = timing === 'instant' ? 0 : Date.now();
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    // Only a read that can wait (a recorded delay, a held ending) needs an abort listener to end it;
    // with instant timing every read is answered within its pull, which checks the signal first. A
    // listener per replayed body cost about a third of what replay adds to a call (docs/performance.md).
    if (!this.#signal || (this.#timing === 'instant' && this.#plan.ending.kind !== 'hold')) return;
    this.#listener = () => this.#abort(controller);
    this.#signal.addEventListener('abort', this.#listener, { once: true });
  }

  pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> | void {
    if (this.#signal?.aborted) return this.#abort(controller);
    const index = this.#next++;
    const frame = this.#frameAt(index);
    if (frame) {
      if (this.#timing !== 'instant') {
        this.#dueAt += scaledDelay(this.#plan.events[index]?.delay ?? 0, this.#timing);
        const wait = this.#dueAt - (Date.now() - this.#startedAt);
        // Read again once due: the client may have transferred a chunk's buffer meanwhile.
        if (wait > 0)
          return pause(wait, this.#signal).then(() => this.#deliver(controller, this.#frameAt(index) ?? frame));
      }
      return this.#deliver(controller, frame);
    }
    const ending = this.#plan.ending;
    if (ending.kind === 'hold') return untilAborted(this.#signal);
    if (!this.#open) return;
    this.#finish();
    if (ending.kind === 'error') controller.error(ending.error);
    else controller.close();
  }

  cancel(): void {
    this.#finish();
  }

  #deliver(controller: ReadableStreamDefaultController<Uint8Array>, frame: Uint8Array): void {
    if (!this.#open) return;
    controller.enqueue(frame);
    // A clean end closes with the last frame, as a finished HTTP body does: a client that aborts
    // its request once it has read [DONE] then finds nothing left to error.
    if (this.#next === this.#count && this.#plan.ending.kind === 'close') {
      this.#finish();
      controller.close();
    }
  }

  /** Frame `index`, encoded afresh when a client transferred an earlier chunk's buffer away (it emptied every frame sharing it). */
  #frameAt(index: number): Uint8Array | undefined {
    if (index >= this.#count) return undefined;
    if (this.#encoded === undefined || transferred(this.#encoded[index] as Uint8Array))
      this.#encoded = wireFrames(this.#plan.events);
    return this.#encoded[index];
  }

  #abort(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (this.#open) controller.error(this.#signal?.reason);
    this.#open = false;
  }

  #finish(): void {
    this.#open = false;
    if (this.#listener) this.#signal?.removeEventListener('abort', this.#listener);
  }
}
