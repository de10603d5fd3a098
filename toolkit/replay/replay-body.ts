import type { SseEvent } from '../cassette/types.js';
import { pause, scaledDelay, untilAborted, type ReplayTiming } from './replay-timing.js';
import { wireFrames } from './wire-frames.js';

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
export function replayBody(plan: BodyPlan, timing: ReplayTiming, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoded = wireFrames(plan.events);
  // The last encoded frame is `data: [DONE]`, sent only when the recording had it.
  const count = plan.done ? encoded.length : encoded.length - 1;
  const startedAt = timing === 'instant' ? 0 : Date.now();
  // Only a read that can wait (a recorded delay, a held ending) needs an abort listener to end it;
  // with instant timing every read is answered within its pull, which checks the signal first. A
  // listener per replayed body cost about a third of what replay adds to a call (docs/performance.md).
  const mayWait = timing !== 'instant' || plan.ending.kind === 'hold';
  let dueAt = 0;
  let next = 0;
  let open = true;
  const onAbort = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (open) controller.error(signal.reason);
    open = false;
  };
  let listener: (() => void) | undefined;
  const finish = (): void => {
    open = false;
    if (listener) signal.removeEventListener('abort', listener);
  };
  const deliver = (controller: ReadableStreamDefaultController<Uint8Array>, frame: Uint8Array): void => {
    if (!open) return;
    controller.enqueue(frame);
    // A clean end closes with the last frame, as a finished HTTP body does: a client that aborts
    // its request once it has read [DONE] then finds nothing left to error.
    if (next === count && plan.ending.kind === 'close') {
      finish();
      controller.close();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (!mayWait) return;
        listener = () => onAbort(controller);
        signal.addEventListener('abort', listener, { once: true });
      },
      pull(controller) {
        if (signal.aborted) return onAbort(controller);
        const index = next++;
        const frame = index < count ? encoded[index] : undefined;
        if (frame) {
          if (timing !== 'instant') {
            dueAt += scaledDelay(plan.events[index]?.delay ?? 0, timing);
            const wait = dueAt - (Date.now() - startedAt);
            if (wait > 0) return pause(wait, signal).then(() => deliver(controller, frame));
          }
          return deliver(controller, frame);
        }
        if (plan.ending.kind === 'hold') return untilAborted(signal);
        if (!open) return;
        finish();
        if (plan.ending.kind === 'error') controller.error(plan.ending.error);
        else controller.close();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}
