import { DONE_FRAME, formatSseEvent } from '../cassette/sse-format.js';
import type { SseEvent } from '../cassette/types.js';
import { pause, scaledDelay, untilAborted, type ReplayTiming } from './replay-timing.js';

/** How a replayed body ends after its events: cleanly, with an error, or held open until the caller aborts. */
export type BodyEnding = { readonly kind: 'close' } | { readonly kind: 'error'; readonly error: unknown } | { readonly kind: 'hold' };

export interface BodyPlan {
  readonly events: readonly SseEvent[];
  readonly done: boolean;
  readonly ending: BodyEnding;
}

/**
 * One chunk per recorded event (`data: …\n\n`), then `data: [DONE]\n\n` if the recording had it.
 * Each event is due at its recorded offset from the start, so a slow reader does not stretch the
 * timeline; nothing is queued ahead of the reader, so an ending error never swallows events the
 * reader has not read yet. The request signal errors the body at once, as a real connection would.
 */
export function replayBody(plan: BodyPlan, timing: ReplayTiming, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const frames = plan.events.map((event) => ({ delay: event.delay, text: formatSseEvent(event) }));
  if (plan.done) frames.push({ delay: 0, text: DONE_FRAME });
  const startedAt = Date.now();
  let dueAt = 0;
  let next = 0;
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        signal.addEventListener(
          'abort',
          () => {
            if (open) controller.error(signal.reason);
            open = false;
          },
          { once: true },
        );
      },
      async pull(controller) {
        const frame = frames[next++];
        if (frame) {
          dueAt += scaledDelay(frame.delay, timing);
          await pause(dueAt - (Date.now() - startedAt), signal);
          if (open) controller.enqueue(encoder.encode(frame.text));
          return;
        }
        if (plan.ending.kind === 'hold') await untilAborted(signal);
        if (!open) return;
        open = false;
        if (plan.ending.kind === 'error') controller.error(plan.ending.error);
        else controller.close();
      },
      cancel() {
        open = false;
      },
    },
    { highWaterMark: 0 },
  );
}
