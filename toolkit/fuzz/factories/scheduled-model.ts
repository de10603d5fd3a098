import type fc from 'fast-check';
import { LlmError } from '../../../harness/llm/errors.js';
import { DEFAULT_LINEAGE } from '../../../harness/session/lineage.js';
import type { LlmAdapter, LlmEvent } from '../../../harness/llm/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import type { FixtureContext } from '../types.js';

export const SCHEDULED_MODEL = 'fuzz-model';

/**
 * An in-process model whose every streamed event is released by the scheduler, so the child's
 * progress (and with it the moment its result settles) is one more thing the suite interleaves.
 * Each child's lineage says what it does: answer, fail with a server error, or stream until aborted.
 */
export function scheduledModel(
  s: fc.Scheduler,
  outcomeOf: (lineage: string) => ChildOutcome,
  report: Pick<FixtureContext, 'streamed' | 'steered'> = { streamed: () => undefined, steered: () => undefined },
): LlmAdapter {
  return {
    name: SCHEDULED_MODEL,
    async *stream(request, options): AsyncIterable<LlmEvent> {
      const lineage = options.lineage ?? DEFAULT_LINEAGE;
      const signal = options.signal;
      // What this call carries: the suite checks an accepted steering message reaches some call.
      for (const message of request.messages) if (message.role === 'user') report.steered(lineage, message.content);
      const next = async (what: string): Promise<void> => {
        await untilAborted(s.schedule(Promise.resolve(), `model ${lineage}: ${what}`), signal);
      };
      await next('first byte');
      switch (outcomeOf(lineage)) {
        case 'complete':
          yield { type: 'text-delta', text: 'done' };
          // Resumed only once the run has consumed the chunk: a cancel from now on must keep it.
          report.streamed(lineage, 'done');
          await next('finish');
          yield { type: 'finish', reason: 'stop' };
          return;
        case 'child-error':
          throw new LlmError('SERVER', `scripted server error for ${lineage}`, { status: 500 });
        default:
          yield { type: 'text-delta', text: 'partial' };
          report.streamed(lineage, 'partial');
          await untilAborted(new Promise<never>(() => undefined), signal);
      }
    },
  };
}

/** `promise`, or an ABORTED model error as soon as `signal` aborts, as a real network call would. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  const aborted = (): LlmError => new LlmError('ABORTED', 'the model call was aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
