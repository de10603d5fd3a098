import type fc from 'fast-check';
import { LlmError } from '../../../harness/llm/errors.js';
import type { LlmAdapter, LlmEvent } from '../../../harness/llm/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';

export const SCHEDULED_MODEL = 'fuzz-model';

/**
 * An in-process model whose every streamed event is released by the scheduler, so the child's
 * progress (and with it the moment its result settles) is one more thing the suite interleaves.
 * Each child's lineage says what it does: answer, fail with a server error, or stream until aborted.
 */
export function scheduledModel(s: fc.Scheduler, outcomeOf: (lineage: string) => ChildOutcome): LlmAdapter {
  return {
    name: SCHEDULED_MODEL,
    async *stream(_request, options): AsyncIterable<LlmEvent> {
      const lineage = options.lineage ?? 'main';
      const signal = options.signal;
      const next = async (what: string): Promise<void> => {
        await untilAborted(s.schedule(Promise.resolve(), `model ${lineage}: ${what}`), signal);
      };
      await next('first byte');
      switch (outcomeOf(lineage)) {
        case 'complete':
          yield { type: 'text-delta', text: 'done' };
          await next('finish');
          yield { type: 'finish', reason: 'stop' };
          return;
        case 'child-error':
          throw new LlmError('SERVER', `scripted server error for ${lineage}`, { status: 500 });
        default:
          yield { type: 'text-delta', text: 'partial' };
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
